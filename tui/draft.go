package tui

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/atomicfile"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// A new agent is written as a draft outside the agents folder, so that a
// running NetClaw never loads the template: the editor opens the draft,
// and only when it exits with a changed file that loads is the file moved
// into the agents folder (never over another). An unchanged draft writes
// nothing; a draft that does not load stays where it is, and giving its
// name to n again opens it again.

// draft is a new agent being written outside the agents folder.
type draft struct {
	name   string // the agent's name, and its file's
	path   string // the draft file
	target string // where it goes once it loads: <agents>/<name>.md
	before []byte // the draft as the editor got it
	fresh  bool   // written now from the template (removed when unchanged)
}

// draftResult says what became of a draft when the editor exited.
type draftResult int

const (
	draftUnchanged draftResult = iota // nothing written
	draftMoved                        // in the agents folder now
	draftKept                         // does not load: still a draft
)

// draftDoneMsg reports what became of a draft.
type draftDoneMsg struct {
	d      *draft
	result draftResult
	reason string // why a kept draft does not load
	err    error
}

// draftsDir is where drafts wait: Options.DraftsDir, else a drafts
// folder beside the default runs folder ($XDG_STATE_HOME/agentdesk/drafts).
func (e *env) draftsDir() (string, error) {
	if e.opts.DraftsDir != "" {
		return e.opts.DraftsDir, nil
	}
	runs, err := runfolder.DefaultRunsDir(e.getenv)
	if err != nil {
		return "", fmt.Errorf("no folder for drafts: %w", e.worded(err))
	}
	return filepath.Join(filepath.Dir(runs), "drafts"), nil
}

// openDraftCmd writes the template to a new draft (or takes up the draft
// of that name left from before) and prepares the editor on it.
func openDraftCmd(e *env, name string) tea.Cmd {
	dir, dirErr := e.draftsDir()
	home, agents := e.opts.Home.Base, e.opts.Home.Agents
	environ, getenv, homeFlag := e.opts.Environ, e.getenv, e.opts.Words.Home
	return func() tea.Msg {
		if dirErr != nil {
			return openEditorMsg{err: dirErr}
		}
		if err := homeThere(home, homeFlag); err != nil {
			return openEditorMsg{err: err}
		}
		d := &draft{name: name, path: filepath.Join(dir, name+".md"), target: filepath.Join(agents, name+".md")}
		data, err := os.ReadFile(d.path)
		switch {
		case err == nil:
			d.before = data // a draft left from before: take it up again
		case errors.Is(err, fs.ErrNotExist):
			d.before, d.fresh = []byte(preview.AgentTemplate(name)), true
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return openEditorMsg{err: fmt.Errorf("creating the drafts folder %s: %w", dir, err)}
			}
			if err := atomicfile.Create(d.path, d.before, 0o644); err != nil {
				return openEditorMsg{err: fmt.Errorf("writing the draft: %w", err)}
			}
		default:
			return openEditorMsg{err: fmt.Errorf("reading the draft %s: %w", d.path, err)}
		}
		msg := openEditorMsg{path: d.path, draft: d}
		msg.cmd, msg.err = editorCommand(environ, getenv, d.path)
		return msg
	}
}

// finishDraftCmd moves a changed draft that loads into the agents folder,
// and says what became of it.
func finishDraftCmd(d *draft, home, homeFlag string, cat *lint.Catalog) tea.Cmd {
	return func() tea.Msg {
		out := draftDoneMsg{d: d}
		data, err := os.ReadFile(d.path)
		if err != nil {
			out.err = fmt.Errorf("reading the draft %s: %w", d.path, err)
			return out
		}
		if bytes.Equal(data, d.before) && d.fresh {
			os.Remove(d.path) // the template, untouched: nothing to keep
			out.result = draftUnchanged
			return out
		}
		// A draft taken up again is judged as it is, changed or not: it
		// may load now (the file that blocked it is gone), or it still
		// does not, and the notice says why again.
		f := lint.Parse(d.target, data, lint.Runtime)
		if reason := draftProblem(f, d, cat); reason != "" {
			out.result, out.reason = draftKept, reason
			return out
		}
		if err := homeThere(home, homeFlag); err != nil {
			out.result, out.reason = draftKept, err.Error()
			return out
		}
		if err := createExclusive(d.target, data, homeFlag); err != nil {
			out.result, out.reason = draftKept, err.Error()
			return out
		}
		os.Remove(d.path)
		out.result = draftMoved
		return out
	}
}

// draftProblem says why a draft cannot go into the agents folder: the
// runtime would reject it, or its name is another agent's.
func draftProblem(f *lint.File, d *draft, cat *lint.Catalog) string {
	if f.Status != lint.Loaded {
		if f.Reason != "" {
			return f.Reason
		}
		return "the runtime would reject it (" + rejectRule(f) + ")"
	}
	if name := f.Name(); name != d.name {
		if err := lint.CheckNewAgentName(cat, name); err != nil {
			return err.Error()
		}
	}
	return ""
}

// homeThere reports a home that was deleted while the browser ran: it is
// never created again behind the user's back. homeFlag is the command
// line's flag that opens another home (Words.Home).
func homeThere(base, homeFlag string) error {
	if base == "" {
		return nil
	}
	if _, err := os.Stat(base); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the home %s is gone (deleted while agentdesk ran); nothing was written: recreate it, or quit and open another with %s", base, homeFlag)
	}
	return nil
}

// draftDone tells what became of a draft; a moved one is selected once
// the scan lists it.
func (m *Model) draftDone(msg draftDoneMsg) tea.Cmd {
	d := msg.d
	switch {
	case msg.err != nil:
		return m.setFlash(msg.err.Error(), true)
	case msg.result == draftUnchanged:
		return m.setFlash("nothing written: the new agent "+d.name+" was not changed from the template", false)
	case msg.result == draftKept:
		// How to get back to the draft comes first: a long reason is
		// what a narrow screen cuts.
		return m.setFlash(d.name+" is still a draft: press "+keyName(m.keys.Author.New)+" and give the name "+d.name+
			" to edit it again (kept at "+m.shortPath(d.path)+", not in the agents folder). It does not load: "+homeRelative(m.cat, msg.reason), true)
	}
	return m.created(createdMsg{path: d.target})
}
