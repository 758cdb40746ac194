package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// diagKeys renders diagnostics as "rule severity line:col" for comparison.
func diagKeys(ds []Diagnostic) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %d:%d", d.Rule, d.Severity, d.Line, d.Column))
	}
	return out
}

// TestRules has one case per rule: a file that breaks it and, where the
// rule can pass, a file that does not, each checked under both profiles.
func TestRules(t *testing.T) {
	const ok = "---\nname: helper\ndescription: Helps.\n---\n\nYou help.\n"
	cases := []struct {
		name    string
		text    string
		status  Status
		runtime []string // diagnostics under the runtime profile
		publish []string // under the publish profile; nil means same as runtime
	}{
		{"valid", ok, Loaded, nil, nil},
		{"frontmatter missing", "name: x\n", Rejected, []string{"frontmatter error 1:1"}, nil},
		{"frontmatter not at byte 0", "\n" + ok, Rejected, []string{"frontmatter error 2:1"}, nil},
		{"frontmatter unclosed", "---\nname: x\ndescription: y\n\nbody\n", Rejected, []string{"frontmatter error 1:1"}, nil},
		{"frontmatter empty", "---\n---\n\nYou help.\n", Rejected, []string{"frontmatter error 1:1"}, nil},
		{"frontmatter comments only", "---\n# nothing\n---\n\nYou help.\n", Rejected, []string{"frontmatter error 1:1"}, nil},
		{"empty file", "", Rejected, []string{"frontmatter error 1:1"}, nil},
		{"yaml syntax", "---\nname: x\ndescription: a: b\n---\n\nbody\n", Rejected, []string{"yaml error 3:1"}, nil},
		// yaml.v3 numbers a parser error's line from 0: these point at the right line.
		{"yaml flow list unclosed", "---\nname: x\ndescription: y\ntools: [Read, Grep\n---\n\nbody\n", Rejected, []string{"yaml error 4:1"}, nil},
		{"yaml key out of line", "---\nname: x\nmeta:\n  a: 1\n b: 2\n---\n\nbody\n", Rejected, []string{"yaml error 5:2"}, nil},
		{"yaml list at top", "---\n- a\n- b\n---\n\nbody\n", Rejected, []string{"yaml error 2:1"}, nil},
		{"yaml timeout type", "---\nname: x\ndescription: y\ntimeoutSeconds: soon\n---\n\nbody\n", Rejected, []string{"yaml error 4:17"}, nil},
		{"yaml tools comma string", "---\nname: x\ndescription: y\ntools: Read, Grep\n---\n\nbody\n", Rejected, []string{"yaml error 4:8"}, nil},
		{"yaml tools list ok", "---\nname: x\ndescription: y\ntools: [Read, Grep]\n---\n\nbody\n", Loaded, nil, nil},
		{"yaml name is a list", "---\nname: [a]\ndescription: y\n---\n\nbody\n", Rejected, []string{"yaml error 2:7"}, nil},
		{"yaml bool", "---\nname: x\ndescription: y\nemitStructuredFindings: maybe\n---\n\nbody\n", Rejected, []string{"yaml error 4:25"}, nil},
		{"yaml bool yes", "---\nname: x\ndescription: y\nemitStructuredFindings: yes\n---\n\nbody\n", Loaded, nil, nil},
		{"name missing", "---\ndescription: y\n---\n\nbody\n", Rejected, []string{"name-missing error 1:1"}, nil},
		{"name blank", "---\nname: \"  \"\ndescription: y\n---\n\nbody\n", Rejected, []string{"name-missing error 2:1"}, nil},
		{"description missing", "---\nname: x\n---\n\nbody\n", Rejected, []string{"description-missing error 1:1"}, nil},
		{"body empty", "---\nname: x\ndescription: y\n---\n\n \t\n", Rejected, []string{"body-empty error 5:1"}, nil},
		{"body missing after close", "---\nname: x\ndescription: y\n---", Rejected, []string{"body-empty error 5:1"}, nil},
		{"name format", "---\nname: My_Agent\ndescription: y\n---\n\nbody\n", Loaded, []string{"name-format warning 2:7"}, []string{"name-format error 2:7"}},
		{"name too long", "---\nname: " + strings.Repeat("a", 65) + "\ndescription: y\n---\n\nbody\n", Loaded, []string{"name-format warning 2:7"}, []string{"name-format error 2:7"}},
		{"model role bad", "---\nname: x\ndescription: y\nmodelRole: Primary\n---\n\nbody\n", Rejected, []string{"model-role error 4:12"}, nil},
		{"model role any case", "---\nname: x\ndescription: y\nmodelRole: mAiN\n---\n\nbody\n", Loaded, nil, nil},
		{"model role fallback", "---\nname: x\ndescription: y\nmodelRole: Fallback\n---\n\nbody\n", Loaded, []string{"model-role warning 4:12"}, nil},
		{"visibility bad", "---\nname: x\ndescription: y\nvisibility: private\n---\n\nbody\n", Rejected, []string{"visibility error 4:13"}, nil},
		{"visibility pascal", "---\nname: x\ndescription: y\nvisibility: UserFacing\n---\n\nbody\n", Loaded, nil, nil},
		{"timeout obsolete", "---\nname: x\ndescription: y\ntimeoutSeconds: 120\n---\n\nbody\n", Loaded, []string{"timeout-obsolete warning 4:1"}, []string{}},
		{"timeout range", "---\nname: x\ndescription: y\ntimeoutSeconds: 4\n---\n\nbody\n", Loaded,
			[]string{"timeout-obsolete warning 4:1", "timeout-range warning 4:17"}, []string{"timeout-range error 4:17"}},
		{"prefill range", "---\nname: x\ndescription: y\nprefillTimeoutSeconds: 3601\n---\n\nbody\n", Rejected, []string{"prefill-timeout-range error 4:24"}, nil},
		{"prefill ok", "---\nname: x\ndescription: y\nprefillTimeoutSeconds: 3600\n---\n\nbody\n", Loaded, nil, nil},
		{"duplicate key", "---\nname: x\nname: z\ndescription: y\n---\n\nbody\n", Loaded, []string{"duplicate-key warning 3:1"}, nil},
		{"unknown field", "---\nname: x\ndescription: y\nmodel_role: Main\n---\n\nbody\n", Loaded, []string{"unknown-field warning 4:1"}, nil},
		{"publish keys are known", "---\nname: x\ndescription: y\nversion: 1.0.0\nmetadata:\n  version: 1.0.0\n---\n\nbody\n", Loaded, nil, nil},
		{"description long", "---\nname: x\ndescription: " + strings.Repeat("é", 1025) + "\n---\n\nbody\n", Loaded, []string{"description-long warning 3:14"}, nil},
		{"body large", "---\nname: x\ndescription: y\n---\n\n" + strings.Repeat("word ", 20000) + "\n", Loaded, []string{"body-large warning 6:1"}, nil},
		{"body long in bytes, few tokens", "---\nname: x\ndescription: y\n---\n\n" + strings.Repeat("word ", 15000) + "\n", Loaded, nil, nil},
		{"description 1024 ok", "---\nname: x\ndescription: " + strings.Repeat("é", 1024) + "\n---\n\nbody\n", Loaded, nil, nil},
		{"encoding", "---\nname: x\ndescription: caf\xe9\n---\n\nbody\n", Loaded, []string{"encoding error 3:17"}, nil},
		{"encoding utf16", "\xff\xfe-\x00-\x00-\x00\n\x00n\x00a\x00m\x00e\x00:\x00 \x00x\x00\n\x00d\x00e\x00s\x00c\x00r\x00i\x00p\x00t\x00i\x00o\x00n\x00:\x00 \x00y\x00\n\x00-\x00-\x00-\x00\n\x00b\x00\n\x00",
			Loaded, []string{"encoding warning 1:1"}, []string{"encoding error 1:1"}},
		{"version bad", "---\nname: x\ndescription: y\nversion: 1.0 beta\n---\n\nbody\n", Loaded, []string{}, []string{"version error 4:10"}},
		{"metadata version bad", "---\nname: x\ndescription: y\nmetadata:\n  version: \"\"\n---\n\nbody\n", Loaded, []string{}, []string{"version error 5:12"}},
		{"versions disagree", "---\nname: x\ndescription: y\nversion: 1.0.0\nmetadata:\n  version: 2.0.0\n---\n\nbody\n", Loaded, []string{}, []string{"version error 6:12"}},
		{"bom dropped", "\xef\xbb\xbf" + ok, Loaded, nil, nil},
		{"crlf", strings.ReplaceAll(ok, "\n", "\r\n"), Loaded, nil, nil},
		{"text after dashes ignored", "--- # agent\nname: x\ndescription: y\n--- end\n\nbody\n", Loaded, nil, nil},
		{"closing dashes inside a line", "---\nname: x\ndescription: y\n----\nbody\n", Loaded, nil, nil},
		{"several errors, first reason", "---\nmodelRole: Primary\n---\n\n\n", Rejected,
			[]string{"name-missing error 1:1", "description-missing error 1:1", "body-empty error 4:1", "model-role error 2:12"}, nil},
	}
	for _, tc := range cases {
		for _, p := range []Profile{Runtime, Publish} {
			want := tc.runtime
			if p == Publish && tc.publish != nil {
				want = tc.publish
			}
			t.Run(tc.name+"/"+p.String(), func(t *testing.T) {
				f := Parse("agent.md", []byte(tc.text), p)
				if f.Status != tc.status {
					t.Errorf("status = %s (%s), want %s", f.Status, f.Reason, tc.status)
				}
				got := diagKeys(f.Diagnostics)
				slices.Sort(got)
				w := slices.Clone(want)
				slices.Sort(w)
				if !slices.Equal(got, w) && !(len(got) == 0 && len(w) == 0) {
					t.Errorf("diagnostics:\n got %q\nwant %q\n%v", got, w, f.Diagnostics)
				}
				for _, d := range f.Diagnostics {
					if _, ok := RuleByID(d.Rule); !ok {
						t.Errorf("unknown rule id %q", d.Rule)
					}
					if d.Message == "" || d.Path != "agent.md" {
						t.Errorf("diagnostic without message or path: %+v", d)
					}
				}
				if f.Status == Rejected && !strings.HasSuffix(f.Reason, "skipping") {
					t.Errorf("reason %q is not the runtime's log line", f.Reason)
				}
			})
		}
	}
}

func TestParseFields(t *testing.T) {
	text := "---\r\nname:  summarizer \r\ndescription: \" Sums up. \"\r\ntools:\r\n  - file_read\r\n  - web_fetch\r\nmodelRole: main\r\nvisibility: Internal\r\nprefillTimeoutSeconds: 0x3C\r\nemitStructuredFindings: On\r\nmetadata:\r\n  version: 1.2.3\r\n---\r\n\r\n\r\n  You sum up.\r\n\r\n"
	f := Parse("s.md", []byte(text), Runtime)
	if f.Status != Loaded {
		t.Fatalf("rejected: %s %v", f.Reason, f.Diagnostics)
	}
	d := f.Def
	checks := []struct {
		name      string
		got, want any
	}{
		{"name", d.Name, "summarizer"},
		{"description", d.Description, "Sums up."},
		{"tools", strings.Join(d.Tools, ","), "file_read,web_fetch"},
		{"modelRole", d.ModelRole, "Main"},
		{"visibility", d.Visibility, "internal"},
		{"userFacing", d.UserFacing(), false},
		{"prefill", d.PrefillTimeoutSeconds, 60},
		{"timeout default", d.TimeoutSeconds, DefaultTimeoutSeconds},
		{"emit", d.EmitStructuredFindings, true},
		{"version", d.Version, "1.2.3"},
		{"body keeps trailing whitespace", d.Body, "You sum up.\r\n\r\n"},
		{"body line", d.BodyLine, 16},
		{"name value pos", mustField(t, d, "name").ValuePos, Pos{2, 8}},
		{"tools key pos", mustField(t, d, "tools").KeyPos, Pos{4, 1}},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func mustField(t *testing.T, d *Definition, key string) Field {
	t.Helper()
	f, ok := d.Field(key)
	if !ok {
		t.Fatalf("no field %q", key)
	}
	return f
}

func TestParseDefaults(t *testing.T) {
	f := Parse("d.md", []byte("---\nname: d\ndescription: d\n---\nbody"), Runtime)
	d := f.Def
	if d.ModelRole != "Compaction" || d.Visibility != "user-facing" || d.TimeoutSeconds != 60 || d.PrefillTimeoutSeconds != 0 || len(d.Tools) != 0 || d.EmitStructuredFindings {
		t.Errorf("defaults wrong: %+v", d)
	}
	if d.Set("modelRole") || !d.Set("name") {
		t.Error("Set reports keys the file did not write")
	}
}

func TestInvalidUTF8Replaced(t *testing.T) {
	f := Parse("x.md", []byte("---\nname: x\ndescription: y\n---\n\ncaf\xe9 au lait\n"), Runtime)
	if f.Def.Body != "caf\uFFFD au lait\n" {
		t.Errorf("body = %q, want U+FFFD where the bad byte was", f.Def.Body)
	}
	if f.Status != Loaded {
		t.Error("invalid UTF-8 must still load, as the runtime does")
	}
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nname: bomb\ndescription: y\na: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n")
	prev := "a"
	for i := range 20 {
		cur := fmt.Sprintf("l%d", i)
		fmt.Fprintf(&b, "%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", cur, cur, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = cur
	}
	fmt.Fprintf(&b, "tools: *%s\n---\n\nbody\n", prev)
	f := Parse("bomb.md", []byte(b.String()), Runtime)
	if f.Status != Rejected {
		t.Fatalf("an alias bomb bound to tools must be rejected, got %s", f.Status)
	}
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{
		"Release_Notes": "release-notes", "codeAnalyst": "code-analyst", "--a--b--": "a-b", "TWIN": "twin",
		"résumé-writer": "resume-writer", "Straße": "strasse", "ÉcoleAgent": "ecole-agent", "Łódź": "lodz",
		"smørrebrød": "smorrebrod", "日本": "", "naïve 日本 bot": "naive-bot",
	} {
		if got := Kebab(in); got != want {
			t.Errorf("Kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLine(t *testing.T) {
	f := &File{Text: "a\r\nb\nc"}
	for n, want := range map[int]string{0: "", 1: "a", 2: "b", 3: "c", 4: ""} {
		if got := f.Line(n); got != want {
			t.Errorf("Line(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestHostileFiles checks inputs that must give a clear diagnostic, never a
// crash or a hang.
func TestHostileFiles(t *testing.T) {
	bigBody := "---\nname: big\ndescription: d\n---\n\n" + strings.Repeat("a line of the body\n", 100000)
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	cases := []struct {
		name   string
		data   []byte
		status Status
		rules  []string
	}{
		{"100,000-line body", []byte(bigBody), Loaded, []string{RuleBodyLarge}},
		{"binary", binary, Rejected, []string{RuleEncoding, RuleFrontmatter}},
		{"binary after frontmatter", append([]byte("---\nname: b\ndescription: d\n---\n\n"), binary...), Loaded, []string{RuleEncoding}},
		{"NUL in frontmatter", []byte("---\nname: a\x00b\ndescription: d\n---\n\nbody\n"), Rejected, []string{RuleYAML}},
		{"only dashes", []byte("---"), Rejected, []string{RuleFrontmatter}},
		{"ANSI in name", []byte("---\nname: \"a\\e[2Jb\"\ndescription: d\n---\n\nbody\n"), Loaded, []string{RuleNameFormat}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("h.md", tc.data, Runtime)
			if f.Status != tc.status {
				t.Errorf("status %s, want %s (%v)", f.Status, tc.status, f.Diagnostics)
			}
			var rules []string
			for _, d := range f.Diagnostics {
				rules = append(rules, d.Rule)
			}
			slices.Sort(rules)
			want := slices.Clone(tc.rules)
			slices.Sort(want)
			if !slices.Equal(rules, want) {
				t.Errorf("rules %v, want %v", rules, want)
			}
		})
	}
}

// TestNameFormatCountsCharacters: the name-format message counts
// characters, not bytes, so a short name of accented letters is reported
// for its letters, and a long one with its length in characters.
func TestNameFormatCountsCharacters(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{strings.Repeat("é", 40), "is not lowercase kebab-case"},
		{strings.Repeat("é", 70), "name is 70 characters long (at most 64)"},
		{strings.Repeat("a", 65), "name is 65 characters long (at most 64)"},
	} {
		f := Parse("n.md", []byte("---\nname: "+tc.name+"\ndescription: d\n---\n\nbody\n"), Runtime)
		if len(f.Diagnostics) != 1 || f.Diagnostics[0].Rule != RuleNameFormat {
			t.Fatalf("%d-byte name: diagnostics %v", len(tc.name), f.Diagnostics)
		}
		if msg := f.Diagnostics[0].Message; !strings.Contains(msg, tc.want) {
			t.Errorf("%d-byte name: message %q lacks %q", len(tc.name), msg, tc.want)
		}
	}
}

// TestDecodeLikeTheRuntime: the text the runtime reads has one U+FFFD per
// invalid byte (.NET's UTF-8 decoder), not one per run of them, and a
// UTF-16 file's odd last byte becomes U+FFFD too.
func TestDecodeLikeTheRuntime(t *testing.T) {
	const head = "---\nname: x\ndescription: y\n---\n\n"
	f := Parse("x.md", []byte(head+"a\xe9\xe8b\n"), Runtime)
	if f.Def == nil || f.Def.Body != "a\uFFFD\uFFFDb\n" {
		t.Errorf("Latin-1 'éè' decoded as %q, want two U+FFFD", f.Def.Body)
	}
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range head + "b\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	f = Parse("x.md", append(utf16, 'z'), Runtime)
	if f.Def == nil || f.Def.Body != "b\n\uFFFD" {
		t.Errorf("UTF-16 body with an odd last byte = %q, want it to end in U+FFFD", f.Def.Body)
	}
}

// TestEncodingAfterBOM: a byte-order mark does not hide invalid UTF-8 after it.
func TestEncodingAfterBOM(t *testing.T) {
	f := Parse("x.md", []byte("\xef\xbb\xbf---\nname: x\ndescription: caf\xe9\n---\n\nbody\n"), Runtime)
	if got := diagKeys(f.Diagnostics); !slices.Equal(got, []string{"encoding error 3:17"}) {
		t.Errorf("diagnostics %q, want the encoding error at 3:17", got)
	}
}

func TestDeclaredNameOfAnUnboundFile(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"tools as a string", "---\nname: broken\ndescription: d\ntools: Read, Grep\n---\n\nBody.\n", "broken"},
		{"yaml syntax error", "---\nname: yaml-broken\ndescription: A colon: inside: the value\n---\n\nBody.\n", "yaml-broken"},
		{"quoted, with a comment", "---\nname: \"quoted\" # the name\ntools: x, y\n---\nBody\n", "quoted"},
		{"plain with a comment", "---\nname: plain # the name\ntools: x, y\n---\nBody\n", "plain"},
		{"the last line wins", "---\nname: first\nname: second\ntools: x, y\n---\nBody\n", "second"},
		{"never closed", "---\nname: open-ended\ndescription: d\n", "open-ended"},
		{"nested name is not the name", "---\nmetadata:\n  name: inner\ntools: x, y\n---\nBody\n", ""},
		{"a flow value is not a name", "---\nname: [a, b]\n---\nBody\n", ""},
		{"no name line", "---\ndescription: d\ntools: x, y\n---\nBody\n", ""},
		{"CRLF", "---\r\nname: crlf-broken\r\ntools: a, b\r\n---\r\nBody\r\n", "crlf-broken"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("agents/x.md", []byte(tc.text), Runtime)
			if f.Status != Rejected || f.Def != nil {
				t.Fatalf("status %v, def %v: want an unbound rejected file", f.Status, f.Def)
			}
			if f.Name() != tc.want || f.DeclaredName != tc.want {
				t.Errorf("Name() = %q, DeclaredName = %q, want %q", f.Name(), f.DeclaredName, tc.want)
			}
		})
	}
	// A bound file's name comes from its definition, never from the raw line.
	f := Parse("agents/x.md", []byte("---\nname: good\ndescription: d\n---\nBody\n"), Runtime)
	if f.Name() != "good" || f.DeclaredName != "" {
		t.Errorf("bound file: Name() = %q, DeclaredName = %q", f.Name(), f.DeclaredName)
	}
}

func TestRejectedAgentByDeclaredName(t *testing.T) {
	broken := Parse("agents/broken.md", []byte("---\nname: broken\ndescription: d\ntools: Read, Grep\n---\nBody\n"), Runtime)
	c := &Catalog{Files: []*File{broken}}
	if got := c.RejectedAgent("Broken"); got != broken {
		t.Errorf("RejectedAgent(Broken) = %v, want the unbound file", got)
	}
	if got := c.RejectedAgent(""); got != nil {
		t.Errorf("RejectedAgent(\"\") = %v, want nil", got.Path)
	}
}

// TestNameFormatHintTransliterates: the did-you-mean for a name with
// accents spells its letters plainly instead of turning them into hyphens.
func TestNameFormatHintTransliterates(t *testing.T) {
	f := Parse("n.md", []byte("---\nname: résumé-writer\ndescription: d\n---\n\nbody\n"), Runtime)
	if len(f.Diagnostics) != 1 || !strings.Contains(f.Diagnostics[0].Hint, "'resume-writer'") {
		t.Fatalf("diagnostics %v, want a name-format hint naming 'resume-writer'", f.Diagnostics)
	}
}
