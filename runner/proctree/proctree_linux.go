//go:build linux

package proctree

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaper sync.Once

// victims holds, per command, the descendants Kill killed, for Cleanup
// to reap.
var victims sync.Map // *exec.Cmd → *victimList

type victimList struct {
	mu   sync.Mutex
	list []proc
}

// proc names a process by pid and start time, so a reused pid is never
// taken for it.
type proc struct {
	pid   int
	start string
}

func prepare(cmd *exec.Cmd) {
	subreaper.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// Start starts cmd with the OS thread held, so the parent-death signal
// is tied to a thread that lives on.
func Start(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Start()
}

// Kill kills cmd's process group and every process carrying cmd's mark
// (its descendants that left the group). It does not wait.
func Kill(cmd *exec.Cmd) error {
	var err error
	if cmd.Process != nil {
		if e := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); e != nil && e != syscall.ESRCH {
			err = e
		}
	}
	token := tokenOf(cmd)
	if token == "" {
		return err
	}
	killed := killMarked([]byte(EnvName + "=" + token))
	if len(killed) > 0 {
		v, _ := victims.LoadOrStore(cmd, &victimList{})
		vl := v.(*victimList)
		vl.mu.Lock()
		vl.list = append(vl.list, killed...)
		vl.mu.Unlock()
	}
	return err
}

// Cleanup kills what is left of cmd (see Kill) and reaps the killed
// descendants that were re-parented to agentdesk, waiting a bounded time
// for them to die. Call it after cmd.Wait.
func Cleanup(cmd *exec.Cmd) {
	_ = Kill(cmd)
	v, ok := victims.LoadAndDelete(cmd)
	if !ok {
		return
	}
	list := v.(*victimList).list
	own := -1
	if cmd.Process != nil {
		own = cmd.Process.Pid
	}
	reap(list, own, time.Now().Add(2*time.Second))
}

// killMarked sends SIGKILL to every process whose environment holds
// mark, again until a pass finds no new one (a process may fork between
// the reading and the kill), and returns them.
func killMarked(mark []byte) []proc {
	self := os.Getpid()
	seen := map[int]bool{}
	var killed []proc
	for range 20 {
		fresh := false
		for _, pid := range pids() {
			if pid == self || seen[pid] {
				continue
			}
			env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			if err != nil || !hasEntry(env, mark) {
				continue
			}
			_, start, _, ok := stat(pid)
			if !ok {
				continue
			}
			seen[pid] = true
			fresh = true
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed = append(killed, proc{pid: pid, start: start})
			}
		}
		if !fresh {
			break
		}
	}
	return killed
}

// reap waits until every process in list is gone, reaping those whose
// parent is agentdesk (never own, which an exec.Cmd waits for), or until
// deadline.
func reap(list []proc, own int, deadline time.Time) {
	self := os.Getpid()
	for len(list) > 0 {
		left := list[:0]
		for _, p := range list {
			ppid, start, _, ok := stat(p.pid)
			if !ok || start != p.start {
				continue // gone (or the pid is another process now)
			}
			if ppid == self && p.pid != own {
				var ws unix.WaitStatus
				got, err := unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
				if got == p.pid || errors.Is(err, unix.ECHILD) {
					continue
				}
			}
			left = append(left, p)
		}
		list = left
		if len(list) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pids lists the numeric entries of /proc.
func pids() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]int, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid > 0 {
			out = append(out, pid)
		}
	}
	return out
}

// stat reads a process's parent, start time and state from
// /proc/<pid>/stat.
func stat(pid int) (ppid int, start string, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", 0, false
	}
	return parseStat(b)
}

// parseStat parses the fields after the command name (which may hold
// spaces and parentheses, so it is cut at the last ')').
func parseStat(b []byte) (ppid int, start string, state byte, ok bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, "", 0, false
	}
	f := bytes.Fields(b[i+1:])
	// f[0] state, f[1] ppid, ..., f[19] starttime (field 22 of the line).
	if len(f) < 20 || len(f[0]) != 1 {
		return 0, "", 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return 0, "", 0, false
	}
	return ppid, string(f[19]), f[0][0], true
}

// hasEntry reports whether the NUL-separated environment env holds the
// entry mark exactly.
func hasEntry(env, mark []byte) bool {
	for len(env) > 0 {
		entry, rest, _ := bytes.Cut(env, []byte{0})
		if bytes.Equal(entry, mark) {
			return true
		}
		env = rest
	}
	return false
}
