package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui/demo"
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
	prompt  *runfolder.PromptRecord
	message string
	// firstAt is when the first text, thinking or tool call came, since
	// the run started: the clock run.json's first delta reads.
	firstAt    time.Duration
	hasFirstAt bool
	segs       []*runSegment
	next       int // index of the next event to read
	status     runner.Status
	record     *runfolder.Record // set when the run has ended
	err        error             // reading events failed
	writeErr   error             // the run folder could not be written
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
	tool   *runfolder.ToolCall
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
	// toolsCache is the intro's last tools line (run_tools.go).
	toolsCache *toolsLineCache
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

// recordedLimits are a recording's limits and the names of the tools
// the recorded run offered, once read.
type recordedLimits struct {
	limits runner.Limits
	tools  []string
	err    error
	ready  bool
}

// recordedLimitsMsg carries the limits and tools read from a recording.
type recordedLimitsMsg struct {
	path   string
	limits runner.Limits
	tools  []string
	err    error
}

// recordedLimitsCmd reads a recording's limits and tools.
func recordedLimitsCmd(path string) tea.Cmd {
	return func() tea.Msg {
		tape, err := runner.LoadCassette(path)
		if err != nil {
			return recordedLimitsMsg{path: path, err: err}
		}
		ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
		l := tape.Header.Limits
		return recordedLimitsMsg{path: path, tools: tape.Header.Tools, limits: runner.Limits{
			Prefill: ms(l.PrefillMS), InterDelta: ms(l.InterDeltaMS), NoProgress: ms(l.NoProgressMS),
			ThinkingOnly: ms(l.ThinkingOnlyMS),
		}}
	}
}

// storeRecorded keeps a recording's limits and tools.
func (p *runPane) storeRecorded(msg recordedLimitsMsg) {
	if r := p.recorded[msg.path]; r != nil {
		r.limits, r.tools, r.err, r.ready = msg.limits, msg.tools, msg.err, true
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
		prompt    *runfolder.PromptRecord
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
	model, err := e.runModel(sel)
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
	return rv != nil && rv.tools && rv.record != nil && rv.record.Reason == vocab.ReasonLLMCallFailed && runner.ToolsRefused(rv.record.Error)
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
		Approve: approved, AskInEvents: true}
	if def := e.demoModel(f); def != "" {
		// The demo's recording of this agent plays on a definition of
		// its own, its tool calls run for real in a copy of the project.
		spec.ModelDefinition, spec.LiveTools = def, true
	}
	// A run keeps its recording (a kept test case replays it), unless it
	// replays one itself (the demo's models); a replay plays fast when
	// the options say so.
	if f.Def != nil {
		if m, err := e.runModel(f); err == nil {
			spec.Record = m.Type != runner.ReplayProviderType
			spec.Fast = !spec.Record && e.opts.FastReplay
		}
	}
	if e.cat != nil {
		spec.Skills = e.cat.Skills
	}
	e.show(tabRun)
	return startRunCmd(p.ctx, e.opts.Runner, spec, fileLabel(f))
}

// demoModel is, in the demo, the model definition that replays the
// demo's own recording of f (demo.ModelFor); "" otherwise.
func (e *env) demoModel(f *lint.File) string {
	if !e.opts.Demo || f == nil || f.Def == nil {
		return ""
	}
	return demo.ModelFor(f.Def.Name)
}

// runModel resolves the model a run of f calls: its role's, or in the
// demo the definition that replays its own recording.
func (e *env) runModel(f *lint.File) (runfolder.Model, error) {
	if def := e.demoModel(f); def != "" {
		return runner.ResolveDefinition(e.config(), def, f.Def.ModelRole)
	}
	return runner.ResolveModel(e.config(), f.Def.ModelRole)
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
			p.askAuthor(rv, *ev.Approval)
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
	return p.ended(rv), true
}

// askAuthor puts the prompt of a run waiting for the author on the
// overlay stack; the answer goes back on the run's channel.
func (p *runPane) askAuthor(rv *runView, prompt approve.Prompt) {
	p.e.push(&approvalOverlay{keys: p.e.keys.Approval, move: p.e.keys.Move, prompt: prompt, agent: rv.agent, approveFlag: p.e.opts.Words.Approve, cancel: rv.run.Cancel,
		answered: func(req approve.Request, a approve.Answer) { p.noteApproval(rv, req, a) }})
}

// ended finishes a run whose last event has come: it keeps its record,
// goes on with the next sample, compares it with the run before when that
// was asked for, closes its prompt, and tells of a run folder that could
// not be written or of a run that ended out of sight.
func (p *runPane) ended(rv *runView) tea.Cmd {
	if rv.record == nil && rv.err == nil {
		rec := rv.run.Record()
		rv.record = &rec
	}
	e := p.e
	cmd, sampling := p.sampleEnded(rv)
	if !sampling {
		cmd = tea.Batch(cmd, p.comparePending(rv))
	}
	// A prompt still up belongs to a run that stopped waiting (it was
	// cancelled): its ask already ended as cancelled, so it closes.
	e.drop(isApprovalOf(rv.id))
	switch sel := e.selected(); {
	case rv.writeErr != nil:
		first, _, _ := strings.Cut(rv.writeErr.Error(), "\n")
		cmd = tea.Batch(cmd, e.notify(rv.agent+": the run folder could not be written: "+first, true))
	case !p.visible() || sel == nil || sel.Path != rv.agentPath:
		cmd = tea.Batch(cmd, e.notify(rv.agent+": run finished — "+outcomeText(rv.record)+" ("+keyName(e.keys.Browser.Tab3)+")", rv.record == nil || rv.record.Outcome != vocab.Completed))
	}
	return cmd
}

// comparePending starts the comparison a new run of rv's agent was to
// get once it ended, when that agent is still the one selected.
func (p *runPane) comparePending(rv *runView) tea.Cmd {
	if !p.compare.pending || p.compare.agentPath != rv.agentPath {
		return nil
	}
	if sel := p.e.selected(); sel == nil || sel.Path != rv.agentPath {
		return nil
	}
	p.compare.pending, p.compare.on, p.compare.back = false, true, 1
	return p.askCompare()
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

// outcomeText is runfolder.StatusText: "Completed", "Cancelled ·
// cancelled_by_parent", the words runs and run use.
func outcomeText(r *runfolder.Record) string {
	if r == nil {
		return "ended (its record could not be read)"
	}
	return runfolder.StatusText(r)
}
