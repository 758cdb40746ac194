package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// FuzzFormats prints a one-file catalog with arbitrary text, name, message
// and position in every format: no panic, nothing unsafe for a terminal,
// and the JSON formats stay valid JSON.
func FuzzFormats(f *testing.F) {
	f.Add("---\nname: a\n---\nbody\n", "a", "msg", "hint", 2, 7)
	f.Add("\x1b[2J\r\n\t日本\xff", "\x1b]0;t\x07", "\u202e", "", 1, 3)
	f.Add("", "", "", "", 0, 0)
	f.Add("x", "", "", "", -4, 1<<30)
	f.Fuzz(func(t *testing.T, text, name, message, hint string, line, column int) {
		c := &lint.Catalog{Files: []*lint.File{{
			Path: "agents/a.md",
			Def:  &lint.Definition{Name: name},
			Text: text,
			Diagnostics: []lint.Diagnostic{{
				Path: "agents/a.md", Pos: lint.Pos{Line: line, Column: column},
				Rule: lint.RuleYAML, Severity: lint.Error, Message: message, Hint: hint,
			}},
		}}}
		for _, fm := range formats {
			var b bytes.Buffer
			if err := fm.write(&b, c, Options{Dir: "/w"}); err != nil {
				t.Fatalf("%s: %v", fm.name, err)
			}
			assertSafe(t, b.String())
			if fm.name == "json" || fm.name == "sarif" {
				if !json.Valid(b.Bytes()) {
					t.Fatalf("%s output is not valid JSON:\n%s", fm.name, b.Bytes())
				}
			}
		}
	})
}

// assertSafe fails when s holds anything a terminal could act on besides
// tabs and line breaks.
func assertSafe(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("output is not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if r != '\t' && r != '\n' && termsafe.UnsafeRune(r) {
			t.Fatalf("output holds %U: %q", r, s)
		}
	}
}
