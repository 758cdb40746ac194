package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestToolErrorsAreSentAsPlainResults: NetClaw's sub-agent sends every
// tool result, a refusal or a failure included, as a plain result: its
// SubAgentActor builds each one (unknown tool, a rejected argument or
// meta value, a denial, "Error: …" from a tool that threw) as a tool
// message with text only (BuildToolResult, commit 502847bf), which
// ChatMessageConverter.ToAiMessage turns into a FunctionResultContent with
// no Exception (commit 013299cf), so no error flag reaches the wire. Over
// the Anthropic loopback no tool_result carries is_error, whatever kind
// of refusal it is, while the record still counts it as an error; a call
// no one can approve ends the run without sending anything more.
func TestToolErrorsAreSentAsPlainResults(t *testing.T) {
	deny := approve.AskerFunc(func(context.Context, approve.Request) (approve.Answer, error) { return approve.Deny, nil })
	tests := []struct {
		name     string
		call     string // tool and arguments
		asker    approve.Asker
		want     string // in the result's text
		refused  bool
		failsRun bool // the run ends at the call: nothing more is sent
	}{
		{name: "unknown tool", call: `spawn_agent {"agent":"x","_rationale":"r"}`, want: "Unknown tool: spawn_agent", refused: true},
		{name: "meta refusal", call: `file_read {"path":"README.md"}`, want: tools.RationaleRefusal, refused: true},
		{name: "argument refusal", call: `file_read {"path":"README.md","pth":"x","_rationale":"r"}`, want: "pth", refused: true},
		{name: "approval denied", call: `shell_execute {"command":"ls","_rationale":"r"}`, asker: deny, want: approve.DeniedText, refused: true},
		{name: "tool error", call: `file_read {"path":"missing.md","_rationale":"r"}`, want: "missing.md"},
		{name: "approval unavailable", call: `shell_execute {"command":"ls","_rationale":"r"}`, failsRun: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, wire.Anthropic)
			name, args, _ := strings.Cut(tt.call, " ")
			f.srv.Enqueue(
				script(modeltest.ToolCall("call_1", name, args), modeltest.Finish(modeltest.FinishTools)),
				modeltest.Reply("Done."),
			)
			s := f.toolSpec("Look around.", project(t), Limits{})
			s.Asker = tt.asker
			_, rec := f.run(t, s)
			reqs := f.srv.Requests()
			if tt.failsRun {
				if rec.Outcome != vocab.Failed || rec.Reason != vocab.ReasonToolExecutionFailed || len(reqs) != 1 {
					t.Fatalf("got %s/%s after %d requests, want a failed run and no result sent", rec.Outcome, rec.Reason, len(reqs))
				}
				return
			}
			if rec.Outcome != vocab.Completed || len(reqs) != 2 {
				t.Fatalf("got %s/%s %q after %d requests", rec.Outcome, rec.Reason, rec.Error, len(reqs))
			}
			sent := lastTool(reqs[1])
			if !strings.Contains(sent.Text, tt.want) {
				t.Errorf("result %q lacks %q", sent.Text, tt.want)
			}
			if sent.IsError || strings.Contains(string(reqs[1].Body), `"is_error"`) {
				i := strings.Index(string(reqs[1].Body), `"tool_result"`)
				t.Errorf("the result was sent with is_error: %.200s", reqs[1].Body[max(i, 0):])
			}
			res := rec.ToolCalls[0].Result
			if res == nil || !res.Error || res.Refused != tt.refused {
				t.Errorf("recorded result %+v, want an error (refused %v)", res, tt.refused)
			}
		})
	}
}
