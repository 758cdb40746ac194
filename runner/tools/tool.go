package tools

import (
	"context"
	"encoding/json"
)

// Tool is one tool a trial run offers the model. Implementations must be
// safe to call from several goroutines and must never panic on what a
// model sends: bad arguments come back as an error Result.
type Tool interface {
	// Spec describes the tool as the model is offered it.
	Spec() Spec
	// Call runs the tool with the JSON arguments as the model sent them,
	// meta properties (_rationale, _timeout_seconds, _background)
	// included; SplitMeta separates them. It returns when ctx is done at
	// the latest, with an error Result.
	Call(ctx context.Context, args json.RawMessage) Result
}

// Spec describes one tool: its model-facing name, description and JSON
// Schema, and how a call to it is gated.
type Spec struct {
	// Name is the tool's name as the model calls it (for an MCP tool,
	// server__tool).
	Name string
	// Description is the text the model reads.
	Description string
	// Parameters is the JSON Schema object of the arguments.
	Parameters json.RawMessage
	// Deferred is set for a tool offered once load_tool activates it
	// rather than at the start.
	Deferred bool
	// Approval is set for a tool whose every call needs the author's
	// approval before it runs (shell_execute, web_fetch, web_search, every
	// MCP tool).
	Approval bool
	// Server is the MCP server of an MCP tool ("" for the others): an
	// `--approve mcp:SERVER` pattern approves every tool of that server.
	Server string
	// Remote is set for a tool of an http or sse MCP server: the server
	// runs elsewhere, so its calls act outside the trial (no sandbox, no
	// copy of the project can contain them).
	Remote bool
}

// Label says where a result came from. result.md, the transcript and the
// Run pane show it beside every result.
type Label string

// The labels of a result.
const (
	// LabelReal: the tool ran for real, reading the project (or the
	// runtime's state) and changing nothing.
	LabelReal Label = "real"
	// LabelOverlay: the tool wrote to the run's overlay of the project;
	// the real files did not change.
	LabelOverlay Label = "overlay"
	// LabelApproved: the tool needed approval, got it, and ran.
	LabelApproved Label = "approved"
	// LabelDenied: the tool needed approval and did not get it; it did not
	// run.
	LabelDenied Label = "denied"
	// LabelStubbed: the tool touches NetClaw's state or other systems; it
	// did not run, and the result says what the runtime would have done.
	LabelStubbed Label = "stubbed"
	// LabelMocked: a suite's mock answered the call; the tool did not run.
	LabelMocked Label = "mocked"
)

// Result is what one tool call returns.
type Result struct {
	// Text is the tool result handed back to the model.
	Text string
	// IsError is set when the call failed: bad arguments, a missing file,
	// a refusal, a denial.
	IsError bool
	// Refused is set when the call was not run at all: a path outside the
	// project folder, a tool not offered, a denial. A refused result is an
	// error result too.
	Refused bool
	// Cut is set when the text was cut at one of the caps.
	Cut bool
	// Label says where the result came from. A tool may leave it empty;
	// the Set fills it in (LabelReal, or LabelApproved for a tool that
	// needed approval).
	Label Label
	// Fail, when set, ends the run: outcome Failed, reason
	// tool_execution_failed, with Fail as its message. The runtime fails a
	// sub-agent this way when a call needs approval and no one can give it
	// (see approve.UnattendedMessage).
	Fail string
	// PendingJob is set on a check_background_job result that reports a
	// job still running: the cycle guard exempts the next such call
	// (ToolInvocationReceipt.PendingBackgroundJob, netclaw a36cc1ee).
	PendingJob bool
}

// Errorf returns an error Result with a formatted text.
func Errorf(format string, a ...any) Result {
	return Result{Text: sprintf(format, a...), IsError: true}
}

// Refusef returns a refused Result (an error result for a call that did
// not run) with a formatted text.
func Refusef(format string, a ...any) Result {
	return Result{Text: sprintf(format, a...), IsError: true, Refused: true}
}
