package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

func TestTrialWritesToOverlayAndKeepsPatch(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "file_write", `{"Path":"notes/summary.md","Content":"# Summary\nport 8080\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "file_read", `{"Path":"notes/summary.md","_rationale":"check"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Saved the summary."),
	)
	_, rec := f.run(t, f.toolSpec("Summarize.", dir, Limits{}))
	if rec.Outcome != Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes")); err == nil {
		t.Fatal("the write reached the project")
	}
	if l := rec.ToolCalls[0].Result.Label; l != "overlay" {
		t.Errorf("file_write label %q", l)
	}
	if r := rec.ToolCalls[1].Result; r.Label != "real" || r.Text != "# Summary\nport 8080\n" {
		t.Errorf("file_read after the write: %+v", r)
	}
	patch, err := os.ReadFile(filepath.Join(rec.Dir, PatchFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(patch), "+++ b/notes/summary.md\n@@ -0,0 +1,2 @@\n+# Summary\n+port 8080\n") {
		t.Errorf("changes.patch:\n%s", patch)
	}
	if len(rec.Changes) != 1 || rec.Changes[0] != (ChangeRecord{Path: "notes/summary.md", Kind: "added"}) {
		t.Errorf("record changes %+v", rec.Changes)
	}
	md, _ := os.ReadFile(filepath.Join(rec.Dir, ResultFile))
	if !strings.Contains(string(md), "result: ok, overlay,") || !strings.Contains(string(md), PatchFile) {
		t.Errorf("result.md:\n%s", md)
	}
}

func TestShellUnattendedFailsTheRun(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "shell_execute", `{"Command":"touch x","_rationale":"try"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("never reached"),
	)
	_, rec := f.run(t, f.toolSpec("Run it.", dir, Limits{}))
	if rec.Outcome != Failed || rec.Reason != ReasonToolExecutionFailed ||
		!strings.Contains(rec.Error, "Tool 'shell_execute' requires interactive approval, but no parent approval bridge is available.") ||
		!strings.Contains(rec.Error, "--approve 'shell_execute:touch x'") {
		t.Fatalf("got %s/%s %q", rec.Outcome, rec.Reason, rec.Error)
	}
	if l := rec.ToolCalls[0].Result.Label; l != "denied" {
		t.Errorf("label %q", l)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("the command ran")
	}
}

func TestShellApprovedAndDenied(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo hi > made.txt && cat made.txt","_rationale":"try"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "shell_execute", `{"Command":"rm README.md","_rationale":"try"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	s := f.toolSpec("Run it.", dir, Limits{})
	pats, err := approve.ParseAll([]string{"shell_execute:echo *"})
	if err != nil {
		t.Fatal(err)
	}
	s.Approve = pats
	s.Asker = approve.AskerFunc(func(_ context.Context, req approve.Request) (approve.Answer, error) {
		return approve.Deny, nil
	})
	_, rec := f.run(t, s)
	if rec.Outcome != Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	if r := rec.ToolCalls[0].Result; r.Label != "approved" || r.Text != "Exit code: 0\nhi\n" {
		t.Errorf("approved call: %+v", r)
	}
	if r := rec.ToolCalls[1].Result; r.Label != "denied" || r.Text != "Tool access denied: approval_denied_by_user" {
		t.Errorf("denied call: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
		t.Error("the command's file reached the project")
	}
	if len(rec.Changes) != 1 || rec.Changes[0].Path != "made.txt" {
		t.Errorf("changes %+v", rec.Changes)
	}
}
