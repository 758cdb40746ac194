package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
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
	tools     bool // the model was offered the trial tools
	// prompt and message are the request the run sent: the system
	// prompt's parts (nil for a replay that names no agent) and the first
	// user message, redacted.
	prompt  *runner.PromptRecord
	message string
	// firstAt is when the first text, thinking or tool call came, since
	// the run started: the clock run.json's first delta reads.
	firstAt    time.Duration
	hasFirstAt bool
	segs       []*runSegment
	next       int // index of the next event to read
	status     runner.Status
	record     *runner.Record // set when the run has ended
	err        error          // reading events failed
	writeErr   error          // the run folder could not be written
	// patch is the ended run's changes.patch ("" for none), and its rows
	// at width patchW in style generation patchGen.
	patch            string
	patchW, patchGen int
	patchRows        []string
	// approved are the patterns of what the author approved in this run
	// (the re-run watch starts from them).
	approved []approve.Pattern
}

// runSegment is a stretch of one kind of output: text, thinking (kept
// wrapped as it streams), or a tool call (its lines kept for one width).
type runSegment struct {
	kind   runner.EventKind
	stream streamText
	tool   *runner.ToolCall
	// rows of a tool call or result at width w, in style generation stGen
	w, stGen int
	rows     []string
}

// ended reports whether the run has finished.
func (rv *runView) ended() bool { return rv.record != nil || rv.err != nil }

// add appends an event's output, merging deltas of the same kind; a delta
// costs what it adds, not what came before it.
func (rv *runView) add(ev runner.Event) {
	switch ev.Kind {
	case runner.EventText, runner.EventThinking, runner.EventToolCall:
		if !rv.hasFirstAt {
			rv.firstAt, rv.hasFirstAt = ev.At, true
		}
	}
	switch ev.Kind {
	case runner.EventText, runner.EventThinking:
		if n := len(rv.segs); n > 0 && rv.segs[n-1].kind == ev.Kind {
			rv.segs[n-1].stream.add(ev.Text)
			return
		}
		sg := &runSegment{kind: ev.Kind}
		sg.stream.trim = ev.Kind == runner.EventThinking
		sg.stream.add(ev.Text)
		rv.segs = append(rv.segs, sg)
	case runner.EventToolCall, runner.EventToolResult:
		rv.segs = append(rv.segs, &runSegment{kind: ev.Kind, tool: ev.Tool})
	case runner.EventDone:
		rv.record = ev.Record
		if rv.run != nil {
			rv.patch = rv.run.Patch()
		}
	}
}

// runPane is the Run tab: the trial runs of the selected agent, one shown
// at a time, streaming live. It owns the runs started from the browser.
type runPane struct {
	e            *env
	scroll       scroller // follows the end of the stream
	runs         []*runView
	shown        map[string]string // agent path → id of the run shown
	foldThinking bool
	// showRequest shows the request each run sent (its parts and first
	// message) above its output.
	showRequest bool
	ticking     bool
	ctx         context.Context
	stop        context.CancelFunc
	// eventWait, when set, replaces the Cmd that waits for a run's events
	// (tests pump events themselves).
	eventWait func(r *runner.Run, i int) tea.Cmd
	// recorded holds the limits of the recordings replay providers play
	// (a replay applies the recorded limits, not the configured ones),
	// read in the background, by cassette path.
	recorded map[string]*recordedLimits
	// compare is the comparison with an earlier run, when on (compare.go).
	compare compareView
	// watch re-runs an agent on save, when on (watchrun.go).
	watch *runWatch
	// batch is the samples being run; spreads the last spread of each
	// agent's samples, by agent path (samples.go).
	batch   *sampleBatch
	spreads map[string][]string
	// lastSamples is how many samples each agent's last task asked for.
	lastSamples map[string]int
}

// recordedLimits are a recording's limits, once read.
type recordedLimits struct {
	limits runner.Limits
	err    error
	ready  bool
}

// recordedLimitsMsg carries the limits read from a recording.
type recordedLimitsMsg struct {
	path   string
	limits runner.Limits
	err    error
}

// recordedLimitsCmd reads a recording's limits.
func recordedLimitsCmd(path string) tea.Cmd {
	return func() tea.Msg {
		tape, err := runner.LoadCassette(path)
		if err != nil {
			return recordedLimitsMsg{path: path, err: err}
		}
		ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
		l := tape.Header.Limits
		return recordedLimitsMsg{path: path, limits: runner.Limits{
			Prefill: ms(l.PrefillMS), InterDelta: ms(l.InterDeltaMS), NoProgress: ms(l.NoProgressMS),
			ThinkingOnly: ms(l.ThinkingOnlyMS),
		}}
	}
}

// storeRecorded keeps a recording's limits.
func (p *runPane) storeRecorded(msg recordedLimitsMsg) {
	if r := p.recorded[msg.path]; r != nil {
		r.limits, r.err, r.ready = msg.limits, msg.err, true
	}
}

func newRunPane(e *env) runPane {
	p := runPane{e: e, scroll: scroller{canFollow: true}}
	p.ctx, p.stop = context.WithCancel(context.Background())
	return p
}

// close cancels the runs still going and waits for their folders.
func (p *runPane) close() {
	p.stop()
	for _, rv := range p.runs {
		_, _ = rv.run.Wait()
	}
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
		tools     bool
		prompt    *runner.PromptRecord
		message   string
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
		msg := runStartedMsg{run: r, err: err, agentPath: spec.Agent.Path, agent: agent, task: spec.Task, context: spec.Context, tools: spec.Project != ""}
		if err == nil {
			msg.prompt, msg.message = r.Record().Prompt, r.FirstMessage()
		}
		return msg
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

func (p *runPane) keyMap() help.KeyMap { return p.e.keys.Run }
func (p *runPane) scroller() *scroller { return &p.scroll }

// need reads the limits of the recording the selected agent's model
// replays, for the intro.
func (p *runPane) need(int) tea.Cmd {
	e := p.e
	sel := e.selected()
	if e.opts.Runner == nil || sel == nil || sel.Def == nil || sel.Status != lint.Loaded || p.current(sel.Path) != nil {
		return nil
	}
	model, err := runner.ResolveModel(e.config(), sel.Def.ModelRole)
	if err != nil || model.Type != runner.ReplayProviderType {
		return nil
	}
	if p.recorded == nil {
		p.recorded = map[string]*recordedLimits{}
	}
	if _, asked := p.recorded[model.Endpoint]; asked {
		return nil
	}
	p.recorded[model.Endpoint] = &recordedLimits{}
	return recordedLimitsCmd(model.Endpoint)
}

// handleKey cancels, folds, moves to the next run, opens the artifacts.
// (Run itself works from every pane: the root calls ask.)
func (p *runPane) handleKey(msg tea.KeyPressMsg, _ bool) (tea.Cmd, bool) {
	k := p.e.keys.Run
	switch {
	case key.Matches(msg, k.Cancel):
		return p.cancel(), true
	case key.Matches(msg, k.FoldThinking):
		p.foldThinking = !p.foldThinking
		return nil, true
	case key.Matches(msg, k.NextRun):
		p.nextRun()
		return nil, true
	case key.Matches(msg, k.Open):
		return p.openArtifacts(), true
	case key.Matches(msg, k.NoTools):
		return p.againWithoutTools(), true
	case key.Matches(msg, k.Request):
		p.showRequest = !p.showRequest
		return nil, true
	case key.Matches(msg, k.Compare):
		return p.toggleCompare(), true
	case key.Matches(msg, k.CompareBack):
		return p.compareBack(), true
	case key.Matches(msg, k.Watch):
		return p.toggleWatch(), true
	case key.Matches(msg, k.Keep):
		return p.keep(), true
	case key.Matches(msg, k.EditCase):
		return p.editKept(), true
	}
	return nil, false
}

// toolsRefused reports a run whose model refused the request because it
// offered tools: running again without them is what helps.
func toolsRefused(rv *runView) bool {
	return rv != nil && rv.tools && rv.record != nil && rv.record.Reason == runner.ReasonLLMCallFailed && runner.ToolsRefused(rv.record.Error)
}

// againWithoutTools runs the shown run's task again, offering no tools,
// when its model refused them.
func (p *runPane) againWithoutTools() tea.Cmd {
	sel := p.e.selected()
	if sel == nil {
		return nil
	}
	rv := p.current(sel.Path)
	if !toolsRefused(rv) {
		return p.e.notify("only a run whose model refused the tools is run again without them", false)
	}
	return p.start(sel, rv.task, rv.context, "")
}

// ask opens the form for a trial run of the selected agent.
func (p *runPane) ask() tea.Cmd {
	e := p.e
	f := e.selected()
	switch {
	case e.opts.Runner == nil:
		return e.notify("trial runs are off: "+e.runnerUnavailable(), true)
	case f == nil:
		return nil
	case f.Status == lint.NotLoaded:
		return e.notify(fileLabel(f)+" is not loaded: "+Sanitize(f.Reason)+"; the runtime would not run it", true)
	case f.Status != lint.Loaded:
		return e.notify(fileLabel(f)+" is rejected: the runtime would not run it; fix it first", true)
	}
	e.push(newRunForm(e.keys, fileLabel(f), func(task, context string, samples int) tea.Cmd {
		return p.startSamples(f, task, context, e.opts.Project, e.opts.Approve, samples)
	}))
	return nil
}

// start starts a run of f; project "" offers the model no tools.
func (p *runPane) start(f *lint.File, task, context, project string) tea.Cmd {
	return p.startWith(f, task, context, project, p.e.opts.Approve)
}

// startWith starts a run of f whose calls matching approved need no
// approval.
func (p *runPane) startWith(f *lint.File, task, context, project string, approved []approve.Pattern) tea.Cmd {
	e := p.e
	spec := runner.Spec{Agent: f, Config: e.config(), Task: task, Context: context, Project: project, NetClaw: e.netClaw(),
		Approve: approved, AskInEvents: true, Record: true}
	if e.cat != nil {
		spec.Skills = e.cat.Skills
	}
	e.show(tabRun)
	return startRunCmd(p.ctx, e.opts.Runner, spec, fileLabel(f))
}

// started registers a started run and starts reading its events.
func (p *runPane) started(msg runStartedMsg) tea.Cmd {
	if msg.err != nil {
		return p.e.notify("the run did not start: "+msg.err.Error(), true)
	}
	rv := &runView{
		run: msg.run, id: msg.run.ID(), agentPath: msg.agentPath, agent: msg.agent,
		task: msg.task, context: msg.context, tools: msg.tools, status: msg.run.Status(),
		prompt: msg.prompt, message: msg.message,
	}
	p.runs = append(p.runs, rv)
	if p.shown == nil {
		p.shown = map[string]string{}
	}
	p.shown[rv.agentPath] = rv.id
	p.scroll.follow = true
	if p.compare.on && p.compare.agentPath == rv.agentPath {
		// The new run streams; once it has ended it is compared with the
		// one before it.
		p.compare.on, p.compare.pending = false, true
	}
	return tea.Batch(p.waitEvents(rv.run, 0), p.startTicking())
}

// events adds events to their run. The last one ends it, with a notice
// when the user is looking elsewhere; ended says so.
func (p *runPane) events(msg runEventsMsg) (cmd tea.Cmd, ended bool) {
	rv := p.byID(msg.id)
	if rv == nil || msg.from != rv.next {
		return nil, false
	}
	for _, ev := range msg.events {
		rv.add(ev)
		if ev.Kind == runner.EventApproval && ev.Approval != nil && !msg.end {
			// The run waits for the author: the prompt goes on the
			// overlay stack, the answer back on the run's channel.
			p.e.push(&approvalOverlay{keys: p.e.keys.Approval, move: p.e.keys.Move, prompt: *ev.Approval, agent: rv.agent, cancel: rv.run.Cancel,
				answered: func(req approve.Request, a approve.Answer) { p.noteApproval(rv, req, a) }})
		}
	}
	rv.next += len(msg.events)
	rv.status = rv.run.Status()
	if msg.err != nil {
		rv.err = msg.err
	}
	rv.writeErr = msg.writeErr
	if !msg.end && msg.err == nil {
		return p.waitEvents(rv.run, rv.next), false
	}
	if rv.record == nil && rv.err == nil {
		rec := rv.run.Record()
		rv.record = &rec
	}
	e := p.e
	next, sampling := p.sampleEnded(rv)
	cmd = next
	if p.compare.pending && p.compare.agentPath == rv.agentPath && !sampling {
		if sel := e.selected(); sel != nil && sel.Path == rv.agentPath {
			p.compare.pending, p.compare.on, p.compare.back = false, true, 1
			cmd = tea.Batch(cmd, p.askCompare())
		}
	}
	// A prompt still up belongs to a run that stopped waiting (it was
	// cancelled): its ask already ended as cancelled, so it closes.
	e.drop(isApprovalOf(rv.id))
	switch sel := e.selected(); {
	case rv.writeErr != nil:
		first, _, _ := strings.Cut(rv.writeErr.Error(), "\n")
		cmd = tea.Batch(cmd, e.notify(rv.agent+": the run folder could not be written: "+first, true))
	case !p.visible() || sel == nil || sel.Path != rv.agentPath:
		cmd = tea.Batch(cmd, e.notify(rv.agent+": run finished — "+outcomeText(rv.record)+" ("+keyName(e.keys.Browser.Tab3)+")", rv.record == nil || rv.record.Outcome != runner.Completed))
	}
	return cmd, true
}

// visible reports whether the Run pane is the one shown.
func (p *runPane) visible() bool { return p.e.activeTab() == tabRun }

// waitEvents returns the Cmd that reads a run's events from i on.
func (p *runPane) waitEvents(r *runner.Run, i int) tea.Cmd {
	if p.eventWait != nil {
		return p.eventWait(r, i)
	}
	return waitEventsCmd(p.ctx, r, i)
}

// startTicking starts the clock tick unless it runs.
func (p *runPane) startTicking() tea.Cmd {
	if p.ticking {
		return nil
	}
	p.ticking = true
	return p.e.tick(runTickEvery, func(time.Time) tea.Msg { return runTickMsg{} })
}

// tickClocks refreshes the clocks of running runs while any runs.
func (p *runPane) tickClocks() tea.Cmd {
	p.ticking = false
	if p.active() == 0 {
		return nil
	}
	for _, rv := range p.runs {
		if !rv.ended() {
			rv.status = rv.run.Status()
		}
	}
	return p.startTicking()
}

// cancel cancels the run shown for the selected agent.
func (p *runPane) cancel() tea.Cmd {
	sel := p.e.selected()
	if sel == nil {
		return nil
	}
	rv := p.current(sel.Path)
	if rv == nil || rv.ended() {
		return p.e.notify("no running run to cancel", false)
	}
	rv.run.Cancel() // no I/O: it cancels the run's context
	return p.e.notify("cancelling "+shortID(rv.id)+" (cancelled_by_parent)", false)
}

// nextRun shows the next run of the selected agent.
func (p *runPane) nextRun() {
	sel := p.e.selected()
	if sel == nil {
		return
	}
	runs := p.forAgent(sel.Path)
	if len(runs) < 2 {
		return
	}
	cur := p.current(sel.Path)
	for i, rv := range runs {
		if rv == cur {
			p.shown[sel.Path] = runs[(i+1)%len(runs)].id
			break
		}
	}
	p.scroll.offset = 0
	p.scroll.follow = true
}

// openArtifacts opens the shown run's folder in the viewer.
func (p *runPane) openArtifacts() tea.Cmd {
	sel := p.e.selected()
	if sel == nil {
		return nil
	}
	rv := p.current(sel.Path)
	if rv == nil || !rv.ended() {
		return nil
	}
	return p.e.openViewer(rv.run.Dir())
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

// content is the Run pane for the selected file: the run's head (task,
// model, clocks) built fresh, the stream from its kept rows, the banner.
func (p *runPane) content(w int) blocks {
	e := p.e
	st := &e.st
	sel := e.selected()
	switch {
	case e.opts.Runner == nil:
		return lines(wrap("Trial runs are off: "+Sanitize(e.runnerUnavailable()), w))
	case sel == nil:
		return lines([]string{st.Dim.Render("Select an agent to run it.")})
	}
	if p.compare.on && p.compare.agentPath == sel.Path {
		return p.compareBlocks(w)
	}
	rv := p.current(sel.Path)
	if rv == nil {
		return lines(p.intro(sel, w))
	}
	return p.runBlocks(rv, sel, w)
}

// intro tells how a run of sel would go before there is one.
func (p *runPane) intro(sel *lint.File, w int) []string {
	e := p.e
	st := &e.st
	var out []string
	if sel.Status == lint.NotLoaded {
		return wrap(fileLabel(sel)+" is not loaded: "+Sanitize(sel.Reason)+". The runtime would not run it; enable its feed in SkillFeeds in netclaw.json.", w)
	}
	if sel.Status != lint.Loaded {
		return wrap(fileLabel(sel)+" is rejected: the runtime would not run it. Fix it first (see the Definition pane).", w)
	}
	out = append(out, st.Title.Render("Trial run of "+fileLabel(sel)))
	out = append(out, wrap("Press "+keyName(e.keys.Run.Run)+", give a task (and optional context), and the agent runs against the model NetClaw would use, classified as the runtime would: completed, output_truncated, thinking_only_timeout…", w)...)
	cfg := e.config()
	out = append(out, "")
	model, err := runner.ResolveModel(cfg, sel.Def.ModelRole)
	if err != nil {
		out = append(out, wrap(st.Error.Render("model: ")+Sanitize(err.Error()), w)...)
	} else {
		out = append(out, modelLines(st, model, w, true)...)
	}
	switch r := p.recorded[model.Endpoint]; {
	case err != nil || model.Type != runner.ReplayProviderType:
		out = append(out, limitLines(st, runner.LimitsFor(cfg, sel.Def), w)...)
	case r == nil || !r.ready:
		out = append(out, labelled(st, "Limits   ", "reading the recording…", w)...)
	case r.err != nil:
		out = append(out, labelled(st, "Limits   ", "the recording's: "+Sanitize(r.err.Error()), w)...)
	default:
		out = append(out, limitLines(st, r.limits, w)...)
		for _, l := range labelled(st, "         ", "recorded: a replay applies the recording's limits", w) {
			out = append(out, st.Dim.Render(l))
		}
	}
	tools := "none (no project folder)"
	if e.opts.Project != "" {
		tools = "file_read, file_list, read-only in " + e.shortPath(e.opts.Project)
	}
	out = append(out, labelled(st, "Tools    ", Sanitize(tools), w)...)
	out = append(out, "")
	for _, l := range wrap("Runs go to "+Sanitize(e.shortPath(e.opts.Runner.Dir())), w) {
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
	line := fmt.Sprintf("prefill %s · inter-delta %s · no-progress %s · thinking-only %s",
		dur(l.Prefill), dur(l.InterDelta), dur(l.NoProgress), dur(l.ThinkingOnlyCap()))
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

// runBlocks renders one run: what it is, its clocks, the stream, and the
// outcome banner once it has ended.
func (p *runPane) runBlocks(rv *runView, sel *lint.File, w int) blocks {
	e := p.e
	st := &e.st
	k := e.keys
	var head []string
	add := func(ls ...string) { head = append(head, ls...) }
	runs := p.forAgent(sel.Path)
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
	title := fmt.Sprintf("Run %d/%d · %s · %s", pos, len(runs), shortID(rv.id), state)
	more := keyName(k.Run.Run) + ": new run"
	if len(runs) > 1 {
		more = keyName(k.Run.NextRun) + ": next run · " + more
	}
	if !rv.ended() {
		more = keyName(k.Run.Cancel) + ": cancel · " + more
	}
	add(spread(st.Title.Render(title), st.Dim.Render(more), w)...)
	add(p.watchLines(sel.Path, w)...)
	add(p.sampleLines(sel.Path, w)...)
	add(wrap("Task: "+Sanitize(rv.task), w)...)
	if rv.context != "" {
		for _, l := range wrap("Context: "+Sanitize(rv.context), w) {
			add(st.Dim.Render(l))
		}
	}
	add(modelLines(st, rv.run.Model(), w, false)...)
	if rv.prompt != nil && len(rv.prompt.Missing) > 0 {
		add(cut(st.Warning.Render("Sent without "+strings.Join(rv.prompt.Missing, ", ")+": "+Sanitize(homeNamed(e.cat, rv.prompt.MissingReasons[rv.prompt.Missing[0]]))), w))
	}
	add(clockLines(st, rv, w)...)
	add(st.Separator.Render(strings.Repeat("─", w)))
	out := blocks{{lines: head}}
	if rv.prompt != nil {
		out = append(out, block{lines: sentLines(st, e.cat, rv, p.showRequest, keyName(k.Run.Request), w)})
	}
	out = append(out, p.streamBlocks(rv, w)...)
	out = append(out, p.changesBlock(rv, w)...)
	if rv.ended() {
		out = append(out, block{lines: append([]string{""}, bannerLines(st, k, rv, e.shortenPaths, w)...)})
		out = append(out, parentBlock(st, rv.record, w)...)
		if toolsRefused(rv) {
			offer := "This model does not take tools: press " + keyName(k.Run.NoTools) + " to run the same task again without them (no tools offered, none listed in the prompt)."
			out = append(out, block{lines: append([]string{""}, bannerText(st.Banner, offer, w)...)})
		}
	}
	return out
}

// sentLines shows the request the run sent: the system prompt's parts
// with their tokens and sources, the parts it lacked, and the first user
// message.
func sentLines(st *Styles, c *lint.Catalog, rv *runView, open bool, key string, w int) []string {
	p := rv.prompt
	total := 0
	for _, part := range p.Parts {
		total += part.Tokens
	}
	head := fmt.Sprintf("Request sent (%s): system prompt of %d parts, %d tokens", Sanitize(p.Audience), len(p.Parts), total)
	if !open {
		// Wrapped, not cut: the key is at the end.
		return wrapStyled(st.Dim, head+" · "+key+": show", w)
	}
	out := []string{spread(st.Title.Render(head), st.Dim.Render(key+": hide"), w)[0]}
	for _, part := range p.Parts {
		out = append(out, cut(fmt.Sprintf("  %6d  %-20s %s", part.Tokens, part.Part, st.Dim.Render(Sanitize(homeRelative(c, part.Source)))), w))
	}
	for _, m := range p.Missing {
		out = append(out, wrapStyled(st.Warning, "  "+m+" missing: "+Sanitize(homeRelative(c, p.MissingReasons[m])), w)...)
	}
	out = append(out, "", st.Title.Render("First user message"))
	for _, l := range strings.Split(SanitizeText(rv.message), "\n") {
		for _, wl := range wrap(l, w-2) {
			out = append(out, st.Dim.Render("  "+wl))
		}
	}
	return append(out, st.Separator.Render(strings.Repeat("─", w)))
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
	if rv.hasFirstAt {
		// Since the run started, as run.json counts it (the watchdog's
		// own first delta is the current call's).
		first = dur(rv.firstAt)
	}
	out := labelled(st, "Clock    ", fmt.Sprintf("elapsed %s · first delta %s", dur(s.Elapsed), first), w)
	if !s.HasCall {
		return out
	}
	c, l := s.Call, s.Call.Limits
	var parts []string
	if !c.HasFirstDelta {
		// Keepalives refresh the prefill budget; the no-progress
		// ceiling runs from the call's start.
		parts = append(parts,
			fmt.Sprintf("prefill silence %s / %s", dur(c.SinceWire), dur(l.Prefill)),
			fmt.Sprintf("since progress %s / %s", dur(c.SinceProgress), dur(l.NoProgress)))
	} else {
		parts = append(parts,
			fmt.Sprintf("since progress %s / %s", dur(c.SinceProgress), dur(l.NoProgress)),
			fmt.Sprintf("wire silence %s / %s", dur(c.SinceWire), dur(l.InterDelta)))
	}
	if c.ThinkingOnly > 0 {
		parts = append(parts, fmt.Sprintf("thinking only %s / %s", dur(c.ThinkingOnly), dur(l.ThinkingOnlyCap())))
	}
	parts = append(parts, fmt.Sprintf("call %s", dur(c.Elapsed)))
	out = append(out, labelled(st, "Limits   ", strings.Join(parts, " · "), w)...)
	if c.HasNext {
		for _, l := range wrap(fmt.Sprintf("next: %s in %s", c.Next.Reason, dur(c.NextIn)), max(w-9, 10)) {
			out = append(out, st.Dim.Render("         "+l))
		}
	}
	return out
}

// streamBlocks is the run's output so far: text and thinking from the
// rows their streams keep (styled only when shown), tool calls and
// results from rows kept for this width.
func (p *runPane) streamBlocks(rv *runView, w int) blocks {
	st := &p.e.st
	var out blocks
	if len(rv.segs) == 0 && !rv.ended() {
		out = append(out, block{lines: []string{st.Dim.Render("waiting for the model…")}})
	}
	for _, sg := range rv.segs {
		switch sg.kind {
		case runner.EventThinking:
			if p.foldThinking {
				out = append(out, block{lines: []string{st.Thinking.Render(cut(fmt.Sprintf("▸ thinking · %d characters (%s: show)", sg.stream.runes, keyName(p.e.keys.Run.FoldThinking)), w))}})
				continue
			}
			rows, open := sg.stream.lines(w - 2)
			think := func(l string) string { return st.Thinking.Render("┊ " + l) }
			out = append(out, block{lines: rows, render: think}, block{lines: []string{open}, render: think})
		case runner.EventText:
			rows, open := sg.stream.lines(w)
			out = append(out, block{lines: rows}, block{lines: []string{open}})
		default:
			if sg.w != w || sg.stGen != p.e.stGen || sg.rows == nil {
				sg.w, sg.stGen, sg.rows = w, p.e.stGen, toolLines(st, sg, w)
			}
			out = append(out, block{lines: sg.rows})
		}
	}
	return out
}

// toolLines renders a tool call (⚙ and its arguments) or what it got back.
func toolLines(st *Styles, sg *runSegment, w int) []string {
	if sg.kind == runner.EventToolResult {
		return toolResultLines(st, sg.tool, w)
	}
	call := "tool call"
	if sg.tool != nil {
		call = sg.tool.Name + " " + sg.tool.Arguments
		if !sg.tool.Complete {
			call += "  (arguments cut off)"
		}
	}
	var out []string
	for i, l := range wrap(Sanitize(call), w-2) {
		p := "  "
		if i == 0 {
			p = "⚙ "
		}
		out = append(out, st.Tool.Render(p+l))
	}
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
	var out []string
	for i, l := range wrap(head, max(w-4, 1)) {
		p := "    "
		if i == 0 {
			p = "  ↳ "
		}
		out = append(out, style.Render(p+l))
	}
	for _, l := range toolResultText(tc.Result, w-4) {
		out = append(out, st.Dim.Render("    "+l))
	}
	return out
}

// changesBlock shows what a finished run changed in its overlay of the
// project: changes.patch as a diff, under a heading that says the project
// itself did not change.
func (p *runPane) changesBlock(rv *runView, w int) blocks {
	if rv.patch == "" {
		return nil
	}
	st := &p.e.st
	if rv.patchW != w || rv.patchGen != p.e.stGen || rv.patchRows == nil {
		rows := []string{"", st.Title.Render(cut("Changes ("+runner.PatchFile+"; the project itself did not change)", w))}
		rows = append(rows, patchLines(st, rv.patch, w)...)
		rv.patchW, rv.patchGen, rv.patchRows = w, p.e.stGen, rows
	}
	return blocks{{lines: rv.patchRows}}
}

// parentBlock says in a line what the parent session receives for a
// finished run (runner.ParentRecord.Summary: the acceptance, the notice,
// the files handed over; result.md holds the records); nothing for a run
// recorded before agentdesk wrote it.
func parentBlock(st *Styles, rec *runner.Record, w int) blocks {
	if rec == nil {
		return nil
	}
	line := rec.Parent.Summary()
	if line == "" {
		return nil
	}
	var rows []string
	for _, wl := range wrap("Parent: "+Sanitize(line)+" · records in "+runner.ResultFile, w) {
		rows = append(rows, st.Dim.Render(wl))
	}
	return blocks{{lines: rows}}
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
		notes = append(notes, "refused by the cycle guard")
	case r.Guard == "stop":
		notes = append(notes, "the cycle guard ended the run")
	case r.Refused:
		notes = append(notes, "refused")
	case r.Error:
		notes = append(notes, "failed")
	}
	if r.Label != "" {
		notes = append(notes, r.Label)
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
func bannerLines(st *Styles, k KeyMap, rv *runView, short func(string) string, w int) []string {
	if rv.record == nil {
		return bannerText(st.BannerBad, "reading the run failed: "+Sanitize(fmt.Sprint(rv.err)), w)
	}
	r := rv.record
	style := st.BannerBad
	mark := "✗ "
	if r.Outcome == runner.Completed {
		style, mark = st.BannerGood, "✓ "
	}
	out := bannerText(style, mark+outcomeText(r), w)
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
		out = append(out, bannerText(st.BannerBad, "✗ the run folder could not be written", w)...)
		for _, l := range wrap(SanitizeText(short(rv.writeErr.Error())), w-2) {
			out = append(out, "  "+l)
		}
	}
	out = append(out, artifactLines(st, dir, r.Files, short, w)...)
	for _, l := range wrap(keyName(k.Run.Open)+": open in the viewer · "+keyName(k.Browser.Tab4)+": Artifacts pane", w-2) {
		out = append(out, st.Dim.Render("  "+l))
	}
	return out
}

// bannerText is a banner line in style, the text wrapped on as many full
// width lines as it needs.
func bannerText(style lipgloss.Style, text string, w int) []string {
	var out []string
	for _, l := range wrap(text, max(w-1, 1)) {
		out = append(out, style.Render(fit(" "+l, w)))
	}
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
