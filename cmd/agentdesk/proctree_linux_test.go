//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/proctree/proctreetest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestRunBinaryKilledLeavesNothing: the built agentdesk runs a trial whose
// shell_execute command leaves every kind of descendant — a background
// sleep, one in a session of its own, one that also cleared its
// environment, the orphan of a shell that exited — and is SIGKILLed in the
// middle of the command: every one of them dies too (each is waited for
// on a pidfd, bounded), not only the shell.
func TestRunBinaryKilledLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on PATH")
	}
	bin := binary(t)
	fifo := filepath.Join(t.TempDir(), "pids")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Read and write: opening does not wait for the command, and the
	// command's writes never meet a closed pipe.
	pids, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pids.Close()
	command := "{ echo $PPID; echo $$\n" +
		"sleep 1000 </dev/null >/dev/null 2>&1 & echo $!\n" +
		"setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!\n" +
		"env -i setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!\n" +
		"env -i /bin/sh -c 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!'\n" +
		"} > " + fifo + "\nexec sleep 1000"
	args, _ := json.Marshal(map[string]string{"Command": command, "_rationale": "leave things behind"})
	srv, env, _ := trialHome(t, wire.OpenAI)
	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", string(args)), modeltest.Finish(modeltest.FinishTools)}})
	// Unsandboxed: the pids the command prints are then the host's (the
	// sandbox's own test kills agentdesk's stand-in the same way).
	cmd := exec.Command(bin, "run", "code-analyst", "--task", "x", "--project", toolProject(t), "--approve", "shell_execute", "--no-sandbox")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	_ = pids.SetReadDeadline(time.Now().Add(30 * time.Second))
	procs := proctreetest.ReadPids(t, bufio.NewReader(pids), 6) // the supervisor, the shell, four sleeps
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, p := range procs {
		proctreetest.WaitExited(t, p)
	}
}
