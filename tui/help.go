package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// newHelp is a bubbles help model in the browser's styles: the footer,
// the hints of the overlays and the help overlay all render through it.
func newHelp(st *Styles, sep string) help.Model {
	h := help.New()
	h.ShortSeparator = sep
	h.FullSeparator = "  "
	h.Styles = help.Styles{
		ShortKey: st.FooterKey, ShortDesc: st.Footer, ShortSeparator: st.Footer,
		FullKey: st.FooterKey, FullDesc: st.Footer, FullSeparator: st.Footer,
		Ellipsis: st.Footer,
	}
	return h
}

// shortHelp renders bindings on one line of at most w columns; keep is
// always shown at the end, and the bindings before it are dropped from
// their end (an ellipsis says so) to make room for it.
func shortHelp(st *Styles, sep string, bindings, keep []key.Binding, w int) string {
	h := newHelp(st, sep)
	tail := h.ShortHelpView(keep)
	room := w
	if tail != "" {
		room -= ansi.StringWidth(tail) + ansi.StringWidth(sep)
	}
	ellipsis := st.Footer.Render(" " + h.Ellipsis)
	// help.Model cuts at a width too, but lets an item overflow when not
	// even its ellipsis fits: measure here instead.
	head := ""
	for n := len(bindings); n > 0; n-- {
		s := h.ShortHelpView(bindings[:n])
		if n < len(bindings) {
			s += ellipsis
		}
		if ansi.StringWidth(s) <= room {
			head = s
			break
		}
	}
	switch {
	case head == "":
		return tail
	case tail == "":
		return head
	}
	return head + st.Footer.Render(sep) + tail
}

// helpOverlay shows every key map, titled, in a box that scrolls; only its
// close keys (?, esc, q) close it, so its end can always be read.
type helpOverlay struct {
	keys   KeyMap
	scroll int
	page   int // lines per page, from the last render
}

func (o *helpOverlay) update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(k, o.keys.Help.Close):
		return nil, true
	case key.Matches(k, o.keys.Browser.Quit):
		return tea.Quit, true
	}
	if d, ok := o.keys.Move.delta(k, max(o.page-1, 1)); ok {
		o.scroll = min(o.scroll+d, 1<<30)
	}
	o.scroll = max(o.scroll, 0)
	return nil, false
}

// helpLines is every group of the key map, titled, one under another.
func helpLines(st *Styles, k KeyMap) []string {
	h := newHelp(st, "  ")
	var out []string
	for i, g := range k.helpGroups() {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, st.Title.Render(g.title))
		out = append(out, strings.Split(h.FullHelpView(g.keys.FullHelp()), "\n")...)
	}
	return out
}

func (o *helpOverlay) render(st *Styles, w, h int) []string {
	lines := helpLines(st, o.keys)
	// The box: border 2, title and blank 2, hint 1 (and a blank above it).
	bodyH := max(h-6, 1)
	o.page = bodyH
	o.scroll = min(o.scroll, max(len(lines)-bodyH, 0))
	shown := lines[o.scroll:min(o.scroll+bodyH, len(lines))]
	inner := 0
	for _, l := range lines {
		inner = max(inner, ansi.StringWidth(l))
	}
	inner = min(max(inner, 30), w-4)
	out := append([]string(nil), shown...)
	hint := o.keys.Help.ShortHelp()
	if len(lines) > bodyH {
		hint = append(hint, o.keys.Move.ShortHelp()...)
	}
	// The hint is padded to the width of the whole help, so the box keeps
	// one width however far it is scrolled (frame measures what it shows).
	out = append(out, "", fit(shortHelp(st, " · ", hint, nil, inner), inner))
	title := "Keys"
	if len(lines) > bodyH {
		title += fmt.Sprintf(" (%d–%d of %d)", o.scroll+1, o.scroll+len(shown), len(lines))
	}
	return frame(st, title, out, w, h)
}
