package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary bytes to the parser: it must never panic or
// hang, and what it returns must be self-consistent.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "homes", "*", "agents", "*.md"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("---\nname: a\ndescription: b\n---\nbody"))
	f.Add([]byte("---\n&a [*a]\n---\n"))
	f.Add([]byte("\xff\xfe-\x00-\x00-\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range []Profile{Runtime, Publish} {
			file := Parse("f.md", data, p)
			if !utf8.ValidString(file.Text) {
				t.Fatal("Text must be valid UTF-8")
			}
			if (file.Status == Rejected) != (file.Reason != "") {
				t.Fatalf("status %s with reason %q", file.Status, file.Reason)
			}
			if file.Status == Loaded && (file.Def == nil || file.Def.Name == "" || file.Def.Description == "" || strings.TrimSpace(file.Def.Body) == "") {
				t.Fatalf("loaded without name, description or body: %+v", file.Def)
			}
			errs := 0
			for _, d := range file.Diagnostics {
				r, ok := RuleByID(d.Rule)
				if !ok || d.Message == "" {
					t.Fatalf("bad diagnostic %+v", d)
				}
				if d.Line < 0 || d.Column < 0 || d.Line > strings.Count(file.Text, "\n")+2 {
					t.Fatalf("position out of the file: %+v", d)
				}
				if r.Rejects && d.Severity == Error {
					errs++
				}
			}
			if file.Status == Rejected && errs == 0 {
				t.Fatalf("rejected with no rejecting error: %v", file.Diagnostics)
			}
		}
	})
}

// FuzzParseSkill feeds arbitrary bytes to the SKILL.md parser: it must never
// panic, and the skill it returns always has a name and valid UTF-8 text.
func FuzzParseSkill(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "homes", "*", "skills", "*", "SKILL.md"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("---\nname: s\nmetadata:\n  subagent: helper\n---\nDo it.\n"))
	f.Add([]byte("---\nname: caf\xe9\n---\n"))
	f.Add([]byte("\uFEFF---\nname: s\ndescription: d\nmetadata:\n  subagent: [a]\n---\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("\xff\xfe-\x00-\x00-\x00\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sk := ParseSkill(filepath.Join("skills", "s", "SKILL.md"), data)
		if sk.Name == "" {
			t.Fatal("a skill always has a name (its folder's, at least)")
		}
		for _, s := range []string{sk.Name, sk.Subagent, sk.Body} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in %+v", sk)
			}
		}
		if sk.Routed() && sk.SubagentPos.Line < 2 {
			t.Fatalf("metadata.subagent outside the frontmatter: %+v", sk.SubagentPos)
		}
	})
}
