package adapt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// readBack parses "k: <scalar>" and returns k's value as a string.
func readBack(t testing.TB, scalar string) (string, error) {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte("k: "+scalar+"\n"), &m); err != nil {
		return "", err
	}
	s, ok := m["k"].(string)
	if !ok {
		return "", &yaml.TypeError{Errors: []string{"not a string"}}
	}
	return s, nil
}

func TestYAMLScalar(t *testing.T) {
	tests := []struct {
		in    string
		plain bool
	}{
		{"code-analyst", true},
		{"Reads a codebase and explains it.", true},
		{"Read, Grep", true},
		{"palette:light", true},
		{"", false},
		{"true", false},
		{"No", false},
		{"null", false},
		{"1.0", false},
		{"-dash", false},
		{"a: b", false},
		{"x # y", false},
		{"ends:", false},
		{" leading", false},
		{"trailing ", false},
		{"'quoted'", false},
		{"\"dq\"", false},
		{"line\nbreak", false},
		{"tab\there", false},
		{"esc \x1b[31m", false},
		{"bom \ufeff", false},
		{"sep \u2028", false},
		{"c1 \u0085", false},
		{"*alias", false},
		{"&anchor", false},
		{"!tag", false},
		{"{flow}", false},
		{"émoji 😀", true},
	}
	for _, tt := range tests {
		got := yamlScalar(tt.in)
		if plain := got == tt.in; plain != tt.plain {
			t.Errorf("yamlScalar(%q) = %s: plain %v, want %v", tt.in, got, plain, tt.plain)
		}
		back, err := readBack(t, got)
		if err != nil || back != tt.in {
			t.Errorf("yamlScalar(%q) = %s reads back as %q (%v)", tt.in, got, back, err)
		}
		if strings.ContainsAny(got, "\n\r") {
			t.Errorf("yamlScalar(%q) = %q spans lines", tt.in, got)
		}
	}
	if got := yamlFlowItem("a,b"); got != `"a,b"` {
		t.Errorf("a flow item with a comma: %s", got)
	}
}

// FuzzYAMLScalar checks that every string comes back from a YAML parser as
// itself, on one line.
func FuzzYAMLScalar(f *testing.F) {
	for _, s := range []string{"", "x", "a: b", "yes", "1e3", "\x00", "\u2028", "- x", "#", "'", "\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		for _, got := range []string{yamlScalar(s), "[" + yamlFlowItem(s) + "]"} {
			if strings.ContainsAny(got, "\n\r") {
				t.Fatalf("%q spans lines: %q", s, got)
			}
			var m map[string]any
			if err := yaml.Unmarshal([]byte("k: "+got+"\n"), &m); err != nil {
				t.Fatalf("%q written as %s does not parse: %v", s, got, err)
			}
			v := m["k"]
			if list, ok := v.([]any); ok && len(list) == 1 {
				v = list[0]
			}
			if str, ok := v.(string); !ok || str != s {
				t.Fatalf("%q written as %s reads back as %#v", s, got, v)
			}
		}
	})
}

func TestParseFrontmatter(t *testing.T) {
	tests := []struct {
		name, text string
		err        string
		body       string
		keys       string
	}{
		{name: "plain", text: "---\nname: a\ndescription: b\n---\n\nBody.\n", body: "Body.\n", keys: "name,description"},
		{name: "crlf and bom", text: "\ufeff---\r\nname: a\r\n---\r\nBody.\r\n", body: "Body.\r\n", keys: "name"},
		{name: "closing with spaces", text: "---\nname: a\n---   \nBody.", body: "Body.", keys: "name"},
		{name: "dashes in the body", text: "---\nname: a\n---\nx\n---\ny\n", body: "x\n---\ny\n", keys: "name"},
		{name: "empty frontmatter", text: "---\n---\nBody.", body: "Body.", keys: ""},
		{name: "no frontmatter", text: "# Title\n", err: "the first line must be '---'"},
		{name: "unclosed", text: "---\nname: a\n", err: "never closed"},
		{name: "bad yaml", text: "---\nname: [a\n---\n", err: "not valid YAML"},
		{name: "list", text: "---\n- a\n---\n", err: "not a mapping"},
		{name: "bad yaml names its line", text: "---\nname: a\ntools: [Read, Grep\n---\n", err: "line 3: did not find expected ',' or ']'"},
		{name: "duplicate", text: "---\nname: a\nname: b\n---\n", err: "line 3: 'name' is set twice (first on line 2)"},
		{name: "not utf8", text: "---\nname: \xff\n---\n", err: "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseFrontmatter([]byte(tt.text))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, f := range doc.fields {
				keys = append(keys, f.key)
			}
			if doc.body != tt.body || strings.Join(keys, ",") != tt.keys {
				t.Errorf("body %q keys %v, want %q %s", doc.body, keys, tt.body, tt.keys)
			}
		})
	}
}

func TestCarriedComment(t *testing.T) {
	c := carried{Name: "Odd Name", Description: "line\nbreak \x1b \u2028 \x7f", Tools: []string{"a"}, ModelRole: "Fallback",
		Visibility: "internal", EmitStructuredFindings: true, PrefillTimeoutSeconds: 30, Version: "1.0", Metadata: map[string]string{"k": "v"}}
	line := c.comment()
	if strings.ContainsAny(line, "\n\r\x1b\x7f\u2028") || !strings.HasPrefix(line, "# netclaw: {") {
		t.Fatalf("comment %q", line)
	}
	got, ws := findCarried([]string{"other comment", strings.TrimPrefix(line, "# ")})
	if len(ws) > 0 || got == nil {
		t.Fatalf("findCarried: %v %q", got, ws)
	}
	if got.Description != c.Description || got.Name != c.Name || got.PrefillTimeoutSeconds != 30 || got.Metadata["k"] != "v" {
		t.Errorf("read back %+v", got)
	}
	if _, ws := findCarried([]string{"netclaw: {not json"}); len(ws) != 1 {
		t.Errorf("a broken comment must warn: %q", ws)
	}
	if (&carried{}).comment() != "" {
		t.Error("nothing carried, no comment")
	}
}

// FuzzImport feeds every importer arbitrary bytes: none may panic, and a
// successful import is a file the runtime loads under the imported name.
func FuzzImport(f *testing.F) {
	f.Add(uint8(0), []byte("---\nname: a\ndescription: b\ntools: Read, Grep\nmodel: opus\ncolor: red\n---\nBody.\n"))
	f.Add(uint8(1), []byte("---\ndescription: d\nmode: subagent\ntools:\n  read: true\n  bash: false\n---\nBody.\n"))
	f.Add(uint8(2), []byte("---\n# netclaw: {\"modelRole\":\"Main\",\"visibility\":\"internal\"}\nname: g\ndescription: d\nkind: local\ntools: [read_file]\n---\nB\n"))
	f.Add(uint8(3), []byte("name = \"a_b\"\ndescription = \"d\"\ndeveloper_instructions = '''\nx\n'''\n"))
	f.Add(uint8(0), []byte("---\nname: &a x\ndescription: *a\n---\nB"))
	f.Add(uint8(0), []byte("---\nname: db\ndescription: d\ntools: Read, Bash(psql:*), Task, LS\ninitialPrompt: go\nomitClaudeMd: true\nautoCompactWindow: 120000\n---\nB\n"))
	f.Add(uint8(1), []byte("---\nname: api_reviewer\ndescription: d\nmode: all\nvariant: high\npermission:\n  \"*\": deny\n  read: allow\n  bash:\n    \"git *\": allow\n---\nB\n"))
	f.Add(uint8(2), []byte("---\nname: doc_checker\ndisplay_name: Doc\ndescription: d\ntools: [search_file_content, mcp_a_b, save_memory, \"*\"]\n---\nB\n"))
	f.Add(uint8(3), []byte("name = \"w-x\" # eol\ndescription = \"d\"\nbackground_terminal_max_timeout = 600000\ndeveloper_instructions = \"x\"\n"))
	ids := TargetIDs(true)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tg, _ := Lookup(ids[int(which)%len(ids)])
		im, err := tg.Import("fuzz"+tg.Ext, data)
		if err != nil {
			return
		}
		if !utf8.Valid(im.Data) {
			t.Fatalf("the imported file is not UTF-8")
		}
		f := parseAgentMD(im)
		if f == nil {
			t.Fatalf("the imported file does not load:\n%s", im.Data)
		}
		// What was imported exports back to the same tool, and that
		// export imports again.
		e, err := tg.Export(f.Def)
		if err != nil {
			t.Fatalf("export of the import: %v\n%s", err, im.Data)
		}
		if _, err := tg.Import(e.File, e.Data); err != nil {
			t.Fatalf("import of the export: %v\n--- import\n%s\n--- export\n%s", err, im.Data, e.Data)
		}
	})
}

// parseAgentMD parses an imported file as the runtime does; nil when the
// runtime would not load it under the imported name.
func parseAgentMD(im *Imported) *lint.File {
	f := lint.Parse(im.File, im.Data, lint.Runtime)
	if f.Status != lint.Loaded || f.Def.Name != im.Name {
		return nil
	}
	return f
}
