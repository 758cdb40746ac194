package runner

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
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
	if rec.Outcome != vocab.Completed {
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
	patch, err := os.ReadFile(filepath.Join(rec.Dir, runfolder.PatchFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(patch), "+++ b/notes/summary.md\n@@ -0,0 +1,2 @@\n+# Summary\n+port 8080\n") {
		t.Errorf("changes.patch:\n%s", patch)
	}
	if len(rec.Changes) != 1 || rec.Changes[0] != (runfolder.ChangeRecord{Path: "notes/summary.md", Kind: "added"}) {
		t.Errorf("record changes %+v", rec.Changes)
	}
	md, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if !strings.Contains(string(md), "result: ok, overlay,") || !strings.Contains(string(md), runfolder.PatchFile) {
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
	if rec.Outcome != vocab.Failed || rec.Reason != vocab.ReasonToolExecutionFailed ||
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
	if rec.Outcome != vocab.Completed {
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

func TestWebFetchKeepsThePageInTheSessionFolder(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("port 8080\n"))
	}))
	defer page.Close()
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "web_fetch", `{"Url":"`+page.URL+`/notes","_rationale":"read"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	s := f.toolSpec("Fetch it.", project(t), Limits{})
	s.Approve, _ = approve.ParseAll([]string{"web_fetch:" + page.URL + "/*"})
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	res := rec.ToolCalls[0].Result
	if res.Label != "approved" || !strings.Contains(res.Text, "Saved to: "+filepath.Join(rec.Dir, SessionDir, "workspace")) {
		t.Fatalf("web_fetch: %+v", res)
	}
	if top, _ := os.ReadDir(filepath.Join(rec.Dir, SessionDir)); len(top) != 1 || top[0].Name() != "workspace" {
		t.Errorf("the session folder holds %v, want workspace/ alone", top)
	}
	ents, _ := os.ReadDir(filepath.Join(rec.Dir, SessionDir, "workspace"))
	if len(ents) != 1 {
		t.Fatalf("session folder holds %v", ents)
	}
	if b, _ := os.ReadFile(filepath.Join(rec.Dir, SessionDir, "workspace", ents[0].Name())); string(b) != "port 8080\n" {
		t.Errorf("saved page %q", b)
	}
}

func TestUnsavedRunKeepsItsPatch(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "file_write", `{"Path":"a.md","Content":"x\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	s := f.toolSpec("Write.", project(t), Limits{})
	s.Unsaved = true
	r, err := f.runner.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if _, err := os.Stat(r.Dir()); err == nil {
		t.Fatal("an unsaved run has a folder before Keep")
	}
	if cs := r.Changes(); len(cs) != 1 || cs[0].Path != "a.md" || string(cs[0].New) != "x\n" {
		t.Errorf("changes %+v", cs)
	}
	dir, err := r.Keep()
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, runfolder.PatchFile)); err != nil || !strings.Contains(string(b), "+++ b/a.md") {
		t.Errorf("kept patch %q %v", b, err)
	}
}

func TestAskInEventsForRun(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo one","_rationale":"a"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "shell_execute", `{"Command":"echo two","_rationale":"b"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	s := f.toolSpec("Run both.", project(t), Limits{})
	s.AskInEvents = true
	r, err := f.runner.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for i := 0; ; i++ {
		ev, err := r.Next(context.Background(), i)
		if err != nil {
			break
		}
		if ev.Kind == EventApproval {
			asked++
			if ev.Approval.Req.Subject != "echo one" || ev.Approval.RunID != r.ID() {
				t.Errorf("prompt %+v", ev.Approval)
			}
			ev.Approval.Answer(approve.ForRun)
		}
	}
	rec, _ := r.Wait()
	if asked != 1 {
		t.Errorf("asked %d times, want 1 (for this run covers the second call)", asked)
	}
	if rec.Outcome != vocab.Completed || rec.ToolCalls[0].Result.Label != "approved" || rec.ToolCalls[1].Result.Text != "Exit code: 0\ntwo\n" {
		t.Errorf("got %s/%s %+v %+v", rec.Outcome, rec.Reason, rec.ToolCalls[0].Result, rec.ToolCalls[1].Result)
	}
}

func TestLongResultIsSpilledAndReadOn(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	long := strings.Repeat("0123456789", 1500) + "END"
	hometest.WriteFile(t, filepath.Join(dir, "big.txt"), long)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "file_read", `{"Path":"big.txt","_rationale":"read"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "tool_output_read", `{"CallId":"c1","Start":0,"Limit":128,"_rationale":"head"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	_, rec := f.run(t, f.toolSpec("Read it.", dir, Limits{}))
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	first := rec.ToolCalls[0].Result
	if !first.Cut || first.Bytes != len("\n...\n")+12000+len("\n\n[output truncated to 12000 chars of 15003; continue with tool_output_read using CallId='c1' and a bounded Start/Limit window instead of re-running]") {
		t.Errorf("spilled result: cut %v, %d bytes", first.Cut, first.Bytes)
	}
	reqs := f.srv.Requests()
	if got := lastTool(reqs[1]).Text; !strings.HasSuffix(got, "END\n\n[output truncated to 12000 chars of 15003; continue with tool_output_read using CallId='c1' and a bounded Start/Limit window instead of re-running]") {
		t.Errorf("the model got %q", got[len(got)-200:])
	}
	if got := lastTool(reqs[2]).Text; got != long[:72]+"\n[range start=0 end=72; next_start=72; complete=false]" {
		t.Errorf("tool_output_read: %q", got)
	}
	kept, err := filepath.Glob(filepath.Join(rec.Dir, SessionDir, "workspace", "tool-calls", "*.log"))
	if err != nil || len(kept) != 1 {
		t.Fatalf("the spill in the run folder: %v, %v", kept, err)
	}
	if b, err := os.ReadFile(kept[0]); err != nil || string(b) != long {
		t.Errorf("the spill in the run folder: %d bytes, %v", len(b), err)
	}
}

// The round trip with the shell, whose budget is 2,000 characters: a long
// output reaches the model cut, with the note naming tool_output_read's
// real parameters; the model's calls with CallId, Start and Limit read it
// back whole, window by window, in the runtime's format.
func TestLongShellResultReadBack(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	var want strings.Builder
	want.WriteString("Exit code: 0\n")
	for i := 1; i <= 1000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	full := want.String() // 3,906 characters
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("call_sh", "shell_execute", `{"Command":"seq 1 1000","_rationale":"count"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("r1", "tool_output_read", `{"CallId":"call_sh","Start":0,"Limit":2000,"_rationale":"head"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("r2", "tool_output_read", `{"callId":"call_sh","start":1942,"_rationale":"rest"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	s := f.toolSpec("Count.", dir, Limits{})
	pats, err := approve.ParseAll([]string{"shell_execute:seq *"})
	if err != nil {
		t.Fatal(err)
	}
	s.Approve = pats
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	reqs := f.srv.Requests()
	note := "\n\n[output truncated to 2000 chars of 3906; continue with tool_output_read using CallId='call_sh' and a bounded Start/Limit window instead of re-running]"
	if got := lastTool(reqs[1]).Text; got != "\n...\n"+full[len(full)-2000:]+note {
		t.Errorf("the shell result the model got ends %q", got[max(0, len(got)-200):])
	}
	if got := lastTool(reqs[2]).Text; got != full[:1942]+"\n[range start=0 end=1942; next_start=1942; complete=false]" {
		t.Errorf("first window ends %q", got[max(0, len(got)-100):])
	}
	if got := lastTool(reqs[3]).Text; got != full[1942:]+"\n[range start=1942 end=3906; next_start=none; complete=true]" {
		t.Errorf("second window ends %q", got[max(0, len(got)-100):])
	}
	for i, c := range rec.ToolCalls[1:] {
		if c.Result.Label != "real" {
			t.Errorf("read %d: label %s", i+1, c.Result.Label)
		}
	}
}

// A trial's shell commands get the run's temp_dir as TMPDIR, TMP and TEMP
// (NetClaw's ManagedTemporaryEnvironment), a real folder made inside the
// run folder, never in the project, the one the first message names; the
// folder is removed when the run ends, and the session folder with it
// when nothing else was left in it.
func TestShellTempDirIsTheRunsTempDir(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo scratch > \"$TMPDIR/note\" && echo \"$TMPDIR|$TMP|$TEMP\"","_rationale":"try"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("done"),
	)
	s := f.toolSpec("Run it.", dir, Limits{})
	s.Approve, _ = approve.ParseAll([]string{"shell_execute:echo *"})
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	tmp := filepath.Join(rec.Dir, SessionDir, "subagents", rec.RunID, "tmp")
	if want := "Exit code: 0\n" + tmp + "|" + tmp + "|" + tmp + "\n"; rec.ToolCalls[0].Result.Text != want {
		t.Errorf("shell result %q, want %q", rec.ToolCalls[0].Result.Text, want)
	}
	reqs := f.srv.Requests()
	if !strings.Contains(reqs[0].FirstUser(), "\ntemp_dir: "+tmp+"\n") {
		t.Errorf("the first message does not name %s as temp_dir", tmp)
	}
	if len(rec.Changes) != 0 {
		t.Errorf("the temporary file reached the project's changes: %+v", rec.Changes)
	}
	if _, err := os.Stat(filepath.Join(rec.Dir, SessionDir)); !os.IsNotExist(err) {
		t.Errorf("the session folder is left after the run: %v", err)
	}
}

// TestBinaryWriteInPatch: a binary file the run wrote is in changes.patch
// in git's binary form, its secret redacted, and `git apply` makes it.
func TestBinaryWriteInPatch(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	f := newFixture(t, wire.OpenAI)
	dir := project(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "file_write", `{"Path":"blob.bin","Content":"\u0000key=planted-bin-secret-77\u0001\u0002","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Saved."),
	)
	s := f.toolSpec("Save.", dir, Limits{})
	s.Secrets = []string{"planted-bin-secret-77"}
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	pf := filepath.Join(rec.Dir, runfolder.PatchFile)
	patch, err := os.ReadFile(pf)
	if err != nil || !strings.Contains(string(patch), "GIT binary patch\nliteral ") {
		t.Fatalf("changes.patch (%v):\n%s", err, patch)
	}
	cp := t.TempDir()
	apply := exec.Command(git, "apply", pf)
	apply.Dir = cp
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, patch)
	}
	got, _ := os.ReadFile(filepath.Join(cp, "blob.bin"))
	if want := "\x00key=[REDACTED]\x01\x02"; string(got) != want {
		t.Errorf("blob.bin after git apply = %q, want %q", got, want)
	}
}
