package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// testsPane is the Tests tab: the cases of the selected agent's suite
// (<agent>.test.yaml beside it), how their recordings stand, and the
// results of the last run of the suite, filled in as cases finish. It
// reads the suite and its recordings again whenever the catalog changes,
// so an edit of the definition marks the recorded results stale at once.
type testsPane struct {
	e      *env
	scroll scroller

	// path is the selected agent's own suite path (<name>.test.yaml), which
	// the state below is about; file is the suite file shown (path, or
	// another one whose agent: names the agent); elsewhere is the agent
	// the file at path tests when it is another one. gen counts the
	// readings asked for, so a late one is dropped.
	path, file, elsewhere string
	catGen                int
	gen                   int
	loading               bool
	suite                 *suitefile.Suite
	recs                  []suite.CaseRecordings
	missing               bool // no suite file for this agent
	err                   error

	// The last run of the suite: its results by case name, whether it is
	// still going, and the channel its results come in on.
	running bool
	runGen  int
	results map[string]*suite.CaseResult
	// matrix holds every result of a suite that runs its cases on
	// several models (models:); results then keeps each case's worst.
	matrix   []*suite.CaseResult
	cancel   context.CancelFunc
	resultCh chan tea.Msg
	// runsDone holds a channel per run started, closed when its
	// goroutine has ended: every sample's folder is written then.
	runsDone []chan struct{}
	// runSHA is the definition's SHA-256 when the run started: results of
	// an older definition show stale.
	runSHA string
	// pending is a start asked for before the suite was read.
	pending bool

	sel   int
	key   testsKey
	cache []string
}

// testsReadMsg carries a suite and how its recordings stand.
type testsReadMsg struct {
	// path is the agent's own suite path, which keys the reading; file is
	// the suite file read (path, or another suite whose agent: names the
	// agent); elsewhere the agent the file at path tests instead.
	path, file, elsewhere string
	gen                   int
	suite                 *suitefile.Suite
	recs                  []suite.CaseRecordings
	missing               bool
	err                   error
}

// testsCaseMsg carries one case's result of a run of the suite; done
// marks the end of the run.
type testsCaseMsg struct {
	runGen int
	result *suite.CaseResult
	done   bool
}

// keyMap is the Tests pane's keys; once enter has moved the keys into the
// pane, its footer says so: enter opens the chosen case's run, esc goes
// back to the list.
func (p *testsPane) keyMap() help.KeyMap {
	k := p.e.keys
	if p.e.paneFocused {
		return bindings{relabel(k.Tests.Choose, "open the case's run"), k.Tests.Run, relabel(k.Browser.Back, "back to the list")}
	}
	return k.Tests
}
func (p *testsPane) scroller() *scroller { return &p.scroll }

// suitePath is the selected agent's suite file: <agents>/<name>.test.yaml.
func (p *testsPane) suitePath(f *lint.File) string {
	return filepath.Join(filepath.Dir(f.Path), f.Name()+suitefile.TestSuffix)
}

// need reads the selected agent's suite and its recordings when the
// selection or the catalog changed.
func (p *testsPane) need(int) tea.Cmd {
	e := p.e
	f := e.selected()
	if f == nil || f.Name() == "" || e.cat == nil {
		return nil
	}
	path := p.suitePath(f)
	if path == p.path && p.catGen == e.catGen {
		return nil
	}
	if path != p.path {
		p.stop()
		p.suite, p.recs, p.results, p.sel, p.missing, p.err, p.pending = nil, nil, nil, 0, false, nil, false
	}
	p.path, p.catGen, p.loading = path, e.catGen, true
	p.gen++
	gen, cat, rn, nc, words := p.gen, e.cat, e.opts.Runner, e.netClaw(), e.opts.Words.Eval
	name := f.Name()
	return func() tea.Msg {
		msg := testsReadMsg{path: path, gen: gen, file: path}
		s, elsewhere, err := findSuiteOf(name, path)
		switch {
		case err != nil:
			msg.err = err
			return msg
		case s == nil:
			msg.missing, msg.elsewhere = true, elsewhere
			return msg
		}
		suitefile.Check(s, cat)
		// A case's approve: meets its audience, else the suite's, else
		// the browser's.
		suitefile.CheckApproveAudience(s, approve.NewAudienceCheck(cat.Config).Audit, nc.Audience.String())
		msg.suite, msg.file = s, s.Path
		msg.recs = suite.Recordings(s, suite.Options{Runner: rn, Catalog: cat, NetClaw: nc, Words: words})
		return msg
	}
}

// findSuiteOf reads the test suite of the agent name: the suite file at
// path (<agents>/<name>.test.yaml) unless its agent: names another agent,
// else the first suite file beside it whose agent: names this one (nil
// when there is none). elsewhere is the agent the file at path tests when
// that is another one. It reads files: call it from a Cmd.
func findSuiteOf(name, path string) (s *suitefile.Suite, elsewhere string, err error) {
	found, err := suitefile.Find(filepath.Dir(path), suitefile.TestSuffix)
	if err != nil {
		return nil, "", err
	}
	// The file named after the agent first: it is the agent's unless its
	// agent: says otherwise (one that cannot be read is the agent's too).
	if slices.Contains(found, path) {
		if s := suitefile.Load(path); s.Agent == name {
			return s, "", nil
		} else {
			elsewhere = s.Agent
		}
	}
	for _, other := range found {
		if other == path {
			continue
		}
		if s := suitefile.Load(other); s.AgentPos.Line > 0 && s.Agent == name {
			return s, elsewhere, nil
		}
	}
	return nil, elsewhere, nil
}

// read stores a reading unless a newer one was asked for, and starts a
// run asked for before it came.
func (p *testsPane) read(msg testsReadMsg) tea.Cmd {
	if msg.gen != p.gen || msg.path != p.path {
		return nil
	}
	p.loading = false
	p.suite, p.recs, p.missing, p.err = msg.suite, msg.recs, msg.missing, msg.err
	p.file, p.elsewhere = msg.file, msg.elsewhere
	if p.suite != nil {
		p.sel = min(p.sel, max(len(p.suite.Cases)-1, 0))
	}
	p.cache = nil
	if p.pending {
		p.pending = false
		return p.start()
	}
	return nil
}

// handleKey runs the suite, opens a case's run, and moves the choice.
func (p *testsPane) handleKey(msg tea.KeyPressMsg, focused bool) (tea.Cmd, bool) {
	k, mv := p.e.keys.Tests, p.e.keys.Move
	n := 0
	if p.suite != nil {
		n = len(p.suite.Cases)
	}
	switch {
	case key.Matches(msg, k.Run):
		return p.start(), true
	case key.Matches(msg, k.Open):
		return p.open(), true
	case focused && moveChoice(msg, mv, &p.sel, n):
		return nil, true
	case focused && key.Matches(msg, k.Choose):
		return p.open(), true
	}
	return nil, false
}

// start runs the suite in the background: recorded samples replay, the
// rest run live; each case's result comes back as a testsCaseMsg.
func (p *testsPane) start() tea.Cmd {
	e := p.e
	f := e.selected()
	switch {
	case e.opts.Runner == nil:
		return e.notify("trial runs are off: "+e.runnerUnavailable(), true)
	case f == nil || f.Name() == "":
		return e.notify("select an agent to run its tests", false)
	case p.loading || p.path != p.suitePath(f):
		p.pending = true
		return nil
	case p.running:
		return e.notify("the suite is already running", false)
	case p.suite != nil && p.suite.Broken():
		return e.notify(brokenNote(p.suite, keyName(e.keys.Tests.Run)), true)
	case p.suite == nil:
		return e.notify("no suite to run: write "+filepath.Base(p.path)+" beside the agent"+demoSuitesHint(e.opts.Demo, "; in", keyName(e.keys.Tests.Run)), true)
	}
	p.stop()
	p.running, p.results, p.matrix, p.runSHA = true, map[string]*suite.CaseResult{}, nil, f.SHA256
	p.runGen++
	p.cache = nil
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	ch := make(chan tea.Msg, len(p.suite.Cases)+1)
	p.resultCh = ch
	gen, s, cat, rn, nc, words := p.runGen, p.suite, e.cat, e.opts.Runner, e.netClaw(), e.opts.Words.Eval
	done := make(chan struct{})
	p.runsDone = append(slices.DeleteFunc(p.runsDone, closed), done)
	go func() {
		defer close(done)
		suite.Run(ctx, []*suitefile.Suite{s}, suite.Options{
			Browser: true,
			// Every sample's run opens from the pane (enter): a
			// replay's folder is kept too.
			Runner: rn, Catalog: cat, Mode: evalrec.Default, Words: words, KeepRuns: true, NetClaw: nc,
			OnCase: func(_ *suitefile.Suite, r *suite.CaseResult) { ch <- testsCaseMsg{runGen: gen, result: r} },
		})
		ch <- testsCaseMsg{runGen: gen, done: true}
	}()
	return tea.Batch(waitTestsCmd(ch), e.notify("running "+filepath.Base(p.file)+"…", false))
}

// brokenNote says that a suite cannot run, and where its first error is.
func brokenNote(s *suitefile.Suite, run string) string {
	note := filepath.Base(s.Path) + " is broken"
	if len(s.Diagnostics) > 0 {
		d := s.Diagnostics[0]
		note += fmt.Sprintf(" (%d:%d: %s [%s])", d.Line, d.Column, d.Message, d.Rule)
	}
	return Sanitize(note + ": fix it, then " + run + " runs it")
}

// closed reports whether ch is closed (it never carries values).
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// waitTestsCmd waits for the next result of a run of the suite.
func waitTestsCmd(ch chan tea.Msg) tea.Cmd {
	return func() tea.Msg { return <-ch }
}

// caseDone stores a case's result and waits for the next.
func (p *testsPane) caseDone(msg testsCaseMsg) tea.Cmd {
	if msg.runGen != p.runGen {
		return nil
	}
	p.cache = nil
	if msg.done {
		p.running = false
		passed, bad := 0, false
		for _, r := range p.results {
			if r.Status.OK() {
				passed++
			} else {
				bad = true
			}
		}
		return p.e.notify(fmt.Sprintf("%s: %d of %d %s passed", filepath.Base(p.file), passed, len(p.results), evalrec.Plural(len(p.results), "case", "cases")), bad)
	}
	r := msg.result
	if r.Model != "" {
		p.matrix = append(p.matrix, r)
		if old := p.results[r.Case.Name]; old != nil && !old.Status.OK() {
			return waitTestsCmd(p.resultCh)
		}
	}
	p.results[r.Case.Name] = r
	return waitTestsCmd(p.resultCh)
}

// close cancels a run of the suite still going (its live samples end
// Cancelled · cancelled_by_parent) and waits until their folders are
// written, as the Run pane's close does. Call it when the program has
// returned.
func (p *testsPane) close() {
	p.stop()
	for _, done := range p.runsDone {
		<-done
	}
	p.runsDone = nil
}

// stop cancels a run of the suite still going.
func (p *testsPane) stop() {
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	p.running = false
	p.runGen++
}

// open opens the chosen case's run folder in the viewer.
func (p *testsPane) open() tea.Cmd {
	if p.suite == nil || p.sel >= len(p.suite.Cases) {
		return nil
	}
	r := p.results[p.suite.Cases[p.sel].Name]
	if r != nil {
		for _, s := range r.Samples {
			if s.RunDir != "" {
				return p.e.openViewer(s.RunDir)
			}
		}
	}
	return p.e.notify("this case has no run yet: "+keyName(p.e.keys.Tests.Run)+" runs the suite", false)
}

// testsKey is what the Tests pane's lines depend on.
type testsKey struct {
	gen, runGen, sel, w, stGen, catGen int
	path                               string
	running, loading, focused          bool
	results                            int
}

func (p *testsPane) content(w int) blocks {
	k := testsKey{gen: p.gen, runGen: p.runGen, sel: p.sel, w: w, stGen: p.e.stGen, catGen: p.catGen, path: p.path,
		running: p.running, loading: p.loading, focused: p.e.paneFocused, results: len(p.results)}
	if f := p.e.selected(); f != nil && f.Name() != "" {
		k.path = p.suitePath(f)
	}
	if k != p.key || p.cache == nil {
		p.key, p.cache = k, p.lines(w)
	}
	return lines(p.cache)
}

// outdated reports whether the results are of another definition than
// the selected one (an edit, or a revert, since the run).
func (p *testsPane) outdated() bool {
	f := p.e.selected()
	return f != nil && f.SHA256 != p.runSHA
}

// caseState is a case's line: its status word, samples, time and note.
func (p *testsPane) caseState(i int, c *suitefile.Case) (status, samples, note string, bad bool) {
	samples = fmt.Sprintf("%d", c.Repeat)
	var rec *suite.CaseRecordings
	if i < len(p.recs) {
		rec = &p.recs[i]
	}
	// An edit since the results makes them stale at once.
	if rec != nil && rec.Stale > 0 {
		return "stale", fmt.Sprintf("%d/%d", rec.Recorded, c.Repeat), strings.Join(rec.Changes, "; "), true
	}
	if r := p.results[c.Name]; r != nil {
		if !p.outdated() {
			note = r.Message
			if r.Duration > 0 {
				note = strings.TrimSpace(dur(r.Duration) + "  " + note)
			}
			return string(r.Status), fmt.Sprintf("%d/%d", r.Passed, len(r.Samples)), note, !r.Status.OK()
		}
		// The results are of another definition. Recordings that match
		// the definition now (a revert to the recorded bytes) say how the
		// case stands; without them the results are stale.
		if rec == nil || rec.Recorded == 0 || rec.Err != "" {
			return "stale", fmt.Sprintf("%d/%d", r.Passed, len(r.Samples)), "the definition changed since this run", true
		}
	}
	if p.running {
		return "running", samples, "", false
	}
	switch {
	case rec == nil:
		return "", samples, "", false
	case rec.Err != "":
		return "error", samples, rec.Err, true
	case rec.Recorded == c.Repeat:
		return "recorded", samples, "replays without a model", false
	case rec.Recorded > 0:
		return "partly", fmt.Sprintf("%d/%d", rec.Recorded, c.Repeat), "recorded; the rest runs live", false
	}
	return "live", samples, "not recorded: runs against the model", false
}

// lines renders the Tests pane.
func (p *testsPane) lines(w int) []string {
	e := p.e
	st := &e.st
	f := e.selected()
	switch {
	case f == nil:
		return []string{st.Dim.Render("Select an agent to see its tests.")}
	case f.Name() == "":
		return wrap(fileLabel(f)+" has no name, so no suite can test it.", w)
	}
	name := filepath.Base(p.path)
	switch {
	case p.path != p.suitePath(f) || (p.loading && p.suite == nil && !p.missing):
		return []string{st.Dim.Render("Reading " + Sanitize(name) + "…")}
	case p.err != nil:
		return wrap(st.Error.Render("cannot read the suite: ")+Sanitize(p.err.Error()), w)
	case p.missing:
		return p.noSuiteLines(f, name, w)
	}
	s := p.suite
	right := fmt.Sprintf("%d %s", len(s.Cases), evalrec.Plural(len(s.Cases), "case", "cases"))
	switch {
	case s.Broken():
		right = "broken"
	case p.running:
		right = fmt.Sprintf("running %d/%d", len(p.results), len(s.Cases))
	}
	out := spread(st.Title.Render("Tests of "+fileLabel(f)), st.Dim.Render(right), w)
	out = append(out, st.Dim.Render(cut(Sanitize(e.shortPath(p.file)), w)))
	for _, d := range s.Diagnostics {
		out = append(out, styledLines(st.Error, wrap(fmt.Sprintf("%d:%d: %s [%s]", d.Line, d.Column, Sanitize(d.Message), d.Rule), w))...)
	}
	out = append(out, p.caseRows(w)...)
	out = append(out, p.matrixLines(w)...)
	if p.sel < len(s.Cases) {
		status, _, _, _ := p.caseState(p.sel, s.Cases[p.sel])
		out = append(out, p.detail(s.Cases[p.sel], status == "stale", w)...)
	}
	out = append(out, "")
	k := e.keys
	return append(out, styledLines(st.Dim, wrap(keyName(k.Tests.Run)+": run the suite (recorded cases replay, the rest run live) · "+keyName(k.Tests.Open)+": open the case's run", w))...)
}

// noSuiteLines is the pane of agent f when it has no suite (name is the
// suite file it would have): that name's suite tests another agent, if
// it does, a sample suite to write, and how to run it.
func (p *testsPane) noSuiteLines(f *lint.File, name string, w int) []string {
	e := p.e
	st := &e.st
	out := []string{st.Title.Render("Tests of " + fileLabel(f))}
	if p.elsewhere != "" {
		out = append(out, wrap(Sanitize(name)+" tests "+Sanitize(p.elsewhere)+" (its agent: key), so it is shown under that agent.", w)...)
		out = append(out, "")
		out = append(out, wrap("No suite yet. Write one beside the definition, with agent: "+Sanitize(f.Name())+":", w)...)
	} else {
		out = append(out, wrap("No suite yet. Write "+Sanitize(name)+" beside the definition:", w)...)
	}
	out = append(out, "", st.Dim.Render("  cases:"), st.Dim.Render("    - name: answers the question"), st.Dim.Render("      task: What does main.go do?"),
		st.Dim.Render("      expect:"), st.Dim.Render("        contains: main"))
	out = append(out, "")
	if e.opts.Demo {
		// The demo's home goes when it ends and cannot record: a
		// suite written here is lost, and --record is refused.
		return append(out, wrap("Then "+keyName(e.keys.Tests.Run)+" runs it here"+demoSuitesHint(true, ". In", keyName(e.keys.Tests.Run)), w)...)
	}
	return append(out, wrap("Then "+keyName(e.keys.Tests.Run)+" runs it here, and "+e.opts.Words.Eval.Test+" "+e.opts.Words.Eval.Record+" keeps recordings for CI.", w)...)
}

// caseNameWidth is the width of the case names' column in a pane w wide:
// the longest name, within what leaves the note 10 columns; a case's
// time starts its note and is never cut, so the names give way to it.
func (p *testsPane) caseNameWidth(w int) int {
	nameW := 8
	for _, c := range p.suite.Cases {
		nameW = max(nameW, len([]rune(Sanitize(c.Name))))
	}
	nameW = min(nameW, max(w-2-9-7-10, 8)) // the note gets at least 10 columns
	for _, c := range p.suite.Cases {
		if r := p.results[c.Name]; r != nil && r.Duration > 0 {
			// (On a pane too narrow for any time, the names stay.)
			if short := w - 2 - 9 - 2 - 6 - len(dur(r.Duration)); short >= 4 && short < nameW {
				nameW = short
			}
		}
	}
	return nameW
}

// caseRows is a row per case of the suite: its state (failures marked),
// name, samples and note, the selected one marked.
func (p *testsPane) caseRows(w int) []string {
	e := p.e
	st := &e.st
	nameW := p.caseNameWidth(w)
	var out []string
	for i, c := range p.suite.Cases {
		status, samples, note, bad := p.caseState(i, c)
		word := fit(status, 8)
		switch {
		case bad:
			word = st.Error.Render(word)
		case status == "pass":
			word = st.Title.Render(word)
		default:
			word = st.Dim.Render(word)
		}
		line := word + " " + fit(Sanitize(c.Name), nameW) + "  " + fit(samples, 5) + " " + Sanitize(note)
		out = append(out, choiceRow(st, line, w, i == p.sel, e.paneFocused))
	}
	return out
}

// matrixLines is the matrix of a run on several models: cases by models,
// each cell the samples passed, median time and output tokens, and a
// summary row; nothing when the last run was on one model.
func (p *testsPane) matrixLines(w int) []string {
	if len(p.matrix) == 0 {
		return nil
	}
	st := &p.e.st
	m := suite.NewMatrix(p.suite.Cases, p.matrixModels(), p.matrix)
	if !p.running {
		// The run has ended: a cell with no result did not run, rather
		// than "…" (still running).
		m.EndRun()
	}
	rows := m.Table()
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], ansi.StringWidth(c.Text))
		}
	}
	widths[0] = min(widths[0], max(w/3, 8))
	out := []string{""}
	for i, row := range rows {
		out = append(out, cut(matrixRow(st, row, i == 0, widths), w))
	}
	return out
}

// matrixModels names the matrix's columns: the suite's models: as the
// configuration resolves them, else the models of the last run's
// results, in the order they came.
func (p *testsPane) matrixModels() []string {
	var cfg *lint.Config
	if p.e.cat != nil {
		cfg = p.e.cat.Config
	}
	var names []string
	if ms, err := suitefile.LookupModels(cfg, p.suite.Models); err == nil && len(ms) > 0 {
		for _, m := range ms {
			names = append(names, m.Name)
		}
		return names
	}
	for _, r := range p.matrix {
		if !slices.Contains(names, r.Model) {
			names = append(names, r.Model)
		}
	}
	return names
}

// matrixRow is one row of the matrix, its cells fitted to widths: the
// head row and passing cells as titles, other cells with a status (not
// the case names) as errors.
func matrixRow(st *Styles, row []suite.TableCell, head bool, widths []int) string {
	var b strings.Builder
	for j, c := range row {
		if j > 0 {
			b.WriteString("  ")
		}
		text := fit(Sanitize(c.Text), widths[j])
		switch {
		case head || c.Status == suite.Pass:
			text = st.Title.Render(text)
		case c.Status != "" && j > 0:
			text = st.Error.Render(text)
		}
		b.WriteString(text)
	}
	return b.String()
}

// detail is the chosen case: its task and, after a run, each sample's
// failures.
// A stale case's samples are marked so, never shown as passes; results of
// another definition that the recordings have replaced are not shown.
func (p *testsPane) detail(c *suitefile.Case, stale bool, w int) []string {
	st := &p.e.st
	out := []string{"", st.Label.Render(cut("Case "+Sanitize(c.Name), w))}
	out = append(out, indentLines("  ", wrap("Task: "+Sanitize(c.Task), w-2))...)
	r := p.results[c.Name]
	if r == nil || p.outdated() && !stale {
		return out
	}
	for _, s := range r.Samples {
		out = append(out, "  "+st.Label.Render(cut(sampleHead(s, stale), w-2)))
		out = append(out, p.sampleLines(s, w)...)
	}
	return out
}

// sampleHead names a sample and how it ended ("sample 2: fail (replayed)");
// a stale case's sample is "stale (was …)", never a pass.
func sampleHead(s *suite.SampleResult, stale bool) string {
	if stale {
		head := fmt.Sprintf("sample %d: stale (was %s", s.N, s.Status)
		if s.Ran() {
			head += ", " + s.How
		}
		return head + ")"
	}
	head := fmt.Sprintf("sample %d: %s", s.N, s.Status)
	if s.Ran() {
		head += " (" + s.How + ")"
	}
	return head
}

// sampleLines is what went wrong in a sample, under its head: its error,
// why its recording is stale, each failed expectation with the lines it
// quotes, and the judge's reason.
func (p *testsPane) sampleLines(s *suite.SampleResult, w int) []string {
	st := &p.e.st
	var out []string
	if s.Err != "" {
		out = append(out, indentLines("    ", styledLines(st.Error, wrap(SanitizeText(p.e.shortenPaths(s.Err)), w-4)))...)
	}
	for _, ch := range s.StaleBecause {
		out = append(out, "    "+cut(Sanitize(ch), w-4))
	}
	for _, fl := range s.Failures {
		out = append(out, indentLines("    ", wrap(Sanitize(fl.Expect)+": "+Sanitize(fl.Message), w-4))...)
		for _, l := range fl.Lines {
			out = append(out, "      "+st.Dim.Render(cut(Sanitize(l), w-6)))
		}
	}
	if s.Verdict != nil {
		out = append(out, indentLines("    ", styledLines(st.Dim, wrap("judge: "+Sanitize(s.Verdict.Reason), w-4)))...)
	}
	return out
}

// demoSuitesHint, in the demo, names the agents its suites test (the demo
// carries their recordings) and the key that runs one (run), after lead
// ("; in"); "" otherwise.
func demoSuitesHint(isDemo bool, lead, run string) string {
	agents := demo.TestedAgents()
	if !isDemo || len(agents) == 0 {
		return ""
	}
	if len(agents) == 1 {
		return lead + " the demo, " + agents[0] + " has a suite with recordings: select it and press " + run
	}
	names := strings.Join(agents[:len(agents)-1], ", ") + " and " + agents[len(agents)-1]
	return lead + " the demo, " + names + " have suites with recordings: select one and press " + run
}
