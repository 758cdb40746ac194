//go:build linux

package proctree

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// This file is the process supervisor: the small program every command a
// run starts goes through on Linux (agentdesk, or the test binary, run
// again as /proc/self/exe in a hidden mode). It exists because the kernel
// gives a parent-death signal only to the process that asked for it —
// not to its children — so when agentdesk is killed outright (SIGKILL,
// the OOM killer), a shell's children would live on. The supervisor:
//
//   - is a child subreaper, so every descendant of the command that is
//     orphaned (a `setsid cmd &`, an `env -i setsid cmd &`, a double fork)
//     is re-parented to it, and it finds them all by parentage in /proc,
//     whatever their environment or process group;
//   - holds one end of a socket whose other end only agentdesk holds: when
//     agentdesk dies, however it dies, the kernel closes agentdesk's end,
//     the supervisor reads end-of-file and kills the command and every
//     descendant, reaps them, and exits. agentdesk asks for the same sweep
//     by writing a byte (Kill);
//   - when the command exits on its own, gives descendants that still hold
//     the command's output a grace (the command's WaitDelay: the runtime's
//     post-exit drain) and then kills whatever is left, so it ends only
//     when the whole tree is gone;
//   - exits as the command did: its exit code, its signal when that was
//     SIGKILL, SIGTERM, SIGINT or SIGHUP, else 128 + the signal (as .NET
//     reports a signalled child).
//
// The supervisor's own messages to agentdesk on the socket are lines:
// "ok PID" or "err ERRNO" once the command is started (or could not be),
// then, once everything is gone, "cut" when the grace ran out with the
// output still held open, and "done" just before it exits.

// superviseEnv names the environment variable that starts the hidden
// mode: "FD GRACE_MS [CLONEFLAGS]", the socket's descriptor, the grace
// and the namespaces the command starts in (see Start). The
// supervisor removes it from the command's environment.
const superviseEnv = "AGENTDESK_PROCTREE_SUPERVISE"

// supervisorArg0 is the supervisor's argv[0], as ps shows it.
const supervisorArg0 = "agentdesk-supervisor"

func init() {
	v, ok := os.LookupEnv(superviseEnv)
	if !ok {
		return
	}
	os.Exit(supervise(v, os.Args))
}

// supervise runs the hidden mode: args are [arg0, path, argv...].
func supervise(spec string, args []string) int {
	var fd, graceMS int
	var clone uintptr
	fields := strings.Fields(spec)
	n, err := fmt.Sscanf(spec, "%d %d %d", &fd, &graceMS, &clone)
	if len(fields) == 2 && n == 2 {
		err = nil
	}
	if err != nil || fd < 3 || len(args) < 3 {
		fmt.Fprintf(os.Stderr, "agentdesk: %s=%q is agentdesk's own process supervisor's; do not set it\n", superviseEnv, spec)
		return 3
	}
	syscall.CloseOnExec(fd)
	ctl := os.NewFile(uintptr(fd), "agentdesk-control")
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	// Signals sent to the process group reach the command; the supervisor
	// stays until the command and its descendants are gone.
	ignored := make(chan os.Signal, 8)
	signal.Notify(ignored, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	go func() {
		for range ignored {
		}
	}()
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, superviseEnv+"=") {
			env = append(env, kv)
		}
	}
	// The command's parent-death signal is tied to this thread: it stays
	// locked for the supervisor's life.
	runtime.LockOSThread()
	sys := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Cloneflags: clone}
	if clone&syscall.CLONE_NEWUSER != 0 {
		// One id each: the namespace's root is agentdesk's own user, as
		// an unprivileged process may map.
		sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		sys.GidMappingsEnableSetgroups = false
	}
	pid, err := syscall.ForkExec(args[1], args[2:], &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{0, 1, 2},
		Sys:   sys,
	})
	if err != nil {
		errno, _ := err.(syscall.Errno)
		fmt.Fprintf(ctl, "err %d\n", int(errno))
		return 127
	}
	fmt.Fprintf(ctl, "ok %d\n", pid)

	// The command's output: who still holds it after the command exits.
	held := outputOf(os.Getpid())
	// The supervisor lets go of the command's input and output, so that
	// end-of-file reaches agentdesk when the command's tree closes them.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for i := range 3 {
			_ = unix.Dup3(int(null.Fd()), i, 0)
		}
		null.Close()
	}

	type reaped struct {
		pid int
		ws  unix.WaitStatus
	}
	reapedc := make(chan reaped, 16)
	go func() {
		for {
			var ws unix.WaitStatus
			p, err := unix.Wait4(-1, &ws, 0, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil { // ECHILD: no child, so no descendant, is left
				close(reapedc)
				return
			}
			reapedc <- reaped{p, ws}
		}
	}()
	asked := make(chan struct{})
	go func() {
		var b [1]byte
		_, _ = ctl.Read(b[:]) // a byte, or end-of-file when agentdesk is gone
		close(asked)
	}()

	var status unix.WaitStatus
	sweeping, cut := false, false
	var graceC, tickC <-chan time.Time
	sweep := func() {
		sweeping, graceC, tickC = true, nil, nil
		killDescendants(os.Getpid())
	}
	for {
		select {
		case r, ok := <-reapedc:
			if !ok {
				if cut {
					fmt.Fprintf(ctl, "cut\n")
				}
				fmt.Fprintf(ctl, "done\n")
				return exitAs(status)
			}
			if r.pid == pid {
				status = r.ws
				switch {
				case sweeping:
				case graceMS > 0 && holding(os.Getpid(), held):
					graceC = time.After(time.Duration(graceMS) * time.Millisecond)
					t := time.NewTicker(10 * time.Millisecond)
					defer t.Stop()
					tickC = t.C
				default:
					sweep()
				}
			}
			if sweeping {
				killDescendants(os.Getpid()) // orphans re-parented here meanwhile
			}
		case <-asked:
			asked = nil
			sweep()
		case <-tickC:
			if !holding(os.Getpid(), held) {
				sweep()
			}
		case <-graceC:
			cut = true
			sweep()
		}
	}
}

// exitAs returns the exit code that reports status, after re-raising the
// signals that end a process without a core (so the wait status of the
// supervisor is the command's).
func exitAs(ws unix.WaitStatus) int {
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		sig := ws.Signal()
		switch sig {
		case unix.SIGKILL, unix.SIGTERM, unix.SIGINT, unix.SIGHUP:
			signal.Reset(sig)
			_ = unix.Kill(os.Getpid(), sig)
			// The runtime's handler, on some thread, ends the process by
			// that signal; a loaded machine may take a while to run it.
			time.Sleep(10 * time.Second)
		}
		return 128 + int(sig)
	}
	return 1
}

// outputOf returns the pipes and sockets pid's standard output and error
// are (as /proc/PID/fd shows them: "pipe:[INODE]").
func outputOf(pid int) map[string]bool {
	held := map[string]bool{}
	for _, fd := range []string{"1", "2"} {
		l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd)
		if err == nil && (strings.HasPrefix(l, "pipe:") || strings.HasPrefix(l, "socket:")) {
			held[l] = true
		}
	}
	return held
}

// holding reports whether a descendant of root still has one of held
// open.
func holding(root int, held map[string]bool) bool {
	if len(held) == 0 {
		return false
	}
	for _, p := range descendants(root) {
		dir := "/proc/" + strconv.Itoa(p) + "/fd/"
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if l, err := os.Readlink(dir + e.Name()); err == nil && held[l] {
				return true
			}
		}
	}
	return false
}

// killDescendants sends SIGKILL to every descendant of root, as /proc
// shows them now, through a pidfd opened on the process seen (its start
// time checked), so a pid that was freed and reused meanwhile by a
// stranger is never signalled.
func killDescendants(root int) {
	for _, p := range descendants(root) {
		_, start, _, ok := stat(p)
		if !ok {
			continue
		}
		fd, err := unix.PidfdOpen(p, 0)
		if err != nil {
			if err == unix.ENOSYS {
				_ = unix.Kill(p, unix.SIGKILL) // a kernel before 5.3
			}
			continue
		}
		if _, again, _, ok := stat(p); ok && again == start {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		unix.Close(fd)
	}
}

// descendants lists root's descendants by parentage (/proc/PID/stat).
func descendants(root int) []int {
	children := map[int][]int{}
	for _, pid := range pids() {
		if ppid, _, _, ok := stat(pid); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// readReport reads one line of the supervisor's from r, byte by byte (the
// rest stays for later).
func readReport(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	return strings.TrimSpace(line), err
}
