// Package vocab is the runtime's vocabulary, in one place that lint and
// runner both read: how a run ended (its outcome), why (its reason id,
// exactly as the runtime writes it) and the states run.json records, and
// how each is shown.
//
// The words a run is shown with, the same in `agentdesk runs`, the closing
// line of `agentdesk run`, result.md and the browser: its state (Running,
// Completed, Partial, Failed, Cancelled, and Lost or Unreadable as read
// back), its outcome (Completed, Partial, Failed; none while it runs) and
// its reason (a reason id; none for a Completed run). A Cancelled run's
// outcome is Failed and its reason cancelled_by_parent, as the runtime
// writes it. run.json holds the same values, with "" for none.
package vocab

// Outcome is how a run ended.
type Outcome string

// Outcomes, as the runtime names them.
const (
	Completed Outcome = "Completed"
	Partial   Outcome = "Partial"
	Failed    Outcome = "Failed"
)

// Run states written to run.json.
const (
	StateRunning   = "Running"
	StateCompleted = "Completed"
	StatePartial   = "Partial"
	StateFailed    = "Failed"
	StateCancelled = "Cancelled"
	// StateLost is reported (never written) for a run whose run.json still
	// says Running but whose process is gone.
	StateLost = "Lost"
	// StateUnreadable is reported (never written) for a run folder whose
	// run.json cannot be read.
	StateUnreadable = "Unreadable"
)

// Reason ids, exactly as the runtime writes them (SubAgentOutcomeReason in
// NetClaw's SubAgentRunMetadata.cs, netclaw-dev/netclaw 28ddf700, plus the
// two that seed 002, the sub-agent authoring skill, adds). A Completed run
// has none.
const (
	// ReasonOutputTruncated: the reply stopped at its output limit with no
	// tool call (seed 002).
	ReasonOutputTruncated = "output_truncated"
	// ReasonThinkingOnlyTimeout: one call streamed only thinking for three
	// times the no-progress ceiling (seed 002).
	ReasonThinkingOnlyTimeout = "thinking_only_timeout"
	// ReasonNoSubstantiveOutput: no text, thinking or tool call within the
	// no-progress ceiling (NoSubstantiveOutputTimeout).
	ReasonNoSubstantiveOutput = "no_substantive_output_timeout"
	// ReasonNoActivity: the stream went silent for the prefill budget
	// before the first delta, or for the inter-delta budget after it
	// (NoActivityTimeout; SubAgentActor reports both alike).
	ReasonNoActivity = "no_activity_timeout"
	// ReasonEmptyFinalResponse: the model answered with no text and no
	// tool call after NetClaw's nudges (EmptyFinalResponse).
	ReasonEmptyFinalResponse = "empty_final_response"
	// ReasonMalformedFinalOutput: the final reply still held unexecuted
	// tool-call markup after the repair nudge (MalformedFinalOutput).
	ReasonMalformedFinalOutput = "malformed_final_output"
	// ReasonLLMCallFailed: the model call failed (LlmCallFailed).
	ReasonLLMCallFailed = "llm_call_failed"
	// ReasonToolExecutionFailed: a tool call failed the run (a gated call
	// no one could approve, as NetClaw fails a sub-agent with no parent
	// approval bridge; ToolExecutionFailed).
	ReasonToolExecutionFailed = "tool_execution_failed"
	// ReasonCancelledByParent: the parent cancelled the run
	// (CancelledByParent).
	ReasonCancelledByParent = "cancelled_by_parent"
	// ReasonToolCycleStopped ends a run (Partial) whose model repeated a
	// tool call after the cycle guard's correction, with no further model
	// call (SubAgentOutcomeReason.ToolCycleStopped, ToolRecurrence tests at
	// a36cc1ee). The stored code names the member, not its text; this is
	// the text every other member's follows (snake case of the name).
	ReasonToolCycleStopped = "tool_cycle_stopped"
)

// Reasons lists every reason id a run can end with.
var Reasons = []string{
	ReasonOutputTruncated, ReasonThinkingOnlyTimeout, ReasonNoSubstantiveOutput,
	ReasonNoActivity, ReasonEmptyFinalResponse, ReasonMalformedFinalOutput,
	ReasonLLMCallFailed, ReasonToolExecutionFailed, ReasonCancelledByParent,
	ReasonToolCycleStopped,
}

// RenamedReasons are the reason ids older agentdesk versions wrote, with
// the one NetClaw writes in their place ("" when it has none) and why. A
// recorded run or a suite may still name them.
var RenamedReasons = map[string]struct{ Now, Why string }{
	"prefill_timeout":                 {"no_activity_timeout", "NetClaw reports a prefill expiry as no_activity_timeout"},
	"repeated_tool_call":              {"tool_cycle_stopped", "NetClaw's cycle guard ends the run with tool_cycle_stopped"},
	"tool_iteration_budget_exhausted": {"", "NetClaw has no cap on tool rounds, so no run ends with it"},
}

// Outcomes lists the outcomes, as a suite case may name them.
var Outcomes = []string{string(Completed), string(Partial), string(Failed)}

// None is how an empty outcome or reason is shown.
const None = "none"

// ReasonText is a reason as shown: the id, or None.
func ReasonText(reason string) string {
	if reason == "" {
		return None
	}
	return reason
}

// OutcomeText is an outcome as shown: Completed, Partial, Failed, or None
// for a run that has not ended.
func OutcomeText(o Outcome) string {
	if o == "" {
		return None
	}
	return string(o)
}
