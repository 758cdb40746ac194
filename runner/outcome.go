package runner

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// truncatingFinishes are the raw finish reasons that mean the reply hit
// the output limit.
var truncatingFinishes = map[string]bool{
	"length":                        true, // OpenAI, Ollama
	"max_tokens":                    true, // Anthropic
	"model_context_window_exceeded": true, // Anthropic, when the context fills first
}

// CallEvidence is what one model call left behind: the raw material the
// outcome is classified from.
type CallEvidence struct {
	// N is the call's number in the run, from 1.
	N int
	// Start and End are when the call started and ended (on the run's
	// clock).
	Start, End time.Time
	// FirstDelta is the time from Start to the first text, thinking or
	// tool call; HasFirstDelta is false when none came.
	FirstDelta    time.Duration
	HasFirstDelta bool
	// StreamEnded is set when the decoder reached the end of the stream.
	StreamEnded bool
	// Text is the reply's text, unredacted.
	Text string
	// Thought is set when any thinking arrived.
	Thought bool
	// ToolCalls are the completed tool calls, in order.
	ToolCalls []wire.ToolCallPart
	// Finished is set when a finish signal arrived; Finish is its raw reason.
	Finished bool
	Finish   string
	// Usage is the last count reported for each field.
	Usage wire.TokenUsage
	// HTTPStatus is the response status, 0 when none arrived.
	HTTPStatus int
	// HTTPError is the server's message on a non-2xx answer.
	HTTPError string
	// StreamError is an error reported inside the stream.
	StreamError *wire.StreamError
	// Err is a transport or decoding failure: connection refused or
	// dropped, a malformed stream, a line past the cap.
	Err error
	// Trip is set when the watchdog ended the call.
	Trip *Trip
	// Cancelled is set when the parent cancelled the run.
	Cancelled bool
	// Endpoint is the URL the call went to, and Provider the Providers
	// entry it belongs to (for messages).
	Endpoint, Provider string
}

// Verdict is a classified outcome.
type Verdict struct {
	Outcome vocab.Outcome
	// Reason is "" for Completed.
	Reason string
	// Message explains a reason in a sentence or two (unredacted: the
	// caller redacts it).
	Message string
	// Truncated is set for output_truncated.
	Truncated bool
}

// State returns the run state a verdict is written with.
func (v Verdict) State() string {
	switch {
	case v.Reason == vocab.ReasonCancelledByParent:
		return vocab.StateCancelled
	case v.Outcome == vocab.Completed:
		return vocab.StateCompleted
	case v.Outcome == vocab.Partial:
		return vocab.StatePartial
	}
	return vocab.StateFailed
}

// Classify decides the outcome of a run from the evidence of its last model
// call, in the runtime's order: cancellation; a limit; an error in the
// stream; a failed request or stream; a stream that ended without a finish;
// a reply cut at the output limit (finish length or max_tokens with no tool
// call, or a tool call whose arguments are not complete JSON); a reply with
// no visible text; else Completed.
//
// Classify judges one reply as the last of its run. The tool loop (see
// Run) calls it for a reply with no tool calls, and for any reply of a run
// that offers no tools: there, tool calls the model makes anyway are
// evidence, and when they are all the reply holds, the run ends
// empty_final_response.
func Classify(ev *CallEvidence) Verdict {
	switch {
	case ev.Cancelled:
		return failVerdict(vocab.ReasonCancelledByParent, "the run was cancelled by its parent")
	case ev.Trip != nil:
		return failVerdict(ev.Trip.Reason, "%s", ev.Trip.Message())
	case ev.StreamError != nil:
		return failVerdict(vocab.ReasonLLMCallFailed, "the provider reported an error in the stream: %s", ev.StreamError.Error())
	case ev.HTTPStatus != 0 && (ev.HTTPStatus < 200 || ev.HTTPStatus > 299):
		msg := ev.HTTPError
		if msg == "" {
			msg = "no message"
		}
		return failVerdict(vocab.ReasonLLMCallFailed, "%s answered HTTP %d: %s%s", ev.Endpoint, ev.HTTPStatus, msg, statusHint(ev.HTTPStatus, ev.Provider, msg))
	case ev.Err != nil:
		return failVerdict(vocab.ReasonLLMCallFailed, "%s", describeCallError(ev.Endpoint, ev.Provider, ev.Err))
	case !ev.Finished:
		return failVerdict(vocab.ReasonLLMCallFailed, "the stream from %s ended without a finish reason: the reply may be cut short, so it is not a result", ev.Endpoint)
	}
	if v, cut := truncation(ev); cut {
		return v
	}
	if !termsafe.Visible(ev.Text) {
		return emptyReply(ev)
	}
	return Verdict{Outcome: vocab.Completed}
}

// failVerdict is a Failed verdict for reason, its message formatted.
func failVerdict(reason, format string, args ...any) Verdict {
	return Verdict{Outcome: vocab.Failed, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// truncation is the verdict on a finished reply cut at the output limit:
// a tool call whose arguments are not complete JSON, or a truncating
// finish with no tool call. cut is false for a reply that was not cut.
func truncation(ev *CallEvidence) (v Verdict, cut bool) {
	for _, tc := range ev.ToolCalls {
		if !tc.Complete {
			v := failVerdict(vocab.ReasonOutputTruncated, "the reply stopped at the output limit: tool call %s has arguments that are not complete JSON (finish %q)", tc.Name, ev.Finish)
			v.Truncated = true
			return v, true
		}
	}
	if truncatingFinishes[ev.Finish] && len(ev.ToolCalls) == 0 {
		v := failVerdict(vocab.ReasonOutputTruncated, "the reply stopped at the model's output limit (finish %q)", ev.Finish)
		v.Truncated = true
		return v, true
	}
	return Verdict{}, false
}

// emptyReply is the verdict on a finished reply with no visible text: it
// held only tool calls (in a run that offers no tools), only thinking, or
// nothing.
func emptyReply(ev *CallEvidence) Verdict {
	if len(ev.ToolCalls) > 0 {
		names := make([]string, len(ev.ToolCalls))
		for i, tc := range ev.ToolCalls {
			names[i] = tc.Name
		}
		return failVerdict(vocab.ReasonEmptyFinalResponse, "the reply holds no text, only tool calls (%s), and this trial run offers no tools", strings.Join(names, ", "))
	}
	if ev.Thought {
		return failVerdict(vocab.ReasonEmptyFinalResponse, "the reply holds only thinking, no text (finish %q)", ev.Finish)
	}
	return failVerdict(vocab.ReasonEmptyFinalResponse, "the reply holds no text (finish %q)", ev.Finish)
}

// NoToolsHint is the hint after the message of a model that refuses a
// request offering tools; the browser offers the same thing as a key.
const NoToolsHint = "; this model does not take tools: run again with --no-tools (no tools are offered, and the prompt lists none)"

// noToolsFix rewrites NoToolsHint at the end of msg into the fix that
// applies to the run: --no-tools exists in agentdesk run only; a test
// case offers tools when it names a project; a frontline needs its tool.
func noToolsFix(msg string, spec Spec, role string) string {
	base, ok := strings.CutSuffix(msg, NoToolsHint)
	if !ok {
		return msg
	}
	if role == "" {
		role = "Main"
	}
	switch {
	case spec.Frontline != nil:
		return base + fmt.Sprintf("; this model does not take tools, and the frontline delegates through spawn_agent: point Models.Roles.%s at a model that calls tools in netclaw.json", role)
	case spec.Suite != nil:
		return base + fmt.Sprintf("; this model does not take tools: leave out the case's project: (no tools are offered then, and the prompt lists none), or point Models.Roles.%s at a model that calls tools", role)
	}
	return msg
}

// ToolsRefused reports whether a provider's error message says the model
// does not support tool calling (Ollama: "… does not support tools"),
// so running again without tools is what helps.
func ToolsRefused(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "does not support tools") ||
		strings.Contains(m, "tools are not supported") ||
		strings.Contains(m, "does not support tool") ||
		strings.Contains(m, "tool use is not supported")
}

// statusHint says, after a non-2xx answer's message, what to do about it.
func statusHint(status int, provider, msg string) string {
	if provider == "" {
		provider = "<name>"
	}
	switch {
	case status == 400 && ToolsRefused(msg):
		return NoToolsHint
	case status == 401 || status == 403:
		return fmt.Sprintf("; check the key of provider %s (Providers.%s.ApiKey in secrets.json, or NETCLAW_Providers__%s__ApiKey)", provider, provider, provider)
	case status == 404:
		return fmt.Sprintf("; check Providers.%s.Endpoint and the model's ModelId in netclaw.json", provider)
	case status == 429:
		return "; the provider is limiting requests: wait and run again"
	case status >= 500:
		return "; the provider failed: run again later"
	}
	return ""
}

// describeCallError says what a transport or decoding failure means.
func describeCallError(endpoint, provider string, err error) string {
	var me *wire.MalformedError
	var re *cassette.ReplayExhaustedError
	switch {
	case errors.As(err, &re):
		return "replay: " + re.Error()
	case errors.As(err, &me):
		return fmt.Sprintf("the stream from %s is malformed: %v", endpoint, err)
	case errors.Is(err, wire.ErrLineTooLong):
		return fmt.Sprintf("the stream from %s broke the line cap: %v", endpoint, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("the connection to %s dropped mid-stream: %v", endpoint, err)
	}
	where := "the provider's Endpoint"
	if provider != "" {
		where = "Providers." + provider + ".Endpoint"
	}
	return fmt.Sprintf("the call to %s failed: %v; check that %s in netclaw.json is right and the server is up", endpoint, err, where)
}
