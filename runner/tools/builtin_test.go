package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"

	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/overlay"
)

// workspace makes a project with files and a Set of the built-in tools on
// an overlay of it, approving what patterns match.
func workspace(t *testing.T, files map[string]string, patterns ...string) (project string, ws *Workspace, set *Set) {
	t.Helper()
	root := t.TempDir()
	project = filepath.Join(root, "project")
	hometest.Write(t, project, files)
	os.MkdirAll(project, 0o755)
	ov, err := overlay.New(project, filepath.Join(root, "run", "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	ws = NewWorkspace(ov)
	pats, err := approve.ParseAll(patterns)
	if err != nil {
		t.Fatal(err)
	}
	set = NewSet(append(ws.FileTools(), ws.ShellTool()), WithGate(approve.NewGate(pats, nil)), RequireRationale())
	set.OnClose(ov.Close)
	t.Cleanup(func() { set.Close() })
	return project, ws, set
}

// call calls name with args (a _rationale added).
func call(t *testing.T, s *Set, name string, args map[string]any) Result {
	t.Helper()
	args["_rationale"] = "test"
	b, _ := json.Marshal(args)
	return s.Call(context.Background(), name, b)
}

func TestFileTools(t *testing.T) {
	project, _, s := workspace(t, map[string]string{"a.txt": "one\ntwo\ntwo\n", "src/x.go": "package x\n"})
	abs := func(p string) string { return filepath.Join(project, p) }

	steps := []struct {
		tool  string
		args  map[string]any
		text  string
		label Label
		isErr bool
	}{
		{FileRead, map[string]any{"Path": abs("a.txt")}, "one\ntwo\ntwo\n", LabelReal, false},
		{FileRead, map[string]any{"path": "a.txt", "StartLine": 2, "Limit": 1}, "     2\ttwo", LabelReal, false},
		{FileRead, map[string]any{"Path": "../outside.txt"}, "Error: Access denied", LabelReal, true},
		{FileRead, map[string]any{"Path": "missing.txt"}, "Error: File not found: " + abs("missing.txt"), LabelReal, true},
		{FileRead, map[string]any{}, "Error: 'path' parameter is required.", LabelReal, true},
		{FileWrite, map[string]any{"Path": "notes/summary.md", "Content": "# Summary\n"}, "Successfully wrote 10 bytes to " + abs("notes/summary.md"), LabelOverlay, false},
		{FileRead, map[string]any{"Path": "notes/summary.md"}, "# Summary\n", LabelReal, false},
		{FileEdit, map[string]any{"Path": "a.txt", "OldString": "two", "NewString": "2"}, "OldString matches 2 locations", LabelReal, true},
		{FileEdit, map[string]any{"Path": "a.txt", "OldString": "two", "NewString": "2", "ReplaceAll": true}, "Successfully edited " + abs("a.txt") + ": replaced 2 occurrence(s)", LabelOverlay, false},
		{FileEdit, map[string]any{"Path": "a.txt", "OldString": "zzz", "NewString": "y"}, "Error: The specified text was not found in", LabelReal, true},
		{FileEdit, map[string]any{"Path": "a.txt", "OldString": "a", "Content": "y"}, "mutually exclusive", LabelReal, true},
		{FileList, map[string]any{"Path": project}, "Directory listing for " + project + " (3 entries):\n[dir]  notes/\n[dir]  src/\n[file] a.txt", LabelReal, false},
		{FileList, map[string]any{"Path": "a.txt"}, "Error: Not a directory", LabelReal, true},
	}
	for i, st := range steps {
		res := call(t, s, st.tool, st.args)
		if !strings.Contains(res.Text, st.text) || res.Label != st.label || res.IsError != st.isErr {
			t.Errorf("step %d %s %v = %+v\nwant text containing %q, label %s, error %v", i, st.tool, st.args, res, st.text, st.label, st.isErr)
		}
	}
	if b, _ := os.ReadFile(abs("a.txt")); string(b) != "one\ntwo\ntwo\n" {
		t.Errorf("the project's a.txt changed: %q", b)
	}
	if _, err := os.Stat(abs("notes")); err == nil {
		t.Error("notes/ was made in the project")
	}
}

func TestShell(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	project, ws, s := workspace(t, map[string]string{"a.txt": "base\n", "old.txt": "old\n"}, "shell_execute")
	// The processes the command leaves are found by the pids it prints:
	// unsandboxed, so they are the host's (sandboxed runs are in
	// shell_sandbox_linux_test.go).
	ws.WithSandbox(Sandbox{Off: true})
	call(t, s, FileWrite, map[string]any{"Path": "a.txt", "Content": "written\n"})

	res := call(t, s, ShellExecute, map[string]any{"Command": "cat a.txt; echo made > made.txt; rm old.txt; echo err >&2; exit 3"})
	if res.Text != "Exit code: 3\nwritten\n\nerr\n" || res.Label != LabelApproved {
		t.Errorf("shell result = %+v", res)
	}
	if b, err := ws.Overlay().ReadFile("made.txt"); err != nil || string(b) != "made\n" {
		t.Errorf("the command's write is not in the overlay: %q %v", b, err)
	}
	if _, err := ws.Overlay().ReadFile("old.txt"); err == nil {
		t.Error("the command's deletion is not in the overlay")
	}
	if res := call(t, s, FileRead, map[string]any{"Path": "made.txt"}); res.Text != "made\n" {
		t.Errorf("file_read after shell: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "a.txt")); string(b) != "base\n" {
		t.Errorf("project changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, "old.txt")); err != nil {
		t.Errorf("project's old.txt is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err == nil {
		t.Error("made.txt reached the project")
	}

	t.Run("time limit", func(t *testing.T) {
		res := call(t, s, ShellExecute, map[string]any{"Command": "echo $$ > pid; exec sleep 30", "_timeout_seconds": 1})
		if res.Text != "Error: Command timed out after 1 seconds." || !res.IsError {
			t.Errorf("timeout result = %+v", res)
		}
		b, _ := ws.Overlay().ReadFile("pid")
		waitGone(t, string(b))
	})
	t.Run("background child is killed", func(t *testing.T) {
		res := call(t, s, ShellExecute, map[string]any{"Command": "sleep 300 >/dev/null 2>&1 & echo $! > bg; echo started"})
		if res.Text != "Exit code: 0\nstarted\n" {
			t.Errorf("result = %+v", res)
		}
		b, _ := ws.Overlay().ReadFile("bg")
		waitGone(t, string(b))
	})
	t.Run("background child holding the output", func(t *testing.T) {
		res := call(t, s, ShellExecute, map[string]any{"Command": "sleep 300 & echo $! > bg2; echo started"})
		if !strings.HasPrefix(res.Text, "Exit code: 0\nstarted\n") || !strings.Contains(res.Text, "background process") {
			t.Errorf("result = %+v", res)
		}
		b, _ := ws.Overlay().ReadFile("bg2")
		waitGone(t, string(b))
	})
	t.Run("megabytes of output", func(t *testing.T) {
		res := call(t, s, ShellExecute, map[string]any{"Command": "yes | head -c 5000000"})
		if !res.Cut || !strings.Contains(res.Text, "bytes of output omitted") || len(res.Text) > MaxShellOutput+200 {
			t.Errorf("output not capped: cut=%v len=%d", res.Cut, len(res.Text))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result)
		go func() {
			done <- s.Call(ctx, ShellExecute, json.RawMessage(`{"Command":"echo $$ > cpid; exec sleep 30","_rationale":"x"}`))
		}()
		wt, _ := ws.Overlay().WorkTree()
		pid := waitFile(t, filepath.Join(wt.Dir(), "cpid"))
		cancel()
		if res := <-done; res.Text != "Error: Command cancelled." {
			t.Errorf("cancelled result = %+v", res)
		}
		waitGone(t, pid)
	})
}

// waitFile waits (bounded) for a file to hold a line, and returns it.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return string(b)
		}
		<-tick.C
	}
	t.Fatalf("%s never appeared", path)
	return ""
}

// waitGone waits (bounded) for the process pid to be gone or a zombie.
func waitGone(t *testing.T, pid string) {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(pid))
	if err != nil {
		t.Fatalf("no pid: %q", pid)
	}
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		if syscall.Kill(n, 0) == syscall.ESRCH {
			return
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(n) + "/stat"); err == nil {
			if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
				return
			}
		}
		<-tick.C
	}
	t.Errorf("process %d is still running", n)
}

func TestStub(t *testing.T) {
	s := NewSet([]Tool{Stub(Spec{Name: "set_reminder"}, "")})
	res := s.Call(context.Background(), "set_reminder", json.RawMessage(`{"When":"tomorrow","_rationale":"x"}`))
	if res.Label != LabelStubbed || res.IsError || !strings.HasPrefix(res.Text, StubNote) || !strings.Contains(res.Text, "scheduled a reminder") || !strings.Contains(res.Text, `{"When":"tomorrow"}`) {
		t.Errorf("stub = %+v", res)
	}
}

func BenchmarkFileReadCall(b *testing.B) {
	project := b.TempDir()
	os.WriteFile(filepath.Join(project, "a.txt"), []byte(strings.Repeat("line of text\n", 500)), 0o644)
	ov, err := overlay.New(project, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ov.Close()
	s := NewSet(NewWorkspace(ov).FileTools(), RequireRationale())
	args := json.RawMessage(`{"Path":"a.txt","_rationale":"bench"}`)
	for i := 0; i < b.N; i++ {
		if r := s.Call(context.Background(), FileRead, args); r.IsError {
			b.Fatal(r.Text)
		}
	}
}

// TestShellRefusesNUL: a command holding a NUL byte cannot be passed to
// /bin/sh; the model gets a plain refusal, not Go's "fork/exec /bin/sh:
// invalid argument", and nothing runs.
func TestShellRefusesNUL(t *testing.T) {
	project, _, s := workspace(t, map[string]string{"a.txt": "base\n"}, "shell_execute")
	for _, command := range []string{"echo a\x00b > made.txt", "\x00", "touch made.txt\x00"} {
		res := call(t, s, ShellExecute, map[string]any{"Command": command})
		if res.Text != CommandHasNUL || !res.IsError {
			t.Errorf("%q: result %+v, want %q", command, res, CommandHasNUL)
		}
		if res := RunCommand(context.Background(), command, project, time.Minute); res.Text != CommandHasNUL || !res.IsError {
			t.Errorf("RunCommand(%q) = %+v, want %q", command, res, CommandHasNUL)
		}
	}
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err == nil {
		t.Error("a command with a NUL ran")
	}
}
