package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// runForm asks for a trial run's task, optional context and the number
// of samples. NextField moves between the fields; Start starts the runs
// once there is a task.
type runForm struct {
	keys    RunFormKeys
	agent   string
	task    lineInput
	context lineInput
	samples lineInput
	field   int // 0 task, 1 context, 2 samples
	err     string
	submit  func(task, context string, samples int) tea.Cmd
}

// maxFormSamples caps the samples a run form starts.
const maxFormSamples = 100

func newRunForm(keys KeyMap, agent string, submit func(task, context string, samples int) tea.Cmd) *runForm {
	return &runForm{
		keys: keys.RunForm, agent: agent, submit: submit,
		task: lineInput{keys: keys.Input, limit: 8192}, context: lineInput{keys: keys.Input, limit: 8192},
		samples: lineInput{keys: keys.Input, limit: 3, value: "1"},
	}
}

func (f *runForm) input() *lineInput {
	switch f.field {
	case 1:
		return &f.context
	case 2:
		return &f.samples
	}
	return &f.task
}

// update handles a key press or a paste in the form: Cancel closes it,
// NextField moves between the fields, Start starts the run; the rest edits
// the field with the focus. done reports that the form closes.
func (f *runForm) update(msg tea.Msg) (cmd tea.Cmd, done bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		f.input().insert(msg.Content)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, f.keys.Cancel):
			return nil, true
		case key.Matches(msg, f.keys.NextField):
			if msg.String() == "shift+tab" || msg.String() == "up" {
				f.field = (f.field + 2) % 3
			} else {
				f.field = (f.field + 1) % 3
			}
			return nil, false
		case key.Matches(msg, f.keys.Start):
			return f.start()
		}
		if f.input().handleKey(msg) {
			f.err = ""
		}
	}
	return nil, false
}

// start submits the form when its task is written and its samples are a
// number in range; else it says what to fix and moves to that field, and
// the form stays open (done is false).
func (f *runForm) start() (cmd tea.Cmd, done bool) {
	task := strings.TrimSpace(f.task.value)
	if task == "" {
		f.err = "write a task: what the agent should do, concrete and bounded"
		f.field = 0
		return nil, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(f.samples.value))
	if err != nil || n < 1 || n > maxFormSamples {
		f.err = "samples: give a number from 1 to " + strconv.Itoa(maxFormSamples)
		f.field = 2
		return nil, false
	}
	return f.submit(task, strings.TrimSpace(f.context.value), n), true
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
		label(1, "Context (optional)"), show(1, &f.context), "",
		label(2, "Samples (runs of the task, one after the other)"), show(2, &f.samples),
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
