package runner

import (
	"encoding/json"
	"fmt"
	"time"
)

// Record is a run's run.json: written with state Running before the
// request goes out, and rewritten once when the run ends. Everything in it
// is redacted.
type Record struct {
	RunID       string `json:"run_id"`
	Agent       string `json:"agent"`
	AgentPath   string `json:"agent_path"`
	AgentSHA256 string `json:"agent_sha256"`
	// Skill is the routed skill the run went through, if any.
	Skill   string `json:"skill,omitempty"`
	Task    string `json:"task"`
	Context string `json:"context"`
	// State is Running, then Completed, Partial, Failed or Cancelled.
	State string `json:"state"`
	// Outcome is "" while running.
	Outcome Outcome `json:"outcome"`
	// Reason is one of Reasons, "" for Completed.
	Reason string `json:"reason"`
	// Error explains the reason; for output_truncated it holds a short
	// preview and the path of truncated-output.md.
	Error     string     `json:"error"`
	Model     Model      `json:"model"`
	StartedAt time.Time  `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at"`
	Timings   Timings    `json:"timings"`
	Usage     Usage      `json:"usage"`
	// Files are the run folder's files, by name.
	Files []string `json:"files"`
	// Output is the reply's text.
	Output string `json:"output"`
	// FinishReason is the raw finish reason of the last model call.
	FinishReason string `json:"finish_reason"`
	// ToolCalls are the tool calls the model made.
	ToolCalls []ToolCall `json:"tool_calls"`
	// Limits are the watchdog's limits, in milliseconds.
	Limits LimitsRecord `json:"limits"`
	// PID and Host identify the process that ran the run, so that a run
	// left Running by a process that died can be reported Lost.
	PID  int    `json:"pid"`
	Host string `json:"host"`

	// Dir is the run folder; it is not written, ListRuns and LoadRun fill
	// it in.
	Dir string `json:"-"`
}

// Timings are a run's clocks in milliseconds.
type Timings struct {
	// FirstDeltaMS is the time from the start of the run to the first text,
	// thinking or tool call; null when none came.
	FirstDeltaMS *int64 `json:"first_delta_ms"`
	// TotalMS is the run's duration; 0 while running.
	TotalMS int64 `json:"total_ms"`
}

// Usage is the token counts the provider reported.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	ReasoningTokens int `json:"reasoning_tokens"`
}

// ToolCall is one tool call the model made, redacted.
type ToolCall struct {
	Index     int    `json:"index"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Complete is false when the arguments are not complete JSON.
	Complete bool `json:"complete"`
}

// LimitsRecord are the watchdog's limits as run.json writes them.
type LimitsRecord struct {
	PrefillMS      int64 `json:"prefill_ms"`
	InterDeltaMS   int64 `json:"inter_delta_ms"`
	NoProgressMS   int64 `json:"no_progress_ms"`
	ThinkingOnlyMS int64 `json:"thinking_only_ms"`
	MaxCallMS      int64 `json:"max_call_ms"`
}

func limitsRecord(l Limits) LimitsRecord {
	return LimitsRecord{
		PrefillMS:      l.Prefill.Milliseconds(),
		InterDeltaMS:   l.InterDelta.Milliseconds(),
		NoProgressMS:   l.NoProgress.Milliseconds(),
		ThinkingOnlyMS: l.ThinkingOnlyCap().Milliseconds(),
		MaxCallMS:      l.MaxCall.Milliseconds(),
	}
}

// Ended reports whether the run has ended (its state is not Running).
func (r *Record) Ended() bool {
	return r.State != StateRunning && r.State != StateLost && r.State != StateUnreadable
}

// MarshalIndent returns run.json's text: two-space indented, with a final
// newline.
func (r *Record) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding run %s: %w", r.RunID, err)
	}
	return append(b, '\n'), nil
}
