package tools

import (
	"encoding/json"
	"fmt"
	"sync"
)

// ReasonRepeatedToolCall is the reason a run ends with when the guard
// stops it.
const ReasonRepeatedToolCall = "repeated_tool_call"

// equalRoundsBeforeRefusal is how many equal feedback rounds of one call
// the guard lets through before it refuses the next.
const equalRoundsBeforeRefusal = 2

// Action is what the guard tells the run loop to do with a call.
type Action int

// The guard's actions.
const (
	// Allow: run the call, then Record its result.
	Allow Action = iota
	// Refuse: do not run the call; return Decision.Text to the model as
	// its (error) result, and do not Record it.
	Refuse
	// Stop: do not run the call; end the run with outcome Partial and
	// reason ReasonRepeatedToolCall. Decision.Text says why.
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

// Decision is the guard's answer for one call.
type Decision struct {
	Action Action
	// Text is the correction to return as the tool result (Refuse), or why
	// the run stops (Stop); empty for Allow.
	Text string
	// Reason is ReasonRepeatedToolCall for Stop, empty otherwise.
	Reason string
}

// Guard detects a model repeating a tool call, as the package comment
// describes. The zero value is not ready; use NewGuard. A Guard is safe to
// use from several goroutines, but the run loop should consult it in call
// order: Check, run the call, Record, then the next call.
type Guard struct {
	mu    sync.Mutex
	calls map[string]*callHistory
}

// callHistory is what the guard remembers of one distinct call.
type callHistory struct {
	last      string // the last result
	equal     int    // rounds in a row that returned last
	corrected bool   // the call was refused with a correction
}

// NewGuard returns a guard that has seen no calls.
func NewGuard() *Guard {
	return &Guard{calls: map[string]*callHistory{}}
}

// Check decides what to do with a call the model made, before it runs. It
// changes the guard: a Refuse is remembered, so the next matching call gets
// Stop. Consult it exactly once per call.
func (g *Guard) Check(name string, args json.RawMessage) Decision {
	key := CallKey(name, args)
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.calls[key]
	switch {
	case h == nil:
		return Decision{Action: Allow}
	case h.corrected:
		return Decision{
			Action: Stop,
			Reason: ReasonRepeatedToolCall,
			Text: fmt.Sprintf("the model called %s again with the same arguments after a correction refused that call; "+
				"a repeat after a correction ends the run", quoteName(name)),
		}
	case h.equal >= equalRoundsBeforeRefusal:
		h.corrected = true
		return Decision{
			Action: Refuse,
			Text: fmt.Sprintf("Not run: this exact call (%s with the same arguments) already returned the same result %s in a row. "+
				"Repeating it will not change the result. Use a different approach: work from the result you already have, "+
				"call a different tool or pass different arguments, or give your answer. Repeating this call once more ends the run.",
				quoteName(name), times(h.equal)),
		}
	}
	return Decision{Action: Allow}
}

// Record notes the result a call returned to the model after it ran. A
// result equal to the call's last one extends its run of equal rounds; a
// different one starts it again. Recording a call Check refused or stopped
// changes nothing.
func (g *Guard) Record(name string, args json.RawMessage, result string) {
	key := CallKey(name, args)
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.calls[key]
	switch {
	case h == nil:
		g.calls[key] = &callHistory{last: result, equal: 1}
	case h.corrected:
	case h.last == result:
		h.equal++
	default:
		h.last, h.equal = result, 1
	}
}

// times words a count of rounds.
func times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// Result is the tool result to hand the model for a refused call: the
// correction, as a refused error result.
func (d Decision) Result() Result {
	return Result{Text: d.Text, IsError: true, Refused: true}
}
