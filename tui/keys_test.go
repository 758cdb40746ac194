package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// TestHelpFollowsTheKeyMap: the footer, the help overlay and the hints
// name the keys the map binds, and the browser answers to them, so a
// binding changed in one place shows and works everywhere.
func TestHelpFollowsTheKeyMap(t *testing.T) {
	tm := newRunHome(t, 120, 40)
	tm.Model.keys.Run.Run = key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "run"))
	tm.Model.keys.Browser.Quit = key.NewBinding(key.WithKeys("Q", "ctrl+q"), key.WithHelp("Q", "quit"))
	tm.Model.keys.Browser.Help = key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "help"))
	tm.keys("3")
	footer := lastLine(tm.screen())
	for _, want := range []string{"R run", "Q quit", "H help"} {
		if !strings.Contains(footer, want) {
			t.Errorf("footer %q lacks %q", footer, want)
		}
	}
	if !strings.Contains(tm.screen(), "Press R, give a task") {
		t.Errorf("the Run pane does not name the remapped key:\n%s", tm.screen())
	}
	tm.keys("H", "G") // the end of the key map
	full := tm.screen()
	tm.keys("G") // the overlay may be taller than the screen: its end too
	full += tm.screen()
	for _, want := range []string{"R  start a trial run", "Q ctrl+q  quit"} {
		if !strings.Contains(strings.Join(strings.Fields(full), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("help lacks %q:\n%s", want, full)
		}
	}
	tm.keys("esc")
	tm.keys("q")
	if tm.quit {
		t.Error("q still quits after it was remapped to Q")
	}
	tm.keys("Q")
	if !tm.quit {
		t.Error("Q does not quit")
	}
}

// lastLine is the last line of a screen, spaces trimmed.
func lastLine(scr string) string {
	lines := strings.Split(ansi.Strip(scr), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
