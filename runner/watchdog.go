package runner

import (
	"fmt"
	"time"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// Watchdog times one model call the way the runtime does. It is a pure
// state machine: the caller feeds it events and the times they arrived, and
// asks it when the next limit falls due and whether one has. It is not safe
// for concurrent use.
//
// Wire silence is timed by the prefill budget before the first substantive
// event (visible text, thinking, a tool call) and by the inter-delta budget
// after it; any bytes, keepalives included, reset it. Both end the call
// no_activity_timeout (SubAgentActor, netclaw-dev/netclaw 502847bf: one liveness
// watchdog that starts on the prefill budget and moves to the inter-delta
// budget at the first delta). The no-progress ceiling runs from the start
// of the call on the absence of substantive events. The thinking-only cap
// runs from the start of the call whenever thinking has arrived and no
// visible text or tool call has since; visible text or a tool call
// restarts it. Role-only, usage-only and other empty frames are wire
// activity, never progress. NetClaw has no cap on a call's length
// (SubAgents.MaxLlmCallSeconds is gone).
type Watchdog struct {
	limits Limits
	start  time.Time

	lastWire     time.Time
	lastProgress time.Time
	firstDelta   time.Time // zero until the first substantive event

	// capStart is where the thinking-only cap counts from: the start of
	// the call, or the last visible text or tool call.
	capStart time.Time
	// thinking is set when thinking has arrived since capStart.
	thinking bool
}

// Trip says which limit a call broke.
type Trip struct {
	// Reason is the run's reason id: no_activity_timeout (prefill or
	// inter-delta), no_substantive_output_timeout or thinking_only_timeout.
	Reason string
	// Limit names the limit ("prefill", "inter-delta", "no-progress",
	// "thinking-only").
	Limit string
	// Value is the limit's value.
	Value time.Duration
	// At is when it fell due.
	At time.Time
}

// Message says what happened in NetClaw's words, then which setting
// governs it. NetClaw's texts are SubAgentActor's (502847bf): "Subagent timed out: no
// activity for {N}s." for the prefill and inter-delta budgets alike, and
// "Subagent timed out: no substantive output for {N}s.".
func (t Trip) Message() string {
	secs := fmt.Sprintf("%.0fs", t.Value.Seconds())
	switch t.Limit {
	case "prefill":
		return fmt.Sprintf("Subagent timed out: no activity for %s. (the stream was silent for %s before the first text, thinking or tool call: the prefill budget, the agent's prefillTimeoutSeconds, else SubAgents.PrefillTimeoutSeconds; keepalives refresh it)", secs, t.Value)
	case "inter-delta":
		return fmt.Sprintf("Subagent timed out: no activity for %s. (the stream went silent for %s: the inter-delta budget, Session.FirstTokenTimeoutSeconds)", secs, t.Value)
	case "no-progress":
		return fmt.Sprintf("Subagent timed out: no substantive output for %s. (no text, thinking or tool call for %s: the no-progress ceiling, SubAgents.NoProgressTimeoutSeconds; keepalives do not count)", secs, t.Value)
	case "thinking-only":
		return fmt.Sprintf("the model only thought for %s, the thinking-only cap (three times the no-progress ceiling, SubAgents.NoProgressTimeoutSeconds); ask for a simpler task or raise that setting", t.Value)
	}
	return t.Reason
}

// NewWatchdog starts the watchdog of a call that starts at start.
func NewWatchdog(l Limits, start time.Time) *Watchdog {
	return &Watchdog{limits: l, start: start, lastWire: start, lastProgress: start, capStart: start}
}

// Limits returns the limits the watchdog enforces.
func (w *Watchdog) Limits() Limits { return w.limits }

// Wire records that bytes arrived at t.
func (w *Watchdog) Wire(t time.Time) {
	if t.After(w.lastWire) {
		w.lastWire = t
	}
}

// Observe records an event that arrived at t.
func (w *Watchdog) Observe(e wire.Event, t time.Time) {
	w.Wire(t)
	switch e.Kind {
	case wire.Text:
		if !termsafe.Visible(e.Text) {
			return
		}
		w.progress(t)
		w.capStart, w.thinking = t, false
	case wire.ToolCall, wire.ToolCallDone:
		w.progress(t)
		w.capStart, w.thinking = t, false
	case wire.Thinking:
		w.progress(t)
		w.thinking = true
	}
}

func (w *Watchdog) progress(t time.Time) {
	if w.firstDelta.IsZero() {
		w.firstDelta = t
	}
	if t.After(w.lastProgress) {
		w.lastProgress = t
	}
}

// Next returns the earliest limit that can fall due given what has arrived
// so far, and whether there is one.
func (w *Watchdog) Next() (Trip, bool) {
	var best Trip
	found := false
	consider := func(reason, limit string, value time.Duration, from time.Time) {
		if value <= 0 {
			return
		}
		at := from.Add(value)
		if !found || at.Before(best.At) {
			best, found = Trip{Reason: reason, Limit: limit, Value: value, At: at}, true
		}
	}
	if w.firstDelta.IsZero() {
		consider(vocab.ReasonNoActivity, "prefill", w.limits.Prefill, w.lastWire)
	} else {
		consider(vocab.ReasonNoActivity, "inter-delta", w.limits.InterDelta, w.lastWire)
	}
	consider(vocab.ReasonNoSubstantiveOutput, "no-progress", w.limits.NoProgress, w.lastProgress)
	if w.thinking {
		consider(vocab.ReasonThinkingOnlyTimeout, "thinking-only", w.limits.ThinkingOnlyCap(), w.capStart)
	}
	return best, found
}

// Check returns the limit that has fallen due at now, if any.
func (w *Watchdog) Check(now time.Time) (Trip, bool) {
	t, ok := w.Next()
	if !ok || now.Before(t.At) {
		return Trip{}, false
	}
	return t, true
}

// FirstDelta returns the time from the start of the call to its first
// substantive event, and false when there has been none.
func (w *Watchdog) FirstDelta() (time.Duration, bool) {
	if w.firstDelta.IsZero() {
		return 0, false
	}
	return w.firstDelta.Sub(w.start), true
}

// WatchStatus is what a browser shows of a call's clocks.
type WatchStatus struct {
	// Limits are the limits in force.
	Limits Limits
	// Elapsed is the time since the call started.
	Elapsed time.Duration
	// FirstDelta is the time to the first substantive event; HasFirstDelta
	// is false while there has been none (the call is in prefill).
	FirstDelta    time.Duration
	HasFirstDelta bool
	// SinceWire is the time since bytes last arrived (or the call started).
	SinceWire time.Duration
	// SinceProgress is the time since the last substantive event (or the
	// call started).
	SinceProgress time.Duration
	// ThinkingOnly is the time the thinking-only cap has been running; 0
	// when it is not running.
	ThinkingOnly time.Duration
	// Next is the limit that falls due first, and NextIn the time left
	// until it does; HasNext is false when no limit is running.
	Next    Trip
	NextIn  time.Duration
	HasNext bool
}

// Status returns the call's clocks at now.
func (w *Watchdog) Status(now time.Time) WatchStatus {
	s := WatchStatus{
		Limits:        w.limits,
		Elapsed:       now.Sub(w.start),
		SinceWire:     now.Sub(w.lastWire),
		SinceProgress: now.Sub(w.lastProgress),
	}
	s.FirstDelta, s.HasFirstDelta = w.FirstDelta()
	if w.thinking {
		s.ThinkingOnly = now.Sub(w.capStart)
	}
	if t, ok := w.Next(); ok {
		s.Next, s.NextIn, s.HasNext = t, max(t.At.Sub(now), 0), true
	}
	return s
}
