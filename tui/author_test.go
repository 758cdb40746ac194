package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestValidateAgentName(t *testing.T) {
	_, base := copyHome(t, "home")
	c, err := lint.Scan(lint.NewHome(base, ""), lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		wantErr string // "" for valid
	}{
		{"code-reviewer", ""},
		{"a", ""},
		{"a1-b2", ""},
		{"", "type a name"},
		{"Code", "kebab-case"},
		{"two words", "kebab-case"},
		{"-lead", "kebab-case"},
		{"trail-", "kebab-case"},
		{"dou--ble", "kebab-case"},
		{"../escape", "kebab-case"},
		{"dot.md", "kebab-case"},
		{strings.Repeat("a", 65), "too long"},
		{"summarizer", "taken by agents/summarizer.md"},
		{"broken", "taken"}, // a rejected file still holds its name
		{"Code Reviewer", `did you mean "code-reviewer"?`},
		{"ReleaseNotes", `did you mean "release-notes"?`},
		{"--", "kebab-case: use a-z"},
	}
	for _, c2 := range cases {
		err := ValidateAgentName(c, c2.name)
		switch {
		case c2.wantErr == "" && err != nil:
			t.Errorf("%q: unexpected error %v", c2.name, err)
		case c2.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c2.wantErr)):
			t.Errorf("%q: error %v, want one containing %q", c2.name, err, c2.wantErr)
		}
	}
}

func TestSuggestCopyName(t *testing.T) {
	_, base := copyHome(t, "home")
	c, err := lint.Scan(lint.NewHome(base, ""), lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, want string }{
		{"release-notes", "release-notes-copy"},
		{"Release_Notes", "release-notes-copy"},
		{"CodeAnalyst", "code-analyst-copy"},
		{"???", "agent-copy"},
	}
	for _, tc := range cases {
		if got := suggestCopyName(c, tc.name); got != tc.want {
			t.Errorf("suggestCopyName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A taken suggestion moves on to the next number.
	c.Files = append(c.Files, lint.Parse(filepath.Join(base, "agents", "x.md"), []byte("---\nname: summarizer-copy\ndescription: d\n---\n\nbody\n"), lint.Runtime))
	if got := suggestCopyName(c, "summarizer"); got != "summarizer-copy-2" {
		t.Errorf("with summarizer-copy taken: %q", got)
	}
}

// TestPromptErrorIsSanitised: a refusal that quotes a file's path (its
// name may hold escape sequences) reaches the screen escaped.
func TestPromptErrorIsSanitised(t *testing.T) {
	tmp, base := copyHome(t, "home")
	evil := filepath.Join(base, "agents", "evil\x1b]0;pwned\x07.md")
	if err := os.WriteFile(evil, []byte("---\nname: taken-here\ndescription: d\n---\n\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := newTestModel(t, tmp, base, 100, 30)
	tm.keys("n")
	tm.typeText("taken-here")
	tm.keys("enter")
	if !strings.Contains(tm.screen(), `evil\x1b]0;pwned\a.md`) {
		t.Errorf("the refusal should name the file, escaped:\n%s", tm.screen())
	}
	checkNoRawControls(t, tm.View().Content)
}

func TestAgentTemplateLoads(t *testing.T) {
	f := lint.Parse("/x/agents/fresh-agent.md", []byte(AgentTemplate("fresh-agent")), lint.Runtime)
	if f.Status != lint.Loaded {
		t.Fatalf("the template is rejected: %s %+v", f.Reason, f.Diagnostics)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("the template has findings: %+v", f.Diagnostics)
	}
	if f.Def.Name != "fresh-agent" {
		t.Errorf("name = %q", f.Def.Name)
	}
	pub := lint.Parse("/x/agents/fresh-agent.md", []byte(AgentTemplate("fresh-agent")), lint.Publish)
	for _, d := range pub.Diagnostics {
		if d.Severity == lint.Error {
			t.Errorf("the template fails the publish profile: %+v", d)
		}
	}
}

func TestCreateExclusiveNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agents", "taken.md")
	if err := createExclusive(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	err := createExclusive(path, []byte("second"))
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second create: %v, want an 'already exists' error", err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "first" {
		t.Errorf("the file now holds %q", data)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temporary files left behind: %v", names)
	}
}

func TestRenameDefinition(t *testing.T) {
	cases := []struct {
		name, text, want, wantErr string
	}{
		{"plain", "---\nname: old\ndescription: d\n---\n\nbody\n", "---\nname: new-one\ndescription: d\n---\n\nbody\n", ""},
		{"quoted", "---\nname: \"old\"\ndescription: d\n---\n\nbody\n", "---\nname: new-one\ndescription: d\n---\n\nbody\n", ""},
		{"crlf", "---\r\nname: old\r\ndescription: d\r\n---\r\n\r\nbody\r\n", "---\r\nname: new-one\r\ndescription: d\r\n---\r\n\r\nbody\r\n", ""},
		{"comment kept out", "---\nname: old # the name\ndescription: d\n---\n\nbody\n", "---\nname: new-one\ndescription: d\n---\n\nbody\n", ""},
		{"block scalar", "---\nname: |\n  old\ndescription: d\n---\n\nbody\n", "", "block scalar"},
		{"flow style", "---\n{name: old, description: d}\n---\n\nbody\n", "", "copy the file by hand"},
	}
	for _, c := range cases {
		f := lint.Parse("/x/a.md", []byte(c.text), lint.Runtime)
		if f.Def == nil {
			t.Fatalf("%s: does not parse: %+v", c.name, f.Diagnostics)
		}
		got, err := renameDefinition(f, "new-one")
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if g := lint.Parse("/x/b.md", got, lint.Runtime); g.Status != lint.Loaded || g.Def.Name != "new-one" {
			t.Errorf("%s: the copy does not load as new-one: %s", c.name, g.Reason)
		}
	}
}

func TestNewAgentFromTheBrowser(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 100, 30)

	// An invalid name keeps the prompt open and says why.
	tm.keys("n")
	tm.typeText("Bad")
	tm.keys("enter")
	if len(tm.overlays) != 1 || !strings.Contains(tm.screen(), "kebab-case") {
		t.Fatalf("the prompt should stay open with the reason:\n%s", tm.screen())
	}
	// A taken name too.
	tm.keys("ctrl+u")
	tm.typeText("summarizer")
	tm.keys("enter")
	if len(tm.overlays) != 1 || !strings.Contains(tm.screen(), "taken") {
		t.Fatalf("a taken name should be refused:\n%s", tm.screen())
	}
	tm.keys("ctrl+u")
	tm.typeText("fresh-agent")
	tm.keys("enter")
	if len(tm.overlays) != 0 {
		t.Fatalf("the prompt should close:\n%s", tm.screen())
	}
	path := filepath.Join(base, "agents", "fresh-agent.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != AgentTemplate("fresh-agent") {
		t.Errorf("the file holds:\n%s", data)
	}
	if got := tm.list.selectedPath(); got != path {
		t.Errorf("selected %q, want the new file", got)
	}
	scr := tm.screen()
	for _, want := range []string{"4 loaded · 2 rejected", "fresh-agent", "fresh-agent: new, loaded · press e to edit it"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
}

func TestDuplicateFromTheBrowser(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 100, 30)
	tm.keys("down", "down") // release-notes, a feed file
	if f := tm.list.selected(); f == nil || f.Name() != "release-notes" {
		t.Fatalf("selected %v", f)
	}
	tm.keys("D")
	if len(tm.overlays) != 1 || !strings.Contains(tm.screen(), "release-notes-copy") {
		t.Fatalf("the prompt should offer release-notes-copy:\n%s", tm.screen())
	}
	tm.keys("enter")
	path := filepath.Join(base, "agents", "release-notes-copy.md")
	if got := tm.list.selectedPath(); got != path {
		t.Fatalf("selected %q, want %q\n%s", got, path, tm.screen())
	}
	f := tm.list.selected()
	if f.Status != lint.Loaded || f.Source.IsFeed() || f.Def.Description != "Drafts release notes from a list of merged changes." {
		t.Errorf("the copy: status %v source %v def %+v", f.Status, f.Source, f.Def)
	}
	// The original is untouched.
	orig, _ := os.ReadFile(filepath.Join(base, "agents", ".server-feeds", "community", "release-notes.md"))
	if !strings.Contains(string(orig), "name: release-notes\n") {
		t.Errorf("the feed file changed:\n%s", orig)
	}
}
