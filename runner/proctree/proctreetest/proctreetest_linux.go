//go:build linux

// Package proctreetest helps tests prove that the processes a command
// left behind are gone: it reads their pids as a command prints them, and
// waits for each on a pidfd, bounded. Only tests import it.
package proctreetest

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Proc is a process by pid and start time: a reused pid is another process.
type Proc struct {
	PID   int
	Start string
}

// ReadPids reads n pids from r, one a line, and the start time of each; a
// process already gone fails the test.
func ReadPids(t testing.TB, r *bufio.Reader, n int) []Proc {
	t.Helper()
	var out []Proc
	for range n {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading pid %d of %d: %v (%q)", len(out)+1, n, err, line)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil {
			t.Fatalf("not a pid: %q", line)
		}
		_, start, _, ok := stat(pid)
		if !ok {
			t.Fatalf("process %d is already gone", pid)
		}
		out = append(out, Proc{pid, start})
	}
	return out
}

// WaitExited waits on a pidfd, at most 10 s, until p has exited (failing
// the test if it outlives that), and reaps it when it became this
// process's child (an orphan re-parented to a subreaper).
func WaitExited(t testing.TB, p Proc) {
	t.Helper()
	fd, err := unix.PidfdOpen(p.PID, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", p.PID, err)
	}
	defer unix.Close(fd)
	ppid, start, state, ok := stat(p.PID)
	if !ok || start != p.Start {
		return // gone before the pidfd was opened; the pid is another's now
	}
	if state != 'Z' {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, 10_000)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n == 0 {
				comm, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/comm")
				t.Fatalf("process %d (%s) outlived agentdesk by 10s: %v", p.PID, strings.TrimSpace(string(comm)), err)
			}
			break
		}
		ppid, _, _, _ = stat(p.PID)
	}
	if ppid == os.Getpid() {
		var ws unix.WaitStatus
		_, _ = unix.Wait4(p.PID, &ws, unix.WNOHANG, nil)
	}
}

// stat reads a process's parent, start time and state from /proc/PID/stat.
func stat(pid int) (ppid int, start string, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, "", 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return 0, "", 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[19], f[0][0], true
}
