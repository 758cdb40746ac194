package route

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// DefaultSamples is how many times a request is asked by default.
const DefaultSamples = 5

// Question is a request to put to the frontline model.
type Question struct {
	// Catalog is the scanned home: its agents make the layer, its Config
	// the model.
	Catalog *lint.Catalog
	// Audience is the session's audience (Personal by default).
	Audience preview.Audience
	// Preamble is the frontline's first system message; "" is
	// preview.DefaultPreamble.
	Preamble string
	// Request is the user's message.
	Request string
	// ModelRole is the model role asked ("" is Main, the frontline's).
	ModelRole string
	// Limits override the configured watchdog limits where not zero.
	Limits runner.Limits
	// MaxTokens caps the reply (0: the provider's default).
	MaxTokens int
	// Tools are the tools the frontline is offered; nil offers spawn_agent
	// alone. A session composed as NetClaw's (request.SessionTools) offers
	// the session's tools, spawn_agent among them.
	Tools []wire.Tool
	// PreambleSource says which preamble was used, for the report: the
	// --system-file, NetClaw's main-session prompt, or agentdesk's
	// default ("" for the default).
	PreambleSource string
	// Context, when set (AsNetClaw), is the main session's context layers:
	// its Static message is the second system message, and its Nudge (the
	// per-turn block, the layer first) is sent just before the request in
	// place of the bare layer's.
	Context *request.SessionContext
	// Now is the instant the current-time layer tells (zero: the time
	// AsNetClaw composes the context).
	Now time.Time
}

// InputError is a question that cannot be asked: no model configured, the
// Public audience, sub-agents disabled, a layer with no user-facing agent,
// an empty request. Its message names the configuration key or the fix.
type InputError struct {
	Err error
	// Model is set when the model is what is wrong: a replay, which calls
	// no model, can do without one.
	Model bool
}

// Error returns the cause's message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// Prepared is a checked question: its frontline request and its model.
type Prepared struct {
	Question
	Frontline preview.Frontline
	// Model is the frontline's model (its APIKey included: do not show it).
	Model runfolder.Model
}

// ErrNoCatalog is Prepare's answer to a question without a catalog. The
// command line words it with the flag that names the home.
var ErrNoCatalog = errors.New("no agents were read: give the NetClaw home")

// Prepare checks q and builds its frontline request. The errors are
// *InputError: a role that resolves to no configured model (the runtime's
// built-in default counts as none: the frontline's model must be named),
// a configuration that does not resolve, the Public audience, sub-agents
// disabled, a layer with no user-facing agent, an empty request.
func Prepare(q Question) (*Prepared, error) {
	if q.Catalog == nil {
		return nil, &InputError{Err: ErrNoCatalog}
	}
	if strings.TrimSpace(q.Request) == "" {
		return nil, &InputError{Err: errors.New("the request is empty: give the user's message, as they would type it")}
	}
	role := q.ModelRole
	if role == "" {
		role = "Main"
	}
	nrole, err := runner.NormalizeRole(role)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	q.ModelRole = nrole
	m, err := runner.ResolveModel(q.Catalog.Config, nrole)
	if err != nil {
		return nil, &InputError{Err: err, Model: true}
	}
	if m.Via == runner.ViaBuiltInDefault {
		return nil, &InputError{Model: true, Err: fmt.Errorf("no %s model is configured: the frontline's model is Models.Roles.%s, naming a Models.Definitions entry ({\"Provider\", \"ModelId\"}) whose Provider is a Providers entry; set them in %s",
			nrole, nrole, filepath.Join(q.Catalog.Home.ConfigDir, "netclaw.json"))}
	}
	f, err := preview.FrontlineRequest(q.Catalog, q.Audience, q.Preamble, q.Request)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return &Prepared{Question: q, Frontline: f, Model: m}, nil
}

// prepareReplay is Prepare for a question only replayed: a model that does
// not resolve is no error (Model is then the zero Model, and the
// fingerprint has no model part to compare).
func prepareReplay(q Question) (*Prepared, error) {
	p, err := Prepare(q)
	var ie *InputError
	if err == nil || !errors.As(err, &ie) || !ie.Model {
		return p, err
	}
	f, ferr := preview.FrontlineRequest(q.Catalog, q.Audience, q.Preamble, q.Request)
	if ferr != nil {
		return nil, &InputError{Err: ferr}
	}
	if q.ModelRole == "" {
		q.ModelRole = "Main"
	}
	return &Prepared{Question: q, Frontline: f}, nil
}

// Spec returns the runner spec of one sample of the question.
func (p *Prepared) Spec() runner.Spec {
	f := p.Frontline
	return runner.Spec{
		Config:    p.Catalog.Config,
		Task:      f.Request,
		ModelRole: p.ModelRole,
		MaxTokens: p.MaxTokens,
		Limits:    p.Limits,
		Frontline: &runner.Frontline{
			Systems:  p.Systems(),
			Tools:    p.tools(),
			Audience: f.Audience.String(),
			Nudge:    p.Nudge(),
		},
	}
}

// Systems are the system messages sent: the preamble, then the session's
// static context (the OnceAtStart layers) when the question has one. The
// [available-subagents] layer is never among them: it is per turn (Nudge).
func (p *Prepared) Systems() []string {
	if c := p.Question.Context; c != nil && c.Static != "" {
		return []string{p.Frontline.Preamble, c.Static}
	}
	return p.Frontline.Systems()
}

// Nudge is the user message sent just before the request: the per-turn
// "[system: …]" block, which carries the [available-subagents] layer
// (SubAgentDiscoveryContextLayer is EveryTurn: see preview.Frontline),
// then, for a session composed as NetClaw's, the current time and the
// working context.
func (p *Prepared) Nudge() string {
	if c := p.Question.Context; c != nil {
		return c.Nudge
	}
	return p.Frontline.Nudge()
}

// tools are the tools the frontline is offered.
func (p *Prepared) tools() []wire.Tool {
	if len(p.Question.Tools) > 0 {
		return p.Question.Tools
	}
	f := p.Frontline
	return []wire.Tool{{Name: f.Tool.Name, Description: f.Tool.Description, Parameters: json.RawMessage(f.Tool.Parameters)}}
}

// Options say how to ask.
type Options struct {
	// Samples is how many times to ask (0: DefaultSamples).
	Samples int
	// Jobs caps the samples asked at once (0: all of them).
	Jobs int
	// Record keeps each sample's stream.cassette in its run folder.
	Record bool
	// Replays, when set, play sample i from Replays[i] instead of asking
	// the model, on the recorded timeline (fast); Samples is their number.
	Replays []*cassette.Cassette
	// ReplaySources name the cassettes in run.json.
	ReplaySources []string
	// OnSample, when set, is called as each sample ends, one call at a
	// time.
	OnSample func(Sample)
}

// Sample is one ask of the question.
type Sample struct {
	// N is the sample's number, from 1.
	N int
	// Pick is what the frontline did.
	Pick Pick
	// Run is the sample's final run.json; RunID is "" when the run could
	// not start (Pick is then Failed with the reason).
	Run runfolder.Record
	// WriteErr is set when the run folder could not be written.
	WriteErr error
	// run is the sample's run, for Keep of an unsaved replay.
	run *runner.Run
}

// Share is one pick's part of a distribution.
type Share struct {
	Label string `json:"label"`
	Kind  Kind   `json:"kind"`
	Count int    `json:"count"`
}

// Result is a question asked Samples times.
type Result struct {
	Prepared *Prepared
	Samples  []Sample
	// NoTools is set when the provider refused the tools: the model does
	// not take them (the message says so and what to do).
	NoTools string
}

// Distribution counts the samples' picks, most frequent first (ties by
// label).
func (r *Result) Distribution() []Share {
	return Distribution(r.Samples)
}

// Distribution counts the picks of samples, most frequent first (ties by
// label). A sample that got no answer (Sample.NoAnswer) is not a pick and
// is not counted.
func Distribution(samples []Sample) []Share {
	idx := map[string]int{}
	var out []Share
	for _, s := range samples {
		if s.NoAnswer() != "" {
			continue
		}
		l := s.Pick.Label()
		i, ok := idx[l]
		if !ok {
			i = len(out)
			idx[l] = i
			out = append(out, Share{Label: l, Kind: s.Pick.Kind})
		}
		out[i].Count++
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Label < out[j].Label
	})
	return out
}

// Ask asks the prepared question o.Samples times in parallel (at most
// o.Jobs at once), each a frontline run of rn with its own run folder, and
// classifies every first reply. Samples are in order. The error is set
// only when ctx ends first.
func Ask(ctx context.Context, rn *runner.Runner, p *Prepared, o Options) (*Result, error) {
	n := o.Samples
	if len(o.Replays) > 0 {
		n = len(o.Replays)
	}
	if n <= 0 {
		n = DefaultSamples
	}
	jobs := o.Jobs
	if jobs <= 0 || jobs > n {
		jobs = n
	}
	res := &Result{Prepared: p, Samples: make([]Sample, n)}
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	var report sync.Mutex
	// jobs workers take the samples in order.
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := askNth(ctx, rn, p, &o, i)
				s.N = i + 1
				res.Samples[i] = s
				if o.OnSample != nil {
					report.Lock()
					o.OnSample(s)
					report.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	res.NoTools = noToolsAdvice(p, res.Samples)
	return res, ctx.Err()
}

// askNth runs the sample with index i of o: a recorded or live run, or,
// once ctx has ended, a failure that says it never started.
func askNth(ctx context.Context, rn *runner.Runner, p *Prepared, o *Options, i int) Sample {
	if ctx.Err() != nil {
		return Sample{Pick: Pick{Kind: Failed, Reason: vocab.ReasonCancelledByParent, Error: "cancelled before it started"}}
	}
	spec := p.Spec()
	spec.Record = o.Record
	if len(o.Replays) > 0 {
		spec.Replay, spec.Fast = o.Replays[i], true
		if i < len(o.ReplaySources) {
			spec.ReplaySource = o.ReplaySources[i]
		}
	}
	return askOne(ctx, rn, p, spec)
}

// noToolsAdvice says what to do when a sample failed because the model
// takes no tools (the first such sample's provider message quoted); ""
// when none did.
func noToolsAdvice(p *Prepared, samples []Sample) string {
	for _, s := range samples {
		if msg := noTools(s.Run); msg != "" {
			return fmt.Sprintf("the model %s (provider %s) does not take tools: the provider answered %q. The frontline delegates through the spawn_agent tool, so it needs a model that calls tools: point Models.Roles.%s at one in netclaw.json",
				p.Model.ModelID, p.Model.Provider, msg, p.ModelRole)
		}
	}
	return ""
}

// askOne runs one sample and classifies it.
func askOne(ctx context.Context, rn *runner.Runner, p *Prepared, spec runner.Spec) Sample {
	r, err := rn.Start(ctx, spec)
	if err != nil {
		return Sample{Pick: Pick{Kind: Failed, Reason: "spawn_error", Error: err.Error()}}
	}
	rec, werr := r.Wait()
	return Sample{Pick: Classify(p.Catalog, p.Audience, &rec), Run: rec, WriteErr: werr, run: r}
}

// toolsRefused matches what providers answer a request with tools for a
// model that takes none (Ollama: "… does not support tools"; vLLM: "auto"
// tool choice requires --enable-auto-tool-choice …).
var toolsRefused = regexp.MustCompile(`(?i)(does not|doesn't|do not) support tools|tools? (are |is )?not supported|tool[ _]choice requires|does not support (function|tool)[ _]call`)

// noTools returns the provider's message when the run failed because the
// model takes no tools.
func noTools(rec runfolder.Record) string {
	if rec.Reason != vocab.ReasonLLMCallFailed || !toolsRefused.MatchString(rec.Error) {
		return ""
	}
	return rec.Error
}
