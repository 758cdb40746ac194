package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// Runner starts trial runs into one runs folder. It is safe for concurrent
// use; its runs are independent of each other.
type Runner struct {
	dir    string
	client *http.Client

	mu   sync.Mutex
	runs map[string]*Run
}

// Options configure a Runner.
type Options struct {
	// RunsDir is the runs folder (see DefaultRunsDir). Required.
	RunsDir string
	// Client sends the model calls; nil means a client without a timeout
	// (the watchdog times calls) on http.DefaultTransport. Issue 5's replay
	// slots in here, as a Transport that plays a cassette.
	Client *http.Client
}

// New returns a Runner.
func New(o Options) (*Runner, error) {
	if strings.TrimSpace(o.RunsDir) == "" {
		return nil, errors.New("no runs folder: pass --runs-dir or set XDG_STATE_HOME or HOME")
	}
	dir, err := filepath.Abs(o.RunsDir)
	if err != nil {
		return nil, fmt.Errorf("runs folder %s: %w", o.RunsDir, err)
	}
	c := o.Client
	if c == nil {
		c = &http.Client{}
	}
	return &Runner{dir: dir, client: c, runs: map[string]*Run{}}, nil
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
	// MaxTokens caps the reply (0: the provider's default).
	MaxTokens int
	// Limits override the configured limits where not zero.
	Limits Limits
	// Secrets are redacted on top of the configuration's secrets.
	Secrets []string
}

// SpecError is a Spec that cannot run: an agent that is not loaded, an
// empty task, a skill that routes elsewhere, a model that does not resolve.
// No run folder is made for it.
type SpecError struct{ Err error }

func (e *SpecError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *SpecError) Unwrap() error { return e.Err }

func specErrorf(format string, args ...any) error {
	return &SpecError{Err: fmt.Errorf(format, args...)}
}

// Start checks the spec, resolves the model, writes run.json with state
// Running, and starts the run. It returns at once with the run's id and
// folder; the model call goes on in the background. ctx bounds the whole
// run: cancelling it cancels the run (cancelled_by_parent), as Run.Cancel
// does.
func (rn *Runner) Start(ctx context.Context, s Spec) (*Run, error) {
	f := s.Agent
	if f == nil || f.Def == nil {
		return nil, specErrorf("no agent definition to run")
	}
	if f.Status != lint.Loaded {
		reason := f.Reason
		if reason == "" {
			reason = "the runtime skips it"
		}
		return nil, specErrorf("agent %s at %s is rejected: %s", f.Def.Name, f.Path, reason)
	}
	if strings.TrimSpace(s.Task) == "" {
		return nil, specErrorf("the task is empty: say what the agent should do")
	}
	if s.Skill != nil {
		if s.Skill.RouteError != "" {
			return nil, specErrorf("%s", s.Skill.RouteError)
		}
		if !strings.EqualFold(s.Skill.Subagent, f.Def.Name) {
			target := s.Skill.Subagent
			if target == "" {
				target = "no sub-agent"
			}
			return nil, specErrorf("skill /%s routes to %s, not to %s", s.Skill.Name, target, f.Def.Name)
		}
	}
	role := s.ModelRole
	if role == "" {
		role = f.Def.ModelRole
	}
	model, err := ResolveModel(s.Config, role)
	if err != nil {
		return nil, &SpecError{Err: err}
	}
	limits := LimitsFor(s.Config, f.Def).Override(s.Limits)
	secrets := append(s.Config.Secrets(), s.Secrets...)
	if model.APIKey != "" {
		secrets = append(secrets, model.APIKey)
	}
	red := NewRedactor(secrets...)

	id := NewRunID()
	dir, err := createRunFolder(rn.dir, id)
	if err != nil {
		return nil, err
	}
	agentPath := f.Path
	if abs, err := filepath.Abs(agentPath); err == nil {
		agentPath = abs
	}
	host, _ := os.Hostname()
	shown := model
	shown.Endpoint = red.String(model.Endpoint)
	rec := Record{
		RunID:       id,
		Agent:       f.Def.Name,
		AgentPath:   agentPath,
		AgentSHA256: f.SHA256,
		Task:        red.String(s.Task),
		Context:     red.String(s.Context),
		State:       StateRunning,
		Model:       shown,
		StartedAt:   time.Now(),
		Files:       []string{RunFile},
		ToolCalls:   []ToolCall{},
		Limits:      limitsRecord(limits),
		PID:         os.Getpid(),
		Host:        host,
		Dir:         dir,
	}
	if s.Skill != nil {
		rec.Skill = s.Skill.Name
	}
	if err := writeRecord(&rec); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	r := &Run{
		runner:  rn,
		spec:    s,
		model:   model,
		limits:  limits,
		red:     red,
		system:  preview.SystemPrompt(f.Def, s.Skill),
		message: preview.FirstMessage(s.Task, s.Context),
		ctx:     runCtx,
		cancel:  cancel,
		rec:     rec,
		start:   rec.StartedAt,
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	rn.mu.Lock()
	rn.runs[id] = r
	rn.mu.Unlock()
	go r.execute()
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
	runner  *Runner
	spec    Spec
	model   Model
	limits  Limits
	red     *Redactor
	system  string
	message string
	ctx     context.Context
	cancel  context.CancelCauseFunc
	start   time.Time

	mu         sync.Mutex
	rec        Record
	events     []Event
	transcript []TranscriptEntry
	wd         *Watchdog
	changed    chan struct{} // closed and replaced whenever events grow
	done       chan struct{}
	ended      bool
	writeErr   error
}

// ID returns the run id.
func (r *Run) ID() string { return r.rec.RunID }

// Dir returns the run folder.
func (r *Run) Dir() string { return r.rec.Dir }

// Model returns the resolved model (its APIKey included: do not show it).
func (r *Run) Model() Model { return r.model }

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
func (r *Run) Wait() (Record, error) {
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec, r.writeErr
}

// Record returns a copy of the run's record as it stands.
func (r *Run) Record() Record {
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
)

// Event is one thing that happened in a run, for a browser to show.
type Event struct {
	Kind EventKind
	// At is the time since the run started.
	At time.Duration
	// Text is set for EventText and EventThinking.
	Text string
	// Tool is set for EventToolCall.
	Tool *ToolCall
	// Finish is set for EventFinish.
	Finish string
	// Usage is set for EventUsage.
	Usage *Usage
	// Record is set for EventDone: the final run.json.
	Record *Record
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
		ended, ch := r.ended, r.changed
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
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
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
	close(r.changed)
	r.changed = make(chan struct{})
}

// note appends a transcript entry. The caller holds r.mu.
func (r *Run) note(t time.Time, e TranscriptEntry) {
	e.TMS = t.Sub(r.start).Milliseconds()
	r.transcript = append(r.transcript, e)
}

// execute runs the model call, classifies it, and writes the run folder.
func (r *Run) execute() {
	defer r.runner.forget(r.rec.RunID)
	defer r.cancel(nil)
	ev := r.call()
	v := Classify(ev)
	r.finish(ev, v)
}
