package tui

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/approve"
)

// runWatch re-runs an agent's last task whenever what its run depends on
// is saved: the agent's file, a skill that routes to it, netclaw.json. It
// keeps the task, context, project and approvals of the run it was
// turned on from.
type runWatch struct {
	agentPath, agent string
	task, context    string
	project          string
	// approve are the patterns the runs get: the browser's own
	// (--approve), then what the author approved in watched runs.
	approve []approve.Pattern
	// sig is what the inputs were at the last run (watchSignature).
	sig string
	// verdict says why the agent is not re-run now ("" when it is): the
	// lint verdict of a file that stopped loading.
	verdict string
	// reruns counts the runs the watch started; samples is how many runs
	// each save starts (the samples of the run it was turned on from).
	reruns, samples int
}

// toggleWatch turns the watch of the selected agent on, from the run
// shown, or off.
func (p *runPane) toggleWatch() tea.Cmd {
	e := p.e
	sel := e.selected()
	if sel == nil {
		return nil
	}
	if p.watch != nil && p.watch.agentPath == sel.Path {
		p.watch = nil
		return e.notify("re-run on save is off", false)
	}
	rv := p.current(sel.Path)
	if rv == nil {
		return e.notify("run "+fileLabel(sel)+" once first ("+keyName(e.keys.Run.Run)+"); then "+keyName(e.keys.Run.Watch)+" re-runs that task on every save", false)
	}
	w := &runWatch{agentPath: sel.Path, agent: rv.agent, task: rv.task, context: rv.context,
		approve: append([]approve.Pattern(nil), e.opts.Approve...), sig: watchSignature(e.cat, sel)}
	if rv.tools {
		w.project = e.opts.Project
	}
	for _, pt := range rv.approved {
		w.approve = addPattern(w.approve, pt)
	}
	w.samples = max(p.lastSamples[sel.Path], 1)
	p.watch = w
	return e.notify("re-run on save: saving "+fileLabel(sel)+", a skill routing to it or netclaw.json runs “"+oneLine(rv.task, 40)+"” again", false)
}

// catalogChanged re-runs the watched agent when a new catalog shows that
// what its run depends on changed; a file that stopped loading shows its
// verdict instead. Many events of one save give one catalog each, with
// the same signature: they re-run once.
func (p *runPane) catalogChanged() tea.Cmd {
	w := p.watch
	e := p.e
	if w == nil || e.cat == nil || e.opts.Runner == nil {
		return nil
	}
	f := fileAt(e.cat, w.agentPath)
	switch {
	case f == nil:
		w.verdict = "the file is gone"
		return nil
	case f.Status != lint.Loaded:
		why := f.Reason
		if why == "" {
			why = firstError(f)
		}
		w.verdict = fileLabel(f) + " does not load: " + why
		return nil
	}
	sig := watchSignature(e.cat, f)
	if sig == w.sig && w.verdict == "" {
		return nil
	}
	w.verdict, w.sig = "", sig
	// A save during a run cancels it (and its samples still to come):
	// the new runs replace them.
	if p.batch != nil && p.batch.agentPath == w.agentPath {
		p.batch = nil
	}
	if rv := p.current(w.agentPath); rv != nil && !rv.ended() {
		rv.run.Cancel()
	}
	w.reruns++
	// Once the re-run ends, it is shown beside the run before it.
	p.compare.on, p.compare.pending, p.compare.agentPath = false, true, w.agentPath
	return p.startSamples(f, w.task, w.context, w.project, w.approve, w.samples)
}

// noteApproval keeps what the author approved in a watched run, so the
// runs the watch starts do not ask again: the call itself (once) or the
// tool (for the run).
func (p *runPane) noteApproval(rv *runView, req approve.Request, a approve.Answer) {
	var text string
	switch a {
	case approve.Once:
		text = req.Suggest()
	case approve.ForRun:
		text = req.Tool
		if req.Server != "" {
			text = approve.MCPPrefix + req.Server
		}
	default:
		return
	}
	pt, err := approve.Parse(text)
	if err != nil {
		return
	}
	rv.approved = addPattern(rv.approved, pt)
	if w := p.watch; w != nil && w.agentPath == rv.agentPath {
		w.approve = addPattern(w.approve, pt)
	}
}

func addPattern(ps []approve.Pattern, pt approve.Pattern) []approve.Pattern {
	for _, x := range ps {
		if x.Text == pt.Text {
			return ps
		}
	}
	return append(ps, pt)
}

// watchLines is the Run pane's line about the watch, when it is on for
// the agent at path.
func (p *runPane) watchLines(path string, w int) []string {
	rw := p.watch
	if rw == nil || rw.agentPath != path {
		return nil
	}
	st := &p.e.st
	if rw.verdict != "" {
		return wrap(st.Warning.Render("re-run on save: not run: ")+Sanitize(rw.verdict)+"; save a fix to run again", w)
	}
	text := fmt.Sprintf("re-run on save: on · “%s” · %d re-run(s) · %s stops", Sanitize(oneLine(rw.task, 40)), rw.reruns, keyName(p.e.keys.Run.Watch))
	return wrap(st.Hint.Render(text), w)
}

// watchSignature sums up what a run of f depends on in the catalog: the
// agent file, the skills that route to it, the configuration.
func watchSignature(c *lint.Catalog, f *lint.File) string {
	h := sha256.New()
	h.Write([]byte(f.SHA256))
	if c != nil {
		for _, s := range c.Skills {
			if f.Def != nil && strings.EqualFold(s.Subagent, f.Def.Name) {
				fmt.Fprintf(h, "\x00%s\x00%s\x00%s", s.Path, s.Description, s.Body)
			}
		}
		if c.Config != nil {
			if b, err := json.Marshal(c.Config); err == nil {
				h.Write(b)
			} else {
				fmt.Fprintf(h, "%#v", *c.Config)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fileAt returns the catalog's file at path, or nil.
func fileAt(c *lint.Catalog, path string) *lint.File {
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// firstError is the first error diagnostic's message of f.
func firstError(f *lint.File) string {
	for _, d := range f.Diagnostics {
		if d.Severity == lint.Error {
			return fmt.Sprintf("line %d: %s", d.Line, d.Message)
		}
	}
	return "rejected"
}

// oneLine is s's first line, cut to n characters.
func oneLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
