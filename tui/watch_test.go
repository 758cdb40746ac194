package tui

import (
	"errors"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TestWatcherErrorsNameTheReloadKey: the watcher's errors tell the user to
// rescan with the key the key map binds, not a key spelt into the message.
func TestWatcherErrorsNameTheReloadKey(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 80, 24)
	tm.Model.keys.Browser.Reload = key.NewBinding(key.WithKeys("f5"), key.WithHelp("f5", "rescan now"))
	for _, msg := range []tea.Msg{
		watcherErrMsg{err: errors.New("watching /x: too many open files (raise fs.inotify.max_user_watches)")},
		watcherStartedMsg{err: errors.New("watching /x: no inotify (live reload is off)")},
	} {
		tm.send(msg)
		if !strings.Contains(tm.flash.text, "press f5 to rescan") || strings.Contains(tm.flash.text, "ctrl+r") {
			t.Errorf("after %T the notice is %q; want the bound key f5 and no ctrl+r", msg, tm.flash.text)
		}
	}
}
