package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/rundiff"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// sampleBatch is a task run several times, one run after the other, so
// that its spread shows and one lucky run is not taken for an
// improvement.
type sampleBatch struct {
	agentPath              string
	f                      *lint.File
	task, context, project string
	approve                []approve.Pattern
	n, started             int
	recs                   []runfolder.Record
}

// startSamples starts n runs of f with the task, one after the other (one
// run when n is 1).
func (p *runPane) startSamples(f *lint.File, task, context, project string, approved []approve.Pattern, n int) tea.Cmd {
	if p.spreads != nil {
		delete(p.spreads, f.Path)
	}
	if p.lastSamples == nil {
		p.lastSamples = map[string]int{}
	}
	p.lastSamples[f.Path] = max(n, 1)
	if n <= 1 {
		if p.batch != nil && p.batch.agentPath == f.Path {
			p.batch = nil
		}
		return p.startWith(f, task, context, project, approved)
	}
	p.batch = &sampleBatch{agentPath: f.Path, f: f, task: task, context: context, project: project, approve: approved, n: n, started: 1}
	return p.startWith(f, task, context, project, approved)
}

// sampleEnded takes the end of run rv into its batch: it starts the next
// sample, or, after the last, sums up the spread. A cancelled sample
// stops the batch. It reports whether a batch of rv's agent still runs.
func (p *runPane) sampleEnded(rv *runView) (tea.Cmd, bool) {
	b := p.batch
	if b == nil || b.agentPath != rv.agentPath || rv.record == nil {
		return nil, false
	}
	b.recs = append(b.recs, *rv.record)
	if rv.record.Reason == vocab.ReasonCancelledByParent {
		p.batch = nil
		return p.e.notify(fmt.Sprintf("samples stopped after %d of %d", len(b.recs), b.n), false), false
	}
	if b.started < b.n {
		b.started++
		return p.startWith(b.f, b.task, b.context, b.project, b.approve), true
	}
	p.batch = nil
	sp := rundiff.SpreadOf(b.recs)
	if p.spreads == nil {
		p.spreads = map[string][]string{}
	}
	p.spreads[rv.agentPath] = strings.Split(strings.TrimSuffix(rundiff.SpreadText(sp), "\n"), "\n")
	return p.e.notify(fmt.Sprintf("%d samples: %d completed", sp.Runs, sp.Completed), sp.Completed < sp.Runs), false
}

// sampleLines is the Run pane's lines about the samples of the agent at
// path: the batch's progress, or the spread of the last one.
func (p *runPane) sampleLines(path string, w int) []string {
	st := &p.e.st
	if b := p.batch; b != nil && b.agentPath == path {
		return wrap(st.Hint.Render(fmt.Sprintf("samples: run %d of %d", b.started, b.n)), w)
	}
	var out []string
	for _, l := range p.spreads[path] {
		out = append(out, wrap(st.Dim.Render(Sanitize(l)), w)...)
	}
	return out
}
