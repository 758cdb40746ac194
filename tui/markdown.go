package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
)

// markdownKey identifies one rendering of a body: the same bytes at the
// same width in the same style render the same.
type markdownKey struct {
	digest string // the file's SHA-256, or any key unique to the text
	width  int
	style  string
}

// markdownMsg carries a finished rendering back to Update.
type markdownMsg struct {
	key markdownKey
	out string
	err error
}

// markdownCache keeps rendered bodies so a frame never renders markdown:
// View reads the cache, Update asks for what is missing through a Cmd.
type markdownCache struct {
	done    map[markdownKey]string
	pending map[markdownKey]bool
}

func (c *markdownCache) get(k markdownKey) (string, bool) {
	s, ok := c.done[k]
	return s, ok
}

// request returns a Cmd that renders text for k, or nil when k is cached
// or already being rendered.
func (c *markdownCache) request(k markdownKey, text string) tea.Cmd {
	if c.done == nil {
		c.done = map[markdownKey]string{}
		c.pending = map[markdownKey]bool{}
	}
	if _, ok := c.done[k]; ok || c.pending[k] {
		return nil
	}
	c.pending[k] = true
	return func() tea.Msg {
		out, err := renderMarkdown(text, k.width, k.style)
		return markdownMsg{key: k, out: out, err: err}
	}
}

// store records a finished rendering. A failed one is stored empty, so it
// is not asked for again and the panes show the sanitised plain text.
func (c *markdownCache) store(m markdownMsg) {
	delete(c.pending, m.key)
	if len(c.done) > 256 {
		clear(c.done) // a crude bound: renderings are cheap to redo
	}
	if m.err != nil {
		c.done[m.key] = ""
		return
	}
	c.done[m.key] = m.out
}

// markdownStyle picks glamour's built-in style for the terminal.
func markdownStyle(st *Styles) string {
	switch {
	case !st.Color:
		return "notty"
	case st.Dark:
		return "dark"
	}
	return "light"
}

// renderMarkdown renders sanitised markdown with glamour at width w.
func renderMarkdown(text string, w int, style string) (string, error) {
	if w < 10 {
		w = 10
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(w-2))
	if err != nil {
		return "", fmt.Errorf("markdown renderer (style %s): %w", style, err)
	}
	out, err := r.Render(SanitizeText(text))
	if err != nil {
		return "", fmt.Errorf("rendering markdown: %w", err)
	}
	return strings.Trim(out, "\n"), nil
}
