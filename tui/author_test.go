package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

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
	if string(data) != preview.AgentTemplate("fresh-agent") {
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
