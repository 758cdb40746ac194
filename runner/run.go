package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// Runner starts trial runs into one runs folder. It is safe for concurrent
// use; its runs are independent of each other.
type Runner struct {
	dir    string
	client *http.Client
	word   func(error) error

	mu   sync.Mutex
	runs map[string]*Run
}

// Options configure a Runner.
type Options struct {
	// RunsDir is the runs folder (see DefaultRunsDir). Required.
	RunsDir string
	// Client sends the model calls; nil means a client without a timeout
	// (the watchdog times calls) on http.DefaultTransport. A recording run
	// wraps its Transport; a replay uses a Transport of its own that plays
	// the cassette.
	Client *http.Client
	// WordError words an error Start or Keep returns before anyone shows
	// it (the command line, the browser, a suite's report): the command
	// line adds the flag that mends it. nil leaves errors as they are.
	WordError func(error) error
}

// ErrNoRunsDir is New's answer to Options without a runs folder. The
// command line words it with the flag that names one.
var ErrNoRunsDir = errors.New("no runs folder: set XDG_STATE_HOME or HOME")

// New returns a Runner.
func New(o Options) (*Runner, error) {
	if strings.TrimSpace(o.RunsDir) == "" {
		return nil, ErrNoRunsDir
	}
	dir, err := filepath.Abs(o.RunsDir)
	if err != nil {
		return nil, fmt.Errorf("runs folder %s: %w", o.RunsDir, err)
	}
	c := o.Client
	if c == nil {
		c = &http.Client{}
	}
	return &Runner{dir: dir, client: c, word: o.WordError, runs: map[string]*Run{}}, nil
}

// worded is err as Options.WordError words it.
func (rn *Runner) worded(err error) error {
	if err == nil || rn.word == nil {
		return err
	}
	return rn.word(err)
}

// Dir returns the runs folder.
func (rn *Runner) Dir() string { return rn.dir }

// Spec says what to run.
type Spec struct {
	// Agent is the definition file to run; it must be loaded.
	Agent *lint.File
	// Skill, when set, runs the agent as that routed skill would: the
	// skill's body is overlaid on the system prompt. It must route to Agent.
	Skill *lint.Skill
	// Config is the merged configuration; nil means the runtime defaults.
	Config *lint.Config
	// Task is the task; Context the optional background.
	Task, Context string
	// ModelRole overrides the agent's modelRole.
	ModelRole string
	// ModelDefinition, when set, runs on that Models.Definitions entry
	// whatever the role says (see ResolveDefinition).
	ModelDefinition string
	// MaxTokens caps the reply (0: the provider's default).
	MaxTokens int
	// Limits override the configured limits where not zero.
	Limits Limits
	// Secrets are redacted on top of the configuration's secrets.
	Secrets []string

	// Project is the project folder the trial tools work in (runner/tools):
	// reads fall through to it, writes land in an overlay the run owns
	// (runner/overlay), and the run folder keeps changes.patch. "" offers
	// the model no tools.
	Project string
	// Audience is the session's audience (Public, Team, Personal; ""
	// counts as Personal): shell_execute is offered to Personal only, as
	// at the runtime.
	Audience string
	// Approve approves the gated calls (shell_execute, web_fetch,
	// web_search, MCP tools) they match (`--approve`).
	Approve []approve.Pattern
	// Asker is asked about a gated call no pattern approves; nil means
	// no one to ask, and such a call fails the run as NetClaw's
	// SubAgentActor fails it with no parent approval bridge.
	Asker approve.Asker
	// Advice says where the run was started, for the refusal of a gated
	// call no pattern approves and no one is asked about.
	Advice approve.Advice
	// AskInEvents puts such a call to whoever reads the run's events
	// instead (the browser): an EventApproval, whose answer the run waits
	// for. It is used when Asker is nil.
	AskInEvents bool
	// Mocks answer the calls they match instead of the tools (a suite's
	// mocks:); mocked results are labelled mocked.
	Mocks tools.Mocker
	// ExtraTools are offered beside the built-in ones (MCP tools).
	ExtraTools []tools.Tool
	// Sandbox is how approved commands and stdio MCP servers are
	// confined (runner/sandbox): the zero value sandboxes them with the
	// network off.
	Sandbox tools.Sandbox
	// NoMCP starts none of the configured MCP servers: their tools are
	// not offered.
	NoMCP bool
	// MCPStartTimeout bounds starting each MCP server
	// (mcp.DefaultStartTimeout when 0).
	MCPStartTimeout time.Duration
	// MCP, when set, is a probe of the MCP servers made once for a batch
	// of runs (mcp.Probe): the run offers the probed tools at once and
	// starts a server only on its first call.
	MCP *mcp.Catalog
	// Skills are the home's skills: skill_load and skill_read_resource
	// read the loaded ones that do not route (nil: both are stubbed).
	Skills []*lint.Skill
	// Record keeps the raw bytes of every model response, with their
	// timing, and the tool results, redacted, in the run folder's
	// stream.cassette.
	Record bool
	// Replay plays this cassette instead of calling the model: the same
	// decoders and watchdog, the recorded tool results (no tool touches
	// the disk), the recorded model, limits and tools (Limits still
	// overrides the limits). Agent and Task may be left out: the cassette
	// names them. A provider of type replay in the
	// configuration does the same with the cassette its Endpoint names.
	Replay *cassette.Cassette
	// ReplaySource names the cassette in run.json (its path); "" for a
	// provider of type replay, whose Endpoint is used.
	ReplaySource string
	// LiveTools runs a replay's tool calls on Project as a live run's
	// are (the overlay, the gate with Approve and the asker, the sandbox,
	// the configuration's MCP servers) instead of playing their recorded
	// results; the tools offered are still the recorded ones. The model's
	// replies are the recording's whatever a call returns: a result that
	// is not the recorded one is marked (runfolder.ToolResult.Differs).
	// The demo's browser runs use it. It needs Project; a run that calls
	// a model ignores it.
	LiveTools bool
	// Fast plays a replay without its recorded pauses, on a clock that
	// follows the recorded timeline: the outcome is the same, at once.
	Fast bool
	// Unsaved keeps the run folder in memory: Start makes no folder,
	// nothing is written while the run goes, and at its end the artifacts
	// wait in the Run until Keep writes them. Record.Dir names the folder
	// Keep would make. For replays whose folder is wanted only when the
	// sample fails (a replay can be made again at will); a live run
	// should be saved as it goes. The tokens of the record's prompt
	// parts are 0 until Keep counts them (in the record, shared by
	// Record and Wait): a replay that is not kept never builds the
	// tokenizer's vocabulary.
	Unsaved bool
	// Suite, when set, ties the run to the suite case it ran for; run.json
	// keeps it, so the runs list can say which suite and case a run
	// belongs to.
	Suite *runfolder.SuiteTag

	// Frontline, when set, asks the frontline model instead of spawning
	// an agent (Agent and Skill are left out): see Frontline.
	Frontline *Frontline

	// NetClaw says how the spawn's request is composed: the system prompt
	// and first message NetClaw's runtime would send (preview/request).
	NetClaw NetClaw
	// Compose, when set, composes the request through this memo, shared
	// by the runs of a batch (a suite run): runs that send the same
	// system prompt compose it once. nil composes it for this run.
	Compose *ComposeMemo
}

// Frontline is one question to the frontline model: what would it do with
// a user's message? Its system messages (a preamble, then the
// [available-subagents] layer) and tools (spawn_agent) go out as they are;
// the user's message is Spec.Task. The tools are offered and never run: the
// run is the first reply, and a reply that calls a tool is Completed (the
// call, its arguments complete or not, is in the record). The model role
// is Spec.ModelRole, else Main; the limits are the configuration's.
type Frontline struct {
	// Systems are the system messages, in order.
	Systems []string
	// Tools are offered to the model.
	Tools []wire.Tool
	// Audience names the session's audience, for run.json.
	Audience string
	// Nudge, when set, is a user message sent just before the request:
	// the per-turn context NetClaw's session puts there as
	// "[system: ...]" (the current time, the working context).
	Nudge string
}

// SpecError is a Spec that cannot run: an agent that is not loaded, an
// empty task, a skill that routes elsewhere, a model that does not resolve.
// No run folder is made for it.
type SpecError struct{ Err error }

// Error returns the cause's message.
func (e *SpecError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *SpecError) Unwrap() error { return e.Err }

func specErrorf(format string, args ...any) error {
	return &SpecError{Err: fmt.Errorf(format, args...)}
}

// startRecord is the run.json of the run id (in dir) as it starts at
// start, state Running: what runs, on which model, with what (task and
// context redacted), its tools and where it runs.
func (p *prepared) startRecord(id, dir string, start time.Time) runfolder.Record {
	s, red := p.spec, p.red
	host, _ := os.Hostname()
	shown := p.model
	shown.Endpoint = red.String(p.model.Endpoint)
	rec := runfolder.Record{
		RunID:       id,
		Agent:       p.agentName,
		AgentPath:   p.agentPath,
		AgentSHA256: p.agentSHA,
		Skill:       p.skill,
		Task:        red.String(s.Task),
		Context:     red.String(s.Context),
		State:       vocab.StateRunning,
		Model:       shown,
		StartedAt:   start,
		Files:       []string{runfolder.RunFile},
		Tools:       []string{},
		ToolCalls:   []runfolder.ToolCall{},
		Limits:      limitsRecord(p.limits),
		PID:         os.Getpid(),
		Host:        host,
		Dir:         dir,
		Replay:      p.replay,
		Frontline:   p.frontlineRecord(red),
		Suite:       s.Suite,
		// An unsaved run's prompt is counted when Keep writes it: a
		// replay that passes never builds the tokenizer's vocabulary.
		Prompt: promptRecord(p.request, red, !s.Unsaved),
		MCP:    mcpRecord(p.mcp, p.mcpNotes, red),
	}
	if p.toolsOn && (p.replay == nil || p.liveTools) {
		r := SandboxReport(s.Sandbox)
		rec.Sandbox = &r
	}
	if p.toolsOn {
		rec.Tools = toolNames(p.tools)
		if p.request != nil {
			for _, t := range p.request.Tools {
				if !t.Core && !slices.Contains(rec.Tools, t.Name) {
					rec.DeferredTools = append(rec.DeferredTools, t.Name)
				}
			}
		}
		rec.Project = p.project
	}
	return rec
}

// useCassette sets how the run reaches its model: a replay plays the
// cassette c (on a virtual clock from start when the spec is fast), its
// events and transcript sized to it; a recording records through the
// runner's client into a tape; else the client calls the model.
func (r *Run) useCassette(c *cassette.Cassette, client *http.Client, start time.Time) {
	switch {
	case c != nil:
		if r.spec.Fast {
			r.clock = cassette.NewVirtualClock(start)
		}
		r.player = cassette.NewPlayer(c, r.clock)
		r.client = &http.Client{Transport: r.player}
		n := replayLines(c)
		r.events = make([]Event, 0, n)
		r.transcript.grow(n, len(c.Calls))
	case r.spec.Record:
		r.recorder = cassette.NewRecorder(client.Transport)
		rc := *client
		rc.Transport = r.recorder
		r.client = &rc
		r.tape = &cassette.Cassette{Header: r.cassetteHeader()}
	}
}

// Start checks the spec, resolves the model, writes run.json with state
// Running, and starts the run. It returns at once with the run's id and
// folder; the model calls go on in the background. ctx bounds the whole
// run: cancelling it cancels the run (cancelled_by_parent), as Run.Cancel
// does.
func (rn *Runner) Start(ctx context.Context, s Spec) (*Run, error) {
	r, err := rn.start(ctx, s, false)
	return r, rn.worded(err)
}

// RunToEnd starts a run of s as Start does, and runs it on the calling
// goroutine: it returns once the run has ended (its Wait returns at
// once). For a caller that would only wait, such as a suite's sample: no
// goroutine is started, and the run's deep stack is one the caller has
// grown already.
func (rn *Runner) RunToEnd(ctx context.Context, s Spec) (*Run, error) {
	r, err := rn.start(ctx, s, true)
	return r, rn.worded(err)
}

// start is Start (RunToEnd when inline is set), its error not yet
// worded.
func (rn *Runner) start(ctx context.Context, s Spec, inline bool) (*Run, error) {
	p, err := rn.prepare(ctx, s)
	if err != nil {
		return nil, err
	}
	s = p.spec
	red := p.red
	id := runfolder.NewRunID()
	dir := filepath.Join(rn.dir, id)
	if !s.Unsaved {
		if dir, err = runfolder.Create(rn.dir, id); err != nil {
			p.close()
			return nil, err
		}
	}
	if err := p.openSession(dir, id); err != nil {
		p.close()
		if !s.Unsaved {
			os.RemoveAll(dir)
		}
		return nil, err
	}
	start := time.Now()
	rec := p.startRecord(id, dir, start)
	if !s.Unsaved {
		if err := runfolder.WriteRecord(&rec); err != nil {
			p.close()
			os.RemoveAll(dir)
			return nil, err
		}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	r := &Run{
		mcp:       p.mcp,
		mcpNotes:  p.mcpNotes,
		runner:    rn,
		spec:      s,
		model:     p.model,
		limits:    p.limits,
		red:       red,
		system:    p.system,
		layers:    p.layers,
		message:   p.firstMessage(dir, id),
		request:   p.request,
		ctx:       runCtx,
		cancel:    cancel,
		rec:       rec,
		start:     start,
		client:    rn.client,
		toolsOn:   p.toolsOn,
		tools:     p.tools,
		toolbox:   p.toolbox,
		guard:     tools.NewGuard(),
		overlay:   p.overlay,
		workspace: p.workspace,
		done:      make(chan struct{}),
	}
	if p.liveTools {
		r.liveReplay = p.cassette // the changes are the overlay's
		r.liveProject = red.String(p.project)
	} else {
		r.changes, r.patch = replayChanges(p.cassette), replayPatch(p.cassette)
	}
	r.useCassette(p.cassette, rn.client, start)
	rn.mu.Lock()
	rn.runs[id] = r
	if p.asker != nil {
		p.asker.attach(r)
	}
	rn.mu.Unlock()
	if inline {
		r.execute()
	} else {
		go r.execute()
	}
	return r, nil
}

// Active returns the runs of this Runner that have not ended, oldest first.
func (rn *Runner) Active() []*Run {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	var out []*Run
	for _, r := range rn.runs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start.Before(out[j].start) })
	return out
}

// Get returns the run of this Runner with that id while it is active, or
// nil.
func (rn *Runner) Get(id string) *Run {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.runs[id]
}

func (rn *Runner) forget(id string) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	delete(rn.runs, id)
}

// errCancelled is the cause of a cancellation by Run.Cancel.
var errCancelled = errors.New("cancelled by the parent")

// Run is one trial run in progress (or just ended).
type Run struct {
	// mcp are the run's MCP servers, nil when it has none; their notes
	// go into run.json at the end.
	mcp      *mcp.Servers
	mcpNotes *mcp.Notes

	runner  *Runner
	spec    Spec
	model   runfolder.Model
	limits  Limits
	red     *redact.Redactor
	system  string
	layers  []string // system messages after system (a frontline run's layer)
	message string
	ctx     context.Context
	cancel  context.CancelCauseFunc
	start   time.Time
	// client sends the model calls: the runner's, a recording one, or a
	// replay's.
	client *http.Client
	// clock is a fast replay's virtual clock; nil means the wall clock.
	clock *cassette.VirtualClock

	// The tool loop: whether tools are offered, which, what runs them, and
	// the cycle guard.
	toolsOn bool
	tools   []wire.Tool
	toolbox toolRunner
	guard   *tools.Guard
	// overlay is the project's overlay the tools write to; nil without
	// a project.
	overlay *overlay.Overlay
	// changes are what the run changed in the overlay, read when it ended.
	changes []overlay.Change
	// patch is the run's changes.patch (redacted): rendered when it
	// ended, or a replay's recorded one ("" for an older cassette).
	patch string
	// workspace is the tools' view of the project and session folder.
	workspace *tools.Workspace
	// extraFiles are written into the run folder at the end, by path:
	// changes.patch, the session folder's files.
	extraFiles map[string][]byte

	// recorder and tape are set when recording; player when replaying.
	recorder *cassette.Recorder
	tape     *cassette.Cassette
	player   *cassette.Player
	// liveReplay is the cassette of a replay whose tools run live
	// (Spec.LiveTools), whose results are compared with the recorded.
	liveReplay *cassette.Cassette
	// liveProject is that replay's project folder, redacted.
	liveProject string

	mu         sync.Mutex
	callN      int             // the current model call, from 1
	output     strings.Builder // the current model call's text, redacted
	usage      wire.TokenUsage // the finished calls' usage, summed
	rec        runfolder.Record
	events     []Event
	transcript transcriptLog
	wd         *Watchdog
	// changed is closed when events grow; nil until a reader waits
	// (Next makes it), so a run nobody follows makes no channel an event.
	changed  chan struct{}
	done     chan struct{}
	ended    bool
	writeErr error
	// unsaved holds an Unsaved run's folder until Keep writes it.
	unsaved *folderContent
	// request is the composed request (nil for none), whose parts Keep
	// counts for an Unsaved run's record.
	request *request.Request
}

// folderContent is what a finished run's folder holds.
type folderContent struct {
	rec        runfolder.Record
	transcript *transcriptLog
	tape       []byte
	extra      map[string][]byte
	kept       bool
}

// Keep writes the folder of a finished Unsaved run (Spec.Unsaved) and
// returns it, its prompt's tokens counted first; for any other run it
// returns the folder written already. It waits for the run to end.
// Keeping twice writes once.
func (r *Run) Keep() (string, error) {
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.unsaved
	if u == nil || u.kept {
		return r.rec.Dir, r.writeErr
	}
	if _, err := runfolder.Create(r.runner.dir, u.rec.RunID); err != nil {
		return "", r.runner.worded(err)
	}
	countPrompt(u.rec.Prompt, r.request)
	if err := runfolder.Write(&u.rec, u.transcript.entries(), u.tape, u.extra); err != nil {
		return "", err
	}
	u.kept = true
	return u.rec.Dir, nil
}

// ID returns the run id.
func (r *Run) ID() string { return r.rec.RunID }

// Dir returns the run folder.
func (r *Run) Dir() string { return r.rec.Dir }

// Model returns the resolved model (its APIKey included: do not show it).
func (r *Run) Model() runfolder.Model { return r.model }

// Limits returns the watchdog's limits for the run's model calls.
func (r *Run) Limits() Limits { return r.limits }

// SystemPrompt returns the system prompt sent to the model.
func (r *Run) SystemPrompt() string { return r.red.String(r.system) }

// FirstMessage returns the first user message sent to the model.
func (r *Run) FirstMessage() string { return r.red.String(r.message) }

// Cancel cancels the run: it ends Failed, cancelled_by_parent, unless it
// has already ended. Cancel does not wait; use Wait.
func (r *Run) Cancel() { r.cancel(errCancelled) }

// Done is closed when the run has ended and its folder is written.
func (r *Run) Done() <-chan struct{} { return r.done }

// Wait waits for the run to end and returns its final record. The error is
// set when the run folder could not be written.
func (r *Run) Wait() (runfolder.Record, error) {
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec, r.writeErr
}

// Record returns a copy of the run's record as it stands.
func (r *Run) Record() runfolder.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec
}

// EventKind says what an Event carries.
type EventKind int

// Event kinds.
const (
	// EventText is a piece of the reply (redacted). Pieces arrive a word or
	// so behind the wire: a secret split across two deltas is held until
	// it can be redacted whole.
	EventText EventKind = iota + 1
	// EventThinking is a piece of reasoning (redacted).
	EventThinking
	// EventToolCall is a completed tool call (redacted).
	EventToolCall
	// EventKeepalive is a keepalive on the wire.
	EventKeepalive
	// EventUsage carries the token counts so far.
	EventUsage
	// EventFinish is the model's finish signal, with its raw reason.
	EventFinish
	// EventDone is the last event: the run has ended; Record is set.
	EventDone
	// EventToolResult is a tool call answered: Tool is set, with its
	// Result.
	EventToolResult
	// EventApproval is a tool call waiting for the author's approval
	// (Spec.AskInEvents): Approval is set; answer it with its Answer.
	EventApproval
)

// Event is one thing that happened in a run, for a browser to show.
type Event struct {
	Kind EventKind
	// Call is the model call the event belongs to, from 1 (0 for
	// EventDone).
	Call int
	// At is the time since the run started.
	At time.Duration
	// Text is set for EventText and EventThinking.
	Text string
	// Tool is set for EventToolCall and EventToolResult.
	Tool *runfolder.ToolCall
	// Finish is set for EventFinish.
	Finish string
	// Usage is set for EventUsage.
	Usage *runfolder.Usage
	// Record is set for EventDone: the final run.json.
	Record *runfolder.Record
	// Approval is set for EventApproval.
	Approval *approve.Prompt
}

// Next returns event i (0-based) of the run, waiting for it. It returns
// io.EOF when the run has ended with fewer events, and ctx's error when ctx
// ends first. Any number of readers may read the same run, each at its own
// pace; no event is dropped.
func (r *Run) Next(ctx context.Context, i int) (Event, error) {
	for {
		r.mu.Lock()
		if i < len(r.events) {
			e := r.events[i]
			r.mu.Unlock()
			return e, nil
		}
		ended := r.ended
		if !ended && r.changed == nil {
			r.changed = make(chan struct{})
		}
		ch := r.changed
		r.mu.Unlock()
		if ended {
			return Event{}, io.EOF
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

// Events returns a channel with every event of the run from the first,
// closed after EventDone or when ctx ends. Drain it or cancel ctx.
func (r *Run) Events(ctx context.Context) <-chan Event {
	ch := make(chan Event, 16)
	go func() {
		defer close(ch)
		for i := 0; ; i++ {
			e, err := r.Next(ctx, i)
			if err != nil {
				return
			}
			select {
			case ch <- e:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

// Status is a run's clocks, for a browser to show against each limit.
type Status struct {
	// State is Running until the run has ended.
	State string
	// Elapsed is the time since the run started (its duration once ended).
	Elapsed time.Duration
	// Call is the current model call's watchdog view; HasCall is false
	// before the call starts.
	Call    WatchStatus
	HasCall bool
}

// Status returns the run's clocks now.
func (r *Run) Status() Status {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Status{State: r.rec.State, Elapsed: now.Sub(r.start)}
	if r.rec.EndedAt != nil {
		s.Elapsed = r.rec.EndedAt.Sub(r.start)
		now = *r.rec.EndedAt
	}
	if r.wd != nil {
		s.Call, s.HasCall = r.wd.Status(now), true
	}
	return s
}

// emit appends an event and wakes readers. The caller holds r.mu.
func (r *Run) emit(e Event) {
	r.events = append(r.events, e)
	if r.changed != nil {
		close(r.changed)
		r.changed = nil
	}
}

// note appends a transcript entry of the current model call (an outcome
// belongs to none). The caller holds r.mu.
func (r *Run) note(t time.Time, e runfolder.TranscriptEntry) {
	e.TMS = t.Sub(r.start).Milliseconds()
	if e.Type != "outcome" {
		e.Call = r.callN
	}
	r.transcript.add(e)
}

// notePiece is note of a text (or thinking) piece s of the current
// model call.
func (r *Run) notePiece(t time.Time, thinking bool, s string) {
	r.transcript.addPiece(t.Sub(r.start).Milliseconds(), r.callN, thinking, s)
}

// now returns the run's time: the wall clock, or a fast replay's virtual
// clock.
func (r *Run) now() time.Time {
	if r.clock != nil {
		return r.clock.Now()
	}
	return time.Now()
}

// replayLines guesses how many events and transcript lines a replay of c
// makes, so that both are made once rather than grown: one for each
// streamed event (an SSE frame, which a blank line ends, or an Ollama
// JSON line), and a few for each call and for the end. The separators
// start with a newline, which is rare elsewhere in a stream: counting
// them is quick.
func replayLines(c *cassette.Cassette) int {
	sep := []byte("\n\n")
	if c.Header.Protocol == "ollama" {
		sep = []byte("\n")
	}
	n := 8
	for _, call := range c.Calls {
		n += 8
		for _, ch := range call.Chunks {
			n += bytes.Count(ch.Data, sep)
		}
	}
	return n
}

// projectGit inspects the project's git state for the working context; nil
// without a project.
func projectGit(ctx context.Context, project string) *request.GitState {
	if project == "" {
		return nil
	}
	g := request.InspectGit(ctx, project)
	return &g
}
