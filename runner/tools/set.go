package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/runner/approve"
)

// RationaleRefusal is the runtime's result for a call without a
// _rationale meta argument: the tool is not run.
const RationaleRefusal = "Error: Required meta argument '_rationale' must be a non-empty string. Supply one sentence that states the tool call intent. The tool was NOT executed."

// UnknownToolFormat is the runtime's answer to a call of a tool the
// sub-agent does not have (%s: the name as the model sent it).
// NetClaw's DispatchingToolExecutor.ExecuteAsync answers it before
// anything else (src/Netclaw.Actors/Tools/DispatchingToolExecutor.cs at
// b2661c8bd6763347a3e20e528fb8a91da3724518). A deferred tool the model
// calls without load_tool is not refused: the sub-agent's ToolRegistry
// holds core and deferred tools alike, and GetByName dispatches on the
// name alone (the exposure tier only decides what is offered;
// src/Netclaw.Actors/Tools/ToolRegistry.cs, 25,409 bytes, and
// SubAgentActor.HandleToolCalls in
// src/Netclaw.Actors/SubAgents/SubAgentActor.cs, 89,315 bytes: the tiered
// versions, stored only in the fork salma-marei/netclaw @ba08b016), so
// Call runs it too.
const UnknownToolFormat = "Unknown tool: %s"

// Set is the tools of one run, answering calls by name. It is safe for
// concurrent use.
type Set struct {
	mu      sync.Mutex
	tools   map[string]Tool
	order   []string
	gate    *approve.Gate
	mocks   Mocker
	closers []func() error

	// requireRationale refuses calls without _rationale, as the runtime
	// does.
	requireRationale bool
	// validate, when set, answers a call the runtime would refuse before
	// running it ("" lets it run).
	validate func(t Tool, args json.RawMessage) string
	// loaded are the deferred tools load_tool activated; loadOrder lists
	// them in the order they were activated.
	loaded    map[string]bool
	loadOrder []string
}

// binder is a tool that needs the set it is in (search_tools and
// load_tool, which activate deferred tools).
type binder interface{ bind(*Set) }

// WithValidator checks each call before the gate and the tool: a non-empty
// answer is returned, refused, instead of running the tool (NetClaw's
// meta-argument checks; see CatalogValidator).
func WithValidator(v func(t Tool, args json.RawMessage) string) Option {
	return func(s *Set) { s.validate = v }
}

// Load activates deferred tools by name: Offered lists them from now on.
// Activating a core tool, or one already active, changes nothing.
func (s *Set) Load(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if t, ok := s.tools[n]; ok && t.Spec().Deferred && !s.loaded[n] {
			s.loaded[n] = true
			s.loadOrder = append(s.loadOrder, n)
		}
	}
}

// Offered returns the specs the model is offered now: every core tool in
// the order it was added, then the deferred ones activated so far in the
// order they were activated. So does SubAgentActor: ResolveCoreAiTools
// seeds its offered tools and TryActivateDiscoveredTool adds each deferred
// tool after them (salma-marei/netclaw
// @ba08b016c9d3286e62ce64e5013d63d298264231, the only stored copy of the
// tiered actor; see request.CoreTools).
func (s *Set) Offered() []Spec {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Spec, 0, len(s.order))
	for _, n := range s.order {
		if sp := s.tools[n].Spec(); !sp.Deferred {
			out = append(out, sp)
		}
	}
	for _, n := range s.loadOrder {
		if t, ok := s.tools[n]; ok {
			out = append(out, t.Spec())
		}
	}
	return out
}

// Mocker answers calls from a suite's mocks before any tool runs: ok is
// false when no mock matches the call.
type Mocker interface {
	Mock(name string, args json.RawMessage) (res Result, ok bool)
}

// Option configures a Set.
type Option func(*Set)

// WithGate puts calls to tools whose Spec has Approval to g (nil: no one
// approves them, and such a call ends the run as the runtime ends it).
func WithGate(g *approve.Gate) Option { return func(s *Set) { s.gate = g } }

// WithMocks answers the calls m matches from m; such calls are not run.
func WithMocks(m Mocker) Option { return func(s *Set) { s.mocks = m } }

// RequireRationale refuses, as the runtime does, a call without a
// non-empty _rationale (RationaleRefusal).
func RequireRationale() Option { return func(s *Set) { s.requireRationale = true } }

// NewSet returns a set of these tools; a later tool with the same name
// replaces an earlier one.
func NewSet(tools []Tool, opts ...Option) *Set {
	s := &Set{tools: map[string]Tool{}, loaded: map[string]bool{}}
	for _, t := range tools {
		s.Add(t)
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Add offers one more tool (an MCP server's, once it started).
func (s *Set) Add(t Tool) {
	name := t.Spec().Name
	if b, ok := t.(binder); ok {
		b.bind(s)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tools[name]; !ok {
		s.order = append(s.order, name)
	}
	s.tools[name] = t
}

// OnClose registers f to run when the set closes (an overlay, an MCP
// server); they run in reverse order.
func (s *Set) OnClose(f func() error) {
	s.mu.Lock()
	s.closers = append(s.closers, f)
	s.mu.Unlock()
}

// Specs returns the specs of the tools, in the order they were added.
func (s *Set) Specs() []Spec {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Spec, 0, len(s.order))
	for _, n := range s.order {
		out = append(out, s.tools[n].Spec())
	}
	return out
}

// Names returns the tools' names, sorted.
func (s *Set) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]string(nil), s.order...)
	sort.Strings(out)
	return out
}

// Tool returns the tool named name.
func (s *Set) Tool(name string) (Tool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tools[name]
	return t, ok
}

// Call answers one call: a mock when one matches (LabelMocked); a refusal
// for a tool the set does not have (UnknownToolFormat; a deferred tool
// that was never loaded runs, as in the runtime) or, when required, a missing _rationale; for a
// tool that needs approval, the gate's decision first (a denial is
// approve.DeniedText, LabelDenied; a call no one could approve ends the
// run, Result.Fail); else the tool's own result, labelled LabelReal (or
// LabelApproved) unless the tool labelled it.
func (s *Set) Call(ctx context.Context, name string, args json.RawMessage) Result {
	if s == nil {
		return Refusef("%s is not available: this trial run offers no tools. Answer from what you already have.", quoteName(name))
	}
	if s.mocks != nil {
		if res, ok := s.mocks.Mock(name, args); ok {
			res.Label = LabelMocked
			return res
		}
	}
	t, ok := s.Tool(name)
	if !ok {
		return Refusef(UnknownToolFormat, name)
	}
	if refusal := s.refusal(ctx, t, name, args); refusal != "" {
		return Result{Text: refusal, IsError: true, Refused: true, Label: LabelReal}
	}
	spec := t.Spec()
	label := LabelReal
	if spec.Approval {
		if denied, ok := s.askGate(ctx, name, spec, args); !ok {
			return denied
		}
		label = LabelApproved
	}
	res := t.Call(ctx, args)
	if res.Label == "" || spec.Approval && res.Label == LabelReal {
		res.Label = label
	}
	return res
}

// refusal is why the call of t (called name) is refused before it runs:
// a missing _rationale when one is required, the set's validation, or
// ctx ended; "" to run it.
func (s *Set) refusal(ctx context.Context, t Tool, name string, args json.RawMessage) string {
	if s.requireRationale {
		m, _, err := SplitMeta(args)
		if err == nil && strings.TrimSpace(m.Rationale) == "" {
			return RationaleRefusal
		}
	}
	if s.validate != nil {
		if refusal := s.validate(t, args); refusal != "" {
			return refusal
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Sprintf("%s was not run: %v", quoteName(name), err)
	}
	return ""
}

// askGate asks the gate about a call of a tool that needs approval. ok
// is true when the call may run; else denied is its answer: a denial, or,
// for a call no one could approve, a failure that ends the run.
func (s *Set) askGate(ctx context.Context, name string, spec Spec, args json.RawMessage) (denied Result, ok bool) {
	req := approve.NewRequest(name, spec.Server, args)
	req.Remote = spec.Remote
	d := s.gate.Decide(ctx, req)
	switch d.Verdict {
	case approve.Unattended:
		msg := s.gate.Unattended(req)
		return Result{Text: msg, IsError: true, Refused: true, Label: LabelDenied, Fail: msg}, false
	case approve.Denied:
		return Result{Text: approve.DeniedText, IsError: true, Refused: true, Label: LabelDenied}, false
	}
	return Result{}, true
}

// Close runs the registered closers, last first, and returns the first
// error.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	cs := s.closers
	s.closers = nil
	s.mu.Unlock()
	var first error
	for i := len(cs) - 1; i >= 0; i-- {
		if err := cs[i](); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// quoteName shows a tool name from a model safely: Go-quoted when it holds
// anything but printable ASCII, and at most 80 bytes.
func quoteName(name string) string {
	if len(name) > 80 {
		name = name[:80] + "…"
	}
	for _, r := range name {
		if r < 0x20 || r > 0x7e {
			return fmt.Sprintf("%q", name)
		}
	}
	return name
}
