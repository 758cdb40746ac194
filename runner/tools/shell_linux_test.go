//go:build linux

package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/preview/request"
)

// leftBehind is a command that leaves `sleep 1000` running in a session
// of its own (out of the command's process group) and writes its pid.
const leftBehind = "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > pid\n"

// waitPid waits (bounded) for the pid file the command writes.
func waitPid(file string) (int, bool) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(file)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			return pid, true
		}
		if time.Now().After(deadline) {
			return 0, false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sleepGone waits (bounded) until pid is no longer a sleep, running or
// zombie.
func sleepGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "sleep" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the left-behind sleep %d outlived the command", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRunCommandLeavesNothing: a shell_execute command that starts a
// process with setsid (out of its group) does not leave it running,
// whether the command ends or the run is cancelled.
func TestRunCommandLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on PATH")
	}
	for _, tc := range []struct {
		name   string
		tail   string
		cancel bool
		want   string
	}{
		{name: "command ends", tail: "echo done", want: "done"},
		{name: "run cancelled", tail: "sleep 1000", cancel: true, want: request.ShellCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				go func() {
					waitPid(filepath.Join(dir, "pid"))
					cancel()
				}()
			}
			res := RunCommand(ctx, leftBehind+tc.tail, dir, time.Minute)
			if !strings.Contains(res.Text, tc.want) {
				t.Errorf("result %q, want it to hold %q", res.Text, tc.want)
			}
			pid, ok := waitPid(filepath.Join(dir, "pid"))
			if !ok {
				t.Fatal("the command never wrote its pid file")
			}
			sleepGone(t, pid)
		})
	}
}
