package adapt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseTOML(t *testing.T) {
	tests := []struct {
		name, text string
		key        string // top-level key to look at
		kind       tomlKind
		want       string
	}{
		{"basic", `a = "x\ty\n\"q\" \\ \u00e9 \U0001F600"`, "a", tomlString, "x\ty\n\"q\" \\ é 😀"},
		{"literal", `a = 'C:\path\no escapes'`, "a", tomlString, `C:\path\no escapes`},
		{"multiline basic trims first newline", "a = \"\"\"\nline 1\nline 2\"\"\"", "a", tomlString, "line 1\nline 2"},
		{"multiline basic line-ending backslash", "a = \"\"\"\nThe quick \\\n\n   brown fox\"\"\"", "a", tomlString, "The quick brown fox"},
		{"multiline basic quotes before the end", "a = \"\"\"say \"hi\"\"\"\"", "a", tomlString, `say "hi"`},
		{"multiline basic two quotes before the end", "a = \"\"\"x\"\"\"\"\"", "a", tomlString, `x""`},
		{"multiline basic keeps CRLF", "a = \"\"\"\r\none\r\ntwo\"\"\"", "a", tomlString, "one\r\ntwo"},
		{"multiline literal", "a = '''\nno \\escapes\n'''", "a", tomlString, "no \\escapes\n"},
		{"multiline literal quotes before the end", "a = '''it's'''''", "a", tomlString, "it's''"},
		{"integer", "a = 1_000", "a", tomlInteger, "1_000"},
		{"hex", "a = 0xDEAD_beef", "a", tomlInteger, "0xDEAD_beef"},
		{"negative", "a = -17", "a", tomlInteger, "-17"},
		{"float", "a = 6.626e-34", "a", tomlFloat, "6.626e-34"},
		{"inf", "a = -inf", "a", tomlFloat, "-inf"},
		{"bool", "a = true # comment", "a", tomlBool, "true"},
		{"quoted key", `"a" = 1`, "a", tomlInteger, "1"},
		{"spaces around", "  a   =   'x'   ", "a", tomlString, "x"},
		{"array", "a = [\n  \"x\", # first\n  'y',\n]", "a", tomlArray, ""},
		{"inline table", `a = { b = 1, c = "d" }`, "a", tomlInlineTable, ""},
		{"bom", "\ufeffa = 1", "a", tomlInteger, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseTOML([]byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range doc.entries {
				if e.key == tt.key && e.table == "" {
					if e.value.kind != tt.kind || (tt.kind <= tomlBool && e.value.str != tt.want) {
						t.Errorf("%s = kind %d %q, want kind %d %q", tt.key, e.value.kind, e.value.str, tt.kind, tt.want)
					}
					return
				}
			}
			t.Errorf("no key %s in %+v", tt.key, doc.entries)
		})
	}
}

func TestParseTOMLTables(t *testing.T) {
	doc, err := parseTOML([]byte("# top\nname = \"x\" # end of line\n\n[mcp_servers.docs] # header\ncommand = \"npx\"\nargs = [\n  \"-y\", # inside\n]\n\n[[hooks]]\nk = 1\n[[hooks]]\nk = 2\n#last"))
	if err != nil {
		t.Fatal(err)
	}
	var top []string
	for _, e := range doc.entries {
		if e.table == "" {
			top = append(top, e.key)
		}
	}
	if strings.Join(top, ",") != "name" {
		t.Errorf("top-level keys %v", top)
	}
	if len(doc.tables) != 3 || doc.tables[0].key != "mcp_servers.docs" || doc.tables[0].line != 4 || doc.tables[2].line != 12 {
		t.Errorf("tables %+v", doc.tables)
	}
	// Every comment survives, in order: own line, end of line, after a
	// header, inside an array, at the end without a line break.
	if got := strings.Join(doc.comments, "|"); got != "top|end of line|header|inside|last" {
		t.Errorf("comments %q", doc.comments)
	}
	for _, e := range doc.entries {
		if e.key == "args" && (e.line != 6 || len(e.value.items) != 1 || e.value.items[0].str != "-y" || e.value.items[0].line != 7) {
			t.Errorf("args %+v", e)
		}
	}
}

func TestParseTOMLErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"bare string", "a = hello", "line 1, column 5: unexpected character U+0068 'h' at start of value (strings need quotes)"},
		{"date", "a = 1979-05-27", "line 1, column 5: dates and times are not supported"},
		{"time", "a = 07:32:00", "line 1, column 5: dates and times are not supported"},
		{"date in an array", "a = [\n  1979-05-27,\n]", "line 2, column 3: dates and times are not supported"},
		{"unclosed", `a = "x`, "line 1, column 6: unterminated basic string"},
		{"unclosed multiline", "a = \"\"\"x\n", "not terminated"},
		{"duplicate", "a = 1\na = 2", "line 2, column 1: a is defined twice"},
		{"duplicate table", "[t]\n[t]", "line 2, column 1: [t] is defined twice"},
		{"value then table", "a = 1\n[a]", "[a] is defined twice"},
		{"no equals", "a 1", "line 1, column 3: expected '=' after key"},
		{"no value", "a =", "expected value, not end of input"},
		{"bad escape", `a = "\q"`, "line 1, column 6: invalid escape character U+0071 'q'"},
		{"surrogate escape", `a = "\uD800"`, "not a valid unicode code point"},
		{"control in string", "a = \"x\x01\"", "line 1, column 7: basic strings cannot have control characters"},
		{"control in comment", "# x\x7f", "line 1, column 4: control characters are not allowed in comments"},
		{"lone CR", "a = 1\rb = 2", "line 1, column 6: expected newline"},
		{"two values", "a = 1 2", "line 1, column 7: expected newline but got U+0032 '2'"},
		{"column counts characters", "a = \"é\" 2", "line 1, column 9: expected newline"},
		{"leading zero", "a = 012", "integers cannot have leading zeroes"},
		{"double underscore", "a = 1__0", "at least one digit between underscores"},
		{"float without digits", "a = 1.", "decimal point must be followed by a digit"},
		{"too many quotes", "a = \"\"\"x\"\"\"\"\"\"", "line 1, column"},
		{"array unclosed", "a = [1, 2", "array is incomplete"},
		{"not utf8", "a = \"\xff\"", "not valid UTF-8"},
		{"deep", "a = " + strings.Repeat("[", 100) + strings.Repeat("]", 100), "line 1, column 1: arrays and tables are nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTOML([]byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestTOMLStringsRoundTrip(t *testing.T) {
	for _, s := range []string{
		"", "plain", "it's", "ends with '", "ends with ''", "has ''' inside", `has """ inside`, "ends with \"",
		"ends with \"\"", "CRLF\r\nlines\r\n", "lone \r CR", "tab\tand\nnewline", "\x1b[31m ESC and \x7f DEL",
		"\nstarts with a newline", `back\slash \u0041 not an escape`, "\u2028 separator", "é😀",
	} {
		for _, form := range []string{tomlBasic(s), tomlMultiline(s)} {
			doc, err := parseTOML([]byte("a = " + form + "\n"))
			if err != nil {
				t.Errorf("%q as %s: %v", s, form, err)
				continue
			}
			if got := doc.entries[0].value.str; got != s {
				t.Errorf("%q written as %s reads back as %q", s, form, got)
			}
		}
	}
}

// FuzzParseTOML feeds the reader arbitrary text: it must never panic, and
// what it reads as a string must be valid UTF-8.
func FuzzParseTOML(f *testing.F) {
	for _, seed := range []string{
		"name = \"x\"\ndescription = 'y'\ndeveloper_instructions = '''\nbody\n'''\n",
		"a = \"\"\"\nq \\\n  r\"\"\"\n[t]\nb = [1, 2.5, true, {c = 'd'}]\n[[u]]\n",
		"a = 0x1F\nb = -inf\nc = 1e-3 # c\n",
		"\"quoted key\".bare = \"\\U0001F600\"\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseTOML(data)
		if err != nil {
			return
		}
		for _, e := range doc.entries {
			if e.value.kind == tomlString && !utf8.ValidString(e.value.str) {
				t.Errorf("%s: invalid UTF-8 %q", e.key, e.value.str)
			}
		}
	})
}

// FuzzTOMLStrings checks that every string, written by either writer,
// reads back as itself.
func FuzzTOMLStrings(f *testing.F) {
	for _, s := range []string{"", "x", "'''", `"""`, "a\r\nb", "\x00\x1f\x7f", "''", "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		for _, form := range []string{tomlBasic(s), tomlMultiline(s)} {
			doc, err := parseTOML([]byte("a = " + form))
			if err != nil {
				t.Fatalf("%q written as %q does not parse: %v", s, form, err)
			}
			if got := doc.entries[0].value.str; got != s {
				t.Fatalf("%q written as %q reads back as %q", s, form, got)
			}
		}
	})
}

func BenchmarkParseTOML(b *testing.B) {
	text := []byte("# netclaw: {\"modelRole\":\"Main\"}\nname = \"reviewer\"\ndescription = \"Reviews pull requests.\"\nmodel = \"gpt-5.1-codex\"\ndeveloper_instructions = '''\n" +
		strings.Repeat("Check that every change has a test and quote the reason for each finding.\n", 200) + "'''\n")
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseTOML(text); err != nil {
			b.Fatal(err)
		}
	}
}
