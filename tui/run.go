package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
)

// runTickEvery is how often the clocks of running runs are redrawn.
const runTickEvery = 250 * time.Millisecond

// runView is one trial run started from the browser, as the Run pane
// shows it.
type runView struct {
	run       *runner.Run
	id        string
	agentPath string // the agent file, to find the runs of the selection
	agent     string
	task      string
	context   string
	segs      []runSegment
	next      int // index of the next event to read
	status    runner.Status
	record    *runner.Record // set when the run has ended
	err       error          // reading events failed
	writeErr  error          // the run folder could not be written
	// cache of the stream's rendered lines
	cacheKey   string
	cacheLines []string
}

// runSegment is a stretch of one kind of output: text, thinking, or a
// tool call.
type runSegment struct {
	kind runner.EventKind
	text string
	tool *runner.ToolCall
}

// ended reports whether the run has finished.
func (rv *runView) ended() bool { return rv.record != nil || rv.err != nil }

// add appends an event's output, merging deltas of the same kind.
func (rv *runView) add(ev runner.Event) {
	switch ev.Kind {
	case runner.EventText, runner.EventThinking:
		if n := len(rv.segs); n > 0 && rv.segs[n-1].kind == ev.Kind {
			rv.segs[n-1].text += ev.Text
			return
		}
		rv.segs = append(rv.segs, runSegment{kind: ev.Kind, text: ev.Text})
	case runner.EventToolCall:
		rv.segs = append(rv.segs, runSegment{kind: ev.Kind, tool: ev.Tool})
	case runner.EventToolResult:
		rv.segs = append(rv.segs, runSegment{kind: ev.Kind, tool: ev.Tool})
	case runner.EventDone:
		rv.record = ev.Record
	}
}

// runPane is the Run tab: the trial runs of the selected agent, one shown
// at a time, streaming live.
type runPane struct {
	runs         []*runView
	shown        map[string]string // agent path → id of the run shown
	foldThinking bool
	follow       bool // keep the end of the stream in view
	ticking      bool
	ctx          context.Context
	stop         context.CancelFunc
}

// forAgent returns the runs of the agent file at path, oldest first.
func (p *runPane) forAgent(path string) []*runView {
	var out []*runView
	for _, rv := range p.runs {
		if rv.agentPath == path {
			out = append(out, rv)
		}
	}
	return out
}

// current returns the run shown for the agent at path, or nil.
func (p *runPane) current(path string) *runView {
	runs := p.forAgent(path)
	if len(runs) == 0 {
		return nil
	}
	if id := p.shown[path]; id != "" {
		for _, rv := range runs {
			if rv.id == id {
				return rv
			}
		}
	}
	return runs[len(runs)-1]
}

func (p *runPane) byID(id string) *runView {
	for _, rv := range p.runs {
		if rv.id == id {
			return rv
		}
	}
	return nil
}

func (p *runPane) active() int {
	n := 0
	for _, rv := range p.runs {
		if !rv.ended() {
			n++
		}
	}
	return n
}

// Messages of the Run pane.
type (
	runStartedMsg struct {
		run       *runner.Run
		err       error
		agentPath string
		agent     string
		task      string
		context   string
	}
	// runEventsMsg carries the events from index from on, all that were
	// ready when the first arrived.
	runEventsMsg struct {
		id     string
		from   int
		events []runner.Event
		end    bool  // the run has no more events
		err    error // reading failed (not io.EOF)
		// writeErr says the ended run's folder could not be written.
		writeErr error
	}
	runTickMsg struct{}
)

// startRunCmd starts a trial run in the background (it writes run.json
// before the request goes out).
func startRunCmd(ctx context.Context, rn *runner.Runner, spec runner.Spec, agent string) tea.Cmd {
	return func() tea.Msg {
		r, err := rn.Start(ctx, spec)
		return runStartedMsg{run: r, err: err, agentPath: spec.Agent.Path, agent: agent, task: spec.Task, context: spec.Context}
	}
}

// waitEventsCmd waits for event i of the run, then takes every event
// already there after it.
func waitEventsCmd(ctx context.Context, r *runner.Run, i int) tea.Cmd {
	return func() tea.Msg {
		msg := runEventsMsg{id: r.ID(), from: i}
		ev, err := r.Next(ctx, i)
		for err == nil {
			msg.events = append(msg.events, ev)
			if ev.Kind == runner.EventDone || len(msg.events) >= 512 {
				break
			}
			ev, err = r.Next(doneContext, i+len(msg.events))
		}
		switch {
		case errors.Is(err, io.EOF):
			msg.end = true
		case errors.Is(err, context.Canceled) && ctx.Err() == nil:
			// doneContext: nothing more yet
		case err != nil && ctx.Err() == nil:
			msg.err = err
		}
		if n := len(msg.events); n > 0 && msg.events[n-1].Kind == runner.EventDone {
			msg.end = true
		}
		if msg.end {
			// The run has ended: Wait returns at once, with the error of
			// writing its folder.
			_, msg.writeErr = r.Wait()
		}
		return msg
	}
}

// doneContext is already cancelled: Next with it returns at once.
var doneContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// askRun opens the form for a trial run of the selected agent.
func (m *Model) askRun() tea.Cmd {
	f := m.list.selected()
	switch {
	case m.opts.Runner == nil:
		return m.setFlash("trial runs are off: "+m.runnerUnavailable(), true)
	case f == nil:
		return nil
	case f.Status != lint.Loaded:
		return m.setFlash(fileLabel(f)+" is rejected: the runtime would not run it; fix it first", true)
	}
	m.overlays.push(newRunForm(fileLabel(f), func(task, context string) tea.Cmd {
		return m.startRun(f, task, context)
	}))
	return nil
}

// startRun starts a run of f.
func (m *Model) startRun(f *lint.File, task, context string) tea.Cmd {
	var cfg *lint.Config
	if m.cat != nil {
		cfg = m.cat.Config
	}
	spec := runner.Spec{Agent: f, Config: cfg, Task: task, Context: context, Project: m.opts.Project}
	m.setTab(tabRun)
	return startRunCmd(m.runs.ctx, m.opts.Runner, spec, fileLabel(f))
}

// runStarted registers a started run and starts reading its events.
func (m *Model) runStarted(msg runStartedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash("the run did not start: "+msg.err.Error(), true)
	}
	rv := &runView{
		run: msg.run, id: msg.run.ID(), agentPath: msg.agentPath, agent: msg.agent,
		task: msg.task, context: msg.context, status: msg.run.Status(),
	}
	m.runs.runs = append(m.runs.runs, rv)
	if m.runs.shown == nil {
		m.runs.shown = map[string]string{}
	}
	m.runs.shown[rv.agentPath] = rv.id
	m.runs.follow = true
	return tea.Batch(m.waitEvents(rv.run, 0), m.startTicking())
}

// runEvents adds events to their run; the last one ends it, with a
// notice when the user is looking elsewhere.
func (m *Model) runEvents(msg runEventsMsg) tea.Cmd {
	rv := m.runs.byID(msg.id)
	if rv == nil || msg.from != rv.next {
		return nil
	}
	for _, ev := range msg.events {
		rv.add(ev)
	}
	rv.next += len(msg.events)
	rv.status = rv.run.Status()
	if msg.err != nil {
		rv.err = msg.err
	}
	rv.writeErr = msg.writeErr
	if !msg.end && msg.err == nil {
		return m.waitEvents(rv.run, rv.next)
	}
	if rv.record == nil && rv.err == nil {
		rec := rv.run.Record()
		rv.record = &rec
	}
	m.arts.invalidate()
	cmds := []tea.Cmd{m.refreshArtifacts()}
	switch sel := m.list.selected(); {
	case rv.writeErr != nil:
		first, _, _ := strings.Cut(rv.writeErr.Error(), "\n")
		cmds = append(cmds, m.setFlash(rv.agent+": the run folder could not be written: "+first, true))
	case m.tab != tabRun || sel == nil || sel.Path != rv.agentPath:
		cmds = append(cmds, m.setFlash(rv.agent+": run finished — "+outcomeText(rv.record)+" (tab 3)", rv.record == nil || rv.record.Outcome != runner.Completed))
	}
	return tea.Batch(cmds...)
}

// waitEvents returns the Cmd that reads a run's events from i on.
func (m *Model) waitEvents(r *runner.Run, i int) tea.Cmd {
	if m.eventWait != nil {
		return m.eventWait(r, i)
	}
	return waitEventsCmd(m.runs.ctx, r, i)
}

// startTicking starts the clock tick unless it runs.
func (m *Model) startTicking() tea.Cmd {
	if m.runs.ticking {
		return nil
	}
	m.runs.ticking = true
	return m.tick(runTickEvery, func(time.Time) tea.Msg { return runTickMsg{} })
}

// runTick refreshes the clocks of running runs while any runs.
func (m *Model) runTick() tea.Cmd {
	m.runs.ticking = false
	if m.runs.active() == 0 {
		return nil
	}
	for _, rv := range m.runs.runs {
		if !rv.ended() {
			rv.status = rv.run.Status()
		}
	}
	return m.startTicking()
}

// cancelRun cancels the run shown for the selected agent.
func (m *Model) cancelRun() tea.Cmd {
	sel := m.list.selected()
	if sel == nil {
		return nil
	}
	rv := m.runs.current(sel.Path)
	if rv == nil || rv.ended() {
		return m.setFlash("no running run to cancel", false)
	}
	rv.run.Cancel() // no I/O: it cancels the run's context
	return m.setFlash("cancelling "+shortID(rv.id)+" (cancelled_by_parent)", false)
}

// nextRun shows the next run of the selected agent.
func (m *Model) nextRun() {
	sel := m.list.selected()
	if sel == nil {
		return
	}
	runs := m.runs.forAgent(sel.Path)
	if len(runs) < 2 {
		return
	}
	cur := m.runs.current(sel.Path)
	for i, rv := range runs {
		if rv == cur {
			m.runs.shown[sel.Path] = runs[(i+1)%len(runs)].id
			break
		}
	}
	m.scroll[tabRun] = 0
	m.runs.follow = true
}

// runnerUnavailable says why there is no runner.
func (m *Model) runnerUnavailable() string {
	if m.opts.RunnerErr != nil {
		return m.opts.RunnerErr.Error()
	}
	return "no runs folder"
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// outcomeText is runner.StatusText: "Completed", "Cancelled ·
// cancelled_by_parent", the words runs and run use.
func outcomeText(r *runner.Record) string {
	if r == nil {
		return "ended (its record could not be read)"
	}
	return runner.StatusText(r)
}

// runContent renders the Run pane for the selected file.
func (m *Model) runContent(w int) []string {
	st := &m.st
	sel := m.list.selected()
	switch {
	case m.opts.Runner == nil:
		return wrap("Trial runs are off: "+Sanitize(m.runnerUnavailable()), w)
	case sel == nil:
		return []string{st.Dim.Render("Select an agent to run it.")}
	}
	rv := m.runs.current(sel.Path)
	if rv == nil {
		return m.runIntro(sel, w)
	}
	return m.runView(rv, sel, w)
}

// runIntro tells how a run of sel would go before there is one.
func (m *Model) runIntro(sel *lint.File, w int) []string {
	st := &m.st
	var out []string
	if sel.Status != lint.Loaded {
		return wrap(fileLabel(sel)+" is rejected: the runtime would not run it. Fix it first (see the Definition pane).", w)
	}
	out = append(out, st.Title.Render("Trial run of "+fileLabel(sel)))
	out = append(out, wrap("Press r, give a task (and optional context), and the agent runs against the model NetClaw would use, classified as the runtime would: completed, output_truncated, thinking_only_timeout…", w)...)
	var cfg *lint.Config
	if m.cat != nil {
		cfg = m.cat.Config
	}
	out = append(out, "")
	model, err := runner.ResolveModel(cfg, sel.Def.ModelRole)
	if err != nil {
		out = append(out, wrap(st.Error.Render("model: ")+Sanitize(err.Error()), w)...)
	} else {
		out = append(out, modelLines(st, model, w, true)...)
	}
	out = append(out, limitLines(st, runner.LimitsFor(cfg, sel.Def), w)...)
	tools := "none (no project folder)"
	if m.opts.Project != "" {
		tools = "file_read, file_list, read-only in " + m.shortPath(m.opts.Project)
	}
	out = append(out, labelled(st, "Tools    ", Sanitize(tools), w)...)
	out = append(out, "")
	for _, l := range wrap("Runs go to "+Sanitize(m.shortPath(m.opts.Runner.Dir())), w) {
		out = append(out, st.Dim.Render(l))
	}
	return out
}

func modelLines(st *Styles, md runner.Model, w int, endpoint bool) []string {
	line := fmt.Sprintf("%s at %s (%s)", md.ModelID, md.Provider, md.Type)
	if endpoint {
		line = fmt.Sprintf("%s at %s (%s, %s)", md.ModelID, md.Provider, md.Type, md.Endpoint)
	}
	out := labelled(st, "Model    ", Sanitize(line), w)
	if md.Via != "" {
		for _, l := range wrap("via "+Sanitize(md.Via), max(w-9, 10)) {
			out = append(out, "         "+st.Dim.Render(l))
		}
	}
	return out
}

func limitLines(st *Styles, l runner.Limits, w int) []string {
	line := fmt.Sprintf("prefill %s · inter-delta %s · no-progress %s · thinking-only %s · max call %s",
		dur(l.Prefill), dur(l.InterDelta), dur(l.NoProgress), dur(l.ThinkingOnlyCap()), dur(l.MaxCall))
	return labelled(st, "Limits   ", line, w)
}

// dur prints a duration compactly: 850ms, 12.3s, 20m, 1h0m.
func dur(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		if d%time.Minute == 0 {
			return fmt.Sprintf("%dm", int(d.Minutes()))
		}
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// runView renders one run: what it is, its clocks, the stream, and the
// outcome banner once it has ended.
func (m *Model) runView(rv *runView, sel *lint.File, w int) []string {
	st := &m.st
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	runs := m.runs.forAgent(sel.Path)
	pos := 0
	for i, r := range runs {
		if r == rv {
			pos = i + 1
		}
	}
	state := "Running"
	if rv.ended() {
		state = outcomeText(rv.record)
	}
	head := fmt.Sprintf("Run %d/%d · %s · %s", pos, len(runs), shortID(rv.id), state)
	more := "r: new run"
	if len(runs) > 1 {
		more = "]: next run · " + more
	}
	if !rv.ended() {
		more = "x: cancel · " + more
	}
	add(spread(st.Title.Render(head), st.Dim.Render(more), w))
	for _, l := range wrap("Task: "+Sanitize(rv.task), w) {
		add(l)
	}
	if rv.context != "" {
		for _, l := range wrap("Context: "+Sanitize(rv.context), w) {
			add(st.Dim.Render(l))
		}
	}
	add(modelLines(st, rv.run.Model(), w, false)...)
	add(clockLines(st, rv, w)...)
	add(st.Separator.Render(strings.Repeat("─", w)))
	add(m.streamLines(rv, w)...)
	if rv.ended() {
		add("")
		add(bannerLines(st, rv, m.shortenPaths, w)...)
	}
	return out
}

// clockLines shows elapsed time, time to first delta, and the time since
// the last progress against each watchdog limit.
func clockLines(st *Styles, rv *runView, w int) []string {
	s := rv.status
	if rv.record != nil && rv.record.Ended() {
		first := "none"
		if rv.record.Timings.FirstDeltaMS != nil {
			first = dur(time.Duration(*rv.record.Timings.FirstDeltaMS) * time.Millisecond)
		}
		line := fmt.Sprintf("took %s · first delta %s · %d in / %d out tokens",
			dur(time.Duration(rv.record.Timings.TotalMS)*time.Millisecond), first, rv.record.Usage.InputTokens, rv.record.Usage.OutputTokens)
		return labelled(st, "Clock    ", line, w)
	}
	first := "waiting"
	if s.HasCall && s.Call.HasFirstDelta {
		first = dur(s.Call.FirstDelta)
	}
	out := labelled(st, "Clock    ", fmt.Sprintf("elapsed %s · first delta %s", dur(s.Elapsed), first), w)
	if !s.HasCall {
		return out
	}
	c, l := s.Call, s.Call.Limits
	var parts []string
	if !c.HasFirstDelta {
		parts = append(parts, fmt.Sprintf("prefill %s / %s", dur(c.Elapsed), dur(l.Prefill)))
	} else {
		parts = append(parts,
			fmt.Sprintf("since progress %s / %s", dur(c.SinceProgress), dur(l.NoProgress)),
			fmt.Sprintf("wire silence %s / %s", dur(c.SinceWire), dur(l.InterDelta)))
	}
	if c.ThinkingOnly > 0 {
		parts = append(parts, fmt.Sprintf("thinking only %s / %s", dur(c.ThinkingOnly), dur(l.ThinkingOnlyCap())))
	}
	parts = append(parts, fmt.Sprintf("call %s / %s", dur(c.Elapsed), dur(l.MaxCall)))
	out = append(out, labelled(st, "Limits   ", strings.Join(parts, " · "), w)...)
	if c.HasNext {
		out = append(out, st.Dim.Render(cut(fmt.Sprintf("         next: %s in %s", c.Next.Reason, dur(c.NextIn)), w)))
	}
	return out
}

// streamLines renders the run's output so far, cached until it grows.
func (m *Model) streamLines(rv *runView, w int) []string {
	st := &m.st
	last := 0
	if n := len(rv.segs); n > 0 {
		last = len(rv.segs[n-1].text)
	}
	key := fmt.Sprintf("%d|%d|%d|%t|%t", len(rv.segs), last, w, m.runs.foldThinking, st.Color)
	if key == rv.cacheKey {
		return rv.cacheLines
	}
	var out []string
	if len(rv.segs) == 0 && !rv.ended() {
		out = append(out, st.Dim.Render("waiting for the model…"))
	}
	for _, sg := range rv.segs {
		switch sg.kind {
		case runner.EventThinking:
			if m.runs.foldThinking {
				out = append(out, st.Thinking.Render(cut(fmt.Sprintf("▸ thinking · %d characters (t: show)", len([]rune(sg.text))), w)))
				continue
			}
			for _, l := range wrap(SanitizeText(strings.Trim(sg.text, "\n")), w-2) {
				out = append(out, st.Thinking.Render("┊ "+l))
			}
		case runner.EventToolCall:
			call := "tool call"
			if sg.tool != nil {
				call = sg.tool.Name + " " + sg.tool.Arguments
				if !sg.tool.Complete {
					call += "  (arguments cut off)"
				}
			}
			for i, l := range wrap(Sanitize(call), w-2) {
				p := "  "
				if i == 0 {
					p = "⚙ "
				}
				out = append(out, st.Tool.Render(p+l))
			}
		case runner.EventToolResult:
			out = append(out, toolResultLines(st, sg.tool, w)...)
		default:
			out = append(out, wrap(SanitizeText(sg.text), w)...)
		}
	}
	rv.cacheKey, rv.cacheLines = key, out
	return out
}

// toolResultLines shows what a tool call got back: its first lines, and
// whether it failed, was refused, cut, or replayed.
func toolResultLines(st *Styles, tc *runner.ToolCall, w int) []string {
	head, bad, ok := toolResultHead(tc)
	if !ok {
		return nil
	}
	style := st.Dim
	if bad {
		style = st.Warning
	}
	out := []string{style.Render(cut("  ↳ "+head, w))}
	for _, l := range toolResultText(tc.Result, w-4) {
		out = append(out, st.Dim.Render("    "+l))
	}
	return out
}

// toolResultHead is the one line that says what a tool call got back
// ("file_read: 59 bytes · recorded"), whether that is bad news (failed,
// refused, stopped), and false when the call has no result.
func toolResultHead(tc *runner.ToolCall) (head string, bad, ok bool) {
	if tc == nil || tc.Result == nil {
		return "", false, false
	}
	r := tc.Result
	var notes []string
	switch {
	case r.Guard == "refuse":
		notes = append(notes, "refused by the repeat guard")
	case r.Guard == "stop":
		notes = append(notes, "the repeat guard ended the run")
	case r.Refused:
		notes = append(notes, "refused")
	case r.Error:
		notes = append(notes, "failed")
	}
	if r.Cut {
		notes = append(notes, "cut")
	}
	if r.Replayed {
		notes = append(notes, "recorded")
	}
	head = fmt.Sprintf("%s: %d bytes", Sanitize(tc.Name), r.Bytes)
	if len(notes) > 0 {
		head += " · " + strings.Join(notes, ", ")
	}
	return head, r.Error || r.Refused || r.Guard == "refuse" || r.Guard == "stop", true
}

// toolResultMaxLines is how many lines of a tool result the Run pane and
// the transcript show; the transcript file has them all.
const toolResultMaxLines = 6

// toolResultText is the first lines of a result's text, sanitised and cut
// to w columns, with a note of how many more there are.
func toolResultText(r *runner.ToolResult, w int) []string {
	var out []string
	lines := strings.Split(strings.TrimRight(SanitizeText(r.Text), "\n"), "\n")
	for i, l := range lines {
		if i == toolResultMaxLines {
			out = append(out, fmt.Sprintf("… %d more lines (the transcript has them)", len(lines)-toolResultMaxLines))
			break
		}
		out = append(out, cut(l, w))
	}
	return out
}

// bannerLines is the outcome banner of an ended run: outcome, reason, the
// error, and the artifact paths.
func bannerLines(st *Styles, rv *runView, short func(string) string, w int) []string {
	if rv.record == nil {
		return []string{st.BannerBad.Render(fit(" reading the run failed: "+Sanitize(fmt.Sprint(rv.err)), w))}
	}
	r := rv.record
	style := st.BannerBad
	mark := "✗ "
	if r.Outcome == runner.Completed {
		style, mark = st.BannerGood, "✓ "
	}
	out := []string{style.Render(fit(" "+mark+outcomeText(r), w))}
	if r.Error != "" {
		for _, l := range wrap(SanitizeText(short(r.Error)), w-2) {
			out = append(out, "  "+l)
		}
	}
	dir := r.Dir
	if dir == "" {
		dir = rv.run.Dir()
	}
	if rv.writeErr != nil {
		out = append(out, st.BannerBad.Render(fit(" ✗ the run folder could not be written", w)))
		for _, l := range wrap(SanitizeText(short(rv.writeErr.Error())), w-2) {
			out = append(out, "  "+l)
		}
	}
	out = append(out, artifactLines(st, dir, r.Files, short, w)...)
	out = append(out, st.Dim.Render(cut("  o: open in the viewer · 4: Artifacts pane", w)))
	return out
}

// artifactLines names a run folder and its files, truncated-output.md
// marked partial.
func artifactLines(st *Styles, dir string, files []string, short func(string) string, w int) []string {
	out := labelled(st, "Artifacts ", Sanitize(short(dir))+string(filepath.Separator), w)
	var names []string
	for _, f := range files {
		name := Sanitize(f)
		if f == runner.TruncatedOutputFile {
			name += " (partial)"
		}
		names = append(names, name)
	}
	for _, l := range wrap(strings.Join(names, " · "), w-2) {
		out = append(out, "  "+l)
	}
	return out
}
