package suite

import (
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// A suite's approve: approves a case's gated calls as --approve does; a
// call nothing approves fails the case with advice that fits where the
// suite ran: agentdesk test, or the browser's Tests pane.
func TestSuiteApproveAndUnattendedAdvice(t *testing.T) {
	f := newFixture(t)
	hometest.WriteFile(t, f.home.Agents+"/proj/a.txt", "a\n")
	call := modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo hi","_rationale":"greet"}`), modeltest.Finish(modeltest.FinishTools)}}
	f.conversation("greet", call, modeltest.Reply("said hi"))
	f.conversation("greet too", call, modeltest.Reply("said hi"))
	path := f.suite(`cases:
  - name: approved
    task: greet
    project: proj
    approve: ["shell_execute:echo *"]
    expect: {contains: said hi}
  - name: not approved
    task: greet too
    project: proj
    expect: {contains: said hi}
`)
	for _, browser := range []bool{false, true} {
		cat := f.catalog()
		rn, err := runner.New(runner.Options{RunsDir: f.runs})
		if err != nil {
			t.Fatal(err)
		}
		s := suitefile.Load(path)
		suitefile.Check(s, cat)
		if len(s.Diagnostics) != 0 {
			t.Fatalf("diagnostics: %+v", s.Diagnostics)
		}
		rs := Run(context.Background(), []*suitefile.Suite{s}, Options{Runner: rn, Catalog: cat, Mode: evalrec.Default, Jobs: 1, Browser: browser})
		got := rs[0].Cases
		if got[0].Status != Pass {
			t.Errorf("browser %v: the approved case is %s: %s", browser, got[0].Status, got[0].Message)
		}
		msg := got[1].Message
		for _, s := range got[1].Samples {
			for _, fl := range s.Failures {
				msg += " " + fl.Message
			}
		}
		want, not := "or with --approve 'shell_execute:echo hi'", "browser"
		if browser {
			want, not = "or run the agent on its own in the browser, which asks", "--approve"
		}
		if got[1].Status == Pass || !strings.Contains(msg, "approve: ['shell_execute:echo hi']") || !strings.Contains(msg, want) || strings.Contains(msg, not) {
			t.Errorf("browser %v: the unapproved case is %s: %q; want advice %q, not %q", browser, got[1].Status, msg, want, not)
		}
	}
}
