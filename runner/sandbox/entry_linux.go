//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// This file is the hidden entry point: agentdesk's own binary run again
// with AGENTDESK_SANDBOX set. It runs in two stages, each a process:
//
//  1. In the new user (root there is agentdesk's user), mount, PID, IPC
//     and network namespaces, as the PID namespace's first process: it
//     builds the mount tree (the binds, the private /tmp, /dev and /proc,
//     the rest read-only), brings loopback up, then starts stage 2 and
//     stays as the namespace's init, reaping orphans. It passes SIGTERM,
//     SIGINT, SIGHUP and SIGQUIT on to the command. When stage 2 (the
//     command) exits, it waits for processes that still hold the
//     command's output for the command's grace, then exits as the command
//     did; the kernel then kills whatever is left in the namespace.
//  2. In a user namespace nested in the first, as agentdesk's own uid and
//     gid (so it holds no capability over the mounts): it sets the
//     limits, no_new_privs and Landlock on itself, then execs the
//     command.
//
// A failure is reported on stderr, prefixed "agentdesk sandbox:", and
// the stage exits 126 (the shell's "cannot execute").

func init() {
	v, ok := os.LookupEnv(specEnv)
	if !ok {
		return
	}
	os.Exit(entry(v, os.Args))
}

// failExit is the entry point's exit code when it could not start the
// command.
const failExit = 126

func entry(raw string, args []string) int {
	var sp spec
	if err := json.Unmarshal([]byte(raw), &sp); err != nil {
		fmt.Fprintf(os.Stderr, "agentdesk: %s is agentdesk's own sandbox's; do not set it\n", specEnv)
		return 3
	}
	switch sp.Stage {
	case 0:
		return probeStage(sp)
	case 1:
		return stage1(sp, args)
	case 2:
		return stage2(sp, args)
	}
	return 3
}

func fail(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "agentdesk sandbox: "+format+"\n", a...)
	return failExit
}

// probeStage does what stage 1 does to the mount tree, then reports the
// Landlock ABI, as JSON on stdout.
func probeStage(sp spec) int {
	res := probeResult{}
	if err := buildTree(sp); err != nil {
		res.Error = err.Error()
	} else if err := loopbackUp(); err != nil {
		res.Error = err.Error()
	} else if v, err := llsyscall.LandlockGetABIVersion(); err == nil {
		res.Landlock = v
	}
	b, _ := json.Marshal(res)
	os.Stdout.Write(b)
	return 0
}

// stage1 is the PID namespace's init: see the file comment.
func stage1(sp spec, args []string) int {
	if len(args) < 2 {
		return fail("no command")
	}
	if err := buildTree(sp); err != nil {
		return fail("%v", err)
	}
	if !sp.Network {
		if err := loopbackUp(); err != nil {
			return fail("%v", err)
		}
	}
	// The PID namespace's own pid_max (Linux 6.14 and later) caps its
	// processes whoever the user is (RLIMIT_NPROC does not bind root).
	// Once pids wrap, the kernel hands out only those above its 300
	// reserved ones: pid_max leaves MaxProcesses of them.
	_ = os.WriteFile("/proc/sys/kernel/pid_max", []byte(strconv.Itoa(MaxProcesses+300)), 0)

	// A signal sent to stage 1's process group (agentdesk stopping the
	// command: SIGTERM) is passed on to the command's own group, which
	// its session of its own keeps out of stage 1's; stage 1 itself stays
	// to reap, and exits once the command has.
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)

	next := sp
	next.Stage = 2
	b, _ := json.Marshal(next)
	env := withoutSpec(os.Environ())
	env = append(env, specEnv+"="+string(b))
	pid, err := syscall.ForkExec(selfExe, append([]string{entryArg0}, args[1:]...), &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{0, 1, 2},
		Sys: &syscall.SysProcAttr{
			Cloneflags:                 syscall.CLONE_NEWUSER,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: sp.UID, HostID: 0, Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: sp.GID, HostID: 0, Size: 1}},
			GidMappingsEnableSetgroups: false,
			Pdeathsig:                  syscall.SIGKILL,
			// A session of its own: no controlling terminal, so the
			// command cannot open agentdesk's /dev/tty to draw on it or
			// type into it (TIOCSTI), as bubblewrap's --new-session.
			Setsid: true,
		},
	})
	if err != nil {
		return fail("starting the command's user namespace: %v", err)
	}
	go forward(signals, pid)
	held := outputOf()
	// A copy of stderr, for the note that the grace ran out.
	errOut, _ := unix.FcntlInt(2, unix.F_DUPFD_CLOEXEC, 3)
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for i := range 3 {
			_ = unix.Dup3(int(null.Fd()), i, 0)
		}
		null.Close()
	}
	code, cut, full := reapUntil(pid, sp.Grace, held)
	if errOut > 0 {
		if full {
			unix.Write(errOut, []byte(ProcessLimitNote))
		}
		if cut {
			unix.Write(errOut, []byte(OutputCutNote))
		}
	}
	return code
}

// forward passes each signal stage 1 gets on to the command's process
// group (pid's: the command leads a session of its own), or to the
// command alone when that group is gone. Signals that came
// before the command started wait in the channel.
func forward(signals <-chan os.Signal, pid int) {
	for sig := range signals {
		s := sig.(syscall.Signal)
		if unix.Kill(-pid, s) != nil {
			_ = unix.Kill(pid, s)
		}
	}
}

// crowded reports whether the namespace holds nearly as many processes
// as it may.
func crowded() bool {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			n++
		}
	}
	return n >= MaxProcesses*3/4
}

// reapUntil reaps every process of the namespace until the command (pid)
// has exited and no process holds its output any more (or the grace has
// run out: cut), and returns the exit code that reports the command's
// status, and whether the namespace was seen near its process limit.
func reapUntil(pid int, graceMS int64, held map[string]bool) (code int, cut, full bool) {
	var status unix.WaitStatus
	var seenFull atomic.Bool
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for !seenFull.Load() {
			select {
			case <-stop:
				return
			case <-t.C:
				if crowded() {
					seenFull.Store(true)
				}
			}
		}
	}()
	// The reaper itself looks too, every 64 orphans it reaps: a fork
	// bomb makes many, and on a loaded machine the ticker above may get
	// the processor only after the peak has passed.
	reaped := 0
	for {
		var ws unix.WaitStatus
		p, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			break // no child left
		}
		if p == pid {
			status = ws
			break
		}
		if reaped++; reaped%64 == 0 && !seenFull.Load() && crowded() {
			seenFull.Store(true)
		}
	}
	full = seenFull.Load() || crowded()
	if graceMS > 0 && len(held) > 0 {
		deadline := time.Now().Add(time.Duration(graceMS) * time.Millisecond)
		for holding(held) {
			full = full || crowded()
			if !time.Now().Before(deadline) {
				cut = true
				break
			}
			for {
				p, _ := unix.Wait4(-1, nil, unix.WNOHANG, nil)
				if p <= 0 {
					break
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	switch {
	case status.Exited():
		return status.ExitStatus(), cut, full
	case status.Signaled():
		return 128 + int(status.Signal()), cut, full
	}
	return 1, cut, full
}

// outputOf returns the pipes and sockets stage 1's standard output and
// error are.
func outputOf() map[string]bool {
	held := map[string]bool{}
	for _, fd := range []string{"1", "2"} {
		l, err := os.Readlink("/proc/self/fd/" + fd)
		if err == nil && (strings.HasPrefix(l, "pipe:") || strings.HasPrefix(l, "socket:")) {
			held[l] = true
		}
	}
	return held
}

// holding reports whether a process of the namespace other than stage 1
// holds one of held open.
func holding(held map[string]bool) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err != nil || pid == 1 {
			continue
		}
		dir := "/proc/" + e.Name() + "/fd/"
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			if l, err := os.Readlink(dir + fd.Name()); err == nil && held[l] {
				return true
			}
		}
	}
	return false
}

// stage2 confines itself and execs the command: args are [arg0, path,
// argv...].
func stage2(sp spec, args []string) int {
	if len(args) < 3 {
		return fail("no command")
	}
	for _, l := range []struct {
		res int
		max uint64
	}{{unix.RLIMIT_NPROC, MaxProcesses}, {unix.RLIMIT_FSIZE, uint64(sp.FSize)}, {unix.RLIMIT_CORE, 0}} {
		var cur unix.Rlimit
		if unix.Getrlimit(l.res, &cur) == nil && cur.Max < l.max {
			continue
		}
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.max, Max: l.max}); err != nil {
			return fail("setting a limit: %v", err)
		}
	}
	runtime.LockOSThread() // the capabilities dropped are this thread's, which execs
	if err := dropCapabilities(); err != nil {
		return fail("%v", err)
	}
	if err := confine(sp); err != nil {
		return fail("%v", err)
	}
	if err := noUnixSockets(); err != nil {
		return fail("%v", err)
	}
	if sp.Dir != "" {
		if err := os.Chdir(sp.Dir); err != nil {
			return fail("%v", err)
		}
	}
	env := withoutSpec(os.Environ())
	err := syscall.Exec(args[1], args[2:], env)
	return fail("starting %s: %v", args[1], err)
}

// dropCapabilities empties the bounding set and locks the securebits that
// keep root (the author's uid may be 0) from gaining capabilities at exec.
func dropCapabilities() error {
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	const bits = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<7 // NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each locked
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, bits, 0, 0, 0); err != nil {
		return fmt.Errorf("setting securebits: %w", err)
	}
	return nil
}

// confine sets no_new_privs and Landlock: reads anywhere, writes only
// below sp.Write and to a few devices.
func confine(sp spec) error {
	if _, _, err := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0); err != 0 {
		// With cgo the runtime refuses; Landlock below sets it on every
		// thread itself.
		if err != syscall.ENOTSUP {
			return fmt.Errorf("setting no_new_privs: %w", err)
		}
	}
	cfg := landlock.Config{HandledAccessFS: landlock.V11.HandledAccessFS, Scoped: landlock.V11.Scoped}.BestEffort()
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(sp.Write...).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom").IgnoreIfMissing(),
		landlock.RWFiles("/dev/tty").WithIoctlDev().IgnoreIfMissing(),
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("restricting writes with Landlock: %w", err)
	}
	return nil
}

func withoutSpec(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, specEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// mount is one entry of the tree stage 1 builds.
type mount struct {
	fd     int    // the source, opened before anything is mounted (-1: none)
	target string // where it is shown
	write  bool
	dir    bool // a folder, not a file
}

// devices are the device files the sandbox's /dev holds.
var devices = []string{"null", "zero", "full", "random", "urandom", "tty"}

// buildTree builds the command's mount tree: the binds and /tmp (their
// sources opened first, since a mount may hide one), /dev, the rest made
// read-only, then a /proc of the PID namespace.
func buildTree(sp spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mount namespace private: %w", err)
	}
	var list []mount
	open := func(src string) (int, error) {
		fd, err := unix.Open(src, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, fmt.Errorf("opening %s: %w", src, err)
		}
		return fd, nil
	}
	if sp.Tmp != "" {
		fd, err := open(sp.Tmp)
		if err != nil {
			return err
		}
		list = append(list, mount{fd: fd, target: "/tmp", write: true, dir: true})
	}
	for _, b := range sp.Binds {
		fd, err := open(b.Source)
		if err != nil {
			return err
		}
		list = append(list, mount{fd: fd, target: b.Target, write: true, dir: true})
	}
	for _, f := range sp.Files {
		fd, err := open(f)
		if err != nil {
			return err
		}
		list = append(list, mount{fd: fd, target: f})
	}
	for _, d := range sp.Folders {
		fd, err := open(d)
		if err != nil {
			return err
		}
		list = append(list, mount{fd: fd, target: d, dir: true})
	}
	devFDs := map[string]int{}
	for _, d := range devices {
		if fd, err := open("/dev/" + d); err == nil {
			devFDs[d] = fd
		}
	}
	defer func() {
		for _, m := range list {
			unix.Close(m.fd)
		}
		for _, fd := range devFDs {
			unix.Close(fd)
		}
	}()
	// /dev first: a bind may lie below /dev/shm (a project on that tmpfs).
	if err := buildDev(devFDs); err != nil {
		return err
	}
	// Parents before children: a target inside another is mounted after it.
	sort.SliceStable(list, func(i, j int) bool { return depth(list[i].target) < depth(list[j].target) })
	done := []string{"/dev/shm"}
	if sp.Tmp == "" {
		if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,size="+tmpSize); err != nil {
			return fmt.Errorf("mounting a private /tmp: %w", err)
		}
		done = append(done, "/tmp")
	}
	for _, m := range list {
		if err := mountPoint(m.target, done, m.dir); err != nil {
			return err
		}
		if err := unix.Mount(fdPath(m.fd), m.target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("showing %s: %w", m.target, err)
		}
		if m.write {
			done = append(done, m.target)
		}
	}
	for _, l := range sp.Links {
		if _, err := os.Lstat(l.Target); err == nil {
			continue
		}
		for _, d := range done {
			if _, ok := within(d, l.Target); ok {
				_ = os.MkdirAll(filepath.Dir(l.Target), 0o700)
				_ = os.Symlink(l.Source, l.Target)
				break
			}
		}
	}
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, ro); err != nil {
		return fmt.Errorf("making the filesystem read-only (mount_setattr, Linux 5.12 or later): %w", err)
	}
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, t := range done {
		if err := unix.MountSetattr(unix.AT_FDCWD, t, 0, rw); err != nil {
			return fmt.Errorf("making %s writable: %w", t, err)
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting a /proc of the sandbox's own (the kernel refuses where /proc is partly hidden, as in some containers): %w", err)
	}
	return nil
}

// buildDev mounts a /dev of the sandbox's own: a few device files bound
// from the real /dev, the usual links, an empty /dev/shm.
func buildDev(fds map[string]int) error {
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("mounting /dev: %w", err)
	}
	for _, d := range devices {
		fd, ok := fds[d]
		if !ok {
			continue
		}
		p := "/dev/" + d
		if err := os.WriteFile(p, nil, 0o666); err != nil {
			return fmt.Errorf("making %s: %w", p, err)
		}
		if err := unix.Mount(fdPath(fd), p, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("showing %s: %w", p, err)
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"} {
		_ = os.Symlink(target, "/dev/"+name)
	}
	if err := os.Mkdir("/dev/shm", 0o1777); err != nil {
		return fmt.Errorf("making /dev/shm: %w", err)
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,size="+shmSize); err != nil {
		return fmt.Errorf("mounting /dev/shm: %w", err)
	}
	return nil
}

// mountPoint makes sure target exists as a folder: made when it lies in a
// folder mounted already (done: the sandbox's own, never the real
// filesystem), an error otherwise.
func mountPoint(target string, done []string, dir bool) error {
	if fi, err := os.Stat(target); err == nil {
		if dir != fi.IsDir() {
			return fmt.Errorf("cannot show %s: a folder and a file are not alike", target)
		}
		return nil
	}
	for _, d := range done {
		if _, ok := within(d, target); ok {
			return makeMountPoint(target, dir)
		}
	}
	return fmt.Errorf("cannot show a folder at %s: it does not exist", target)
}

// makeMountPoint makes target, in a folder of the sandbox's own: a
// folder (dir), or an empty file with the folders above it.
func makeMountPoint(target string, dir bool) error {
	if !dir {
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return fmt.Errorf("making %s: %w", target, err)
		}
		return os.WriteFile(target, nil, 0o600)
	}
	if err := os.MkdirAll(target, 0o700); err != nil {
		return fmt.Errorf("making %s: %w", target, err)
	}
	return nil
}

func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(filepath.Clean(p), "/")
}

// loopbackUp brings the network namespace's loopback interface up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("bringing loopback up: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bringing loopback up: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil && !errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("bringing loopback up: %w", err)
	}
	return nil
}
