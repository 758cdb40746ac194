package main

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestRouteShowsEveryCallOfAReply: a reply with two spawn_agent calls
// shows both in the text and JSON reports; the first decides the pick
// (issue 20 item 11).
func TestRouteShowsEveryCallOfAReply(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	srv.SetDefault(modeltest.Script{Steps: []modeltest.Step{
		modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer","task":"Review the diff","_rationale":"r"}`),
		modeltest.ToolCall("c2", "spawn_agent", `{"agent":"log-analyst","task":"Read the deploy log","_rationale":"r"}`),
		modeltest.Finish(modeltest.FinishTools),
	}})
	code, out, errOut := runTrialCmd(t, env, "", "route", "--samples", "1", "Review and explain")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	for _, want := range []string{`1. spawn_agent reviewer, task "Review the diff"`, `   then spawn_agent log-analyst, task "Read the deploy log"`, "  reviewer  1/1  100%"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runTrialCmd(t, env, "", "route", "--samples", "1", "--format", "json", "Review and explain")
	if !strings.Contains(out, `"also": [`) || !strings.Contains(out, `"agent": "log-analyst"`) {
		t.Errorf("json lacks the second call:\n%s", out)
	}
}
