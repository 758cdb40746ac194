package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// promptOverlay asks for one line of text. Submit (enter) submits when
// validate accepts the value; Cancel (esc) closes it.
type promptOverlay struct {
	keys     PromptKeys
	title    string
	help     string
	input    lineInput
	validate func(string) error
	submit   func(string) tea.Cmd
	err      string
}

func (p *promptOverlay) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		p.input.insert(msg.Content)
		p.err = ""
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.keys.Cancel):
			return nil, true
		case key.Matches(msg, p.keys.Submit):
			if p.validate != nil {
				if err := p.validate(p.input.value); err != nil {
					p.err = err.Error()
					return nil, false
				}
			}
			return p.submit(p.input.value), true
		}
		if p.input.handleKey(msg) {
			p.err = ""
		}
	}
	return nil, false
}

func (p *promptOverlay) render(st *Styles, w, h int) []string {
	inner := min(60, w-6)
	lines := []string{p.input.view(st, "> ", inner)}
	if p.err != "" {
		lines = append(lines, "")
		for _, l := range wrap(Sanitize(p.err), inner) { // it may quote a file's path
			lines = append(lines, st.Error.Render(l))
		}
	}
	if p.help != "" {
		// The help gives way to the error and the keys on a short
		// screen: the box (border, title and blank: 4 rows) holds the
		// lines so far, a blank and the help, then a blank and the keys.
		room := h - 4 - len(lines) - 2 - 1
		help := wrap(p.help, inner)
		if len(help) > room {
			help = help[:max(room, 0)]
			if len(help) > 0 {
				help[len(help)-1] = cut(help[len(help)-1]+" "+ellipsis, inner)
			}
		}
		if len(help) > 0 {
			lines = append(lines, "")
		}
		for _, l := range help {
			lines = append(lines, st.Dim.Render(l))
		}
	}
	lines = append(lines, "", shortHelp(st, " · ", p.keys.ShortHelp(), nil, inner))
	// Pad the first line so the box keeps its width while typing.
	lines[0] = fit(lines[0], inner)
	return frame(st, p.title, lines, w, h)
}
