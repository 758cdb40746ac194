package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// overlay is a layer drawn over the panes (help, a prompt, the viewer). The
// top overlay sees key presses and pastes before anything else; the root
// closes it when it says it is done.
type overlay interface {
	// update handles one message. It returns a Cmd to run and whether the
	// overlay is finished and should be taken off the stack.
	update(msg tea.Msg) (cmd tea.Cmd, done bool)
	// render draws the overlay for a screen of width×height; the result is
	// centred over the panes.
	render(st *Styles, width, height int) []string
}

// overlayStack is the overlays in the order they were opened; the last one
// is on top.
type overlayStack []overlay

func (s *overlayStack) push(o overlay) { *s = append(*s, o) }

func (s *overlayStack) top() overlay {
	if len(*s) == 0 {
		return nil
	}
	return (*s)[len(*s)-1]
}

// drop takes every overlay for which gone is true off the stack, wherever
// it is (a prompt whose run ended).
func (s *overlayStack) drop(gone func(overlay) bool) {
	kept := (*s)[:0]
	for _, o := range *s {
		if !gone(o) {
			kept = append(kept, o)
		}
	}
	clear((*s)[len(kept):])
	*s = kept
}

func (s *overlayStack) pop() {
	if len(*s) > 0 {
		*s = (*s)[:len(*s)-1]
	}
}

// frame draws lines in the overlay box style with a title, at most w×h.
// The last line is the overlay's keys: when the lines do not fit, the
// blank line above it goes, then the lines before it are cut (an
// ellipsis says so), never the keys.
func frame(st *Styles, title string, lines []string, w, h int) []string {
	inner := 0
	for _, l := range lines {
		inner = max(inner, ansi.StringWidth(l))
	}
	inner = max(inner, ansi.StringWidth(title))
	inner = min(inner, w-4) // border and padding take 4 columns
	maxLines := h - 2
	if maxLines < 1 {
		maxLines = 1
	}
	body := make([]string, 0, len(lines)+2)
	if title != "" {
		body = append(body, st.OverlayTitle.Render(fit(title, inner)), "")
	}
	for _, l := range lines {
		body = append(body, fit(l, inner))
	}
	if n := len(body); n > maxLines && n >= 2 && strings.TrimSpace(ansi.Strip(body[n-2])) == "" {
		body = append(body[:n-2], body[n-1]) // first the blank line above the keys
	}
	if len(body) > maxLines {
		keys := body[len(body)-1]
		body = body[:max(maxLines-2, 0)]
		if maxLines >= 2 {
			body = append(body, fit(st.Dim.Render(ellipsis), inner))
		}
		body = append(body, keys)
	}
	return strings.Split(st.Overlay.Render(strings.Join(body, "\n")), "\n")
}

// drawOverlays centres each overlay over the base screen, bottom first.
func drawOverlays(st *Styles, base []string, stack overlayStack, w, h int) []string {
	for _, o := range stack {
		block, x, y := centred(o.render(st, w, h), w, h)
		base = splice(base, block, x, y)
	}
	return base
}

// centred places block in the middle of a w×h screen and returns it with
// the column and row of its top left corner. A margin of one column is
// cleared: a lone character of the screen below would stick to the
// border, so the block is padded over it.
func centred(block []string, w, h int) ([]string, int, int) {
	bw := 0
	for _, l := range block {
		bw = max(bw, ansi.StringWidth(l))
	}
	x := max((w-bw)/2, 0)
	y := max((h-len(block))/2, 0)
	padL, padR := x == 1, w-x-bw == 1
	if !padL && !padR {
		return block, x, y
	}
	left, right := "", ""
	if padL {
		left, x = " ", x-1
	}
	if padR {
		right = " "
	}
	padded := make([]string, len(block))
	for i, l := range block {
		padded[i] = left + l + strings.Repeat(" ", bw-ansi.StringWidth(l)) + right
	}
	return padded, x, y
}
