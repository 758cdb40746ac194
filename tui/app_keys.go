package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey handles a key press when no overlay is open: the browser's
// own keys first, then the active pane's, then movement.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.focus == focusFilter {
		return m.handleFilterKey(msg)
	}
	k := m.keys.Browser
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.overlays.push(&helpOverlay{keys: m.keys})
		return nil
	case key.Matches(msg, k.Filter):
		m.focus = focusFilter
		m.filter.value = m.list.filter
		return nil
	case key.Matches(msg, k.NextTab):
		m.setTab((m.tab + 1) % tabCount)
		return nil
	case key.Matches(msg, k.PrevTab):
		m.setTab((m.tab + tabCount - 1) % tabCount)
		return nil
	case key.Matches(msg, k.Tab1):
		m.setTab(tabDefinition)
		return nil
	case key.Matches(msg, k.Tab2):
		m.setTab(tabLayer)
		return nil
	case key.Matches(msg, k.Tab3):
		m.setTab(tabRun)
		return nil
	case key.Matches(msg, k.Tab4):
		m.setTab(tabArtifacts)
		return nil
	case key.Matches(msg, k.Tab5):
		m.setTab(tabTests)
		return nil
	case key.Matches(msg, k.Reload):
		m.arts.invalidate() // runs made elsewhere show too
		return m.requestScan()
	case key.Matches(msg, m.keys.Author.Edit):
		return m.editSelected()
	case key.Matches(msg, m.keys.Author.New):
		return m.askNewAgent()
	case key.Matches(msg, m.keys.Author.Duplicate):
		return m.askDuplicate()
	case key.Matches(msg, m.keys.Run.Run):
		return m.runs.ask() // from every pane
	case key.Matches(msg, m.keys.Tests.Run):
		m.setTab(tabTests) // from every pane
		return tea.Batch(m.tests.need(0), m.tests.start())
	}
	if cmd, ok := m.pane(m.tab).handleKey(msg, m.focus == focusPane); ok {
		return cmd
	}
	return m.handleMoveKey(msg)
}

// handleMoveKey moves the list selection or scrolls the pane, whichever
// has focus.
func (m *Model) handleMoveKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Browser
	if m.focus == focusPane {
		sc := m.pane(m.tab).scroller()
		switch {
		case key.Matches(msg, k.Back):
			m.focus = focusList
		case key.Matches(msg, m.keys.Move.Top):
			sc.top()
		default:
			if d, ok := m.moveDelta(msg); ok {
				w, h := m.paneSize()
				sc.by(d, m.pane(m.tab).content(w).len(), h)
			}
		}
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Filter.Clear) && m.list.filter != "":
		m.filter.value = ""
		m.list.setFilter("")
	case key.Matches(msg, k.Focus):
		m.focus = focusPane
	default:
		if d, ok := m.moveDelta(msg); ok {
			m.moveSelection(d)
		}
	}
	return nil
}

// moveDelta is how far a movement key moves the list or the pane, a page
// being the body's height.
func (m *Model) moveDelta(msg tea.KeyPressMsg) (int, bool) {
	_, bodyH := m.bodySize()
	return m.keys.Move.delta(msg, max(bodyH-2, 1))
}

// handleFilterKey edits the filter: typing narrows the list at once, Keep
// keeps the filter, Clear clears it.
func (m *Model) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Filter
	switch {
	case key.Matches(msg, k.Clear):
		m.filter.value = ""
		m.list.setFilter("")
		m.focus = focusList
		return nil
	case key.Matches(msg, k.Keep):
		m.focus = focusList
		return nil
	case key.Matches(msg, k.Up):
		m.moveSelection(-1)
		return nil
	case key.Matches(msg, k.Down):
		m.moveSelection(1)
		return nil
	case key.Matches(msg, k.Quit):
		return tea.Quit
	}
	if m.filter.handleKey(msg) {
		m.list.setFilter(m.filter.value)
		m.resetScroll()
	}
	return nil
}

func (m *Model) setTab(t tab) {
	m.tab = t
}

func (m *Model) moveSelection(n int) {
	before := m.list.selectedPath()
	m.list.move(n)
	if m.list.selectedPath() != before {
		m.resetScroll()
	}
}

// resetScroll scrolls every pane back to the top for a new selection;
// the Layer pane then brings the selection's block into view.
func (m *Model) resetScroll() {
	for t := tab(0); t < tabCount; t++ {
		m.pane(t).scroller().offset = 0
	}
	m.layer.jumpPending = true
}
