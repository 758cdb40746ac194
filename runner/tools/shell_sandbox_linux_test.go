//go:build linux

package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/sandbox"
)

func needSandbox(t *testing.T) {
	t.Helper()
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("this kernel cannot sandbox: %s", r.Unavailable)
	}
}

// TestShellSandboxed: an approved command that writes through the
// project's absolute path changes the run's copy, read back into the
// overlay; the project is unchanged; the command sees the project's path
// as its working folder and no secret of agentdesk's.
func TestShellSandboxed(t *testing.T) {
	needSandbox(t)
	t.Setenv("AGENTDESK_TEST_PASSWORD", "hunter2-sandbox")
	project, ws, s := workspace(t, map[string]string{"a.txt": "base\n"}, "shell_execute")
	res := call(t, s, ShellExecute, map[string]any{"Command": `pwd; echo more >> "` + project + `/a.txt"; cd / && echo new > "` + project + `/new.txt"; echo "[$AGENTDESK_TEST_PASSWORD]"`})
	if res.IsError || !strings.HasPrefix(res.Text, "Exit code: 0\n"+project+"\n") || !strings.Contains(res.Text, "[]") {
		t.Fatalf("result = %+v", res)
	}
	for p, want := range map[string]string{"a.txt": "base\nmore\n", "new.txt": "new\n"} {
		if b, err := ws.Overlay().ReadFile(p); err != nil || string(b) != want {
			t.Errorf("overlay's %s = %q, %v; want %q", p, b, err, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(project, "a.txt")); string(b) != "base\n" {
		t.Errorf("the project changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, "new.txt")); err == nil {
		t.Error("new.txt reached the project")
	}
	changes, err := ws.Overlay().Changes()
	if err != nil || len(changes) != 2 {
		t.Errorf("changes = %+v", changes)
	}
}

// TestShellSandboxRefused: where the kernel refuses user namespaces
// (simulated), an approved command does not run; the model reads why.
func TestShellSandboxRefused(t *testing.T) {
	t.Setenv(sandbox.SimulateEnv, "userns")
	project, ws, s := workspace(t, map[string]string{"a.txt": "base\n"}, "shell_execute")
	res := call(t, s, ShellExecute, map[string]any{"Command": "echo ran > ran.txt"})
	if !res.IsError || !res.Refused || !strings.Contains(res.Text, "--no-sandbox") || !strings.Contains(res.Text, "user namespace") {
		t.Errorf("result = %+v", res)
	}
	if _, err := ws.Overlay().ReadFile("ran.txt"); err == nil {
		t.Error("the command ran")
	}
	ws.WithSandbox(Sandbox{Off: true})
	if res := call(t, s, ShellExecute, map[string]any{"Command": "echo ran > ran.txt"}); res.IsError {
		t.Errorf("with --no-sandbox: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(project, "ran.txt")); err == nil {
		t.Error("ran.txt reached the project")
	}
}

// TestShellSandboxedForkBomb: a fork bomb ends at the process limit, as a
// failed call the model can read.
func TestShellSandboxedForkBomb(t *testing.T) {
	needSandbox(t)
	_, _, s := workspace(t, nil, "shell_execute")
	res := call(t, s, ShellExecute, map[string]any{"Command": `b() { b | b & }; b; sleep 1; echo bombed`})
	if !res.IsError || !strings.Contains(res.Text, "limit of") {
		t.Errorf("result = %+v", res)
	}
}
