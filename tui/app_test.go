package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

func TestDescribeChanges(t *testing.T) {
	parse := func(path, text string) *lint.File { return lint.Parse(path, []byte(text), lint.Runtime) }
	good := func(name string) string {
		return "---\nname: " + name + "\ndescription: d\n---\n\nbody\n"
	}
	a := parse("/h/agents/a.md", good("alpha"))
	aWarn := parse("/h/agents/a.md", "---\nname: alpha\ndescription: d\nModelRole: Main\n---\n\nbody\n")
	aBroken := parse("/h/agents/a.md", "---\nname: alpha\ndescription: d\n---\n")
	aBroken2 := parse("/h/agents/a.md", "---\nname: alpha\ndescription: d\nmodelRole: Boss\n---\n")
	b := parse("/h/agents/b.md", good("beta"))
	cat := func(fs ...*lint.File) *lint.Catalog { return &lint.Catalog{Files: fs} }
	cases := []struct {
		name     string
		old, cur *lint.Catalog
		want     []string
	}{
		{"nothing", cat(a, b), cat(a, b), nil},
		{"new loaded", cat(a), cat(a, b), []string{"beta: new, loaded"}},
		{"new rejected", cat(b), cat(aBroken, b), []string{"alpha: new, rejected — body-empty"}},
		{"now rejected", cat(a), cat(aBroken), []string{"alpha: now rejected — body-empty"}},
		{"now loaded", cat(aBroken), cat(a), []string{"alpha: now loaded"}},
		{"still rejected", cat(aBroken), cat(aBroken2), []string{"alpha: saved, still rejected — model-role"}},
		{"saved with a warning", cat(a), cat(aWarn), []string{"alpha: saved, loaded, 1 warning"}},
		{"removed", cat(a, b), cat(b), []string{"alpha: removed"}},
	}
	for _, c := range cases {
		got := describeChanges(c.old, c.cur)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSelectionKeptAcrossReloads(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 100, 30)
	tm.keys("down") // summarizer
	want := tm.list.selectedPath()
	// A file that sorts before it appears, and summarizer itself breaks:
	// it moves to the rejected section, still selected.
	tm.writeFile("agents/aaa-first.md", "---\nname: aaa-first\ndescription: d\n---\n\nbody\n")
	tm.writeFile("agents/summarizer.md", "---\nname: summarizer\ndescription: d\n---\n")
	tm.keys("ctrl+r")
	if got := tm.list.selectedPath(); got != want {
		t.Fatalf("selection moved to %s", got)
	}
	if f := tm.list.selected(); f.Status != lint.Rejected {
		t.Errorf("summarizer should be rejected now")
	}
	// Deleted, the selection stays at the same place in the list.
	os.Remove(filepath.Join(base, "agents", "summarizer.md"))
	tm.keys("ctrl+r")
	if tm.list.selected() == nil {
		t.Fatal("nothing selected after the selected file went")
	}
}

func TestOverlaysSeeKeysFirst(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 80, 24)
	tm.keys("?")
	if len(tm.overlays) != 1 {
		t.Fatal("help did not open")
	}
	tm.keys("q") // closes help, does not quit
	if tm.quit || len(tm.overlays) != 0 {
		t.Fatalf("q with help open: quit=%v overlays=%d", tm.quit, len(tm.overlays))
	}
	tm.keys("n")
	tm.typeText("q/2") // typed into the prompt, not taken as commands
	if tm.quit || tm.tab != tabDefinition || tm.focus == focusFilter {
		t.Fatalf("prompt keys leaked: quit=%v tab=%v focus=%v", tm.quit, tm.tab, tm.focus)
	}
	tm.keys("esc")
	tm.keys("q")
	if !tm.quit {
		t.Fatal("q did not quit")
	}
}

func TestFilterNarrowsAndClears(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 80, 24)
	cases := []struct {
		query string
		want  []string
	}{
		{"", []string{"code-analyst", "summarizer", "release-notes", "broken", "empty-body"}},
		{"feed", []string{"release-notes"}},
		{"rejected", []string{"broken", "empty-body"}},
		{"local rej", []string{"broken", "empty-body"}},
		{"CODE", []string{"code-analyst"}},
		{"zzz", nil},
	}
	for _, c := range cases {
		tm.keys("/", "ctrl+u")
		tm.typeText(c.query)
		tm.keys("enter")
		var got []string
		for _, i := range tm.list.visible {
			got = append(got, tm.list.rows[i].name)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("filter %q: %v, want %v", c.query, got, c.want)
		}
	}
	tm.keys("esc")
	if len(tm.list.visible) != 5 || tm.list.filter != "" {
		t.Errorf("esc should clear the filter: %q, %d rows", tm.list.filter, len(tm.list.visible))
	}
}

// TestEveryFrameFits resizes through many sizes, tiny ones included, on
// every pane, and checks each frame fills the screen exactly.
func TestEveryFrameFits(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 80, 24)
	sizes := [][2]int{{80, 24}, {120, 40}, {40, 10}, {41, 11}, {200, 60}, {39, 9}, {30, 8}, {20, 5}, {1, 1}, {97, 33}}
	for _, tabKey := range []string{"1", "2", "3", "4"} {
		tm.keys(tabKey)
		for _, sel := range []string{"g", "G"} {
			tm.keys(sel)
			for _, sz := range sizes {
				tm.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				frame := tm.View().Content
				checkFrame(t, frame, sz[0], sz[1])
				if (sz[0] < minWidth || sz[1] < minHeight) && sz[1] >= 4 && sz[0] >= 12 {
					want := fmt.Sprintf("needs at least %d×%d; this terminal is %d×%d.", minWidth, minHeight, sz[0], sz[1])
					if got := strings.Join(strings.Fields(frame), " "); !strings.Contains(got, want) {
						t.Errorf("%dx%d: the too-small notice is not whole: %q", sz[0], sz[1], frame)
					}
				}
			}
		}
	}
}

// TestHostileTextNeverReachesTheTerminal puts escape sequences and control
// characters in every field a file controls and checks the frame carries
// none of them raw.
func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	tmp, base := copyHome(t, "home")
	hostile := "---\nname: \"evil\\e]0;pwned\\a\\e[2J\"\ndescription: \"desc \\e[31mred \\u202e bidi\"\n---\n\nBody \x1b[5mblink\x1b[0m and \x07 bell.\n"
	hometest.WriteFile(t, filepath.Join(base, "agents", "evil.md"), hostile)
	broken := "---\nname: \"worse\\e[2J\"\nmodelRole: \"\\e[31mBoss\"\n---\n\x1b[2J\n"
	hometest.WriteFile(t, filepath.Join(base, "agents", "worse.md"), broken)
	tm := newTestModel(t, tmp, base, 120, 40)
	for _, keys := range [][]string{{"1", "g"}, {"1", "G"}, {"2", "g"}, {"2", "G"}, {"1", "/"}} {
		tm.keys("esc")
		tm.keys(keys...)
		for i := 0; i < 8; i++ {
			frame := tm.View().Content
			checkNoRawControls(t, frame)
			tm.keys("down")
		}
	}
	if !strings.Contains(tm.screen(), `\x1b`) {
		// At least one escaped sequence must be visible somewhere.
		tm.keys("esc", "1", "/")
		tm.typeText("evil")
		if !strings.Contains(tm.screen(), `\x1b`) {
			t.Errorf("the escapes are not shown escaped:\n%s", tm.screen())
		}
	}
}

// checkNoRawControls fails when frame holds a control character other than
// the newline between lines and SGR styling the browser wrote itself.
func checkNoRawControls(t *testing.T, frame string) {
	t.Helper()
	for i := 0; i < len(frame); i++ {
		c := frame[i]
		switch {
		case c == '\n':
		case c == 0x1b:
			// Only SGR (ESC [ params m) and the hyperlink-free resets the
			// styles write are allowed.
			j := i + 1
			if j >= len(frame) || frame[j] != '[' {
				t.Fatalf("raw escape at %d: %q", i, frame[i:min(i+20, len(frame))])
			}
			j++
			for j < len(frame) && (frame[j] >= '0' && frame[j] <= '9' || frame[j] == ';' || frame[j] == ':') {
				j++
			}
			if j >= len(frame) || frame[j] != 'm' {
				t.Fatalf("non-SGR sequence at %d: %q", i, frame[i:min(i+20, len(frame))])
			}
			i = j
		case c < 0x20 || c == 0x7f:
			t.Fatalf("raw control %#x at %d: %q", c, i, frame[max(i-20, 0):min(i+20, len(frame))])
		}
	}
	for _, r := range frame {
		if r >= 0x80 && rawUnsafe(r) {
			t.Fatalf("raw %U in the frame", r)
		}
	}
}

// TestListMarks checks the status mark of each kind of file: a loaded file
// with an error the runtime loads anyway (bad UTF-8) is not shown clean.
func TestListMarks(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 100, 30)
	tm.writeFile("agents/aa-clean.md", "---\nname: aa-clean\ndescription: d\n---\n\nbody\n")
	tm.writeFile("agents/ab-latin1.md", "---\nname: ab-latin1\ndescription: caf\xe9\n---\n\nbody\n")
	tm.writeFile("agents/ac-warned.md", "---\nname: ac-warned\ndescription: d\nModelRole: Main\n---\n\nbody\n")
	tm.writeFile("agents/ad-broken.md", "---\nname: ad-broken\n---\n\nbody\n")
	tm.keys("ctrl+r")
	screen := tm.screen()
	for name, mark := range map[string]string{"aa-clean": "✓", "ab-latin1": "!", "ac-warned": "!", "ad-broken": "✗"} {
		found := false
		for _, line := range strings.Split(screen, "\n") {
			if i := strings.Index(line, " "+name+" "); i >= 0 {
				found = true
				if !strings.Contains(line[:i], mark) {
					t.Errorf("%s: want mark %s in %q", name, mark, line)
				}
			}
		}
		if !found {
			t.Errorf("%s not listed:\n%s", name, screen)
		}
	}
}

// TestListSourceAlignsRight: the source column ends at the separator
// whatever its width, a feed folder with wide characters included.
func TestListSourceAlignsRight(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 100, 30)
	tm.writeFile("agents/.server-feeds/日本/wide-feed.md", "---\nname: wide-feed\ndescription: d\n---\n\nbody\n")
	tm.keys("ctrl+r")
	for _, want := range []string{"wide-feed", "code-analyst"} {
		found := false
		for _, line := range strings.Split(tm.screen(), "\n") {
			left, _, _ := strings.Cut(line, "│")
			if strings.Contains(left, " "+want+" ") {
				found = true
				if !strings.HasSuffix(left, "local ") && !strings.HasSuffix(left, "feed:日本 ") {
					t.Errorf("%s: the source does not end at the separator: %q", want, left)
				}
			}
		}
		if !found {
			t.Errorf("%s not listed:\n%s", want, tm.screen())
		}
	}
}

// TestLayerShowsTheSelectedBlock: the Layer pane scrolls the selection's
// block into view, for a selection made in the pane or before it opened,
// and after the audience changes.
func TestLayerShowsTheSelectedBlock(t *testing.T) {
	tmp, base := copyHome(t, "home")
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("zz-agent-%02d", i)
		text := "---\nname: " + name + "\ndescription: Agent " + name + " does one narrow thing.\n---\n\nbody\n"
		hometest.WriteFile(t, filepath.Join(base, "agents", name+".md"), text)
	}
	tm := newTestModel(t, tmp, base, 80, 24)
	pick := func(name string) {
		t.Helper()
		tm.keys("/", "ctrl+u")
		tm.typeText(name)
		tm.keys("enter", "esc")
		if f := tm.list.selected(); f == nil || f.Name() != name {
			t.Fatalf("could not select %s", name)
		}
	}
	shows := func(what, name string) {
		t.Helper()
		if scr := tm.screen(); !strings.Contains(scr, "## "+name) || !strings.Contains(scr, "Agent "+name+" does") {
			t.Errorf("%s: the block of %s is not on screen:\n%s", what, name, scr)
		}
	}
	pick("zz-agent-25")
	tm.keys("2")
	shows("selected before the pane opened", "zz-agent-25")
	tm.keys("up", "up", "up", "up", "up", "up", "up", "up", "up", "up")
	shows("moved in the pane", "zz-agent-15")
	tm.keys("a") // Team
	shows("another audience", "zz-agent-15")
	tm.keys("g")
	if scr := tm.screen(); !strings.Contains(scr, "## code-analyst") {
		t.Errorf("back at the top, code-analyst's block is not on screen:\n%s", scr)
	}
	// A block that shows from the top leaves the pane at the top, under
	// the audience and the cost.
	tm.send(tea.WindowSizeMsg{Width: 120, Height: 60})
	tm.keys("down", "g")
	if scr := tm.screen(); !strings.Contains(scr, "Audience") || !strings.Contains(scr, "## code-analyst") {
		t.Errorf("the pane should stay at the top:\n%s", scr)
	}
}
