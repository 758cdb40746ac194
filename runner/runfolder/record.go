package runfolder

import (
	"encoding/json"
	"fmt"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/wire"
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
	Outcome vocab.Outcome `json:"outcome"`
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
	// Changes lists the files the run changed in its overlay of the
	// project (the project itself never changes); changes.patch holds
	// the diff.
	Changes []ChangeRecord `json:"changes,omitempty"`
	// Output is the reply's text.
	Output string `json:"output"`
	// FinishReason is the raw finish reason of the last model call.
	FinishReason string `json:"finish_reason"`
	// Tools are the names of the tools the run offered the model; empty
	// when it offered none.
	Tools []string `json:"tools"`
	// DeferredTools are the names of the tools the run offered through the
	// tool index only (deferred: the model activates one with load_tool);
	// empty when it offered none.
	DeferredTools []string `json:"deferred_tools,omitempty"`
	// Project is the folder the tools read, absolute; "" without tools
	// (and in a replay, which plays the recorded results).
	Project string `json:"project,omitempty"`
	// MaxToolIterations was the cap on model calls that offer tools
	// (Session.MaxToolIterationsPerTurn) older versions wrote; NetClaw has
	// no tool-round cap, and it is no longer written.
	MaxToolIterations int `json:"max_tool_iterations,omitempty"`
	// ToolCalls are the tool calls the model made, in every model call,
	// each with the result it got back.
	ToolCalls []ToolCall `json:"tool_calls"`
	// Counts count the model calls and the tool calls.
	Counts Counts `json:"counts"`
	// Replay is set for a run played back from a cassette.
	Replay *ReplayRecord `json:"replay,omitempty"`
	// Suite is set for a run made by a test or route suite.
	Suite *SuiteTag `json:"suite,omitempty"`
	// Limits are the watchdog's limits, in milliseconds.
	Limits LimitsRecord `json:"limits"`
	// Frontline is set for a question to the frontline model (agentdesk
	// route): what it was shown. Agent is then empty and Task is the
	// user's message.
	Frontline *FrontlineRecord `json:"frontline,omitempty"`
	// Prompt is what a spawn's system prompt was made of: its parts, the
	// parts it lacked, where the operating core came from. Nil for a
	// frontline run and for a replay that names no agent.
	Prompt *PromptRecord `json:"prompt,omitempty"`
	// MCP describes the run's MCP servers and what went wrong with them;
	// nil when the configuration has none (or the run is a replay, which
	// starts none).
	MCP *MCPRecord `json:"mcp,omitempty"`
	// Sandbox says what confined the run's approved commands and stdio
	// MCP servers (runner/sandbox); nil for a run without tools.
	Sandbox *sandbox.Report `json:"sandbox,omitempty"`
	// Parent is what the parent session receives for the run: the
	// acceptance record, the notice, the terminal record and the file
	// handoff. Nil for a frontline run, while the run is running, and in
	// runs recorded before agentdesk wrote it.
	Parent *ParentRecord `json:"parent,omitempty"`
	// PID and Host identify the process that ran the run, so that a run
	// left Running by a process that died can be reported Lost.
	PID  int    `json:"pid"`
	Host string `json:"host"`

	// Dir is the run folder; it is not written, ListRuns and LoadRun fill
	// it in.
	Dir string `json:"-"`
}

// FrontlineRecord is what a frontline run showed the model, redacted.
type FrontlineRecord struct {
	// Audience is the session's audience.
	Audience string `json:"audience,omitempty"`
	// Systems are the system messages, in order (the preamble, the layer).
	Systems []string `json:"systems"`
	// SystemsSHA256 is the SHA-256 of the system messages as sent, each
	// followed by a NUL byte: what a recording was made with.
	SystemsSHA256 string `json:"systems_sha256"`
	// Nudge is the per-turn user message sent before the request
	// ("[system: ...]"), when there was one.
	Nudge string `json:"nudge,omitempty"`
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
	// Call is the number of the model call that made it, from 1.
	Call      int    `json:"call"`
	Index     int    `json:"index"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Complete is false when the arguments are not complete JSON.
	Complete bool `json:"complete"`
	// Result is what the call got back; nil when it was never answered
	// (the reply was cut off, the run offered no tools, or the run ended
	// before it).
	Result *ToolResult `json:"result,omitempty"`
}

// ToolResult is what a tool call got back, as evidence.
type ToolResult struct {
	// Text is the result, redacted, cut to EvidenceCap bytes.
	Text string `json:"text"`
	// Bytes is the length of the whole result handed to the model.
	Bytes int `json:"bytes"`
	// Error is set when the call failed or was refused; Refused when it
	// was not run at all (a path outside the project folder, a tool not
	// offered); Cut when the tool cut its output at one of its caps.
	Error   bool `json:"error,omitempty"`
	Refused bool `json:"refused,omitempty"`
	Cut     bool `json:"cut,omitempty"`
	// Guard is what the cycle guard decided: "allow" (the call ran),
	// "refuse" (it did not; Text is the correction), "stop" (the run
	// ended on it).
	Guard string `json:"guard"`
	// Replayed is set when the result came from a cassette, not a tool.
	Replayed bool `json:"replayed,omitempty"`
	// Label says where the result came from: real, overlay, approved,
	// denied, stubbed or mocked (runner/tools); "" in runs recorded
	// before labels.
	Label string `json:"label,omitempty"`
	// Differs is set in a replay whose tools ran live when the result is
	// not the recorded one: the replayed replies after it answer the
	// recorded result, not this one.
	Differs bool `json:"differs_from_recording,omitempty"`
}

// EvidenceCap caps the text of a tool result kept in run.json and
// transcript.jsonl (the model gets it whole).
const EvidenceCap = 4 << 10

// Counts count what a run did.
type Counts struct {
	// ModelCalls is the number of model calls made.
	ModelCalls int `json:"model_calls"`
	// ToolCalls is the number of tool calls the model made.
	ToolCalls int `json:"tool_calls"`
	// ToolResults is the number of them answered; ToolErrors of those
	// whose result is an error; ToolRefused of those refused without
	// running (by the tools or by the cycle guard); GuardRefusals of
	// those the cycle guard refused.
	ToolResults   int `json:"tool_results"`
	ToolErrors    int `json:"tool_errors"`
	ToolRefused   int `json:"tool_refused"`
	GuardRefusals int `json:"guard_refusals"`
	// Nudges is the number of model calls that followed a reply that was
	// no answer (empty, only thinking, or tool-call markup), asked again
	// with one of NetClaw's nudges.
	Nudges int `json:"nudges,omitempty"`
}

// ReplayRecord says where a replayed run came from.
type ReplayRecord struct {
	// Cassette is the cassette's path, or a name for an embedded one.
	Cassette string `json:"cassette"`
	// Fast is set when the replay skipped the recorded pauses (its clocks
	// still follow the recorded timeline).
	Fast bool `json:"fast"`
	// RecordedRun and RecordedAt are the recorded run's id and start.
	RecordedRun string    `json:"recorded_run,omitempty"`
	RecordedAt  time.Time `json:"recorded_at"`
	// Project is the recorded run's project folder (redacted, as the
	// cassette holds it; "" when it offered no tools): the folder its
	// recorded tool calls and changes name files in. What the parent
	// receives of a replay with no project of its own names files there,
	// as the recorded run's parent received them.
	Project string `json:"project,omitempty"`
	// LiveTools is set when the tool calls ran on the project, gated and
	// sandboxed as in a live run, instead of playing the recorded
	// results; the model's replies are the recording's.
	LiveTools bool `json:"live_tools,omitempty"`
}

// SuiteTag ties a run to the suite case it ran for.
type SuiteTag struct {
	// Kind is "test" (agentdesk test) or "route" (agentdesk route).
	Kind string `json:"kind"`
	// Path is the suite file's path.
	Path string `json:"path"`
	// Case is the case's name; Sample its sample, from 1.
	Case   string `json:"case"`
	Sample int    `json:"sample,omitempty"`
	// Judge is set for the run that judged the sample's output.
	Judge bool `json:"judge,omitempty"`
}

// String says which suite, case and sample, for a list of runs:
// "code-analyst.test.yaml › finds the port #2 (judge)".
func (t *SuiteTag) String() string {
	if t == nil {
		return ""
	}
	s := filepath.Base(t.Path) + " › " + t.Case
	if t.Sample > 0 {
		s += fmt.Sprintf(" #%d", t.Sample)
	}
	if t.Judge {
		s += " (judge)"
	}
	return s
}

// LimitsRecord are the watchdog's limits as run.json writes them.
type LimitsRecord struct {
	PrefillMS      int64 `json:"prefill_ms"`
	InterDeltaMS   int64 `json:"inter_delta_ms"`
	NoProgressMS   int64 `json:"no_progress_ms"`
	ThinkingOnlyMS int64 `json:"thinking_only_ms"`
	// MaxCallMS was the per-call cap (SubAgents.MaxLlmCallSeconds) older
	// versions wrote; NetClaw has none, and it is no longer written.
	MaxCallMS int64 `json:"max_call_ms,omitempty"`
}

// Ended reports whether the run has ended (its state is not Running).
func (r *Record) Ended() bool {
	return r.State != vocab.StateRunning && r.State != vocab.StateLost && r.State != vocab.StateUnreadable
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

// StatusText is a run in one phrase: its state, then its reason when it
// has one ("Completed", "Cancelled · cancelled_by_parent", "Failed ·
// output_truncated", "Running", "Lost").
func StatusText(r *Record) string {
	s := r.State
	if s == "" {
		s = vocab.OutcomeText(r.Outcome)
	}
	if r.Reason != "" {
		s += " · " + r.Reason
	}
	return s
}

// Model is the model a run talks to, resolved from the configuration.
type Model struct {
	// Role is the role asked for ("Main", "Compaction", "Fallback").
	Role string `json:"role"`
	// Definition is the Models.Definitions entry used; "" for the older
	// Models.<Role> shape or the built-in default.
	Definition string `json:"definition"`
	// Provider is the Providers entry's name.
	Provider string `json:"provider"`
	// Type is the provider type ("ollama", "openai-compatible", ...).
	Type string `json:"type"`
	// Endpoint is the provider's base URL.
	Endpoint string `json:"endpoint"`
	// ModelID is the model id sent in the request.
	ModelID string `json:"model_id"`
	// Via says how the role resolved: "Models.Roles.Compaction",
	// "Models.Main (older shape)", "Main (Compaction falls back to Main)",
	// "built-in default (no model configured)".
	Via string `json:"via,omitempty"`
	// APIKey is the key sent to the provider. It is never written.
	APIKey string `json:"-"`
	// Protocol is the wire protocol the type speaks.
	Protocol wire.Protocol `json:"-"`
}

// PatchFile is the run folder's unified diff of what the run changed in
// its overlay of the project: `git apply changes.patch` from the project
// root makes the same changes.
const PatchFile = overlay.PatchFile

// ChangeRecord is one file a run changed in its overlay, for run.json.
type ChangeRecord struct {
	// Path is project-relative, slash-separated.
	Path string `json:"path"`
	// Kind is added, modified or deleted.
	Kind string `json:"kind"`
}

// PromptRecord is what a spawn's system prompt was made of, in run.json.
type PromptRecord struct {
	// Audience is the parent session's audience.
	Audience string `json:"audience"`
	// Parts are the system prompt's parts in order.
	Parts []PromptPart `json:"parts"`
	// Missing names the parts the runtime would send that the request
	// lacked; MissingReasons says why, part by part.
	Missing        []string          `json:"missing"`
	MissingReasons map[string]string `json:"missing_reasons,omitempty"`
	// CoreSource and CoreVersion say where the operating core came from.
	CoreSource  string `json:"core_source,omitempty"`
	CoreVersion string `json:"core_version,omitempty"`
}

// PromptPart is one part of the system prompt: its name, where its text
// came from, and its o200k_base tokens.
type PromptPart struct {
	Part   string `json:"part"`
	Source string `json:"source"`
	Tokens int    `json:"tokens"`
	// Bytes is the length of the part's text before redaction: with the
	// blank lines that join the parts, it splits the system prompt that
	// transcript.jsonl keeps back into its parts (agentdesk runs --diff).
	// 0 in runs recorded before it was kept.
	Bytes int `json:"bytes,omitempty"`
}

// MissingNotice is the sentence every surface prints when a run's request
// lacked parts (the operating rules, without a NetClaw install); "" when
// it lacked none.
func (p *PromptRecord) MissingNotice() string {
	if p == nil || len(p.Missing) == 0 {
		return ""
	}
	s := ""
	for i, m := range p.Missing {
		if i > 0 {
			s += "; "
		}
		what := m
		if m == request.PartOperatingRules {
			what = "the operating rules (NetClaw's embedded core)"
		}
		s += what
		if r := p.MissingReasons[m]; r != "" {
			s += ": " + r
		}
	}
	return "the request lacked " + s + ". The agent ran without what NetClaw would send; results may differ."
}

// MCPRecord is what run.json keeps about the run's MCP servers.
type MCPRecord struct {
	// Servers are the configured servers, in the configuration's order.
	Servers []MCPServerRecord `json:"servers"`
	// Notes say what went wrong with a server during the run, one per
	// event (did not start, died during a call, answered with an error,
	// hung, sent too much), redacted.
	Notes []string `json:"notes,omitempty"`
}

// MCPServerRecord is one configured server in a run.
type MCPServerRecord struct {
	Name string `json:"name"`
	// Transport is the one the runtime uses: stdio, sse or http.
	Transport string `json:"transport"`
	// State is started, skipped or failed.
	State string `json:"state"`
	// Detail says why a server was skipped or failed.
	Detail string `json:"detail,omitempty"`
	// Tools are the tools it offered, as the model sees them.
	Tools []string `json:"tools,omitempty"`
}

// CapEvidence cuts a tool result for run.json and the transcript: at most
// EvidenceCap bytes, on a character boundary, with a note of what was cut.
func CapEvidence(s string) string {
	if len(s) <= EvidenceCap {
		return s
	}
	cut := EvidenceCap
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[… %d more bytes handed to the model]", len(s)-cut)
}
