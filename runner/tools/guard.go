package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// The cycle guard is NetClaw's TurnStateTracker (netclaw-dev/netclaw
// a36cc1ee, src/Netclaw.Actors/Sessions/Handlers/TurnStateTracker.cs):
// it works on the batch of tool calls one reply makes, before any of them
// runs, and again after they ran.
//
//   - Per call: the identity of a call is its tool name and a hash of
//     whether it is accepted, why not, and its arguments in canonical form
//     (for an accepted call without the meta arguments). Its outcome is the
//     distinct (category, result text) pairs of the calls of that identity
//     in one batch. After two equal outcomes in a row the next matching
//     call is refused with Correction; a matching call after that stops the
//     run.
//   - Adjacent batches: a batch's action is the hash of its calls'
//     identities, sorted. When the last 2×P completed batches (P = 1, 2 or
//     3) are two equal copies of a cycle, action and outcome alike, and the
//     next batch's action is the cycle's first, the whole batch is refused;
//     the same action again stops the run, unless a different one completed
//     in between.
//   - A call of check_background_job whose last result was a pending job is
//     exempt from both.
//
// A refused call does not run and enters no history.

// Correction is the text a refused call returns to the model
// (ToolCycleMessages.Correction, a36cc1ee).
const Correction = "Netclaw stopped this tool call because it would continue a repeated action-and-outcome cycle. " +
	"The same action completed twice without a changed result. This call did not execute."

// CorrectionNextAction is the line NetClaw's remediation presenter puts
// after Correction (ToolRecurrencePersistenceFaultTests, a36cc1ee: the
// result is Correction + "\n" + this line).
const CorrectionNextAction = "Next action: choose a different action, load a missing tool, or finish the task."

// CorrectionText is the whole result of a refused call, as the model reads
// it.
const CorrectionText = Correction + "\n" + CorrectionNextAction

// CycleStopText is NetClaw's terminal report when a repeat after a
// correction ends the run (ToolCycleMessages.Final, a36cc1ee).
const CycleStopText = "Netclaw stopped this run after you repeated a tool batch that the cycle guard already blocked. " +
	"The result is partial. The last refused operation did not execute. " +
	"Earlier tool results remain available in the session."

// Bounds of the guard's memory, as TurnStateTracker has them.
const (
	// maxCyclePeriod is the longest adjacent cycle detected, in batches.
	maxCyclePeriod = 3
	// maxCycleHistory is how many completed batches are kept: two copies
	// of the longest cycle.
	maxCycleHistory = maxCyclePeriod * 2
	// maxColdKeys is how many call identities that are not (yet) suspect
	// are remembered; the oldest is forgotten past it.
	maxColdKeys = 256
)

// pendingJobTool is the tool whose pending-job result exempts its next call.
const pendingJobTool = "check_background_job"

// Action is what the guard decides for a batch, or for one of its calls.
type Action int

// The guard's actions.
const (
	// Allow: run the call.
	Allow Action = iota
	// Refuse: do not run the call; return CorrectionText to the model as
	// its result.
	Refuse
	// Stop: run nothing; end the run (Partial, tool_cycle_stopped) with
	// no further model call.
	Stop
)

// String names the action.
func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Refuse:
		return "refuse"
	case Stop:
		return "stop"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// GuardCall is one tool call of a batch, as the model made it.
type GuardCall struct {
	Name string
	Args json.RawMessage
}

// Batch is a reply's tool calls, prepared for the guard (their identities
// and the batch's action).
type Batch struct {
	calls  []preparedCall
	action string
}

type preparedCall struct {
	key recurrenceKey
	// pendingOK: a check_background_job call that does not cancel.
	pendingOK bool
}

type recurrenceKey struct {
	name, args string
}

// Decision is the guard's answer for a batch.
type Decision struct {
	// Action is Stop for the whole batch, Refuse when at least one call is
	// refused, else Allow.
	Action Action
	// Refused marks the calls not to run, by index in the batch (Refuse
	// only).
	Refused []bool
}

// Call returns what happens to call i of the batch.
func (d Decision) Call(i int) Action {
	switch {
	case d.Action == Stop:
		return Stop
	case i < len(d.Refused) && d.Refused[i]:
		return Refuse
	}
	return Allow
}

// Result is the tool result to hand the model for a refused call.
func (d Decision) Result() Result {
	return Result{Text: CorrectionText, IsError: true, Refused: true}
}

// Guard detects a model repeating tool calls, as the comment at the top of
// this file describes. The zero value is not ready; use NewGuard. It is
// safe for concurrent use, but a run consults it in order: Prepare, Admit,
// run the allowed calls, Complete, then the next batch.
type Guard struct {
	mu          sync.Mutex
	episodes    map[recurrenceKey]*episode
	cold        []recurrenceKey
	history     []completedBatch
	lastBlocked string
}

type episode struct {
	outcome     string
	equalRounds int
	corrected   bool
	pendingJob  bool
}

type completedBatch struct {
	action, outcome string
}

// NewGuard returns a guard that has seen no calls.
func NewGuard() *Guard {
	return &Guard{episodes: map[recurrenceKey]*episode{}}
}

// Prepare computes the identities of a reply's calls and the batch's
// action (ToolCycleSignatureFactory.Prepare).
func (g *Guard) Prepare(calls []GuardCall) *Batch {
	b := &Batch{calls: make([]preparedCall, len(calls))}
	for i, c := range calls {
		b.calls[i] = prepare(c)
	}
	ordered := slices.Clone(b.calls)
	sort.SliceStable(ordered, func(i, j int) bool {
		if ordered[i].key.name != ordered[j].key.name {
			return ordered[i].key.name < ordered[j].key.name
		}
		return ordered[i].key.args < ordered[j].key.args
	})
	fields := make([]string, 0, 2*len(ordered))
	for _, c := range ordered {
		fields = append(fields, c.key.name, c.key.args)
	}
	b.action = hashFields(fields...)
	return b
}

// prepare is one call's identity. An accepted call is identified by its
// arguments without the meta arguments (they do not change what runs); a
// rejected one (arguments that are not an object, no _rationale, which
// NetClaw's schema requires) by all it sent, so that its repair differs
// from it.
func prepare(c GuardCall) preparedCall {
	meta, clean, err := SplitMeta(c.Args)
	status, why, args := "accepted", "", clean
	switch {
	case err != nil:
		status, why, args = "rejected", "arguments", c.Args
	case strings.TrimSpace(meta.Rationale) == "":
		status, why, args = "rejected", "rationale", c.Args
	}
	p := preparedCall{key: recurrenceKey{name: c.Name, args: hashFields(status, why, hashText(canonicalText(args)))}}
	if status == "accepted" && c.Name == pendingJobTool {
		p.pendingOK = !cancels(clean)
	}
	return p
}

// cancels reports whether check_background_job arguments ask to cancel.
func cancels(args json.RawMessage) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return false
	}
	for k, v := range obj {
		if strings.EqualFold(k, "cancel") && strings.TrimSpace(string(v)) != "false" {
			return true
		}
	}
	return false
}

// Admit decides a batch before any of its calls runs
// (TurnStateTracker.EvaluateBeforeDispatch). A refusal is remembered: the
// next matching call gets Stop. Consult it exactly once per batch.
func (g *Guard) Admit(b *Batch) Decision {
	g.mu.Lock()
	defer g.mu.Unlock()
	refused := make([]bool, len(b.calls))
	stop, anyRefused, anyExempt := g.recurring(b, refused)
	if stop {
		return Decision{Action: Stop}
	}
	if !anyExempt {
		switch g.adjacent(b.action) {
		case Stop:
			return Decision{Action: Stop}
		case Refuse:
			for i := range refused {
				refused[i], anyRefused = true, true
			}
		}
	}
	if !anyRefused {
		return Decision{Action: Allow}
	}
	for _, group := range groups(b) {
		if ep := g.episodes[group.key]; ep != nil && refused[group.calls[0]] {
			ep.corrected = true
		}
	}
	return Decision{Action: Refuse, Refused: refused}
}

// recurring is Admit's look at each group of b's episode: it marks in
// refused the calls of a group that had the same outcome twice in a row.
// stop is set (and the rest left) for a group that recurs after the
// guard's correction; exempt for a group that waits on a pending job,
// which spares the batch the adjacent check.
func (g *Guard) recurring(b *Batch, refused []bool) (stop, anyRefused, exempt bool) {
	for _, group := range groups(b) {
		ep := g.episodes[group.key]
		if ep == nil {
			continue
		}
		if ep.pendingJob {
			exempt = true
			continue
		}
		if ep.corrected {
			return true, anyRefused, exempt
		}
		if ep.equalRounds >= 2 {
			for _, i := range group.calls {
				refused[i], anyRefused = true, true
			}
		}
	}
	return false, anyRefused, exempt
}

// adjacent is TurnStateTracker.EvaluateAdjacentBeforeDispatch.
func (g *Guard) adjacent(action string) Action {
	if g.lastBlocked != "" && g.lastBlocked == action {
		return Stop
	}
	h := g.history
	for period := 1; period <= maxCyclePeriod; period++ {
		need := 2 * period
		if len(h) < need {
			continue
		}
		start := len(h) - need
		if !equalCopies(h, start, period) || h[start].action != action {
			continue
		}
		g.lastBlocked = action
		return Refuse
	}
	return Allow
}

func equalCopies(h []completedBatch, start, period int) bool {
	for o := 0; o < period; o++ {
		if h[start+o] != h[start+period+o] {
			return false
		}
	}
	return true
}

// Complete records the results of a batch the guard admitted: results[i]
// is call i's (a refused call's is ignored). Call it after the calls ran.
func (g *Guard) Complete(b *Batch, d Decision, results []Result) {
	if d.Action == Stop {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var outs []callOutcome
	refusedAny := false
	pendingAny := false
	for _, group := range groups(b) {
		var pairs []string
		pending := true
		ran := false
		for _, i := range group.calls {
			if d.Call(i) != Allow {
				refusedAny = true
				continue
			}
			ran = true
			r := results[i]
			pairs = append(pairs, hashFields(category(r), hashText(r.Text)))
			outs = append(outs, callOutcome{group.key.name, group.key.args, category(r), hashText(r.Text)})
			pending = pending && b.calls[i].pendingOK && r.PendingJob
		}
		if !ran {
			continue
		}
		slices.Sort(pairs)
		pairs = slices.Compact(pairs)
		pendingAny = pendingAny || pending
		g.observe(group.key, hashFields(pairs...), pending)
	}
	if refusedAny || pendingAny {
		return
	}
	g.recordBatch(b.action, batchOutcome(outs))
}

// callOutcome is one call's part of a batch's outcome: the call and the
// category and hash of its result.
type callOutcome struct{ name, args, category, result string }

// batchOutcome hashes the outcomes of a batch's calls, in a fixed order,
// so the same calls with the same results hash the same.
func batchOutcome(outs []callOutcome) string {
	sort.Slice(outs, func(i, j int) bool {
		a, b := outs[i], outs[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if a.args != b.args {
			return a.args < b.args
		}
		if a.category != b.category {
			return a.category < b.category
		}
		return a.result < b.result
	})
	fields := make([]string, 0, 4*len(outs))
	for _, o := range outs {
		fields = append(fields, o.name, o.args, o.category, o.result)
	}
	return hashFields(fields...)
}

// recordBatch adds a completed batch to the history the adjacent check
// reads (the last maxCycleHistory), and lifts the block of an action
// once another one completes.
func (g *Guard) recordBatch(action, outcome string) {
	g.history = append(g.history, completedBatch{action: action, outcome: outcome})
	if len(g.history) > maxCycleHistory {
		g.history = g.history[1:]
	}
	if g.lastBlocked != "" && action != g.lastBlocked {
		g.lastBlocked = ""
	}
}

// observe is TurnStateTracker.ObserveGroup.
func (g *Guard) observe(k recurrenceKey, outcome string, pending bool) {
	prev := g.episodes[k]
	equal := prev != nil && prev.outcome == outcome
	next := &episode{outcome: outcome, equalRounds: 1, pendingJob: pending}
	switch {
	case pending:
		next.equalRounds = 0
	case equal:
		next.equalRounds = min(2, prev.equalRounds+1)
	}
	next.corrected = equal && prev.corrected
	g.episodes[k] = next
	g.cold = slices.DeleteFunc(g.cold, func(c recurrenceKey) bool { return c == k })
	if next.equalRounds < 2 && !next.corrected {
		g.cold = append(g.cold, k)
	}
	for len(g.cold) > maxColdKeys {
		delete(g.episodes, g.cold[0])
		g.cold = g.cold[1:]
	}
}

// category is a result's outcome category, standing for NetClaw's receipt
// category (success, a refusal, an error).
func category(r Result) string {
	switch {
	case r.Refused:
		return "refused"
	case r.IsError:
		return "error"
	}
	return "success"
}

type callGroup struct {
	key   recurrenceKey
	calls []int
}

// groups returns a batch's calls grouped by identity, in first-seen order.
func groups(b *Batch) []callGroup {
	var out []callGroup
	for i, c := range b.calls {
		j := slices.IndexFunc(out, func(g callGroup) bool { return g.key == c.key })
		if j < 0 {
			out = append(out, callGroup{key: c.key})
			j = len(out) - 1
		}
		out[j].calls = append(out[j].calls, i)
	}
	return out
}

// hashFields hashes fields with length prefixes, so ["ab","c"] and
// ["a","bc"] differ (TurnStateTracker's HashFields).
func hashFields(fields ...string) string {
	h := sha256.New()
	var n [4]byte
	for _, f := range fields {
		binary.BigEndian.PutUint32(n[:], uint32(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func hashText(s string) string { return hashFields(s) }

// canonicalText is the arguments as the cycle guard compares them: object
// keys sorted, array order, scalar types and the text of numbers kept
// (TurnStateTracker.WriteCanonical). Empty arguments are the empty
// object; arguments that are not JSON are compared by their bytes.
func canonicalText(args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		return "{}"
	}
	if !utf8.Valid(args) {
		return "\x00raw:" + string(args)
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "\x00raw:" + string(args)
	}
	if _, err := dec.Token(); err != io.EOF {
		return "\x00raw:" + string(args)
	}
	var b strings.Builder
	writeNetClawCanonical(&b, v)
	return b.String()
}

func writeNetClawCanonical(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeNetClawCanonical(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeNetClawCanonical(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		b.WriteString(v.String())
	default:
		e, _ := json.Marshal(v)
		b.Write(e)
	}
}
