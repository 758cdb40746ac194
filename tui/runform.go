package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// runForm asks for a trial run's task and optional context. NextField
// moves between the two fields; Start starts the run once there is a task.
type runForm struct {
	keys    RunFormKeys
	agent   string
	task    lineInput
	context lineInput
	field   int // 0 task, 1 context
	err     string
	submit  func(task, context string) tea.Cmd
}

func newRunForm(keys KeyMap, agent string, submit func(task, context string) tea.Cmd) *runForm {
	return &runForm{
		keys: keys.RunForm, agent: agent, submit: submit,
		task: lineInput{keys: keys.Input, limit: 8192}, context: lineInput{keys: keys.Input, limit: 8192},
	}
}

func (f *runForm) input() *lineInput {
	if f.field == 1 {
		return &f.context
	}
	return &f.task
}

func (f *runForm) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		f.input().insert(msg.Content)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, f.keys.Cancel):
			return nil, true
		case key.Matches(msg, f.keys.NextField):
			f.field = 1 - f.field
			return nil, false
		case key.Matches(msg, f.keys.Start):
			task := strings.TrimSpace(f.task.value)
			if task == "" {
				f.err = "write a task: what the agent should do, concrete and bounded"
				f.field = 0
				return nil, false
			}
			return f.submit(task, strings.TrimSpace(f.context.value)), true
		}
		if f.input().handleKey(msg) {
			f.err = ""
		}
	}
	return nil, false
}

func (f *runForm) render(st *Styles, w, h int) []string {
	inner := min(70, w-6)
	label := func(i int, name string) string {
		if i == f.field {
			return st.Title.Render("› " + name)
		}
		return st.Dim.Render("  " + name)
	}
	show := func(i int, in *lineInput) string {
		if i == f.field {
			return "  " + in.view(st, "", inner-2)
		}
		return "  " + fit(in.value, inner-2)
	}
	lines := []string{
		label(0, "Task"), show(0, &f.task), "",
		label(1, "Context (optional)"), show(1, &f.context),
	}
	if f.err != "" {
		lines = append(lines, "")
		for _, l := range wrap(f.err, inner) {
			lines = append(lines, st.Error.Render(l))
		}
	}
	lines = append(lines, "", shortHelp(st, " · ", f.keys.ShortHelp(), nil, inner))
	lines[1] = fit(lines[1], inner)
	return frame(st, "Trial run of "+f.agent, lines, w, h)
}
