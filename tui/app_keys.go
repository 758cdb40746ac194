package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey handles a key press when no overlay is open.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.focus == focusFilter {
		return m.handleFilterKey(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.overlays.push(helpOverlay{keys: m.keys})
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
	case key.Matches(msg, k.Reload):
		m.arts.invalidate() // runs made elsewhere show too
		return m.requestScan()
	case key.Matches(msg, k.Edit):
		return m.editSelected()
	case key.Matches(msg, k.New):
		m.askNewAgent()
		return nil
	case key.Matches(msg, k.Duplicate):
		return m.askDuplicate()
	}
	if cmd, ok := m.handlePaneKey(msg); ok {
		return cmd
	}
	return m.handleMoveKey(msg)
}

// handleMoveKey moves the list selection or scrolls the pane, whichever
// has focus.
func (m *Model) handleMoveKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.focus == focusPane {
		switch {
		case key.Matches(msg, k.Back):
			m.focus = focusList
		case key.Matches(msg, k.Top):
			m.scroll[m.tab] = 0
			if m.tab == tabRun {
				m.runs.follow = false
			}
		default:
			if d, ok := m.moveDelta(msg); ok {
				m.scrollPane(d)
			}
		}
		return nil
	}
	switch {
	case msg.String() == "esc" && m.list.filter != "":
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

// moveDelta is how far a movement key moves: a line, a page of the body,
// or all the way to the top or bottom.
func (m *Model) moveDelta(msg tea.KeyPressMsg) (int, bool) {
	k := m.keys
	_, bodyH := m.bodySize()
	page := max(bodyH-2, 1)
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Top):
		return -1 << 30, true
	case key.Matches(msg, k.Bottom):
		return 1 << 30, true
	}
	return 0, false
}

// handleFilterKey edits the filter: typing narrows the list at once, enter
// keeps the filter, esc clears it.
func (m *Model) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.filter.value = ""
		m.list.setFilter("")
		m.focus = focusList
		return nil
	case "enter":
		m.focus = focusList
		return nil
	case "up":
		m.moveSelection(-1)
		return nil
	case "down":
		m.moveSelection(1)
		return nil
	case "ctrl+c":
		return tea.Quit
	}
	if m.filter.handleKey(msg) {
		m.list.setFilter(m.filter.value)
		m.resetScroll()
	}
	return nil
}

// handlePaneKey gives the active pane the keys that belong to it.
func (m *Model) handlePaneKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	if key.Matches(msg, k.Run) {
		return m.askRun(), true
	}
	switch m.tab {
	case tabRun:
		switch {
		case key.Matches(msg, k.Cancel):
			return m.cancelRun(), true
		case key.Matches(msg, k.FoldThinking):
			m.runs.foldThinking = !m.runs.foldThinking
			return nil, true
		case key.Matches(msg, k.NextRun):
			m.nextRun()
			return nil, true
		case key.Matches(msg, k.Open):
			return m.openRunArtifacts(), true
		}
	case tabArtifacts:
		switch {
		case key.Matches(msg, k.Open):
			return m.openArtifacts(), true
		case key.Matches(msg, k.Pager):
			return m.pagerArtifact(), true
		case m.focus == focusPane && key.Matches(msg, k.Up):
			m.arts.sel = max(m.arts.sel-1, 0)
			return nil, true
		case m.focus == focusPane && key.Matches(msg, k.Down):
			m.arts.sel = min(m.arts.sel+1, max(len(m.arts.records)-1, 0))
			return nil, true
		case m.focus == focusPane && msg.String() == "enter":
			return m.openArtifacts(), true
		}
	case tabLayer:
		switch {
		case key.Matches(msg, k.Audience):
			m.layer.cycleAudience()
			m.scroll[tabLayer] = 0
			m.layerJump = true
			return nil, true
		case key.Matches(msg, k.Diff):
			m.layer.toggleDiff()
			m.scroll[tabLayer] = 0
			return nil, true
		}
	}
	return nil, false
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
	m.scroll = [tabCount]int{}
	m.layerJump = true
}

// jumpToSelectedBlock scrolls the Layer pane so the selection's block
// shows, once, after the selection or the audience changed: from the top
// when the block fits there, else from a line above the block.
func (m *Model) jumpToSelectedBlock() {
	if !m.layerJump || m.width == 0 || m.layer.states[m.layer.audience] == nil {
		return // nothing to jump to until the layer is built
	}
	m.layerJump = false
	h, w := m.paneSize()
	total := len(m.layer.content(&m.st, m.cat, m.list.selected(), w))
	from, to, ok := m.layer.selectedBlock()
	if !ok || to <= h {
		return
	}
	m.scroll[tabLayer] = max(min(from-1, total-h), 0)
}

// scrollPane scrolls the active pane by n lines, within its content.
func (m *Model) scrollPane(n int) {
	h, w := m.paneSize()
	total := len(m.paneContent(w))
	if m.tab == tabRun && m.runs.follow {
		m.scroll[tabRun] = max(total-h, 0)
	}
	s := m.scroll[m.tab] + n
	s = min(s, total-h)
	m.scroll[m.tab] = max(s, 0)
	if m.tab == tabRun {
		m.runs.follow = m.scroll[tabRun] >= total-h
	}
}
