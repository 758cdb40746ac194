package wire

import (
	"errors"
	"fmt"
)

// Kind says what one Event carries.
type Kind int

// Event kinds. Only Text with visible characters, Thinking and ToolCall (and
// ToolCallDone) are progress; the others are wire activity at most.
const (
	// Keepalive is an SSE comment line (": keep-alive", ": OPENROUTER
	// PROCESSING") or an Anthropic ping. Text holds the comment, if any.
	Keepalive Kind = iota + 1
	// Role is a frame that only announces the assistant message: an OpenAI
	// role-only chunk, an Anthropic message_start, an Ollama line with an
	// empty message.
	Role
	// Meta is a well-formed frame that carries nothing the runner counts:
	// an empty delta, a block start or stop, a signature delta, an unknown
	// Anthropic event type, an OpenAI chunk with no choices and no usage.
	Meta
	// Text is a piece of the reply. Text holds it (never empty).
	Text
	// Thinking is a piece of reasoning. Text holds it; it is empty only for
	// a reasoning part whose content the provider withholds (Anthropic
	// redacted_thinking).
	Thinking
	// ToolCall is a fragment of a tool call: Tool.Index always, and Tool.ID,
	// Tool.Name and Tool.Arguments as far as this fragment carries them.
	ToolCall
	// ToolCallDone is a completed tool call: Tool holds the whole call, with
	// Tool.Complete telling whether its arguments are complete JSON.
	ToolCallDone
	// Finish is the model's stop signal. Finish holds the raw reason as the
	// provider wrote it ("stop", "length", "tool_calls", "end_turn",
	// "max_tokens", ...); it may be empty (an Ollama done line without
	// done_reason).
	Finish
	// Usage carries token counts. Usage holds the counts this frame reports;
	// a zero count means "not reported here".
	Usage
	// Error is an error reported inside a 2xx stream: an OpenAI
	// `data: {"error": {...}}` frame, an Anthropic `event: error`, an Ollama
	// `{"error": "..."}` line. Err holds it.
	Error
)

var kindNames = [...]string{
	Keepalive:    "keepalive",
	Role:         "role",
	Meta:         "meta",
	Text:         "text",
	Thinking:     "thinking",
	ToolCall:     "tool_call",
	ToolCallDone: "tool_call_done",
	Finish:       "finish",
	Usage:        "usage",
	Error:        "error",
}

// String returns the kind's name as transcripts write it ("text",
// "tool_call_done", ...).
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Event is one decoded piece of a model stream.
type Event struct {
	Kind Kind
	// Text is the delta of a Text or Thinking event, or the comment of a
	// Keepalive.
	Text string
	// Tool is set for ToolCall and ToolCallDone.
	Tool ToolCallPart
	// Finish is the raw finish reason of a Finish event.
	Finish string
	// Usage is set for Usage events.
	Usage TokenUsage
	// Err is set for Error events.
	Err *StreamError
}

// ToolCallPart is a fragment of a tool call, or a whole one.
type ToolCallPart struct {
	// Index orders the calls of one reply (0-based).
	Index int
	// ID is the provider's call id (OpenAI "call_...", Anthropic "toolu_...");
	// Ollama gives none.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments is a fragment of the arguments' JSON text in a ToolCall
	// event, and the whole text in a ToolCallDone event.
	Arguments string
	// Complete is set in a ToolCallDone event when Arguments is complete
	// JSON (an empty argument string counts as "{}"). A call whose
	// arguments do not parse was cut off by the output limit.
	Complete bool
}

// TokenUsage holds token counts as the provider reports them.
type TokenUsage struct {
	InputTokens     int
	OutputTokens    int
	ReasoningTokens int
}

// StreamError is an error the provider reported inside a stream.
type StreamError struct {
	// Type is the provider's error type or code, when it gives one
	// ("overloaded_error", "server_error", "rate_limit_exceeded").
	Type string
	// Message is the provider's message.
	Message string
}

// Error returns "type: message", or the message alone.
func (e *StreamError) Error() string {
	switch {
	case e.Type != "" && e.Message != "":
		return e.Type + ": " + e.Message
	case e.Message != "":
		return e.Message
	case e.Type != "":
		return e.Type
	}
	return "the provider reported an error without a message"
}

// Decoder turns one response body into Events.
type Decoder interface {
	// Next returns the next event. At the end of the stream it returns
	// io.EOF; a stream that breaks returns the read error (for a dropped
	// connection, io.ErrUnexpectedEOF or the transport's error), a frame
	// that does not decode returns a *MalformedError, and a line past the
	// cap returns an error matching ErrLineTooLong. After an error other
	// than io.EOF the decoder is done and returns the same error again.
	Next() (Event, error)
}

// ErrLineTooLong is returned (wrapped) when one line of a stream is longer
// than the line cap (MaxLine by default).
var ErrLineTooLong = errors.New("stream line longer than the line cap")

// MaxLine is the default line cap: 16 MiB.
const MaxLine = 16 << 20

// MalformedError says that a frame of the stream could not be decoded.
type MalformedError struct {
	// Protocol is the protocol being decoded.
	Protocol Protocol
	// Line is the 1-based line number of the offending line (for SSE, the
	// last line of the frame).
	Line int
	// Frame is the start of the frame's text, at most 120 bytes.
	Frame string
	// Err is the decoding error.
	Err error
}

// Error says which protocol, where, and what failed.
func (e *MalformedError) Error() string {
	return fmt.Sprintf("malformed %s stream at line %d: %v (frame %q)", e.Protocol, e.Line, e.Err, e.Frame)
}

// Unwrap returns the decoding error.
func (e *MalformedError) Unwrap() error { return e.Err }

func malformed(p Protocol, line int, frame []byte, err error) *MalformedError {
	const max = 120
	if len(frame) > max {
		frame = frame[:max]
	}
	return &MalformedError{Protocol: p, Line: line, Frame: string(frame), Err: err}
}
