package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"

	"github.com/fsnotify/fsnotify"

	"github.com/agentdesk/agentdesk/lint"
)

// waitChange waits for the watcher's next Change; the generous deadline
// only turns a hang into a failure, it measures nothing.
func waitChange(t *testing.T, w *Watcher, what string) Change {
	t.Helper()
	select {
	case c := <-w.Changes():
		return c
	case err := <-w.Errors():
		t.Fatalf("%s: watcher error: %v", what, err)
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no change reported", what)
	}
	return Change{}
}

// drain takes every Change already waiting.
func drain(w *Watcher) {
	for {
		select {
		case <-w.Changes():
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}

func startWatcher(t *testing.T, base string) (*Watcher, lint.Home) {
	t.Helper()
	h := lint.NewHome(base, "")
	w, err := Start(h, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, h
}

func TestWatcherReportsSaves(t *testing.T) {
	base := copyHome(t)
	w, h := startWatcher(t, base)
	agent := filepath.Join(h.Agents, "new-one.md")
	feed := filepath.Join(h.FeedDir("community"), "release-notes.md")
	skill := filepath.Join(h.Skills, "review", "SKILL.md")

	steps := []struct {
		name string
		do   func()
		want string // a path the Change must hold
	}{
		{"create an agent", func() { hometest.WriteFile(t, agent, "x") }, agent},
		{"edit a feed file", func() { hometest.WriteFile(t, feed, "y") }, feed},
		{"edit a skill", func() { hometest.WriteFile(t, skill, "z") }, skill},
		{"edit the config", func() { hometest.WriteFile(t, h.ConfigFile(), "{}") }, h.ConfigFile()},
		{"save by rename (vim, JetBrains)", func() {
			tmp := filepath.Join(h.Agents, "new-one.md___jb_tmp___")
			hometest.WriteFile(t, tmp, "saved by rename")
			if err := os.Rename(tmp, agent); err != nil {
				t.Fatal(err)
			}
		}, agent},
		{"delete an agent", func() { os.Remove(agent) }, agent},
	}
	for _, s := range steps {
		drain(w)
		s.do()
		c := waitChange(t, w, s.name)
		if !slices.Contains(c.Paths, s.want) {
			t.Errorf("%s: change %v does not name %s", s.name, c.Paths, s.want)
		}
	}
}

func TestWatcherFollowsRecreatedFolders(t *testing.T) {
	base := copyHome(t)
	w, h := startWatcher(t, base)

	cases := []struct {
		name    string
		replace func()
		file    string // written after the folder came back
	}{
		{"agents deleted and created again", func() {
			os.RemoveAll(h.Agents)
			os.MkdirAll(h.Agents, 0o755)
		}, filepath.Join(h.Agents, "back.md")},
		{"agents renamed away and another put in its place", func() {
			os.Rename(h.Agents, h.Agents+".old")
			os.MkdirAll(h.Agents, 0o755)
		}, filepath.Join(h.Agents, "again.md")},
		{"a new feed folder", func() {
			os.MkdirAll(h.FeedDir("fresh"), 0o755)
		}, filepath.Join(h.FeedDir("fresh"), "synced.md")},
		{"config created where there was none", func() {
			os.RemoveAll(h.ConfigDir)
		}, h.ConfigFile()},
		{"a new skill folder", func() {
			os.MkdirAll(filepath.Join(h.Skills, "fresh-skill"), 0o755)
		}, filepath.Join(h.Skills, "fresh-skill", "SKILL.md")},
		{"a category skill in a feed", func() {
			os.MkdirAll(filepath.Join(h.SkillFeedsDir(), "acme", "ops", "triage"), 0o755)
		}, filepath.Join(h.SkillFeedsDir(), "acme", "ops", "triage", "SKILL.md")},
	}
	for _, c := range cases {
		drain(w)
		c.replace()
		waitChange(t, w, c.name)
		drain(w)
		hometest.WriteFile(t, c.file, "---\n")
		got := waitChange(t, w, c.name+": then a file in it")
		// When the folder itself is new, the file may land before the
		// watch does; then the change names the folder, and the rescan
		// it triggers finds the file.
		if !slices.Contains(got.Paths, c.file) && !slices.Contains(got.Paths, filepath.Dir(c.file)) {
			t.Errorf("%s: change %v names neither %s nor its folder", c.name, got.Paths, c.file)
		}
	}
}

func TestWatcherIgnoresUnrelatedFilesInParents(t *testing.T) {
	base := copyHome(t)
	w, h := startWatcher(t, base)
	cases := []struct {
		path string
		want bool
	}{
		{filepath.Join(h.Base, "netclaw.log"), false},
		{filepath.Join(h.Base, "sessions.db"), false},
		{filepath.Join(h.Base, "agents"), true},
		{filepath.Join(h.Base, "skills"), true},
		{filepath.Join(h.Base, "config"), true},
		{filepath.Join(h.Agents, "anything.md"), true},
		{filepath.Join(h.Agents, ".x.md.swp"), false}, // an editor's swap file (editorTemp)
		{filepath.Join(h.ConfigDir, "netclaw.json"), true},
	}
	for _, c := range cases {
		if got := w.relevant(fsnotify.Event{Name: c.path, Op: fsnotify.Write}); got != c.want {
			t.Errorf("relevant(%s) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestWatcherWatchesTheParentOfAMissingHome(t *testing.T) {
	tmp := t.TempDir()
	base := filepath.Join(tmp, "netclaw")
	w, h := startWatcher(t, base)
	if got := w.watchedDirs(); !slices.Equal(got, []string{tmp}) {
		t.Fatalf("watching %v, want only the parent %s", got, tmp)
	}
	os.MkdirAll(h.Agents, 0o755)
	waitChange(t, w, "home created")
	drain(w)
	file := filepath.Join(h.Agents, "first.md")
	hometest.WriteFile(t, file, "---\n")
	got := waitChange(t, w, "first agent")
	if !slices.Contains(got.Paths, file) {
		t.Errorf("change %v does not name %s", got.Paths, file)
	}
}

// TestWatcherErrorsLeaveKeysToTheBrowser: the watcher's own messages do
// not name a key; the browser adds the one its key map binds.
func TestWatcherErrorsLeaveKeysToTheBrowser(t *testing.T) {
	src, err := os.ReadFile("watch.go")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), "ctrl+r") {
		t.Error("watch.go spells a key into a message; the browser adds it (tui's rescanHint)")
	}
}

// copyHome copies the browser's sample home (tui/testdata/home: agents, a
// feed, a skill, the config) to a temporary folder and returns its base.
func copyHome(t *testing.T) string {
	t.Helper()
	base := filepath.Join(t.TempDir(), "netclaw")
	hometest.Copy(t, filepath.Join("..", "..", "tui", "testdata", "home"), base)
	return base
}

// Editors' temporary files (vim's 4913 and swap files, backups ending in
// ~, sed -i's sedXXXXXX, emacs' lock and autosave files) change nothing a
// scan finds: the watch ignores them, and the change names only the file
// the editor saved.
func TestWatcherIgnoresEditorsTemporaryFiles(t *testing.T) {
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, h := startWatcher(t, base)
	for _, name := range []string{"4913", ".a.md.swp", "a.md.swx", "a.md~", "sedPeTWnr", ".#a.md", "#a.md#", "a.md.tmp.12345.67890"} {
		hometest.WriteFile(t, filepath.Join(h.Agents, name), "x")
	}
	hometest.WriteFile(t, filepath.Join(h.Agents, "a.md"), "---\nname: a\ndescription: d\n---\nBody.\n")
	c := waitChange(t, w, "the saved file")
	if len(c.Paths) != 1 || filepath.Base(c.Paths[0]) != "a.md" {
		t.Errorf("change names %q, want only a.md", c.Paths)
	}
	for _, tt := range []struct {
		name string
		temp bool
	}{
		{"4913", true}, {".a.md.swp", true}, {"a.md.swo", true}, {"a.md~", true}, {"sedPeTWnr", true}, {".#a.md", true}, {"#a.md#", true},
		{"sed.md", false}, {"a.md", false}, {"sedimentary.md", false}, {"4913.md", false}, {"notes.swp.md", false},
	} {
		if got := editorTemp(tt.name); got != tt.temp {
			t.Errorf("editorTemp(%q) = %v, want %v", tt.name, got, tt.temp)
		}
	}
}

// BenchmarkEditorTemp measures the filter every watcher event goes
// through.
func BenchmarkEditorTemp(b *testing.B) {
	names := []string{"code-analyst.md", "4913", ".code-analyst.md.swp", "sedPeTWnr", "code-analyst.test.yaml", ".#x.md"}
	for i := 0; i < b.N; i++ {
		for _, n := range names {
			_ = editorTemp(n)
		}
	}
}
