package preview

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// What the parent session receives for a spawn, as NetClaw words it. A
// spawn is a background child run: spawn_agent answers at once with an
// acceptance record, and the child's end reaches the parent later. The
// facts, with the commits (netclaw-dev/netclaw):
//   - the acceptance record: SubAgentSpawner.StartRunAsync
//     (src/Netclaw.Actors/SubAgents/SubAgentSpawner.cs
//     @28ddf700169220c86c596debd17d5d8dc03bfe7c) serializes
//     {run_id, scope_id, state, control_tool: "check_agent_run"}, state
//     "Accepted" for a new run; the scope id is
//     "<session id>/subagent/<agent>/<run id>", or "subagent/<agent>/<run
//     id>" without a session (PrepareRunAsync, same commit);
//   - the terminal record: ChildRunDelivery.TerminalBody
//     (src/Netclaw.Actors/SubAgents/ChildRunDelivery.cs @28ddf700), the
//     fields in that order; working_context is the WorkingContextDelta
//     of a successful (Completed or Partial) run and null otherwise, and
//     log_path and artifact_directory are set only for a successful run
//     (EnrichedChildRunResult.SuccessfulRun, SubAgentSpawner.cs @28ddf700);
//     check_agent_run's reply embeds the same body as "terminal"
//     (CheckAgentRunTool.cs @28ddf700);
//   - the JSON is System.Text.Json's with its default encoder (DotNetJSON);
//   - the notice: seed 002 (the sub-agent authoring skill, newer than the
//     stored code) says the parent learns of the end through "a notice
//     [that] arrives as a user message. The notice names the run, the
//     outcome, and the path of result.md", and "the result never arrives
//     as tool output". Its words are not in any stored code: the stored
//     code @28ddf700 still delivers TerminalBody as the result of a
//     synthetic spawn_agent call (ChildRunDelivery.Call). ParentNotice is
//     agentdesk's wording of what the seed says the notice names.

// ControlTool is the tool the parent reads or cancels a child run with.
const ControlTool = "check_agent_run"

// AcceptanceRecord is what the parent's spawn_agent call returns before
// the child runs: SubAgentSpawner.StartRunAsync's reply.
type AcceptanceRecord struct {
	RunID       string `json:"run_id"`
	ScopeID     string `json:"scope_id"`
	State       string `json:"state"`
	ControlTool string `json:"control_tool"`
}

// Acceptance returns the acceptance record of a new run of agent: state
// Accepted, scope "subagent/<agent>/<run id>" (a trial has no session).
func Acceptance(runID, agent string) AcceptanceRecord {
	return AcceptanceRecord{RunID: runID, ScopeID: ScopeID(agent, runID), State: "Accepted", ControlTool: ControlTool}
}

// ScopeID is a child run's scope without a parent session:
// "subagent/<agent>/<run id>".
func ScopeID(agent, runID string) string { return "subagent/" + agent + "/" + runID }

// Text returns the record as the tool's result text: NetClaw's JSON.
func (a AcceptanceRecord) Text() string {
	var b dotNetWriter
	b.open()
	b.str("run_id", a.RunID)
	b.str("scope_id", a.ScopeID)
	b.str("state", a.State)
	b.str("control_tool", a.ControlTool)
	b.close()
	return b.String()
}

// WorkingContextDelta is the structured file handoff of a successful run
// (NetClaw's WorkingContextDelta, serialized with its property names):
// the files the child read and the files it changed through its own
// tools (confirmed); observed changes are worktree changes it did not
// make.
type WorkingContextDelta struct {
	ProjectDirectory      *string  `json:"ProjectDirectory"`
	Worktree              *string  `json:"Worktree"`
	Branch                *string  `json:"Branch"`
	Head                  *string  `json:"Head"`
	ReadFiles             []string `json:"ReadFiles"`
	ConfirmedChangedFiles []string `json:"ConfirmedChangedFiles"`
	ObservedChangedFiles  []string `json:"ObservedChangedFiles"`
}

// TerminalRecord is the child's terminal record as the parent receives it
// (ChildRunDelivery.TerminalBody).
type TerminalRecord struct {
	RunID           string               `json:"run_id"`
	ScopeID         string               `json:"scope_id"`
	State           string               `json:"state"`
	SourceOperation string               `json:"source_operation"`
	Outcome         string               `json:"outcome"`
	Reason          *string              `json:"reason"`
	Output          string               `json:"output"`
	WorkingContext  *WorkingContextDelta `json:"working_context"`
	// Findings are the structured findings of an agent with
	// emitStructuredFindings; agentdesk reads none, so it is empty.
	Findings          []string `json:"findings"`
	LogPath           *string  `json:"log_path"`
	ArtifactDirectory *string  `json:"artifact_directory"`
	// Warning is the evidence warning (a report that could not be
	// written); Checkpoint the child's last checkpoint. A trial has
	// neither: null.
	Warning    *string `json:"warning"`
	Checkpoint *string `json:"checkpoint"`
}

// Text returns the record as NetClaw serializes it.
func (t TerminalRecord) Text() string {
	var b dotNetWriter
	b.open()
	b.str("run_id", t.RunID)
	b.str("scope_id", t.ScopeID)
	b.str("state", t.State)
	b.str("source_operation", t.SourceOperation)
	b.str("outcome", t.Outcome)
	b.optStr("reason", t.Reason)
	b.str("output", t.Output)
	if w := t.WorkingContext; w != nil {
		b.key("working_context")
		b.open()
		b.optStr("ProjectDirectory", w.ProjectDirectory)
		b.optStr("Worktree", w.Worktree)
		b.optStr("Branch", w.Branch)
		b.optStr("Head", w.Head)
		b.list("ReadFiles", w.ReadFiles)
		b.list("ConfirmedChangedFiles", w.ConfirmedChangedFiles)
		b.list("ObservedChangedFiles", w.ObservedChangedFiles)
		b.close()
	} else {
		b.null("working_context")
	}
	b.list("findings", t.Findings)
	b.optStr("log_path", t.LogPath)
	b.optStr("artifact_directory", t.ArtifactDirectory)
	b.optStr("warning", t.Warning)
	b.optStr("checkpoint", t.Checkpoint)
	b.close()
	return b.String()
}

// ParentNotice is the user message that tells the parent a child run
// ended, naming the run, the outcome and the path of result.md (seed 002;
// the words are agentdesk's: no stored NetClaw code holds them):
//
//	Subagent run 3f…a1 (code-analyst) ended: Failed (no_activity_timeout). Its result is in /runs/3f…a1/result.md: read it with file_read.
func ParentNotice(runID, agent, outcome, reason, resultPath string) string {
	o := outcome
	if reason != "" {
		o += " (" + reason + ")"
	}
	return "Subagent run " + runID + " (" + agent + ") ended: " + o + ". Its result is in " + resultPath + ": read it with file_read."
}

// WhatTheParentSees lists what the parent session receives for a spawn,
// in order, for preview --spawn.
var WhatTheParentSees = []string{
	`at once, as spawn_agent's result: the acceptance record {"run_id","scope_id","state":"Accepted","control_tool":"check_agent_run"} (NetClaw's words)`,
	"when the child ends, a user message naming the run, the outcome and the path of result.md (the seed's notice; agentdesk's words)",
	`the terminal record {run_id, scope_id, state, source_operation, outcome, reason, output, working_context, findings, log_path, artifact_directory, warning, checkpoint} (NetClaw's ChildRunDelivery; check_agent_run returns it too)`,
	"the file handoff in working_context: the files the child read (ReadFiles), changed with file_write or file_edit (ConfirmedChangedFiles) and changed otherwise as git shows them (ObservedChangedFiles), for a Completed or Partial run",
}

// DotNetJSON returns s as a JSON string the way System.Text.Json writes it
// with its default encoder (JavaScriptEncoder.Default): printable ASCII as
// it is except " & ' + < > ` and \, which are escaped ("\u0022", "\\",
// …); \b \f \n \r \t in short form; every other character, non-ASCII
// included, as \uXXXX (upper-case hex, a surrogate pair above U+FFFF).
// Invalid UTF-8 becomes U+FFFD.
func DotNetJSON(s string) string {
	var b strings.Builder
	writeDotNetString(&b, s)
	return b.String()
}

func writeDotNetString(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	u := func(r uint16) {
		b.WriteString(`\u`)
		b.WriteByte(hex[r>>12])
		b.WriteByte(hex[r>>8&0xF])
		b.WriteByte(hex[r>>4&0xF])
		b.WriteByte(hex[r&0xF])
	}
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		// A run of plain printable ASCII is copied at once.
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7F && !dotNetEscaped[s[j]] {
			j++
		}
		b.WriteString(s[i:j])
		if i = j; i >= len(s) {
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			u(uint16(r1))
			u(uint16(r2))
		default:
			u(uint16(r))
		}
	}
	b.WriteByte('"')
}

// dotNetEscaped marks the printable ASCII the default encoder escapes.
var dotNetEscaped = [128]bool{'"': true, '&': true, '\'': true, '+': true, '<': true, '>': true, '`': true, '\\': true}

// dotNetWriter writes a JSON object as System.Text.Json does (compact).
type dotNetWriter struct {
	strings.Builder
	first []bool
}

func (w *dotNetWriter) open() {
	w.WriteByte('{')
	w.first = append(w.first, true)
}

func (w *dotNetWriter) close() {
	w.WriteByte('}')
	w.first = w.first[:len(w.first)-1]
}

func (w *dotNetWriter) key(k string) {
	if top := len(w.first) - 1; !w.first[top] {
		w.WriteByte(',')
	} else {
		w.first[top] = false
	}
	writeDotNetString(&w.Builder, k)
	w.WriteByte(':')
}

func (w *dotNetWriter) str(k, v string) {
	w.key(k)
	writeDotNetString(&w.Builder, v)
}

func (w *dotNetWriter) optStr(k string, v *string) {
	if v == nil {
		w.null(k)
		return
	}
	w.str(k, *v)
}

func (w *dotNetWriter) null(k string) {
	w.key(k)
	w.WriteString("null")
}

func (w *dotNetWriter) list(k string, vs []string) {
	w.key(k)
	w.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			w.WriteByte(',')
		}
		writeDotNetString(&w.Builder, v)
	}
	w.WriteByte(']')
}
