//go:build linux

package suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/sandbox"
)

// TestUnchangedFailsOnAWriteThroughTheAbsolutePath: an approved command
// that appends to the project's a.txt through its absolute path changes
// the run's copy, so `expect: changes: unchanged` fails, and the project
// is untouched.
func TestUnchangedFailsOnAWriteThroughTheAbsolutePath(t *testing.T) {
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("this kernel cannot sandbox: %s", r.Unavailable)
	}
	f := newFixture(t)
	proj := filepath.Join(f.home.Agents, "proj")
	hometest.WriteFile(t, filepath.Join(proj, "a.txt"), "alpha\n")
	f.conversation("Touch a.txt.",
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", `{"Command":"cd / && echo changed >> '`+proj+`/a.txt'","_rationale":"touch"}`), modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Reply("Done."),
	)
	path := f.suite(`cases:
  - name: leaves a.txt alone
    task: Touch a.txt.
    project: proj
    expect:
      changes:
        - {path: a.txt, unchanged: true}
`)
	cat := f.catalog()
	rn, err := runner.New(runner.Options{RunsDir: f.runs, Client: f.client})
	if err != nil {
		t.Fatal(err)
	}
	s := suitefile.Load(path)
	suitefile.Check(s, cat)
	approved, _ := approve.ParseAll([]string{"shell_execute:*"})
	rs := Run(context.Background(), []*suitefile.Suite{s}, Options{Runner: rn, Catalog: cat, Mode: evalrec.LiveOnly, Jobs: 1, Approve: approved})
	if len(rs) != 1 || len(rs[0].Cases) != 1 {
		t.Fatalf("results %+v", rs)
	}
	got := rs[0].Cases[0].Samples[0]
	if got.Status == Pass || len(got.Failures) != 1 || got.Failures[0].Message != "the run changed a.txt" {
		t.Fatalf("%s %+v", got.Status, got.Failures)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "a.txt")); string(b) != "alpha\n" {
		t.Errorf("the project changed: %q", b)
	}
	if !strings.Contains(strings.Join(got.Failures[0].Lines, "\n"), "a.txt") {
		t.Errorf("failure lines %q", got.Failures[0].Lines)
	}
}
