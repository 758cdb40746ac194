package modeltest

import (
	"strings"
	"time"
)

// Script is what the server plays for one request. The same script plays in
// whichever protocol the request speaks (chosen by its path).
type Script struct {
	// Steps play in order.
	Steps []Step
	// Gap is a pause before every step, to spread a stream out in time.
	Gap time.Duration
	// HeaderDelay holds the response headers back this long (a server still
	// loading the model).
	HeaderDelay time.Duration
	// Status, when not 0 or 200, answers with that status and an error body
	// instead of a stream: ErrorBody verbatim when set, else ErrorMessage in
	// the protocol's error shape.
	Status       int
	ErrorMessage string
	ErrorBody    string
	// Usage, when set, is reported the way each protocol reports it: input
	// tokens in Anthropic's message_start, output tokens in its message_delta;
	// an OpenAI usage chunk (empty choices) before [DONE]; the counts on
	// Ollama's done line.
	Usage *Usage
	// ReasoningField is the OpenAI delta field thinking goes in:
	// "reasoning_content" (the default) or "reasoning".
	ReasoningField string
	// NoPreamble leaves out what a stream starts with: OpenAI's role-only
	// chunk, Anthropic's message_start.
	NoPreamble bool
	// NoTerminator leaves out what a stream ends with: OpenAI's
	// `data: [DONE]`, Anthropic's message_stop.
	NoTerminator bool
}

// Usage is a token count a script reports.
type Usage struct {
	InputTokens, OutputTokens, ReasoningTokens int
}

type stepKind int

const (
	stepText stepKind = iota + 1
	stepThinking
	stepToolCall
	stepKeepalive
	stepPause
	stepError
	stepDisconnect
	stepFinish
	stepRole
	stepUsage
	stepRaw
)

// Finish reasons that map per protocol.
const (
	// FinishStop is a natural end: stop, end_turn, stop.
	FinishStop = "\x00stop"
	// FinishLength is the output limit: length, max_tokens, length.
	FinishLength = "\x00length"
	// FinishTools is a reply that calls tools: tool_calls, tool_use, stop.
	FinishTools = "\x00tools"
)

// Step is one thing a script does.
type Step struct {
	kind  stepKind
	text  string
	id    string
	parts []string
	d     time.Duration
	usage Usage
}

// Text streams one text delta.
func Text(s string) Step { return Step{kind: stepText, text: s} }

// Thinking streams one reasoning delta.
func Thinking(s string) Step { return Step{kind: stepThinking, text: s} }

// ToolCall streams one tool call: its id and name, then its arguments in
// the given fragments (joined, they are the arguments' JSON text; leave them
// incomplete to play a call cut off by the output limit). Ollama sends a
// call whole: as a JSON object when the joined text parses, else as a
// string.
func ToolCall(id, name string, argParts ...string) Step {
	return Step{kind: stepToolCall, id: id, text: name, parts: argParts}
}

// Keepalive sends a keepalive: an SSE comment (": keep-alive") for OpenAI,
// a ping event for Anthropic, a blank line for Ollama.
func Keepalive() Step { return Step{kind: stepKeepalive} }

// Pause waits d (or until the client goes away).
func Pause(d time.Duration) Step { return Step{kind: stepPause, d: d} }

// ErrorFrame sends an error inside the 200 stream: `data: {"error": ...}`,
// `event: error`, or `{"error": "..."}`.
func ErrorFrame(message string) Step { return Step{kind: stepError, text: message} }

// Disconnect drops the connection at once, mid-stream, without ending the
// chunked body: the client sees an unexpected EOF.
func Disconnect() Step { return Step{kind: stepDisconnect} }

// Finish sends the finish signal with reason: one of FinishStop,
// FinishLength and FinishTools (mapped per protocol), or a raw reason sent
// as written ("content_filter", "stop_sequence").
func Finish(reason string) Step { return Step{kind: stepFinish, text: reason} }

// Stop is Finish(FinishStop).
func Stop() Step { return Finish(FinishStop) }

// Length is Finish(FinishLength): the reply hit the output limit.
func Length() Step { return Finish(FinishLength) }

// Role sends a frame that only announces the assistant: a role-only OpenAI
// chunk, an Anthropic message_start, an Ollama line with empty content.
func Role() Step { return Step{kind: stepRole} }

// UsageOnly sends a frame with token counts and nothing else: an OpenAI
// chunk with empty choices, an Anthropic message_delta without a stop
// reason, an Ollama line with empty content and the counts.
func UsageOnly(in, out int) Step {
	return Step{kind: stepUsage, usage: Usage{InputTokens: in, OutputTokens: out}}
}

// Raw writes s to the stream verbatim, whatever the protocol.
func Raw(s string) Step { return Step{kind: stepRaw, text: s} }

// Reply is a script that streams text a word at a time and stops.
func Reply(text string) Script {
	var steps []Step
	for _, w := range Words(text) {
		steps = append(steps, Text(w))
	}
	return Script{Steps: append(steps, Stop())}
}

// Words splits text into pieces of one word each with the whitespace that
// follows it, the way a model streams; joined, they are text again.
func Words(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text, " \n\t")
		if i < 0 {
			out = append(out, text)
			break
		}
		j := i
		for j < len(text) && strings.IndexByte(" \n\t", text[j]) >= 0 {
			j++
		}
		out = append(out, text[:j])
		text = text[j:]
	}
	return out
}
