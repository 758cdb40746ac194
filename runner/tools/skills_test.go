package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkillTools(t *testing.T) {
	root := t.TempDir()
	skill := filepath.Join(root, "skills", "release-notes")
	os.MkdirAll(filepath.Join(skill, "references"), 0o755)
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: release-notes\n---\nWrite notes.\n"), 0o644)
	os.WriteFile(filepath.Join(skill, "references", "style.md"), []byte("Be brief.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "secret.txt"), []byte("secret"), 0o644)
	os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(skill, "references", "link.md"))
	set := NewSet(SkillTools([]Skill{
		{Name: "release-notes", Path: filepath.Join(skill, "SKILL.md"), Body: "Write notes."},
		{Name: "review", Path: filepath.Join(root, "skills", "review", "SKILL.md"), Body: "x", Routed: true, Subagent: "code-analyst"},
	}))
	call := func(name, args string) Result { return set.Call(context.Background(), name, json.RawMessage(args)) }

	if r := call("skill_load", `{"Name":"Release-Notes"}`); r.Label != LabelReal || r.Text != "## release-notes\n\nWrite notes.\n\n### Available Resources\nLoad via skill_read_resource(skillName, resourcePath):\n- references/style.md\n" {
		t.Errorf("skill_load:\n%q", r.Text)
	}
	if r := call("skill_load", `{"Name":"review"}`); r.Label != LabelStubbed || !strings.Contains(r.Text, "routes to code-analyst") {
		t.Errorf("routed skill: %+v", r)
	}
	if r := call("skill_load", `{"Name":"nope"}`); r.Text != "Skill 'nope' not found. Available skills: release-notes, review" {
		t.Errorf("unknown skill: %q", r.Text)
	}
	if r := call("skill_read_resource", `{"SkillName":"release-notes","ResourcePath":"references/style.md"}`); r.Text != "Be brief.\n" {
		t.Errorf("resource: %+v", r)
	}
	for _, p := range []string{"../../secret.txt", "references/link.md", "/etc/passwd"} {
		if r := call("skill_read_resource", `{"SkillName":"release-notes","ResourcePath":"`+p+`"}`); !r.IsError || strings.Contains(r.Text, "secret") && !strings.Contains(r.Text, "'") {
			t.Errorf("escape %s: %+v", p, r)
		}
	}
}
