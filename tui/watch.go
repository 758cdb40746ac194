package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/watch"
)

// Messages between the watcher and the model.
type (
	watcherStartedMsg struct {
		w   *watch.Watcher
		err error
	}
	homeChangedMsg struct{ change watch.Change }
	watcherErrMsg  struct{ err error }
)

// startWatcherCmd starts a watcher in the background.
func startWatcherCmd(h lint.Home, debounce time.Duration) tea.Cmd {
	return func() tea.Msg {
		w, err := watch.Start(h, debounce)
		return watcherStartedMsg{w: w, err: err}
	}
}

// waitForChange waits for the watcher's next change or error.
func waitForChange(w *watch.Watcher) tea.Cmd {
	if w == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case c, ok := <-w.Changes():
			if !ok {
				return nil
			}
			return homeChangedMsg{change: c}
		case err := <-w.Errors():
			return watcherErrMsg{err: err}
		}
	}
}

// rescanHint says how to rescan by hand when live reload falls short,
// with the key the key map binds (the watcher does not know it).
func (m *Model) rescanHint() string {
	return "; press " + keyName(m.keys.Browser.Reload) + " to rescan"
}

// watcherStarted keeps the watcher and starts listening to it.
func (m *Model) watcherStarted(msg watcherStartedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash(msg.err.Error()+m.rescanHint(), true)
	}
	m.watcher = msg.w
	// Files may have changed between the first scan and the first watch.
	return tea.Batch(m.requestScan(), waitForChange(m.watcher))
}
