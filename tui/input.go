package tui

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// lineInput is a one-line text field: typed and pasted text goes in at the
// end, backspace, ctrl+w and ctrl+u take it out. It keeps no cursor
// position of its own, which is all a filter or a name needs.
type lineInput struct {
	keys  InputKeys
	value string
	limit int // in runes; 0 means 4096
}

// handleKey applies a key press and reports whether the key was text
// editing (so the caller does not treat it as a command).
func (in *lineInput) handleKey(msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, in.keys.DeleteChar):
		if r := []rune(in.value); len(r) > 0 {
			in.value = string(r[:len(r)-1])
		}
		return true
	case key.Matches(msg, in.keys.DeleteAll):
		in.value = ""
		return true
	case key.Matches(msg, in.keys.DeleteWord):
		v := strings.TrimRightFunc(in.value, unicode.IsSpace)
		i := strings.LastIndexFunc(v, unicode.IsSpace)
		in.value = v[:i+1]
		return true
	}
	if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
		in.insert(msg.Text)
		return true
	}
	return false
}

// insert adds text, dropping line breaks and control characters.
func (in *lineInput) insert(text string) {
	limit := in.limit
	if limit == 0 {
		limit = 4096
	}
	var b strings.Builder
	for _, r := range text {
		if r == '\n' || r == '\r' || r == '\t' {
			r = ' '
		}
		if termsafe.UnsafeRune(r) {
			continue
		}
		b.WriteRune(r)
	}
	v := []rune(in.value + b.String())
	if len(v) > limit {
		v = v[:limit]
	}
	in.value = string(v)
}

// view renders the value with a block cursor after it.
func (in *lineInput) view(st *Styles, prompt string, w int) string {
	return fit(cutLeft(prompt+in.value, w-1)+st.ListSelected.Render(" "), w)
}
