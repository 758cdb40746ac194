// Package cassette owns the format of a recorded trial run: the raw bytes
// of every model call's response with their timing, and the results of the
// tool calls the run made, so that the run can be played back without a
// model and without its project folder.
//
// # Format (version 1)
//
// A cassette is UTF-8 text, one JSON object a line. The first line is the
// header:
//
//	{"type":"cassette","version":1,"recorded_at":"…","run_id":"…","agent":"…",
//	 "protocol":"openai","provider_type":"openai-compatible","model":"…",
//	 "endpoint":"…","tools":["file_read","file_list"],"limits":{…},…}
//
// Then, for each model call n (1, 2, … in order):
//
//	{"type":"response","call":n,"t_ms":12,"status":200,"content_type":"text/event-stream"}
//	{"type":"chunk","call":n,"t_ms":40,"text":"data: {…}\n\n"}
//	{"type":"chunk","call":n,"t_ms":41,"b64":"…"}
//	{"type":"end","call":n,"t_ms":900,"how":"eof"}
//	{"type":"tool","call":n,"index":0,"id":"call_1","name":"file_read","arguments":"{…}","result":"…"}
//
// t_ms is the time since the call's request went out, in milliseconds. A
// response line carries the status and content type, or, when no response
// came, the transport's error; with neither, the headers never came and
// the call's end line (cut or cancelled) says when it stopped waiting. A chunk is the bytes one read of the body
// returned: "text" when they are valid UTF-8, else "b64" (standard base64).
// The end line says how the body ended (see the End* constants). Tool lines
// hold the result the run handed back to the model for each tool call of
// that model call, in order, with what the cycle guard decided.
//
// A response line with "reencoded":true marks a call whose raw bytes could
// not be kept (a secret split across frames): its chunks were re-encoded
// from the decoded, redacted events.
//
// Readers reject a cassette of a newer version, and say which line is
// wrong in one that does not parse. Unknown members of a known line are
// ignored, so that version 1 can grow members without breaking readers.
package cassette

import "time"

// Version is the format version this package writes and the newest it
// reads.
const Version = 1

// LoopRules is the version of the rules by which the run loop ends a run,
// written in the header. 0 (absent): agentdesk's older rules, a cap on
// tool rounds (Session.MaxToolIterationsPerTurn), its own repeat guard, no
// nudges, a per-call cap. 1: NetClaw's (TurnStateTracker, a36cc1ee): no cap
// on tool rounds, the cycle guard, the nudges for empty and thinking-only
// replies and for tool-call markup. A cassette recorded under other rules
// may ask for model calls a replay does not make, or lack ones it makes.
const LoopRules = 1

// Extension is a cassette file's extension.
const Extension = ".cassette"

// How a call's body ended.
const (
	// EndEOF: the body ended cleanly.
	EndEOF = "eof"
	// EndDropped: the connection dropped mid-body (an unexpected EOF).
	EndDropped = "unexpected_eof"
	// EndError: reading the body failed otherwise; End.Error says how.
	EndError = "error"
	// EndCut: the client stopped reading: the decoder saw the end of the
	// stream, or the watchdog ended the call. What followed is unknown; a
	// replay plays silence from here.
	EndCut = "cut"
	// EndCancelled: the run was cancelled by its parent here.
	EndCancelled = "cancelled"
)

// Guard decisions recorded on tool lines.
const (
	GuardAllow  = "allow"
	GuardRefuse = "refuse"
	GuardStop   = "stop"
)

// Cassette is a recorded run.
type Cassette struct {
	Header Header
	// Calls are the model calls, Calls[i].N == i+1.
	Calls []*Call
	// Changes are what the run changed in its overlay of the project, so
	// that a replay can check expect: changes: without the project.
	Changes []Change
	// Patch is the recorded run's changes.patch (redacted), so that a
	// replay writes the same one; "" when the run changed nothing, or its
	// patch was larger than MaxPatch.
	Patch string
}

// MaxPatch caps the changes.patch a cassette keeps.
const MaxPatch = 4 << 20

// Change is one file the recorded run changed in its overlay.
type Change struct {
	// Path is project-relative, slash-separated.
	Path string `json:"path"`
	// Kind is added, modified or deleted.
	Kind string `json:"kind"`
	// Content is the file's new text (redacted); nil when deleted, binary
	// or larger than MaxChangeContent.
	Content *string `json:"content,omitempty"`
}

// MaxChangeContent caps the text a cassette keeps of one changed file.
const MaxChangeContent = 1 << 20

// Call returns model call n (1-based), or nil.
func (c *Cassette) Call(n int) *Call {
	if n < 1 || n > len(c.Calls) {
		return nil
	}
	return c.Calls[n-1]
}

// Header describes the recorded run. Everything in it is redacted.
type Header struct {
	// Version is the format version.
	Version int `json:"version"`
	// RecordedAt is when the run started.
	RecordedAt time.Time `json:"recorded_at"`
	// RunID is the recorded run's id.
	RunID string `json:"run_id,omitempty"`
	// Agent, AgentSHA256 and Skill identify what ran.
	Agent       string `json:"agent,omitempty"`
	AgentSHA256 string `json:"agent_sha256,omitempty"`
	Skill       string `json:"skill,omitempty"`
	// Task and Context are the run's task and background.
	Task    string `json:"task,omitempty"`
	Context string `json:"context,omitempty"`
	// Protocol is "openai", "anthropic" or "ollama": the decoder a replay
	// uses.
	Protocol string `json:"protocol"`
	// Provider, ProviderType, Endpoint, Model and Role are the model the
	// run talked to.
	Provider     string `json:"provider,omitempty"`
	ProviderType string `json:"provider_type,omitempty"`
	Endpoint     string `json:"endpoint,omitempty"`
	Model        string `json:"model,omitempty"`
	Role         string `json:"role,omitempty"`
	// Tools are the names of the tools the run offered; empty when it
	// offered none.
	Tools []string `json:"tools"`
	// MaxToolIterations is the cap on model calls with tools a cassette
	// recorded under loop rules 0 holds; NetClaw has no such cap.
	MaxToolIterations int `json:"max_tool_iterations,omitempty"`
	// Loop is the version of the loop rules the run was recorded under
	// (LoopRules); 0 for a cassette of an older agentdesk.
	Loop int `json:"loop,omitempty"`
	// MaxTokens is the reply cap the run asked for (0: the provider's).
	MaxTokens int `json:"max_tokens,omitempty"`
	// Limits are the watchdog's limits, in milliseconds.
	Limits Limits `json:"limits"`
	// Project is the project folder the run's tools worked on
	// (redacted; "" when it offered none): tool results name files by
	// their path in it. A replay whose tools run live on another folder
	// reads the recorded results with this one in place of its own.
	Project string `json:"project,omitempty"`
}

// Limits are the watchdog's limits of the recorded run, in milliseconds
// (0: not enforced).
type Limits struct {
	PrefillMS      int64 `json:"prefill_ms"`
	InterDeltaMS   int64 `json:"inter_delta_ms"`
	NoProgressMS   int64 `json:"no_progress_ms"`
	ThinkingOnlyMS int64 `json:"thinking_only_ms"`
	// MaxCallMS is the per-call cap older cassettes hold; NetClaw has none.
	MaxCallMS int64 `json:"max_call_ms,omitempty"`
}

// Call is one model call.
type Call struct {
	// N is the call's number, from 1.
	N int
	// At is when the response headers came (or the transport failed),
	// since the request went out.
	At time.Duration
	// Status and ContentType are the response's; Status is 0 when no
	// response came, and Error then says why (or, empty, that the call
	// ended while waiting: End says how).
	Status      int
	ContentType string
	Error       string
	// Reencoded is set when the chunks are a re-encoding of the decoded,
	// redacted events rather than the raw bytes.
	Reencoded bool
	// Chunks are the body's bytes as they were read.
	Chunks []Chunk
	// End says how the body ended; nil when the cassette does not say
	// (no response, or a recording that stopped).
	End *End
	// Tools are the results the run handed back for this call's tool
	// calls, in order.
	Tools []Tool
}

// Chunk is what one read of a response body returned.
type Chunk struct {
	// At is the time since the request went out.
	At   time.Duration
	Data []byte
}

// End is how a call's body ended.
type End struct {
	At time.Duration
	// How is one of EndEOF, EndDropped, EndError, EndCut, EndCancelled.
	How string
	// Error is the read error of EndError.
	Error string
}

// Tool is one tool call of a model call and the result the run returned.
type Tool struct {
	Index     int    `json:"index"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Result is the text handed back to the model (redacted, whole).
	Result string `json:"result"`
	// IsError, Refused and Cut are the result's flags.
	IsError bool `json:"error,omitempty"`
	Refused bool `json:"refused,omitempty"`
	Cut     bool `json:"cut,omitempty"`
	// Guard is what the cycle guard decided: GuardAllow (the call ran),
	// GuardRefuse (it did not; Result is the correction), GuardStop (the
	// run ended here).
	Guard string `json:"guard"`
	// Label is the result's label (real, overlay, approved, denied,
	// stubbed, mocked); a replay shows it again without running anything.
	Label string `json:"label,omitempty"`
}
