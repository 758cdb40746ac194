package tui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/keepcase"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// keptMsg says how keeping a run as a test case went.
type keptMsg struct {
	suite, name string
	// status is the kept case's first result ("" when it has no
	// recording yet).
	status suite.Status
	err    error
}

// keepCmd appends the run rec as a case to its agent's suite (<agents>/
// <agent>.test.yaml), then records the case from the run's recording, so
// the Tests pane and `agentdesk test --offline` replay it. It reads and
// writes files: a Cmd.
func keepCmd(ctx context.Context, o suite.Options, agents string, rec runfolder.Record) tea.Cmd {
	return func() tea.Msg {
		path := filepath.Join(agents, rec.Agent+suitefile.TestSuffix)
		c := keepcase.FromRun(&rec, path, "")
		msg := keptMsg{suite: path, name: c.Name}
		if msg.err = keepcase.Append(path, c); msg.err != nil {
			return msg
		}
		tapePath := filepath.Join(rec.Dir, runfolder.StreamFile)
		tape, err := runner.LoadCassette(tapePath)
		if errors.Is(err, fs.ErrNotExist) {
			return msg
		}
		if err != nil {
			msg.err = fmt.Errorf("the case is kept, but not its recording: %w", err)
			return msg
		}
		r, err := keepcase.Record(ctx, o, path, c.Name, tape, tapePath)
		if err != nil {
			msg.err = fmt.Errorf("the case is kept, but not its recording: %w", err)
			return msg
		}
		msg.status = r.Status
		return msg
	}
}

// keep keeps the run shown as a test case of its agent.
func (p *runPane) keep() tea.Cmd {
	e := p.e
	sel := e.selected()
	if sel == nil || e.opts.Runner == nil {
		return nil
	}
	rv := p.current(sel.Path)
	if rv == nil || !rv.ended() || rv.record == nil {
		return e.notify("keep a run as a test case once it has ended", false)
	}
	return e.keepRun(*rv.record)
}

// keepRun keeps rec (a run of the selected agent) as a test case.
func (e *env) keepRun(rec runfolder.Record) tea.Cmd {
	if rec.Agent == "" || rec.Frontline != nil {
		return e.notify("a routing run keeps no agent test case", true)
	}
	o := suite.Options{Runner: e.opts.Runner, Catalog: e.cat, NetClaw: e.netClaw(), Words: e.opts.Words.Eval, Browser: true}
	return tea.Batch(e.notify("keeping "+shortID(rec.RunID)+" as a test case…", false),
		keepCmd(context.Background(), o, e.opts.Home.Agents, rec))
}

// kept reports a kept case; E then opens its suite in $EDITOR.
func (p *runPane) kept(msg keptMsg) tea.Cmd {
	e := p.e
	if msg.err != nil {
		if nt, ok := errors.AsType[*keepcase.NameTakenError](msg.err); ok {
			e.keptSuite = nt.Path // E opens the suite to rename the case there
		}
		return e.notify("keep: "+e.worded(msg.err).Error(), true)
	}
	e.keptSuite = msg.suite
	text := fmt.Sprintf("kept as case “%s” in %s", Sanitize(msg.name), filepath.Base(msg.suite))
	if msg.status != "" {
		text += " (" + string(msg.status) + " on replay)"
	} else {
		text += " (no recording: T records it)"
	}
	return e.notify(text+" · "+keyName(e.keys.Run.EditCase)+" edits it", false)
}

// editKept opens the suite a case was last kept in in $EDITOR.
func (p *runPane) editKept() tea.Cmd {
	e := p.e
	if e.keptSuite == "" {
		return e.notify("keep a run first ("+keyName(e.keys.Run.Keep)+")", false)
	}
	path, environ, getenv := e.keptSuite, e.opts.Environ, e.getenv
	return func() tea.Msg {
		msg := openEditorMsg{path: path}
		msg.cmd, msg.err = editorCommand(environ, getenv, path)
		return msg
	}
}
