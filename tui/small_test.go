package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestSmallTerminalSplitsTheWidth (issue 13 item 16): at 40×12 the list
// gives the pane room instead of keeping its 24 columns.
func TestSmallTerminalSplitsTheWidth(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {50, 14}, {60, 20}, {80, 24}} {
		tmp, base := copyHome(t, "home")
		tm := newTestModel(t, tmp, base, sz[0], sz[1])
		scr := tm.screen()
		checkFrame(t, tm.View().Content, sz[0], sz[1])
		lw := listWidth(sz[0])
		pw, _ := tm.paneSize()
		if pw < lw-2 {
			t.Errorf("%dx%d: the pane (%d) is narrower than the list (%d):\n%s", sz[0], sz[1], pw, lw, scr)
		}
		if lw < 16 {
			t.Errorf("%dx%d: the list is only %d wide", sz[0], sz[1], lw)
		}
	}
}

// TestFooterKeepsHelpAndQuit (issue 13 item 14): however narrow, the
// footer ends with ? help and q quit.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	for _, w := range []int{40, 50, 60, 80, 120} {
		for _, tabKey := range []string{"1", "2", "3", "4"} {
			tmp, base := copyHome(t, "home")
			tm := newTestModel(t, tmp, base, w, 20)
			tm.keys(tabKey)
			footer := lastLine(tm.screen())
			if !strings.HasSuffix(footer, "? help  q quit") {
				t.Errorf("%d wide, pane %s: footer %q drops ? help or q quit", w, tabKey, footer)
			}
		}
	}
}

// TestHelpOverlayScrolls (issue 13 item 13): at 60×20 the key map does
// not fit; it scrolls to its end (quit included), other keys do not close
// it, and ?, esc and q do.
func TestHelpOverlayScrolls(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 60, 20)
	tm.keys("?")
	if strings.Contains(tm.screen(), "ctrl+c") {
		t.Fatalf("the whole key map fits at 60×20? the test needs a smaller screen:\n%s", tm.screen())
	}
	tm.keys("j", "x", "2", "enter", "tab")
	if len(tm.overlays) != 1 {
		t.Fatal("a key other than ?, esc or q closed the help")
	}
	tm.keys("G")
	scr := tm.screen()
	if !strings.Contains(scr, "q ctrl+c") || !strings.Contains(scr, "quit") {
		t.Errorf("scrolled to the end, the help does not show quit:\n%s", scr)
	}
	checkFrame(t, tm.View().Content, 60, 20)
	matchGolden(t, "help-scrolled-60x20", scr)
	tm.keys("esc")
	for _, k := range []string{"?", "esc", "q"} {
		tm.keys("?") // open
		if len(tm.overlays) != 1 {
			t.Fatalf("? did not open the help")
		}
		tm.keys(k)
		if len(tm.overlays) != 0 || tm.quit {
			t.Errorf("%s: overlays %d, quit %v", k, len(tm.overlays), tm.quit)
		}
	}
}

// TestViewerHintKeepsClose (issue 13 item 14): the viewer's hint names its
// close key at 80 columns and below.
func TestViewerHintKeepsClose(t *testing.T) {
	for _, w := range []int{40, 60, 80} {
		tm := openViewerModel(t, "testdata/netclaw-run", w, 20)
		scr := ansi.Strip(tm.View().Content)
		lines := strings.Split(scr, "\n")
		hint := lines[len(lines)-2]
		if !strings.Contains(hint, "esc close") {
			t.Errorf("%d wide: the viewer's hint %q lacks esc close", w, hint)
		}
	}
}

// openViewerModel is agentdesk open on path at w×h.
func openViewerModel(t *testing.T, path string, w, h int) *testModel {
	t.Helper()
	tm := openModel(t, Options{OpenPath: path}, w, h)
	tm.keys("tab") // run.json: longer than the screen, so the hint has a position
	return tm
}

// TestPaneScrollsToItsLastLine: G in a focused pane scrolls so that the
// pane's last line (wrapped at the pane's width) is the window's last, at
// sizes where the pane is wider than it is tall and the other way round.
func TestPaneScrollsToItsLastLine(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 40}, {120, 20}} {
		tmp, base := copyHome(t, "home")
		tm := newTestModel(t, tmp, base, sz[0], sz[1])
		tm.keys("2", "enter", "G") // the Layer pane: long at any size
		w, h := tm.paneSize()
		p := tm.pane(tm.tab)
		total := p.content(w).len()
		if total <= h {
			t.Fatalf("%dx%d: the Layer pane has %d lines, fits in %d: the test needs a longer pane", sz[0], sz[1], total, h)
		}
		if got, want := p.scroller().offset, total-h; got != want {
			t.Errorf("%dx%d: after G the pane starts at line %d, want %d (%d lines, %d shown)", sz[0], sz[1], got, want, total, h)
		}
	}
}

// TestNarrowListKeepsTheFeedLabel (issue 20 item 29): at 40 columns a
// feed agent's row keeps its source label, its long name cut instead; in
// the demo two summarizers (local and feed) are told apart (14 rows show
// both).
func TestNarrowListKeepsTheFeedLabel(t *testing.T) {
	tm := demoModel(t, 40, 14)
	lw := listWidth(40)
	var feedRows []string
	for _, l := range strings.Split(tm.screen(), "\n") {
		left, _, ok := strings.Cut(l, "│")
		if !ok || len([]rune(left)) < 2 {
			continue
		}
		if strings.ContainsAny(left, "✓✗○!") {
			if strings.Contains(left, "release-n") || strings.Contains(left, "changelog") || strings.Count(left, "summarizer") == 1 && strings.Contains(left, "✗") {
				feedRows = append(feedRows, left)
			}
		}
		if w := ansi.StringWidth(left); w > lw+1 {
			t.Errorf("row %q is %d wide, the list %d", left, w, lw)
		}
	}
	if len(feedRows) < 2 {
		t.Fatalf("feed rows %q in\n%s", feedRows, tm.screen())
	}
	for _, r := range feedRows {
		if !strings.HasSuffix(strings.TrimRight(r, " "), "feed") {
			t.Errorf("feed row %q drops its source label:\n%s", r, tm.screen())
		}
	}
}

// TestOverlayLeavesNoStrayCharacter (issue 20 item 30): an overlay one
// column short of the screen's edge clears that column, so no character
// of the screen below sticks to its border.
func TestOverlayLeavesNoStrayCharacter(t *testing.T) {
	opens := map[string]func(tm *testModel){
		"help":      func(tm *testModel) { tm.keys("?") },
		"new agent": func(tm *testModel) { tm.keys("n"); tm.typeText("Bad Name"); tm.keys("enter") },
	}
	for name, open := range opens {
		for _, sz := range [][2]int{{40, 12}, {60, 20}, {61, 20}, {80, 24}, {120, 40}} {
			tmp, base := copyHome(t, "home")
			tm := newTestModel(t, tmp, base, sz[0], sz[1])
			open(tm)
			lines := strings.Split(tm.screen(), "\n")
			top, left, right := -1, -1, -1
			for i, l := range lines {
				r := []rune(l)
				if j := strings.IndexRune(l, '┌'); j >= 0 && top < 0 {
					top, left = i, len([]rune(l[:j]))
					for k := len(r) - 1; k >= 0; k-- {
						if r[k] == '┐' {
							right = k
							break
						}
					}
				}
			}
			if top < 0 {
				t.Errorf("%s at %dx%d: no overlay:\n%s", name, sz[0], sz[1], tm.screen())
				continue
			}
			for i := top; i < len(lines); i++ {
				r := []rune(lines[i])
				if len(r) < sz[0] {
					continue
				}
				if left == 1 && r[0] != ' ' {
					t.Errorf("%s at %dx%d: a stray %q left of the overlay on row %d:\n%s", name, sz[0], sz[1], r[0], i, tm.screen())
					break
				}
				if right == sz[0]-2 && r[sz[0]-1] != ' ' {
					t.Errorf("%s at %dx%d: a stray %q right of the overlay on row %d:\n%s", name, sz[0], sz[1], r[sz[0]-1], i, tm.screen())
					break
				}
				if strings.ContainsRune(lines[i], '┘') {
					break
				}
			}
		}
	}
}

// TestHelpKeepsItsWidthWhileScrolling: the help box has one width for the
// whole key map, measured over every line of it (at most the screen's),
// however far it is scrolled.
func TestHelpKeepsItsWidthWhileScrolling(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {60, 20}, {80, 24}, {120, 40}} {
		tmp, base := copyHome(t, "home")
		tm := newTestModel(t, tmp, base, sz[0], sz[1])
		tm.keys("?")
		o, ok := tm.overlays.top().(*helpOverlay)
		if !ok {
			t.Fatalf("%dx%d: no help overlay", sz[0], sz[1])
		}
		all := helpLines(&tm.st, tm.env.keys)
		widest := 0
		for _, l := range all {
			widest = max(widest, ansi.StringWidth(l))
		}
		want := min(widest, sz[0]-4) + 4
		for step := 0; step <= len(all); step++ {
			scr := tm.screen()
			for _, l := range strings.Split(scr, "\n") {
				r := []rune(l)
				i := strings.IndexRune(l, '┌')
				if i < 0 {
					continue
				}
				left := len([]rune(l[:i]))
				right := -1
				for k := len(r) - 1; k > left; k-- {
					if r[k] == '┐' {
						right = k
						break
					}
				}
				if got := right - left + 1; got != want {
					t.Fatalf("%dx%d scrolled to line %d: the box is %d wide, want %d (all of the help):\n%s", sz[0], sz[1], o.scroll, got, want, scr)
				}
				break
			}
			tm.keys("down")
		}
	}
}

// TestOverlayKeysShownWhenCut: an overlay taller than the screen is cut
// above its keys, never through them: on a small terminal the route
// prompt (long help in the demo) and the approval prompt (the call's
// arguments and what each answer does) still say how to answer.
func TestOverlayKeysShownWhenCut(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {60, 12}, {80, 10}} {
		tm := demoModel(t, sz[0], sz[1])
		tm.keys("2", "R")
		if _, ok := tm.overlays.top().(*promptOverlay); !ok {
			t.Fatalf("%dx%d: R opened no prompt", sz[0], sz[1])
		}
		if scr := tm.screen(); !strings.Contains(scr, "enter ok") || !strings.Contains(scr, "…") {
			t.Errorf("%dx%d: the route prompt, cut, lacks its keys or the mark of the cut:\n%s", sz[0], sz[1], scr)
		}
		checkFrame(t, tm.View().Content, sz[0], sz[1])

		rh, _ := approvalHome(t)
		rh.srv.Enqueue(
			modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo hi","_rationale":"greet"}`), modeltest.Finish(modeltest.FinishTools)}},
			modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Done."), modeltest.Stop()}},
		)
		rv := rh.startRun("Greet", "")
		rh.pumpUntil("the run asks", func() bool {
			_, ok := rh.overlays.top().(*approvalOverlay)
			return ok
		})
		rh.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		if scr := rh.screen(); !strings.Contains(scr, "o approve once") || !strings.Contains(scr, "Command  echo hi") {
			t.Errorf("%dx%d: the approval prompt, cut, lacks its keys or the command:\n%s", sz[0], sz[1], scr)
		}
		checkFrame(t, rh.View().Content, sz[0], sz[1])
		rh.keys("G", "o") // the end of the call first, then approve
		rh.pumpUntil("the run ends", rv.ended)
	}
}

// TestNarrowLayerNamesTheAudienceShown: at 40 and 50 columns the Layer
// pane's audience line, too long to show all three, names the one shown
// (cut, it said Personal whichever was chosen). After a, the pane brings
// the selection's block into view, so the line is read from the pane's
// lines, not the screen.
func TestNarrowLayerNamesTheAudienceShown(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {50, 14}} {
		tmp, base := copyHome(t, "home")
		tm := newTestModel(t, tmp, base, sz[0], sz[1])
		tm.keys("2")
		for _, want := range []string{"Team", "Public", "Personal"} {
			tm.keys("a")
			w, _ := tm.paneSize()
			line := ""
			for _, l := range tm.layer.lines(&tm.st, tm.cat, tm.list.selected(), w) {
				if strings.Contains(l, "Audience") {
					line = ansi.Strip(l)
					break
				}
			}
			if !strings.Contains(line, "Audience  "+want) || ansi.StringWidth(line) > w {
				t.Errorf("%dx%d, audience %s: the line is %q (%d columns)", sz[0], sz[1], want, line, w)
			}
		}
	}
}
