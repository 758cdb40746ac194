package runner

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/trialtest"
)

// A sub-agent starts with NetClaw's core tools; a deferred first-party
// tool joins the request only once load_tool activates it, after the core
// ones (SubAgentActor: ResolveCoreAiTools, then TryActivateDiscoveredTool),
// and a call of it then runs (here: set_reminder, stubbed).
func TestDeferredFirstPartyToolJoinsAfterLoadTool(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			f.srv.Enqueue(
				script(modeltest.ToolCall("c1", "load_tool", `{"Name":"set_reminder","_rationale":"I need to schedule"}`), modeltest.Finish(modeltest.FinishTools)),
				script(modeltest.ToolCall("c2", "set_reminder", `{"Id":"standup","Name":"Standup","Prompt":"Remind me","ScheduleType":"once","Schedule":"30m","_rationale":"schedule it"}`), modeltest.Finish(modeltest.FinishTools)),
				modeltest.Reply("Scheduled."),
			)
			_, rec := f.run(t, f.toolSpec("Remind me of the standup.", project(t), Limits{}))
			if rec.Outcome != vocab.Completed {
				t.Fatalf("outcome %s/%s: %s", rec.Outcome, rec.Reason, rec.Error)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			first := strings.Join(reqs[0].Tools, ",")
			if first != trialToolNames || strings.Contains(","+first+",", ",set_reminder,") {
				t.Errorf("first request's tools %s, want the core tier %s", first, trialToolNames)
			}
			for i, r := range reqs[1:] {
				if got, want := strings.Join(r.Tools, ","), trialToolNames+",set_reminder"; got != want {
					t.Errorf("request %d's tools\n%s\nwant\n%s", i+2, got, want)
				}
			}
			if got := lastTool(reqs[1]).Text; got != "set_reminder" {
				t.Errorf("load_tool answered %q, want the tool's name", got)
			}
			if !slices.Contains(rec.DeferredTools, "set_reminder") || !slices.Contains(rec.DeferredTools, "web_fetch") || slices.Contains(rec.DeferredTools, "file_read") {
				t.Errorf("record's deferred tools %v: want the deferred tier (set_reminder, web_fetch), not the core", rec.DeferredTools)
			}
			if len(rec.ToolCalls) != 2 || rec.ToolCalls[1].Result.Label != string(tools.LabelStubbed) {
				t.Errorf("tool calls %+v", rec.ToolCalls)
			}
		})
	}
}
