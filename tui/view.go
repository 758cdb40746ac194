package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Smallest usable screen.
const (
	minWidth  = 40
	minHeight = 10
)

// View draws the whole screen: header, list, tabbed pane, footer, and the
// overlays on top.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "agentdesk"
	return v
}

// render returns the screen as exactly height lines of exactly width
// columns.
func (m *Model) render() string {
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return "agentdesk: starting…"
	}
	if w < minWidth || h < minHeight {
		// Wrapped, not cut: a cut "40×1…" would give the wrong size.
		notice := fmt.Sprintf("agentdesk needs at least %d×%d; this terminal is %d×%d.", minWidth, minHeight, w, h)
		return strings.Join(box(wrap(notice, w), w, h), "\n")
	}
	if m.opts.OpenPath != "" {
		if v, ok := m.overlays.top().(*viewer); ok {
			return strings.Join(box(v.render(&m.st, w, h), w, h), "\n")
		}
		return strings.Join(box(nil, w, h), "\n")
	}
	lines := make([]string, 0, h)
	footer := m.renderFooter(w)
	lines = append(lines, m.renderHeader(w))
	lines = append(lines, m.renderBody(w, h-1-len(footer))...)
	lines = append(lines, footer...)
	if len(m.overlays) > 0 {
		lines = drawOverlays(&m.st, lines, m.overlays, w, h)
	}
	return strings.Join(lines, "\n")
}

// listWidth is the width of the list column for a screen w wide.
// It takes a third of the screen, at least 24 columns and at most 40, but
// never more than half: a narrow terminal splits its width between the
// two sides.
func listWidth(w int) int {
	return min(max(w/3, 24), 40, (w-3)/2)
}

// bodySize is the size of the area between header and footer.
func (m *Model) bodySize() (w, h int) {
	return m.width, max(m.height-1-len(m.flashLines(m.width)), 0)
}

// maxFlashLines is how many lines a long notice may take from the body.
const maxFlashLines = 3

// flashLines is the notice wrapped to the screen's width, at most
// maxFlashLines lines (nil when there is none).
func (m *Model) flashLines(w int) []string {
	if m.flash.text == "" {
		return nil
	}
	lines := wrap(m.flash.text, max(w-1, 1))
	if len(lines) > maxFlashLines {
		lines = lines[:maxFlashLines]
		lines[maxFlashLines-1] = cut(lines[maxFlashLines-1]+" "+ellipsis, max(w-1, 1))
	}
	return lines
}

// paneSize is the size of the right pane's content (below its tab line).
func (m *Model) paneSize() (w, h int) {
	bw, bh := m.bodySize()
	return max(bw-listWidth(bw)-3, 0), max(bh-1, 0)
}

func (m *Model) renderHeader(w int) string {
	st := &m.st
	left := " agentdesk "
	if m.opts.Demo {
		left = st.HeaderDemo.Render(" DEMO ") + st.Header.Render(left)
	} else {
		left = st.Header.Render(left)
	}
	home := st.HeaderDim.Render(" " + Sanitize(m.shortPath(m.opts.Home.Base)) + " ")
	var right, counts string
	switch {
	case m.cat == nil && m.scanErr != nil:
		right = "scan failed"
	case m.cat == nil:
		right = "scanning…"
	case m.homeGone:
		right = "home gone"
	default:
		counts = fmt.Sprintf("%d loaded · %d rejected", m.loaded, m.rejected)
		if m.notLoaded > 0 {
			counts += fmt.Sprintf(" · %d not loaded", m.notLoaded)
		}
		right = counts + " · reloaded " + m.loadedAt.Format("15:04:05")
	}
	right = st.Header.Render(" " + right + " ")
	lw := ansi.StringWidth(left)
	rw := ansi.StringWidth(right)
	mid := w - lw - rw
	if mid >= 4 {
		return left + st.HeaderDim.Render(fit(ansi.Strip(home), mid)) + right
	}
	if counts != "" {
		// Narrow: the counts matter most (not loaded included); the time
		// of the last reload goes first, then the title.
		c := st.Header.Render(" " + counts + " ")
		if cw := ansi.StringWidth(c); lw+cw <= w {
			return left + st.Header.Render(strings.Repeat(" ", w-lw-cw)) + c
		} else if cw <= w {
			return st.Header.Render(strings.Repeat(" ", w-cw)) + c
		}
		right = c
	}
	return fit(left+right, w)
}

// envLookup returns key's value in environ (the last one wins), or "".
func envLookup(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// renderFooter is the notice, wrapped, or the keys of the browser and
// the active pane; ? help and q quit are always there.
func (m *Model) renderFooter(w int) []string {
	st := &m.st
	if lines := m.flashLines(w); lines != nil {
		style := st.Flash
		if m.flash.bad {
			style = st.FlashBad
		}
		for i, l := range lines {
			lines[i] = style.Render(fit(" "+l, w))
		}
		return lines
	}
	if fk, ok := m.overlays.top().(interface{ footerKeys() []key.Binding }); ok {
		// The overlay takes every key: the footer shows its keys alone.
		return []string{fit(" "+shortHelp(st, "  ", fk.footerKeys(), nil, w-1), w)}
	}
	var keys []key.Binding
	keys = append(keys, m.keys.Move.ShortHelp()...)
	keys = append(keys, m.keys.Browser.ShortHelp()...)
	keys = append(keys, m.pane(m.tab).keyMap().ShortHelp()...)
	return []string{fit(" "+shortHelp(st, "  ", keys, m.keys.Browser.tail(), w-1), w)}
}

// renderBody draws the list and the tabbed pane side by side, h lines.
func (m *Model) renderBody(w, h int) []string {
	lw := listWidth(w)
	listH := h
	var top []string
	if m.focus == focusFilter || m.list.filter != "" {
		top = append(top, m.renderFilterLine(lw))
		listH--
	}
	left := append(top, m.list.render(&m.st, lw, listH, m.focus != focusPane)...)
	if m.cat == nil {
		msg := "Scanning " + Sanitize(m.shortPath(m.opts.Home.Agents)) + "…"
		if m.scanErr != nil {
			msg = "Scan failed: " + Sanitize(m.scanErr.Error())
		}
		left = box(wrap(msg, lw), lw, h)
	}
	pw := w - lw - 3
	right := m.renderPane(pw, h)
	sep := m.st.Separator.Render("│")
	out := make([]string, h)
	for i := range out {
		out[i] = left[i] + " " + sep + " " + right[i]
	}
	return out
}

func (m *Model) renderFilterLine(w int) string {
	if m.focus == focusFilter {
		return m.filter.view(&m.st, m.st.FilterPrompt.Render("/")+" ", w)
	}
	return fit(m.st.FilterPrompt.Render("/")+" "+Sanitize(m.list.filter)+m.st.Dim.Render("  ("+keyName(m.keys.Filter.Clear)+" clears)"), w)
}

// renderPane draws the tab line and the active pane's content, scrolled.
func (m *Model) renderPane(w, h int) []string {
	out := make([]string, 0, h)
	out = append(out, m.renderTabs(w))
	p := m.pane(m.tab)
	content := p.content(w)
	from := p.scroller().window(content.len(), h-1)
	out = append(out, content.window(from, h-1)...)
	return box(out, w, h)
}

// tabShortNames are the tab names when the full ones do not fit.
var tabShortNames = [tabCount]string{"Def", "Layer", "Run", "Arts", "Tests"}

// renderTabs draws the tab line: full names when they fit, else short
// ones, else numbers with the active tab's name.
func (m *Model) renderTabs(w int) string {
	st := &m.st
	render := func(names func(i int) string) string {
		var parts []string
		for i := range tabNames {
			label := fmt.Sprintf(" %d %s ", i+1, names(i))
			if names(i) == "" {
				label = fmt.Sprintf(" %d ", i+1)
			}
			if tab(i) == m.tab {
				parts = append(parts, st.TabActive.Render(label))
			} else {
				parts = append(parts, st.TabInactive.Render(label))
			}
		}
		return strings.Join(parts, st.Separator.Render("│"))
	}
	line := render(func(i int) string { return tabNames[i] })
	if ansi.StringWidth(line) > w {
		line = render(func(i int) string { return tabShortNames[i] })
	}
	if ansi.StringWidth(line) > w {
		line = render(func(i int) string {
			if tab(i) == m.tab {
				return tabNames[i]
			}
			return ""
		})
	}
	return fit(line, w)
}
