package runner

import (
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/trialtest"
)

// A trial in a home without skills runs skill_load for real: it answers
// as the runtime does when no skill is registered, not with a stub that
// says the read "touches NetClaw's own state".
func TestSkillLoadWithoutSkills(t *testing.T) {
	f := newFixture(t, trialtest.Protocols[0])
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "skill_load", `{"Name":"Deploy","_rationale":"load the deploy steps"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("No such skill."),
	)
	spec := f.toolSpec("Deploy it.", project(t), Limits{})
	spec.Skills = nil
	_, rec := f.run(t, spec)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("outcome %s/%s: %s", rec.Outcome, rec.Reason, rec.Error)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got, want := lastTool(reqs[1]).Text, "Skill 'deploy' not found. No skills are currently registered."; got != want {
		t.Errorf("skill_load answered %q, want %q", got, want)
	}
	if len(rec.ToolCalls) != 1 || rec.ToolCalls[0].Result == nil || rec.ToolCalls[0].Result.Label == string(tools.LabelStubbed) {
		t.Errorf("tool calls %+v: want skill_load run, not stubbed", rec.ToolCalls)
	}
}
