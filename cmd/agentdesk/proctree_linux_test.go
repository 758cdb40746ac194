//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/runner/modeltest"
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
	cmd := exec.Command(bin, "run", "code-analyst", "--task", "x", "--project", toolProject(t), "--approve", "shell_execute")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	_ = pids.SetReadDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(pids)
	var procs []procRef
	for len(procs) < 6 { // the supervisor, the shell, four sleeps
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the command's pids (%d so far): %v", len(procs), err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil {
			t.Fatalf("not a pid: %q", line)
		}
		if start, ok := startOf(pid); ok {
			procs = append(procs, procRef{pid, start})
		} else {
			t.Fatalf("process %d is gone before agentdesk was killed", pid)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, p := range procs {
		waitExited(t, p)
	}
}

// procRef is a process by pid and start time (a reused pid is another).
type procRef struct {
	pid   int
	start string
}

// startOf returns a process's start time and parent from /proc/PID/stat.
func startOf(pid int) (string, bool) {
	_, start, ok := statOf(pid)
	return start, ok
}

func statOf(pid int) (ppid int, start string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 20 {
		return 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[19], true
}

// waitExited waits on a pidfd (at most 10s) until p has exited, and reaps
// it if it became this process's child (the tests make this process a
// subreaper when they run commands in it).
func waitExited(t *testing.T, p procRef) {
	t.Helper()
	fd, err := unix.PidfdOpen(p.pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", p.pid, err)
	}
	defer unix.Close(fd)
	if start, ok := startOf(p.pid); !ok || start != p.start {
		return
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 10_000)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			comm, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/comm")
			t.Fatalf("process %d (%s) outlived agentdesk by 10s: %v", p.pid, strings.TrimSpace(string(comm)), err)
		}
		break
	}
	if ppid, _, ok := statOf(p.pid); ok && ppid == os.Getpid() {
		var ws unix.WaitStatus
		_, _ = unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
	}
}
