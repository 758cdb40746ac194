package runfolder

import (
	"bytes"
	"encoding/json"

	"github.com/agentdesk/agentdesk/lint/vocab"
)

// TranscriptEntry is one line of transcript.jsonl: one event of the run,
// redacted, with its time since the run started.
type TranscriptEntry struct {
	// TMS is the time since the run started, in milliseconds.
	TMS int64 `json:"t_ms"`
	// Type is request, response, keepalive, role, text, thinking,
	// tool_call, tool_result, finish, usage, error, watchdog, cancelled
	// or outcome.
	Type string `json:"type"`
	// Call is the model call the line belongs to (from 1); 0 for the
	// outcome.
	Call int `json:"call,omitempty"`
	// Text is a text or thinking piece, a keepalive's comment, or an
	// error's message.
	Text string `json:"text,omitempty"`
	// Request lines: the model call as sent.
	URL      string `json:"url,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	Model    string `json:"model,omitempty"`
	System   string `json:"system,omitempty"`
	Message  string `json:"message,omitempty"`
	// Nudge is the user turn a request ends with when the run nudged the
	// model after a reply that was not an answer ("[system: …]").
	Nudge string `json:"nudge,omitempty"`
	// Tools are a request's offered tools. Withdrawn was set, by older
	// agentdesk versions, when the request asked for an answer without
	// them; it is kept so their transcripts read alike.
	Tools     []string `json:"tools,omitempty"`
	Withdrawn bool     `json:"withdrawn,omitempty"`
	// Status is a response line's HTTP status.
	Status int `json:"status,omitempty"`
	// Tool is a tool_call line's completed call, or a tool_result line's
	// call with its result.
	Tool *ToolCall `json:"tool,omitempty"`
	// Finish is a finish line's raw reason.
	Finish *string `json:"finish,omitempty"`
	// Usage is a usage line's counts.
	Usage *Usage `json:"usage,omitempty"`
	// Reason and Outcome are set on watchdog and outcome lines.
	Reason  string        `json:"reason,omitempty"`
	Outcome vocab.Outcome `json:"outcome,omitempty"`
}

// EncodeTranscript renders entries as JSON lines.
func EncodeTranscript(entries []TranscriptEntry) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for i := range entries {
		if err := enc.Encode(&entries[i]); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}
