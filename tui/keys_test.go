package tui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestHelpFollowsTheKeyMap: the footer and the help overlay name the keys
// the map binds, so a binding changed in one place shows everywhere.
func TestHelpFollowsTheKeyMap(t *testing.T) {
	k := DefaultKeyMap()
	k.Run = key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "start a trial run"))
	k.Quit = key.NewBinding(key.WithKeys("Q", "ctrl+q"), key.WithHelp("Q", "quit"))
	footer := fmt.Sprint(k.shortHelp(tabRun))
	for _, want := range []string{"{R run}", "{Q quit}"} {
		if !strings.Contains(footer, want) {
			t.Errorf("footer %s lacks %s", footer, want)
		}
	}
	full := fmt.Sprint(k.fullHelp())
	for _, want := range []string{"{R start a trial run}", "{Q ctrl+q quit}"} {
		if !strings.Contains(full, want) {
			t.Errorf("help %s lacks %s", full, want)
		}
	}
}
