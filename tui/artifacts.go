package tui

import (
	"fmt"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// artifactsPane is the Artifacts tab: the past runs of the selected agent,
// newest first, read from the runs folder.
type artifactsPane struct {
	e         *env
	scroll    scroller
	agentPath string // whose runs records holds
	records   []runfolder.Record
	err       error
	loading   bool
	valid     bool
	gen       int
	sel       int
	key       artifactsKey
	cache     []string
}

// artifactsMsg carries a listing of the runs folder back to Update.
type artifactsMsg struct {
	agentPath string
	gen       int
	records   []runfolder.Record
	err       error
}

func (p *artifactsPane) invalidate() { p.valid, p.cache = false, nil }

// selected returns the chosen run, or nil.
func (p *artifactsPane) selected() *runfolder.Record {
	if p.sel < 0 || p.sel >= len(p.records) {
		return nil
	}
	return &p.records[p.sel]
}

func (p *artifactsPane) keyMap() help.KeyMap { return p.e.keys.Artifacts }
func (p *artifactsPane) scroller() *scroller { return &p.scroll }

// handleKey opens the chosen run, and moves the choice when the pane has
// focus.
func (p *artifactsPane) handleKey(msg tea.KeyPressMsg, focused bool) (tea.Cmd, bool) {
	k, mv := p.e.keys.Artifacts, p.e.keys.Move
	switch {
	case key.Matches(msg, k.Open):
		return p.open(), true
	case key.Matches(msg, k.Pager):
		return p.pager(), true
	case key.Matches(msg, k.Keep):
		if r := p.selected(); r != nil {
			return p.e.keepRun(*r), true
		}
		return nil, true
	case focused && moveChoice(msg, mv, &p.sel, len(p.records)):
		return nil, true
	case focused && key.Matches(msg, k.Choose):
		return p.open(), true
	}
	return nil, false
}

// need lists the selected agent's runs in the background when the
// listing is stale.
func (p *artifactsPane) need(int) tea.Cmd {
	e := p.e
	if e.opts.Runner == nil {
		return nil
	}
	f := e.selected()
	if f == nil || f.Name() == "" {
		return nil
	}
	if p.agentPath == f.Path && (p.valid || p.loading) {
		return nil
	}
	if p.agentPath != f.Path {
		p.records, p.err, p.sel = nil, nil, 0
	}
	p.agentPath, p.loading = f.Path, true
	p.gen++
	gen, dir, name, path := p.gen, e.opts.Runner.Dir(), f.Name(), f.Path
	return func() tea.Msg {
		recs, err := runfolder.ListRuns(dir, runfolder.Filter{Agent: name})
		return artifactsMsg{agentPath: path, gen: gen, records: recs, err: err}
	}
}

// listed stores a listing unless a newer one was asked for.
func (p *artifactsPane) listed(msg artifactsMsg) {
	if msg.gen != p.gen {
		return
	}
	p.loading, p.valid = false, true
	p.records, p.err = msg.records, msg.err
	p.sel = min(p.sel, max(len(p.records)-1, 0))
}

// artifactsKey is what the Artifacts pane's lines depend on.
type artifactsKey struct {
	gen, sel, w, stGen, catGen int
	path, agentPath            string
	valid, loading             bool
	focused                    bool
}

func (p *artifactsPane) content(w int) blocks {
	k := artifactsKey{gen: p.gen, sel: p.sel, w: w, stGen: p.e.stGen, catGen: p.e.catGen, agentPath: p.agentPath, valid: p.valid, loading: p.loading, focused: p.e.paneFocused}
	if f := p.e.selected(); f != nil {
		k.path = f.Path
	}
	if k != p.key || p.cache == nil {
		p.key, p.cache = k, p.lines(w)
	}
	return lines(p.cache)
}

// lines renders the Artifacts pane: a few lines per run, built when
// shown.
func (p *artifactsPane) lines(w int) []string {
	e := p.e
	st := &e.st
	f := e.selected()
	switch {
	case e.opts.Runner == nil:
		return wrap("Trial runs are off: "+Sanitize(e.runnerUnavailable()), w)
	case f == nil:
		return dimLines(st, "Select an agent to see its runs.", w)
	case f.Name() == "":
		return wrap(fileLabel(f)+" has no name, so no run can belong to it.", w)
	}
	title := fmt.Sprintf("Runs of %s", fileLabel(f))
	if p.agentPath == f.Path && p.valid {
		title += fmt.Sprintf(" (%d)", len(p.records))
	}
	out := spread(st.Title.Render(title), st.Dim.Render("newest first"), w)
	if notice := p.notice(f, w); notice != nil {
		return append(out, notice...)
	}
	out = append(out, p.runRows(w)...)
	if r := p.selected(); r != nil {
		out = append(out, p.runDetail(r, w)...)
	}
	return out
}

// notice is what the pane shows of agent f in place of its runs: that
// they are being read, cannot be listed, or that there are none (and
// why: f does not load, or has not run yet). It is nil when there are
// runs to list.
func (p *artifactsPane) notice(f *lint.File, w int) []string {
	e := p.e
	st := &e.st
	switch {
	case p.agentPath != f.Path || (p.loading && !p.valid):
		return []string{st.Dim.Render("Reading " + Sanitize(e.shortPath(e.opts.Runner.Dir())) + "…")}
	case p.err != nil:
		return wrap(st.Error.Render("cannot list runs: ")+Sanitize(p.err.Error()), w)
	case len(p.records) == 0 && f.Status == lint.NotLoaded:
		return wrap(fileLabel(f)+" is not loaded: "+Sanitize(f.Reason)+". The runtime would not run it; enable its feed in SkillFeeds in netclaw.json, and its runs show here once it has run.", w)
	case len(p.records) == 0 && f.Status != lint.Loaded:
		return wrap(fileLabel(f)+" is rejected: the runtime would not run it. Fix the definition first (the Definition pane, "+keyName(e.keys.Browser.Tab1)+", says why); its runs show here once it loads and has run.", w)
	case len(p.records) == 0:
		return wrap("No runs yet. Start one in the Run pane ("+keyName(e.keys.Browser.Tab3)+", then "+keyName(e.keys.Run.Run)+"); its result.md, transcript and any truncated output show here.", w)
	}
	return nil
}

// runColumns lays out the runs table in a pane w wide: started, state,
// reason (what is left), took. On a narrow pane the reason column goes.
type runColumns struct {
	layout                      string // the started time's format
	dateW, outW, reasonW, tookW int
}

// newRunColumns fits the runs table's columns to w.
func newRunColumns(w int) runColumns {
	c := runColumns{layout: "2006-01-02 15:04", outW: 9, tookW: 7}
	if w < 70 {
		c.layout = "01-02 15:04"
	}
	c.dateW = len(c.layout)
	c.reasonW = w - 2 - c.dateW - 2 - c.outW - 2 - 1 - c.tookW
	return c
}

// noReason reports whether the pane is too narrow for the reason column.
func (c runColumns) noReason() bool { return c.reasonW < 8 }

// row is one row of the table, cut to the columns.
func (c runColumns) row(date, outcome, reason, took string) string {
	if c.noReason() {
		return fmt.Sprintf("%s  %s %s", fit(date, c.dateW), fit(outcome, c.outW), fmt.Sprintf("%*s", c.tookW, took))
	}
	return fmt.Sprintf("%s  %s  %s %s", fit(date, c.dateW), fit(outcome, c.outW), fit(reason, c.reasonW), fmt.Sprintf("%*s", c.tookW, took))
}

// runRows is the runs table: a header, then a row per run, the selected
// one marked. A reason the column would cut (or that has no column) is
// shown whole, wrapped, in a detail line under its row.
func (p *artifactsPane) runRows(w int) []string {
	e := p.e
	st := &e.st
	cols := newRunColumns(w)
	out := []string{st.Label.Render(cut("  "+cols.row("started", "state", "reason", "took"), w))}
	for i, r := range p.records {
		took := "—"
		if r.Timings.TotalMS > 0 {
			took = dur(time.Duration(r.Timings.TotalMS) * time.Millisecond)
		}
		reason := Sanitize(vocab.ReasonText(r.Reason))
		line := cols.row(r.StartedAt.Local().Format(cols.layout), Sanitize(r.State), reason, took)
		out = append(out, choiceRow(st, line, w, i == p.sel, e.paneFocused))
		if r.Reason != "" && (cols.noReason() || ansi.StringWidth(reason) > cols.reasonW) {
			for _, l := range wrap("↳ "+reason, w-4) {
				out = append(out, "    "+st.Dim.Render(l))
			}
		}
	}
	return out
}

// runDetail describes the selected run r under the table: its suite,
// task, state and error, its artifacts, and the keys that open them.
func (p *artifactsPane) runDetail(r *runfolder.Record, w int) []string {
	e := p.e
	st := &e.st
	out := []string{"", st.Label.Render("Run " + shortID(r.RunID))}
	if r.Suite != nil {
		out = append(out, "  "+cut("Suite: "+Sanitize(r.Suite.String()), w-2))
	}
	out = append(out, indentLines("  ", wrap("Task: "+Sanitize(r.Task), w-2))...)
	if r.Reason != "" {
		out = append(out, indentLines("  ", wrap("State: "+Sanitize(outcomeText(r)), w-2))...)
	}
	if r.Error != "" {
		for _, l := range wrap(SanitizeText(e.shortenPaths(r.Error)), w-2) {
			out = append(out, "  "+st.Dim.Render(l))
		}
	}
	out = append(out, artifactLines(st, r.Dir, r.Files, e.shortenPaths, w)...)
	out = append(out, "")
	k := e.keys
	for _, l := range wrap(keyName(k.Browser.Focus)+": focus the list · "+keyName(k.Artifacts.Open)+": open in the viewer · "+keyName(k.Artifacts.Pager)+": open in $PAGER", w) {
		out = append(out, st.Dim.Render(l))
	}
	return out
}

// open opens the selected run's folder in the viewer.
func (p *artifactsPane) open() tea.Cmd {
	r := p.selected()
	if r == nil {
		return nil
	}
	return p.e.openViewer(r.Dir)
}

// pager opens the selected run's result.md in $PAGER.
func (p *artifactsPane) pager() tea.Cmd {
	r := p.selected()
	if r == nil {
		return nil
	}
	return pagerCmd(p.e.opts.Environ, filepath.Join(r.Dir, runfolder.ResultFile))
}
