package tui

import (
	"fmt"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/runner"
)

// artifactsPane is the Artifacts tab: the past runs of the selected agent,
// newest first, read from the runs folder.
type artifactsPane struct {
	agentPath string // whose runs records holds
	records   []runner.Record
	err       error
	loading   bool
	valid     bool
	gen       int
	sel       int
}

// artifactsMsg carries a listing of the runs folder back to Update.
type artifactsMsg struct {
	agentPath string
	gen       int
	records   []runner.Record
	err       error
}

func (p *artifactsPane) invalidate() { p.valid = false }

// selected returns the chosen run, or nil.
func (p *artifactsPane) selected() *runner.Record {
	if p.sel < 0 || p.sel >= len(p.records) {
		return nil
	}
	return &p.records[p.sel]
}

// refreshArtifacts lists the selected agent's runs in the background when
// the Artifacts pane shows and its listing is stale.
func (m *Model) refreshArtifacts() tea.Cmd {
	if m.tab != tabArtifacts || m.opts.Runner == nil {
		return nil
	}
	f := m.list.selected()
	if f == nil || f.Name() == "" {
		return nil
	}
	p := &m.arts
	if p.agentPath == f.Path && (p.valid || p.loading) {
		return nil
	}
	if p.agentPath != f.Path {
		p.records, p.err, p.sel = nil, nil, 0
	}
	p.agentPath, p.loading = f.Path, true
	p.gen++
	gen, dir, name, path := p.gen, m.opts.Runner.Dir(), f.Name(), f.Path
	return func() tea.Msg {
		recs, err := runner.ListRuns(dir, runner.Filter{Agent: name})
		return artifactsMsg{agentPath: path, gen: gen, records: recs, err: err}
	}
}

// artifactsListed stores a listing unless a newer one was asked for.
func (m *Model) artifactsListed(msg artifactsMsg) {
	p := &m.arts
	if msg.gen != p.gen {
		return
	}
	p.loading, p.valid = false, true
	p.records, p.err = msg.records, msg.err
	p.sel = min(p.sel, max(len(p.records)-1, 0))
}

// artifactsContent renders the Artifacts pane.
func (m *Model) artifactsContent(w int) []string {
	st := &m.st
	f := m.list.selected()
	switch {
	case m.opts.Runner == nil:
		return wrap("Trial runs are off: "+Sanitize(m.runnerUnavailable()), w)
	case f == nil:
		return []string{st.Dim.Render("Select an agent to see its runs.")}
	case f.Name() == "":
		return wrap(fileLabel(f)+" has no name, so no run can belong to it.", w)
	}
	p := &m.arts
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	title := fmt.Sprintf("Runs of %s", fileLabel(f))
	if p.agentPath == f.Path && p.valid {
		title += fmt.Sprintf(" (%d)", len(p.records))
	}
	add(spread(st.Title.Render(title), st.Dim.Render("newest first"), w))
	switch {
	case p.agentPath != f.Path || (p.loading && !p.valid):
		add(st.Dim.Render("Reading " + Sanitize(m.shortPath(m.opts.Runner.Dir())) + "…"))
		return out
	case p.err != nil:
		add(wrap(st.Error.Render("cannot list runs: ")+Sanitize(p.err.Error()), w)...)
		return out
	case len(p.records) == 0:
		add(wrap("No runs yet. Start one in the Run pane (3, then r); its result.md, transcript and any truncated output show here.", w)...)
		return out
	}
	// Columns: started, state, reason (what is left), took.
	layout := "2006-01-02 15:04"
	if w < 70 {
		layout = "01-02 15:04"
	}
	dateW, outW, tookW := len(layout), 9, 7
	reasonW := max(w-2-dateW-2-outW-2-1-tookW, 8)
	row := func(date, outcome, reason, took string) string {
		return fmt.Sprintf("%s  %s  %s %s", fit(date, dateW), fit(outcome, outW), fit(reason, reasonW), fmt.Sprintf("%*s", tookW, took))
	}
	add(st.Label.Render(cut("  "+row("started", "state", "reason", "took"), w)))
	for i, r := range p.records {
		took := "—"
		if r.Timings.TotalMS > 0 {
			took = dur(time.Duration(r.Timings.TotalMS) * time.Millisecond)
		}
		line := row(r.StartedAt.Local().Format(layout), Sanitize(r.State), Sanitize(runner.ReasonText(r.Reason)), took)
		switch {
		case i == p.sel && m.focus == focusPane:
			add(st.ListSelected.Render(fit("› "+line, w)))
		case i == p.sel:
			add(st.ListCursor.Render(fit("› "+line, w)))
		default:
			add(cut("  "+line, w))
		}
	}
	if r := p.selected(); r != nil {
		add("", st.Label.Render("Run "+shortID(r.RunID)))
		for _, l := range wrap("Task: "+Sanitize(r.Task), w-2) {
			add("  " + l)
		}
		if r.Error != "" {
			for _, l := range wrap(SanitizeText(m.shortenPaths(r.Error)), w-2) {
				add("  " + st.Dim.Render(l))
			}
		}
		add(artifactLines(st, r.Dir, r.Files, m.shortenPaths, w)...)
		add("")
		for _, l := range wrap("enter: focus the list · o: open in the viewer · p: open in $PAGER", w) {
			add(st.Dim.Render(l))
		}
	}
	return out
}

// openArtifacts opens the selected run's folder in the viewer.
func (m *Model) openArtifacts() tea.Cmd {
	r := m.arts.selected()
	if r == nil {
		return nil
	}
	return m.openViewer(r.Dir)
}

// openRunArtifacts opens the shown run's folder in the viewer.
func (m *Model) openRunArtifacts() tea.Cmd {
	sel := m.list.selected()
	if sel == nil {
		return nil
	}
	rv := m.runs.current(sel.Path)
	if rv == nil || !rv.ended() {
		return nil
	}
	return m.openViewer(rv.run.Dir())
}

// pagerArtifact opens the selected run's result.md in $PAGER.
func (m *Model) pagerArtifact() tea.Cmd {
	r := m.arts.selected()
	if r == nil {
		return nil
	}
	return m.pagerFile(filepath.Join(r.Dir, runner.ResultFile))
}
