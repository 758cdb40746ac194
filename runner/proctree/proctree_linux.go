//go:build linux

package proctree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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
	// Without a supervisor, agentdesk itself adopts what a command orphans,
	// so Cleanup can reap what it kills. With one, the supervisor does, and
	// agentdesk stays an ordinary parent: the orphans of an editor or a
	// browser it opens go to init, not to agentdesk as zombies.
	if !useSupervisor || !canExecSelf() {
		subreaper.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// supervisors holds, per command started through the supervisor, agentdesk's
// end of its socket.
var supervisors sync.Map // *exec.Cmd → *supervisor

type supervisor struct {
	mu     sync.Mutex
	ctl    *os.File
	report *bufio.Reader
}

// ask asks the supervisor to kill the command and its descendants.
func (s *supervisor) ask() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.ctl.Write([]byte{'k'})
	return err
}

// selfExe is how the supervisor is started: agentdesk's own executable,
// even when the file was replaced or deleted since it started.
const selfExe = "/proc/self/exe"

var canExecSelf = sync.OnceValue(func() bool {
	return unix.Access(selfExe, unix.X_OK) == nil
})

// useSupervisor is false only in benchmarks that measure the direct start.
var useSupervisor = true

// Start starts cmd through the process supervisor (see supervise_linux.go):
// namespaces cmd.SysProcAttr.Cloneflags asks for are the command's (the
// supervisor maps the user namespace's root to agentdesk's own uid and
// gid, as cmd.SysProcAttr.UidMappings should then say);
// cmd.Process is then the supervisor, the leader of the command's process
// group, and it exits as the command did, once the command and every
// descendant are gone. A command that cannot be started gives the error
// starting it directly would (a *fs.PathError with the errno). Where the
// supervisor cannot be used (no /proc/self/exe, cmd.ExtraFiles in use),
// the command is started directly with the OS thread held, so its
// parent-death signal is tied to a thread that lives on.
func Start(cmd *exec.Cmd) error {
	if cmd.Err != nil || cmd.Path == "" || len(cmd.ExtraFiles) > 0 || tokenOf(cmd) == "" || !useSupervisor || !canExecSelf() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		return cmd.Start()
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("making the socket to the process supervisor: %w", err)
	}
	// agentdesk's end is non-blocking, so reads on it take deadlines; the
	// supervisor's stays blocking.
	_ = unix.SetNonblock(fds[0], true)
	ours, theirs := os.NewFile(uintptr(fds[0]), "agentdesk-supervisor"), os.NewFile(uintptr(fds[1]), "agentdesk-control")
	path, args, env, pdeath := cmd.Path, cmd.Args, cmd.Env, cmd.SysProcAttr.Pdeathsig
	clone, uids, gids := cmd.SysProcAttr.Cloneflags, cmd.SysProcAttr.UidMappings, cmd.SysProcAttr.GidMappings
	grace := cmd.WaitDelay.Milliseconds()
	cmd.Path = selfExe
	cmd.Args = append([]string{supervisorArg0, path}, args...)
	spec := "3 " + strconv.FormatInt(grace, 10)
	if clone != 0 {
		// The namespaces are the command's, not the supervisor's: the
		// supervisor stays in agentdesk's, where /proc shows its
		// descendants by their real pids.
		spec += " " + strconv.FormatUint(uint64(clone), 10)
		cmd.SysProcAttr.Cloneflags, cmd.SysProcAttr.UidMappings, cmd.SysProcAttr.GidMappings = 0, nil, nil
	}
	cmd.Env = append(env[:len(env):len(env)], superviseEnv+"="+spec)
	cmd.ExtraFiles = []*os.File{theirs}
	// The supervisor must outlive agentdesk to clean up after it: no
	// parent-death signal for it (the end of the socket tells it).
	cmd.SysProcAttr.Pdeathsig = 0
	// Known before the start: a Cancel (Kill) from exec's context watch may
	// come at once, and must ask the supervisor, not kill its group.
	sup := &supervisor{ctl: ours, report: bufio.NewReader(ours)}
	supervisors.Store(cmd, sup)
	err = cmd.Start()
	theirs.Close()
	// cmd is left as started (Path, Args, Env): exec's goroutines may read
	// it from now on.
	if err != nil {
		supervisors.Delete(cmd)
		ours.Close()
		cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles, cmd.SysProcAttr.Pdeathsig = path, args, env, nil, pdeath
		cmd.SysProcAttr.Cloneflags, cmd.SysProcAttr.UidMappings, cmd.SysProcAttr.GidMappings = clone, uids, gids
		return err
	}
	_ = ours.SetReadDeadline(time.Now().Add(time.Minute)) // it reports at once; a hung start must not hang the run
	line, rerr := readReport(sup.report)
	_ = ours.SetReadDeadline(time.Time{})
	started, errno := parseStartReport(line, rerr == nil)
	if started {
		return nil
	}
	_ = cmd.Wait()
	supervisors.Delete(cmd)
	sup.mu.Lock()
	ours.Close()
	sup.mu.Unlock()
	if errno != 0 {
		return &fs.PathError{Op: "fork/exec", Path: path, Err: syscall.Errno(errno)}
	}
	return fmt.Errorf("starting %s: agentdesk's process supervisor ended without starting it (%v, %q)", path, cmd.ProcessState, line)
}

// parseStartReport reads the supervisor's first line (complete: it ended
// with a newline): "ok PID" when the command started, "err ERRNO" when it
// could not (errno > 0); anything else is neither.
func parseStartReport(line string, complete bool) (started bool, errno int) {
	if !complete {
		return false, 0
	}
	kind, num, ok := strings.Cut(line, " ")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n <= 0 {
		return false, 0
	}
	switch kind {
	case "ok":
		return true, 0
	case "err":
		return false, n
	}
	return false, 0
}

// Kill kills cmd and every descendant: it asks cmd's supervisor to, or,
// when there is none (any more), kills cmd's process group and every
// process carrying cmd's mark (its descendants that left the group). It
// does not wait.
func Kill(cmd *exec.Cmd) error {
	if v, ok := supervisors.Load(cmd); ok && v.(*supervisor).ask() == nil {
		return nil
	}
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
	killed := killMarked([]byte(EnvName+"="+token), pidOf(cmd))
	if len(killed) > 0 {
		v, _ := victims.LoadOrStore(cmd, &victimList{})
		vl := v.(*victimList)
		vl.mu.Lock()
		vl.list = append(vl.list, killed...)
		vl.mu.Unlock()
	}
	return err
}

func pidOf(cmd *exec.Cmd) int {
	if cmd.Process == nil {
		return -1
	}
	return cmd.Process.Pid
}

// Cleanup makes sure nothing of cmd is left; call it after cmd.Wait. A
// supervisor that said "done" has reaped the whole tree before exiting,
// so there is nothing to do but read its last words; otherwise (no
// supervisor, or one that was killed) what is left is killed (see Kill) and the killed descendants
// that were re-parented to agentdesk are reaped, within a bounded wait.
func Cleanup(cmd *exec.Cmd) Left {
	var left Left
	if v, ok := supervisors.LoadAndDelete(cmd); ok {
		sup := v.(*supervisor)
		_ = sup.ctl.SetReadDeadline(time.Now().Add(time.Second))
		done := false
		for !done {
			line, err := readReport(sup.report)
			left.OutputCut = left.OutputCut || line == "cut"
			done = line == "done"
			if err != nil {
				break
			}
		}
		sup.mu.Lock()
		sup.ctl.Close()
		sup.mu.Unlock()
		if done {
			return left
		}
	}
	_ = Kill(cmd)
	v, ok := victims.LoadAndDelete(cmd)
	if !ok {
		return left
	}
	list := v.(*victimList).list
	reap(list, pidOf(cmd), time.Now().Add(2*time.Second))
	return left
}

// killMarked sends SIGKILL to every process whose environment holds
// mark, again until a pass finds no new one (a process may fork between
// the reading and the kill), and returns them.
func killMarked(mark []byte, spare int) []proc {
	self := os.Getpid()
	seen := map[int]bool{}
	var killed []proc
	for range 20 {
		fresh := false
		for _, pid := range pids() {
			if pid == self || pid == spare || seen[pid] {
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
