package tui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
	if err := createExclusive(path, []byte("first"), "--home"); err != nil {
		t.Fatal(err)
	}
	err := createExclusive(path, []byte("second"), "--home")
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

// newAgentModel is a browser on the test home whose editor is true(1):
// the test plays the editor by writing the draft itself.
func newAgentModel(t *testing.T) (tm *testModel, tmp, base string) {
	tmp, base = copyHome(t, "home")
	tm = newTestModel(t, tmp, base, 100, 30)
	tm.opts.Environ = append(tm.opts.Environ, "EDITOR=true")
	return tm, tmp, base
}

// startNew presses n, types name and returns the draft the editor got.
func startNew(tm *testModel, name string) *draft {
	tm.t.Helper()
	tm.keys("n")
	tm.typeText(name)
	tm.keys("enter")
	if tm.editing == nil {
		tm.t.Fatalf("no draft opened for %s:\n%s", name, tm.screen())
	}
	return tm.editing
}

// editorExits ends the editor on d, text written first unless it is "".
func editorExits(tm *testModel, d *draft, text string) {
	tm.t.Helper()
	if text != "" {
		if err := os.WriteFile(d.path, []byte(text), 0o644); err != nil {
			tm.t.Fatal(err)
		}
	}
	tm.send(editorDoneMsg{path: d.path, draft: d})
}

// TestNewAgentIsADraftUntilItLoads (issue 13 item 4): n never puts the
// template where a running NetClaw would load it. The draft lives outside
// the agents folder; unchanged, nothing is written; changed but not
// loading, it stays a draft and the notice says why and how to get back
// to it; changed and loading, it moves in, never over another file.
func TestNewAgentIsADraftUntilItLoads(t *testing.T) {
	tm, tmp, base := newAgentModel(t)

	// An invalid name keeps the prompt open and says why; a taken one too.
	tm.keys("n")
	tm.typeText("Bad")
	tm.keys("enter")
	if len(tm.overlays) != 1 || !strings.Contains(tm.screen(), "kebab-case") {
		t.Fatalf("the prompt should stay open with the reason:\n%s", tm.screen())
	}
	tm.keys("ctrl+u")
	tm.typeText("summarizer")
	tm.keys("enter")
	if len(tm.overlays) != 1 || !strings.Contains(tm.screen(), "taken") {
		t.Fatalf("a taken name should be refused:\n%s", tm.screen())
	}
	tm.keys("esc")

	target := filepath.Join(base, "agents", "fresh-agent.md")
	drafts := filepath.Join(tmp, ".local", "state", "agentdesk", "drafts")

	// Unchanged: nothing written anywhere.
	d := startNew(tm, "fresh-agent")
	if filepath.Dir(d.path) != drafts || strings.HasPrefix(d.path, filepath.Join(base, "agents")) {
		t.Fatalf("the draft is at %s, want it in %s", d.path, drafts)
	}
	if data, err := os.ReadFile(d.path); err != nil || string(data) != preview.AgentTemplate("fresh-agent") {
		t.Fatalf("the draft holds %q, %v", data, err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the template went into the agents folder before the editor exited")
	}
	editorExits(tm, d, "")
	for _, p := range []string{target, d.path} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists after an unchanged draft", p)
		}
	}
	if !strings.Contains(tm.flash.text, "nothing written") {
		t.Errorf("notice %q", tm.flash.text)
	}

	// Changed but rejected: stays a draft, and the notice says why and how
	// to come back to it.
	d = startNew(tm, "fresh-agent")
	broken := "---\nname: fresh-agent\ndescription: Helps.\n---\n"
	editorExits(tm, d, broken)
	if _, err := os.Stat(target); err == nil {
		t.Fatal("a draft that does not load went into the agents folder")
	}
	for _, want := range []string{"fresh-agent is still a draft", "empty system prompt body", "press n and give the name fresh-agent"} {
		if !strings.Contains(tm.flash.text, want) {
			t.Errorf("notice %q lacks %q", tm.flash.text, want)
		}
	}
	checkFrame(t, tm.View().Content, 100, 30)

	// n with the same name takes the draft up again, as it was left.
	d = startNew(tm, "fresh-agent")
	if string(d.before) != broken || d.fresh {
		t.Fatalf("the draft was not taken up again: %q", d.before)
	}
	good := broken + "\nYou help.\n"
	editorExits(tm, d, good)
	data, err := os.ReadFile(target)
	if err != nil || string(data) != good {
		t.Fatalf("the agent was not moved in: %q, %v\n%s", data, err, tm.screen())
	}
	if _, err := os.Stat(d.path); err == nil {
		t.Error("the draft is still there after it moved in")
	}
	if got := tm.list.selectedPath(); got != target {
		t.Errorf("selected %q, want the new file", got)
	}
	if scr := tm.screen(); !strings.Contains(scr, "4 loaded · 2 rejected") {
		t.Errorf("the new agent is not listed:\n%s", scr)
	}

	// Never over another file: one written meanwhile wins, the draft stays.
	d = startNew(tm, "other-agent")
	other := filepath.Join(base, "agents", "other-agent.md")
	if err := os.WriteFile(other, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	editorExits(tm, d, strings.ReplaceAll(good, "fresh-agent", "other-agent"))
	if data, _ := os.ReadFile(other); string(data) != "mine" {
		t.Errorf("the draft overwrote %s: %q", other, data)
	}
	if _, err := os.Stat(d.path); err != nil || !strings.Contains(tm.flash.text, "already exists") {
		t.Errorf("the draft should stay, with a notice: %v, %q", err, tm.flash.text)
	}
}

// TestDeletedHomeIsNotRecreated (issue 13 item 22): a home deleted while
// the browser runs is reported as gone, and n does not create it again.
func TestDeletedHomeIsNotRecreated(t *testing.T) {
	tm, _, base := newAgentModel(t)
	if err := os.RemoveAll(base); err != nil {
		t.Fatal(err)
	}
	tm.keys("ctrl+r")
	if scr := tm.screen(); !strings.Contains(strings.Join(strings.Fields(scr), " "), "is gone") {
		t.Errorf("the deleted home is not reported as gone:\n%s", scr)
	}
	tm.keys("n")
	tm.typeText("new-one")
	tm.keys("enter")
	if _, err := os.Stat(base); err == nil {
		t.Fatal("n created the deleted home again")
	}
	if want := "the home " + base + " is gone (deleted while agentdesk ran); nothing was written: recreate it, or quit and open another with --home"; !strings.Contains(tm.flash.text, want) {
		t.Errorf("notice %q, want %q", tm.flash.text, want)
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

// TestKeptDraftTakenUpAgain: a draft that did not load, opened again and
// left as it was, is not "unchanged from the template": it is judged
// again, kept with its reason while it still does not load, and moved in
// once what blocked it is gone.
func TestKeptDraftTakenUpAgain(t *testing.T) {
	tm, _, base := newAgentModel(t)
	other := filepath.Join(base, "agents", "late-agent.md")
	if err := os.WriteFile(other, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := "---\nname: late-agent\ndescription: Helps late.\n---\n\nYou help.\n"
	d := startNew(tm, "late-agent")
	editorExits(tm, d, good)
	if !strings.Contains(tm.flash.text, "already exists") {
		t.Fatalf("notice %q", tm.flash.text)
	}

	// Taken up again and left as it was: still blocked, and said so.
	d = startNew(tm, "late-agent")
	editorExits(tm, d, "")
	if strings.Contains(tm.flash.text, "template") || !strings.Contains(tm.flash.text, "late-agent is still a draft") || !strings.Contains(tm.flash.text, "already exists") {
		t.Errorf("an untouched kept draft: notice %q", tm.flash.text)
	}
	if _, err := os.Stat(d.path); err != nil {
		t.Fatalf("the kept draft is gone: %v", err)
	}

	// The blocking file goes; the draft, untouched again, now moves in.
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	d = startNew(tm, "late-agent")
	editorExits(tm, d, "")
	if data, err := os.ReadFile(other); err != nil || string(data) != good {
		t.Fatalf("the draft did not move in: %q, %v (notice %q)", data, err, tm.flash.text)
	}
}

// TestKeptDraftNoticeKeepsTheWayBack: on a narrow screen the notice of a
// kept draft is cut to a few lines; what is kept is how to get back to
// the draft, not the tail of a long runtime message.
func TestKeptDraftNoticeKeepsTheWayBack(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
		tm, _, _ := newAgentModel(t)
		tm.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		d := startNew(tm, "bad-one")
		editorExits(tm, d, "---\nname: bad-one\ndescription: x\ntools: Read, Grep\n---\nbody\n")
		shown := strings.Join(tm.flashLines(size[0]), " ")
		if !strings.Contains(shown, "press n and give the name bad-one to edit it again") {
			t.Errorf("%dx%d: the notice on screen lacks the way back:\n%s", size[0], size[1], strings.Join(tm.flashLines(size[0]), "\n"))
		}
		checkFrame(t, tm.View().Content, size[0], size[1])
	}
}

// TestGoneHomeBackBeforeUpdate: a scan that found the home gone is shown
// as gone even when the folder is back by the time Update reads the
// message; Update looks at nothing on disk (it used to stat the home again
// and, finding it, call Error on a nil error).
func TestGoneHomeBackBeforeUpdate(t *testing.T) {
	tm, _, base := newAgentModel(t)
	gone := errors.New("the home " + base + " is gone (deleted while agentdesk ran)")
	tm.send(catalogMsg{cat: &lint.Catalog{}, gone: gone})
	if scr := tm.screen(); !strings.Contains(strings.Join(strings.Fields(scr), " "), "is gone") {
		t.Errorf("the gone home is not reported:\n%s", scr)
	}
}
