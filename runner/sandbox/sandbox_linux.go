//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// specEnv names the environment variable that starts the hidden entry
// point: its value is the spec, as JSON. The entry removes it from the
// command's environment.
const specEnv = "AGENTDESK_SANDBOX"

// SimulateEnv names an environment variable for tests: "userns" makes
// the sandbox fail as a kernel that refuses unprivileged user namespaces
// does (EPERM from the clone), "landlock" as a kernel without Landlock.
const SimulateEnv = "AGENTDESK_SANDBOX_SIMULATE"

// entryArg0 is the entry point's argv[0], as ps shows it.
const entryArg0 = "agentdesk-sandbox"

// selfExe is how the entry point is started: agentdesk's own executable.
const selfExe = "/proc/self/exe"

// Sizes of the command's own tmpfs folders.
const (
	// shmSize is the size of the command's own /dev/shm.
	shmSize = "64m"
	// tmpSize is the size of the command's /tmp when the run has no
	// temporary folder of its own.
	tmpSize = "512m"
)

// spec is what the entry point is told.
type spec struct {
	// Stage 0 is the probe, 1 sets the namespaces up, 2 confines and
	// starts the command.
	Stage   int      `json:"stage"`
	Binds   []Bind   `json:"binds,omitempty"`
	Tmp     string   `json:"tmp,omitempty"`
	Dir     string   `json:"dir,omitempty"`
	Network bool     `json:"network,omitempty"`
	UID     int      `json:"uid"`
	GID     int      `json:"gid"`
	Grace   int64    `json:"grace_ms,omitempty"`
	Write   []string `json:"write,omitempty"` // Landlock's writable folders, as seen inside
	FSize   int64    `json:"fsize,omitempty"`
	// Links are symbolic links a bind's target was reached through
	// (Source the link's text, Target its path), made again inside where
	// a private folder hides them.
	Links []Bind `json:"links,omitempty"`
	// Files are files shown read-only at their own path where a private
	// folder (/tmp) would hide them: the command's own executable.
	Files []string `json:"files,omitempty"`
	// Folders are folders shown read-only at their own path where a
	// private folder (/tmp, /dev/shm) would hide them: the command's
	// working folder when no bind shows it (agentdesk started in a folder
	// below /tmp, where a stdio MCP server's working folder is pinned).
	Folders []string `json:"folders,omitempty"`
}

// cloneFlags are the namespaces a sandboxed command gets.
func cloneFlags(network bool) uintptr {
	f := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC)
	if !network {
		f |= syscall.CLONE_NEWNET
	}
	return f
}

// probeResult is the probe's answer, on its stdout.
type probeResult struct {
	Landlock int    `json:"landlock"`
	Error    string `json:"error,omitempty"`
}

var probed = sync.OnceValue(probe)

// Probe says what the sandbox can be on this machine (found once, by
// starting the entry point in every namespace a command gets and setting
// up a mount tree as a command's). SimulateEnv is read on every call.
func Probe() Report {
	switch os.Getenv(SimulateEnv) {
	case "userns":
		return Report{Unavailable: refusedUserns(&fs.PathError{Op: "fork/exec", Path: selfExe, Err: syscall.EPERM})}
	case "landlock":
		r := probed()
		if r.Unavailable == "" {
			r.Landlock, r.Unavailable = 0, noLandlock
		}
		return r
	}
	return probed()
}

// noLandlock is why the sandbox is unavailable on a kernel without
// Landlock.
const noLandlock = "the kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK and landlock in the lsm= boot list)"

func refusedUserns(err error) string {
	return "the kernel refused an unprivileged user namespace (" + err.Error() + "; see the sysctls kernel.unprivileged_userns_clone, user.max_user_namespaces, or AppArmor's kernel.apparmor_restrict_unprivileged_userns)"
}

func probe() Report {
	if unix.Access(selfExe, unix.X_OK) != nil {
		return Report{Unavailable: "agentdesk cannot run its own executable again (" + selfExe + ")"}
	}
	tmp, err := os.MkdirTemp("", "agentdesk-sandbox-probe-")
	if err != nil {
		return Report{Unavailable: "making a probe folder: " + err.Error()}
	}
	defer os.RemoveAll(tmp)
	sp := spec{Stage: 0, Tmp: tmp, UID: os.Getuid(), GID: os.Getgid()}
	b, _ := json.Marshal(sp)
	cmd := exec.Command(selfExe)
	cmd.Args = []string{entryArg0}
	cmd.Env = []string{specEnv + "=" + string(b)}
	cmd.SysProcAttr = sysProcAttr(false)
	cmd.Stderr = nil
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return Report{Unavailable: refusedUserns(err)}
		}
	}
	var res probeResult
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		return Report{Unavailable: fmt.Sprintf("agentdesk's sandbox probe ended without an answer (%v)", err)}
	}
	if res.Error != "" {
		return Report{Unavailable: res.Error}
	}
	r := Report{Namespaces: true, Landlock: res.Landlock}
	if r.Landlock == 0 {
		r.Unavailable = noLandlock
	}
	return r
}

// sysProcAttr starts the entry point in the namespaces, its root being
// agentdesk's user.
func sysProcAttr(network bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Cloneflags:                 cloneFlags(network),
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
		Pdeathsig:                  syscall.SIGKILL,
	}
}

// Wrap rewrites cmd (made by exec.Command, not started) to run inside the
// sandbox c describes: its environment scrubbed (Scrub, c.PassEnv), its
// working folder shown where c.Binds put it. Start it with
// runner/proctree (Prepare, then Start), which starts it in the
// namespaces. Where the sandbox is not available the error wraps
// ErrUnavailable and cmd is left as it was; a bind whose folder is
// missing is an error too.
func Wrap(cmd *exec.Cmd, c Config) error {
	r := Probe()
	if !r.Available() {
		return fmt.Errorf("%s: %w", r.Unavailable, ErrUnavailable)
	}
	if cmd.Err != nil {
		return nil // exec.Command could not find it: Start says so
	}
	sp := spec{Stage: 1, Network: c.Network, UID: os.Getuid(), GID: os.Getgid(), Grace: cmd.WaitDelay.Milliseconds(), FSize: c.MaxFileSize}
	if sp.FSize <= 0 {
		sp.FSize = MaxFileSize
	}
	for _, b := range c.Binds {
		if err := sp.addBind(b); err != nil {
			return err
		}
	}
	if c.TempDir != "" {
		t, err := filepath.EvalSymlinks(c.TempDir)
		if err != nil {
			return fmt.Errorf("the sandbox's temporary folder %s: %w", c.TempDir, err)
		}
		sp.Tmp = t
	}
	sp.setDir(cmd.Dir)
	if exe := canonical(cmd.Path); filepath.IsAbs(exe) {
		if _, hidden := within("/tmp", exe); hidden {
			sp.Files = append(sp.Files, exe)
		}
	}
	sp.Write = writable(sp)
	env := sandboxEnv(cmd.Env, c.PassEnv, sp)
	b, err := json.Marshal(sp)
	if err != nil {
		return fmt.Errorf("describing the sandbox: %w", err)
	}
	cmd.Env = append(env, specEnv+"="+string(b))
	cmd.Args = append([]string{entryArg0, cmd.Path}, cmd.Args...)
	cmd.Path = selfExe
	attr := sysProcAttr(c.Network)
	if cmd.SysProcAttr != nil {
		attr.Setpgid, attr.Pgid, attr.Setsid = cmd.SysProcAttr.Setpgid, cmd.SysProcAttr.Pgid, cmd.SysProcAttr.Setsid
	}
	cmd.SysProcAttr = attr
	return nil
}

// addBind adds b to the spec's binds: its source, links resolved, must
// be a folder; its target is shown at its canonical path, and, when the
// path given is a link to it, that link is made too.
func (sp *spec) addBind(b Bind) error {
	src, err := filepath.EvalSymlinks(b.Source)
	if err != nil {
		return fmt.Errorf("the sandbox cannot show %s: %w", b.Source, err)
	}
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return fmt.Errorf("the sandbox cannot show %s: not a folder", b.Source)
	}
	target := canonical(b.Target)
	if abs, err := filepath.Abs(b.Target); err == nil && abs != target {
		if text, err := os.Readlink(abs); err == nil {
			sp.Links = append(sp.Links, Bind{Source: text, Target: abs})
		}
	}
	sp.Binds = append(sp.Binds, Bind{Source: src, Target: target})
	return nil
}

// setDir sets the folder the command runs in (dir; "": agentdesk's), as
// the command sees it; when no bind shows it, it is shown read-only at
// its own path (Folders).
func (sp *spec) setDir(dir string) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	sp.Dir = inside(canonical(dir), sp.Binds)
	if hidden(sp.Dir, sp.Binds) {
		sp.Folders = append(sp.Folders, sp.Dir)
	}
}

// sandboxEnv is a command's environment env (nil: agentdesk's) in the
// sandbox sp: scrubbed, but for pass, and its folders named as the
// command sees them.
func sandboxEnv(env, pass []string, sp spec) []string {
	if env == nil {
		env = os.Environ()
	}
	env, _ = Scrub(env, pass)
	return inEnv(env, sp)
}

// inEnv rewrites the variables that name a folder (TMPDIR, PWD, …) as
// the command sees it.
func inEnv(env []string, sp spec) []string {
	for i, kv := range env {
		name, v, ok := strings.Cut(kv, "=")
		if ok && filepath.IsAbs(v) && (name == "PWD" || name == "OLDPWD") {
			env[i] = name + "=" + inside(v, sp.Binds)
		}
	}
	return env
}

// writable lists the folders Landlock lets the command write below, as
// it sees them.
func writable(sp spec) []string {
	var out []string
	for _, b := range sp.Binds {
		out = append(out, b.Target)
	}
	return append(out, "/tmp", "/dev/shm")
}

// privateFolders are the folders the sandbox replaces with its own.
var privateFolders = []string{"/tmp", "/dev/shm"}

// hidden says whether the path p, as the command sees it, lies below a
// private folder and no bind shows it there: the command would not find
// it.
func hidden(p string, binds []Bind) bool {
	for _, b := range binds {
		if _, ok := within(b.Target, p); ok {
			return false
		}
	}
	for _, d := range privateFolders {
		if rel, ok := within(d, p); ok && rel != "." {
			return true
		}
	}
	return false
}

// inside returns where the host path p is seen in the sandbox: below the
// target of the first bind whose source holds it, else p.
func inside(p string, binds []Bind) string {
	for _, b := range binds {
		if rel, ok := within(b.Source, p); ok {
			return filepath.Join(b.Target, rel)
		}
	}
	return p
}

// within reports whether p lies in dir (or is dir), and the relative path.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// canonical resolves the symbolic links of the part of p that exists.
func canonical(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(canonical(parent), filepath.Base(p))
}
