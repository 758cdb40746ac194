//go:build linux

package sandbox_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"

	"github.com/creack/pty"

	"github.com/agentdesk/agentdesk/runner/proctree"
	"github.com/agentdesk/agentdesk/runner/proctree/proctreetest"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"golang.org/x/sys/unix"
)

// standInEnv makes the test binary agentdesk's stand-in: it runs a
// sandboxed command that leaves daemons, prints the command's PID
// namespace, and waits to be killed.
const standInEnv = "AGENTDESK_SANDBOX_TEST_STAND_IN"

// dialEnv makes the test binary a client of the Unix socket it names: it
// prints what the server sent, or why it could not connect.
const dialEnv = "AGENTDESK_SANDBOX_TEST_DIAL"

// ttyEnv makes the test binary a process with a controlling terminal (as
// agentdesk has in the author's terminal) that runs a sandboxed command
// trying its /dev/tty; the value is the folder to bind.
const ttyEnv = "AGENTDESK_SANDBOX_TEST_TTY"

func TestMain(m *testing.M) {
	if dir := os.Getenv(ttyEnv); dir != "" {
		cmd := exec.Command("/bin/sh", "-c", "if (: </dev/tty) 2>/dev/null; then echo TTY-REACHED; else echo no-tty; fi; ps -o sess= -p $$ | tr -d ' '")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stdout
		if err := sandbox.Wrap(cmd, sandbox.Config{Binds: []sandbox.Bind{{Source: dir, Target: dir}}}); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		proctree.Prepare(cmd)
		if err := proctree.Start(cmd); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		_ = cmd.Wait()
		os.Exit(0)
	}
	if path := os.Getenv(dialEnv); path != "" {
		c, err := net.Dial("unix", path)
		if err != nil {
			fmt.Println("dial:", err)
			os.Exit(0)
		}
		b := make([]byte, 64)
		n, _ := c.Read(b)
		fmt.Printf("reached: %s\n", b[:n])
		os.Exit(0)
	}
	if dir := os.Getenv(standInEnv); dir != "" {
		cmd := exec.Command("/bin/sh", "-c", "setsid sleep 1000 </dev/null >/dev/null 2>&1 & sleep 1000 </dev/null >/dev/null 2>&1 & readlink /proc/self/ns/pid; exec sleep 1000")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := sandbox.Wrap(cmd, sandbox.Config{Binds: []sandbox.Bind{{Source: dir, Target: dir}}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		proctree.Prepare(cmd)
		if err := proctree.Start(cmd); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		_ = cmd.Wait()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKilledAgentdeskLeavesNothing: when agentdesk is killed outright,
// every process of its sandboxed command goes too, daemons included.
func TestKilledAgentdeskLeavesNothing(t *testing.T) {
	needSandbox(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	standIn := exec.Command(exe)
	standIn.Env = append(os.Environ(), standInEnv+"="+t.TempDir())
	out, err := standIn.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := standIn.Start(); err != nil {
		t.Fatal(err)
	}
	defer standIn.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	ns := strings.TrimSpace(line)
	if err != nil || !strings.HasPrefix(ns, "pid:[") {
		t.Fatalf("the stand-in's command did not start: %q %v", line, err)
	}
	var procs []proctreetest.Proc
	for _, pid := range inNamespace(ns) {
		if _, start, ok := statStart(pid); ok {
			procs = append(procs, proctreetest.Proc{PID: pid, Start: start})
		}
	}
	if len(procs) < 4 { // stage 1, the shell's exec'd sleep, two daemons
		t.Fatalf("the sandbox holds %d processes, want at least 4", len(procs))
	}
	if err := standIn.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = standIn.Wait()
	for _, p := range procs {
		proctreetest.WaitExited(t, p)
	}
}

// inNamespace lists the host pids of the processes in PID namespace ns.
func inNamespace(ns string) []int {
	var out []int
	es, _ := os.ReadDir("/proc")
	for _, e := range es {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if l, err := os.Readlink("/proc/" + e.Name() + "/ns/pid"); err == nil && l == ns {
			out = append(out, pid)
		}
	}
	return out
}

// statStart reads a process's start time (field 22 of /proc/PID/stat).
func statStart(pid int) (int, string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, "", false
	}
	return pid, f[19], true
}

// needSandbox skips where the kernel refuses what the sandbox needs.
func needSandbox(t testing.TB) {
	t.Helper()
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("this kernel cannot sandbox: %s", r.Unavailable)
	}
}

// world is a trial's folders: the project, the run's copy of it, the
// session folder, the run's temporary folder, a fake $HOME and a folder
// elsewhere.
type world struct {
	project, copy, session, tmp, home, outside string
}

func newWorld(t testing.TB, project string) world {
	t.Helper()
	root := t.TempDir()
	// The project, $HOME and the folder elsewhere lie outside /tmp, which
	// the sandbox replaces with the run's temporary folder: so the
	// read-only wall is what stops writes to them, not their absence.
	real := realRoot(t)
	w := world{project: project, copy: filepath.Join(root, "overlay", "work"), session: filepath.Join(root, "run", "session"),
		tmp: filepath.Join(root, "run", "session", "tmp"), home: filepath.Join(real, "home"), outside: filepath.Join(real, "elsewhere")}
	if w.project == "" {
		w.project = filepath.Join(real, "p", "project")
	}
	for _, d := range []string{w.project, w.copy, w.tmp, w.home, w.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{w.project, w.copy} {
		hometest.WriteFile(t, filepath.Join(d, "a.txt"), "alpha\n")
		hometest.WriteFile(t, filepath.Join(d, "sub", "b.txt"), "beta\n")
		if err := os.Symlink(w.outside, filepath.Join(d, "out")); err != nil {
			t.Fatal(err)
		}
	}
	hometest.WriteFile(t, filepath.Join(w.home, ".bashrc"), "# home\n")
	hometest.WriteFile(t, filepath.Join(w.outside, "keep.txt"), "outside\n")
	return w
}

// realRoot returns a new folder outside /tmp (below /var/tmp), removed
// at the test's end; t.TempDir() where there is none.
func realRoot(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "agentdesk-sandbox-test-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func (w world) config() sandbox.Config {
	return sandbox.Config{
		Binds:   []sandbox.Bind{{Source: w.copy, Target: w.project}, {Source: w.copy, Target: w.copy}, {Source: w.session, Target: w.session}},
		TempDir: w.tmp,
	}
}

// hashTree hashes every name, mode, link text and content below dir.
func hashTree(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v\n", p, fi.Mode())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			fmt.Fprintf(h, "-> %s\n", l)
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// guard hashes the project, $HOME, the folder elsewhere and the parent
// of the project now, and checks at the test's end that none changed.
func (w world) guard(t *testing.T) {
	t.Helper()
	dirs := []string{w.project, w.home, w.outside, filepath.Dir(w.project)}
	before := map[string]string{}
	for _, d := range dirs {
		before[d] = hashTree(t, d)
	}
	// The host's /dev/shm is the machine's: other processes (another
	// go test of this package among them) add and remove entries there
	// while a test runs, so only the file an escape writes is watched.
	shm := fileState(shmProbe)
	t.Cleanup(func() {
		for _, d := range dirs {
			if hashTree(t, d) != before[d] {
				t.Errorf("%s changed", d)
			}
		}
		if got := fileState(shmProbe); got != shm {
			t.Errorf("%s changed: %s, was %s", shmProbe, got, shm)
		}
	})
}

// shmProbe is the file the shm escape writes in /dev/shm: the sandbox's
// /dev/shm is private, so the host's never gets it.
const shmProbe = "/dev/shm/agentdesk-sandbox-test"

// fileState says whether the file at p exists, and its content.
func fileState(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "absent"
	}
	return fmt.Sprintf("present (%q)", b)
}

// run runs script with /bin/sh in the sandbox c, in dir (a host path),
// and returns its output (stdout and stderr) and exit code. Afterwards no
// process of the command's PID namespace may be left.
func run(t testing.TB, c sandbox.Config, dir, script string, extraEnv ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", "readlink /proc/self/ns/pid\n"+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extraEnv...)
	out, code := start(t, c, cmd)
	ns, rest, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(ns, "pid:[") {
		t.Fatalf("the command did not start (exit %d): %s", code, out)
	}
	assertNoneLeft(t, ns)
	return rest, code
}

// start runs cmd in the sandbox c through proctree, as shell_execute does.
func start(t testing.TB, c sandbox.Config, cmd *exec.Cmd) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := sandbox.Wrap(cmd, c); err != nil {
		t.Fatalf("Wrap: %v", err)
	}
	cmd.WaitDelay = 2 * time.Second
	proctree.Prepare(cmd)
	if err := proctree.Start(cmd); err != nil {
		t.Fatalf("Start: %v", err)
	}
	err := cmd.Wait()
	proctree.Cleanup(cmd)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("Wait: %v", err)
	}
	return buf.String(), code
}

// assertNoneLeft fails when a process of the PID namespace ns
// ("pid:[N]") outlives its command (waited for on a pidfd, bounded: one
// may be in its last moment of exiting).
func assertNoneLeft(t testing.TB, ns string) {
	t.Helper()
	for _, pid := range inNamespace(ns) {
		if _, start, ok := statStart(pid); ok {
			proctreetest.WaitExited(t, proctreetest.Proc{PID: pid, Start: start})
		}
	}
}

func TestWriteThroughTheProjectPathLandsInTheCopy(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	w.guard(t)
	out, code := run(t, w.config(), w.copy, fmt.Sprintf(`pwd
echo more >> %[1]s/a.txt
cd %[1]s && echo new > c.txt && mkdir -p d && echo deep > d/e.txt
echo session > %[2]s/note.txt
echo tmp > /tmp/t.txt && cat /tmp/t.txt`, w.project, w.session))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if !strings.HasPrefix(out, w.project+"\n") {
		t.Errorf("pwd = %q, want the project's path %s", out, w.project)
	}
	for p, want := range map[string]string{"a.txt": "alpha\nmore\n", "c.txt": "new\n", "d/e.txt": "deep\n"} {
		got, err := os.ReadFile(filepath.Join(w.copy, p))
		if err != nil || string(got) != want {
			t.Errorf("copy's %s = %q, %v; want %q", p, got, err, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(w.session, "note.txt")); err != nil || string(b) != "session\n" {
		t.Errorf("session note = %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(w.tmp, "t.txt")); err != nil || string(b) != "tmp\n" {
		t.Errorf("/tmp is not the run's temp folder: %q, %v", b, err)
	}
}

// TestEscapes runs each escape attempt with a real /bin/sh in the
// sandbox: the project, $HOME, the folder elsewhere and the project's
// parent stay byte-identical and nothing is left running.
func TestEscapes(t *testing.T) {
	needSandbox(t)
	cases := []struct {
		name, script string
		// want is text the output must hold (the command's own evidence).
		want string
	}{
		{"dotdot", `cd {P}/.. && echo x > escaped.txt; echo x > {P}/../escaped2.txt; echo x > ../../escaped3.txt; echo done`, "Read-only file system"},
		{"symlink out of the copy", `echo x > out/planted.txt; echo x >> out/keep.txt; ln -s {O}/keep.txt sub/l && echo y > sub/l; echo done`, "Read-only file system"},
		{"home", `echo evil >> {H}/.bashrc; echo evil >> "$HOME/.bashrc"; rm -f {H}/.bashrc; echo done`, "Read-only file system"},
		{"proc self root", `echo x > /proc/self/root{O}/keep.txt; echo y >> /proc/1/root{H}/.bashrc; ls /proc | grep -c '^[0-9]'; echo done`, "Read-only file system"},
		{"mount", `mount -t tmpfs none {H}; umount {P}; mount -o remount,rw /; mount --bind {P} {O}; echo x > {O}/keep.txt; echo done`, "done"},
		{"unshare", `unshare -rm sh -c 'mount -t tmpfs none {H} && echo x > {H}/.bashrc; umount {P}; echo x > {O}/keep.txt'; unshare -rn true; echo done`, "done"},
		{"setuid", `grep NoNewPrivs /proc/self/status; grep CapEff /proc/self/status; su -c 'echo x > {O}/keep.txt' root </dev/null; mount -t tmpfs none {O}; echo done`, "NoNewPrivs:\t1"},
		{"shm", `echo x > {S} && cat {S}; echo done`, "x\ndone"},
		{"setsid daemon", `setsid sh -c 'sleep 1000' </dev/null >/dev/null 2>&1 & setsid sh -c 'while :; do echo x >> {O}/keep.txt; sleep 1; done' </dev/null >/dev/null 2>&1 & echo done`, "done"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, "")
			w.guard(t)
			script := strings.NewReplacer("{P}", w.project, "{H}", w.home, "{O}", w.outside, "{S}", shmProbe).Replace(c.script)
			out, _ := run(t, w.config(), w.copy, script, "HOME="+w.home)
			if !strings.Contains(out, c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, out)
			}
			if strings.Contains(c.name, "setuid") && !strings.Contains(out, "CapEff:\t0000000000000000") {
				t.Errorf("the command holds capabilities:\n%s", out)
			}
		})
	}
}

func TestForkBombEnds(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	w.guard(t)
	out, _ := run(t, w.config(), w.copy, `b() { b | b & }; b; echo bombed`)
	if !strings.Contains(out, "bombed") {
		t.Errorf("output: %s", out)
	}
}

func TestHugeFileStops(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	w.guard(t)
	c := w.config()
	c.MaxFileSize = 1 << 20
	out, code := run(t, c, w.copy, `head -c 3000000 /dev/zero > big; echo "exit $?"`)
	fi, err := os.Stat(filepath.Join(w.copy, "big"))
	if err != nil || fi.Size() != c.MaxFileSize || !strings.Contains(out, "exit 153") {
		t.Errorf("big: %v, %v (limit %d); exit %d: %s", fi, err, c.MaxFileSize, code, out)
	}
}

func TestProjectPaths(t *testing.T) {
	needSandbox(t)
	t.Run("spaces", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "my project", "with  spaces")
		w := newWorld(t, p)
		w.guard(t)
		out, code := run(t, w.config(), w.copy, `echo x >> "`+p+`/a.txt"; pwd`)
		if code != 0 || !strings.Contains(out, p) {
			t.Fatalf("exit %d: %s", code, out)
		}
		if b, _ := os.ReadFile(filepath.Join(w.copy, "a.txt")); string(b) != "alpha\nx\n" {
			t.Errorf("copy's a.txt = %q", b)
		}
	})
	t.Run("symbolic link", func(t *testing.T) {
		real := filepath.Join(realRoot(t), "real")
		link := filepath.Join(t.TempDir(), "link") // in /tmp: the sandbox makes it again in its own
		w := newWorld(t, real)
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		w.project = link
		w.guard(t)
		out, code := run(t, w.config(), w.copy, `echo x >> `+link+`/a.txt; echo y >> `+real+`/a.txt`)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, out)
		}
		if b, _ := os.ReadFile(filepath.Join(w.copy, "a.txt")); string(b) != "alpha\nx\ny\n" {
			t.Errorf("copy's a.txt = %q", b)
		}
	})
	t.Run("another filesystem", func(t *testing.T) {
		var st, tmp unix.Statfs_t
		if unix.Statfs("/dev/shm", &st) != nil || unix.Statfs(os.TempDir(), &tmp) != nil || st.Type != unix.TMPFS_MAGIC || st.Fsid == tmp.Fsid {
			t.Skip("no tmpfs at /dev/shm apart from the temporary folder's filesystem")
		}
		p, err := os.MkdirTemp("/dev/shm", "agentdesk-sandbox-project-")
		if err != nil {
			t.Skipf("cannot make a project on /dev/shm: %v", err)
		}
		t.Cleanup(func() { os.RemoveAll(p) })
		w := newWorld(t, p)
		w.guard(t)
		out, code := run(t, w.config(), w.copy, `echo x >> `+p+`/a.txt`)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, out)
		}
		if b, _ := os.ReadFile(filepath.Join(w.copy, "a.txt")); string(b) != "alpha\nx\n" {
			t.Errorf("copy's a.txt = %q", b)
		}
	})
}

func TestNetwork(t *testing.T) {
	needSandbox(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash (its /dev/tcp is the client)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from the host\n"))
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	script := `bash -c 'exec 3<>/dev/tcp/127.0.0.1/` + port + ` && cat <&3' 2>&1; echo "exit $?"`
	w := newWorld(t, "")
	out, _ := run(t, w.config(), w.copy, script)
	if strings.Contains(out, "hello from the host") || !strings.Contains(out, "exit 1") {
		t.Errorf("network off, yet:\n%s", out)
	}
	c := w.config()
	c.Network = true
	out, _ = run(t, c, w.copy, script)
	if !strings.Contains(out, "hello from the host") {
		t.Errorf("network on, yet:\n%s", out)
	}
}

func TestLoopbackInside(t *testing.T) {
	needSandbox(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 to serve on loopback")
	}
	w := newWorld(t, "")
	out, code := run(t, w.config(), w.copy, `python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.create_connection(s.getsockname()); a, _ = s.accept()
a.sendall(b"loopback works"); print(c.recv(64).decode())'`)
	if code != 0 || !strings.Contains(out, "loopback works") {
		t.Errorf("exit %d: %s", code, out)
	}
}

func TestSimulatedRefusal(t *testing.T) {
	t.Setenv(sandbox.SimulateEnv, "userns")
	r := sandbox.Probe()
	if r.Available() || !strings.Contains(r.Unavailable, "operation not permitted") {
		t.Fatalf("report = %+v", r)
	}
	cmd := exec.Command("/bin/sh", "-c", "true")
	err := sandbox.Wrap(cmd, sandbox.Config{})
	if !errors.Is(err, sandbox.ErrUnavailable) || cmd.Path != "/bin/sh" {
		t.Fatalf("Wrap = %v, path %s", err, cmd.Path)
	}
	if msg := sandbox.Refusal(r); !strings.Contains(msg, "--no-sandbox") || !strings.Contains(msg, "user namespace") {
		t.Errorf("refusal: %s", msg)
	}
	if s := r.String(); !strings.Contains(s, "unavailable") {
		t.Errorf("label: %s", s)
	}
	t.Setenv(sandbox.SimulateEnv, "landlock")
	if r := sandbox.Probe(); r.Available() || r.Landlock != 0 {
		t.Errorf("without Landlock: %+v", r)
	}
}

func TestScrub(t *testing.T) {
	env := []string{"PATH=/bin", "OPENAI_API_KEY=sk-1", "GITHUB_TOKEN=ghp", "DB_PASSWORD=pw", "AWS_REGION=eu", "MY_SECRET_X=1", "GOOGLE_APPLICATION_CREDENTIALS=/k.json", "AZURE_CLIENT_ID=1", "HOME=/h", "KEYBOARD=us", "PASS_ME_TOKEN=ok"}
	kept, dropped := sandbox.Scrub(env, []string{"PASS_ME_TOKEN"})
	if strings.Join(kept, " ") != "PATH=/bin AWS_REGION=eu HOME=/h KEYBOARD=us PASS_ME_TOKEN=ok" && strings.Join(kept, " ") != "PATH=/bin HOME=/h KEYBOARD=us PASS_ME_TOKEN=ok" {
		t.Errorf("kept %q", kept)
	}
	if len(dropped) < 6 {
		t.Errorf("dropped %q", dropped)
	}
}

func TestScrubbedEnvironmentInside(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	c := w.config()
	c.PassEnv = []string{"PASSED_TOKEN"}
	out, _ := run(t, c, w.copy, `echo "[$DB_PASSWORD][$PASSED_TOKEN][$AGENTDESK_SANDBOX]"`, "DB_PASSWORD=hunter2-secret", "PASSED_TOKEN=passed-value")
	if !strings.Contains(out, "[][passed-value][]") {
		t.Errorf("environment inside: %s", out)
	}
}

// BenchmarkSandboxedCommand starts /bin/true through proctree as a run
// does, plain and sandboxed: the difference is what the sandbox adds. It
// reports the processes' CPU time too (wall time on a loaded machine
// mostly measures the queue).
func BenchmarkSandboxedCommand(b *testing.B) {
	needSandbox(b)
	w := newWorld(b, "")
	for _, mode := range []string{"plain", "sandboxed"} {
		b.Run(mode, func(b *testing.B) {
			var cpu time.Duration
			defer func() { b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op") }()
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				cmd.Dir = w.copy
				if mode == "sandboxed" {
					if err := sandbox.Wrap(cmd, w.config()); err != nil {
						b.Fatal(err)
					}
				}
				proctree.Prepare(cmd)
				if err := proctree.Start(cmd); err != nil {
					b.Fatal(err)
				}
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				proctree.Cleanup(cmd)
			}
		})
	}
}

func TestProcessLimit(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	out, _ := run(t, w.config(), w.copy, `(i=0; while [ $i -lt 1200 ]; do sleep 1000 & i=$((i+1)); done) 2>/dev/null; set -- /proc/[0-9]*; echo $#`)
	lines := strings.Fields(out)
	if len(lines) < 1 {
		t.Fatalf("output: %s", out)
	}
	n, err := strconv.Atoi(lines[0])
	t.Logf("processes at the end: %s", strings.Join(lines, " "))
	if err != nil || n > sandbox.MaxProcesses+300 || n < 100 || !strings.Contains(out, strings.TrimSpace(sandbox.ProcessLimitNote)) {
		t.Errorf("processes: %s", out)
	}
}

// TestHostUnixSocketUnreachable: a server of the host on a Unix socket
// (a Docker, D-Bus or ssh-agent socket, a ControlMaster) is out of reach:
// a read-only mount does not stop connect(), so the sandbox refuses the
// command Unix sockets of its own.
func TestHostUnixSocketUnreachable(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	w.guard(t)
	sock := filepath.Join(w.home, "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("cannot serve on a Unix socket: %v", err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("host-secret"))
			c.Close()
		}
	}()
	cmd := exec.Command(os.Args[0])
	cmd.Dir = w.copy
	cmd.Env = append(os.Environ(), dialEnv+"="+sock)
	out, _ := start(t, w.config(), cmd)
	if strings.Contains(out, "host-secret") || !strings.Contains(out, "dial:") {
		t.Errorf("the sandboxed command reached the host's Unix socket %s:\n%s", sock, out)
	}
}

// TestNoControllingTerminal: a sandboxed command cannot open the author's
// terminal (/dev/tty), so it can neither draw on it nor push keystrokes
// into it with TIOCSTI (to approve a call in the browser, or run a line
// in the author's shell after agentdesk ends): it runs in a session of
// its own.
func TestNoControllingTerminal(t *testing.T) {
	needSandbox(t)
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	go func() { _, _ = io.Copy(io.Discard, ptm) }()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), ttyEnv+"="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	pts.Close()
	if !strings.Contains(out.String(), "no-tty") {
		t.Errorf("the sandboxed command opened agentdesk's controlling terminal:\n%s", out.String())
	}
}

// TestWorkingFolderBelowTmp: a command whose working folder lies below
// /tmp, outside every bind (agentdesk started there: a stdio MCP server's
// folder is agentdesk's own), starts there and reads it; it cannot write
// there, and nothing else of the host's /tmp is seen.
func TestWorkingFolderBelowTmp(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	w.guard(t)
	host := t.TempDir()
	dir := filepath.Join(host, "work")
	hometest.WriteFile(t, filepath.Join(dir, "here.txt"), "here\n")
	hometest.WriteFile(t, filepath.Join(host, "beside.txt"), "beside\n")
	before := hashTree(t, host)
	out, code := run(t, w.config(), dir, `pwd; cat here.txt; echo x > new.txt && echo wrote; cat ../beside.txt; exit 0`)
	if code != 0 || !strings.HasPrefix(out, dir+"\nhere\n") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if strings.Contains(out, "wrote") {
		t.Errorf("the command wrote in its working folder below /tmp: %s", out)
	}
	if strings.Contains(out, "\nbeside\n") {
		t.Errorf("the command read the host's /tmp beside its working folder: %s", out)
	}
	if hashTree(t, host) != before {
		t.Errorf("%s changed", host)
	}
}

// TestStopSignalReachesTheCommand: SIGTERM sent to the process group of
// a sandboxed command, as agentdesk stops a stdio MCP server, reaches
// the command (which leads a session of its own in the sandbox), and it
// winds down by itself instead of waiting for SIGKILL.
func TestStopSignalReachesTheCommand(t *testing.T) {
	needSandbox(t)
	w := newWorld(t, "")
	cmd := exec.Command("/bin/sh", "-c", `trap 'echo got-term; exit 7' TERM; echo ready; sleep 600 & wait`)
	cmd.Dir = w.project
	if err := sandbox.Wrap(cmd, w.config()); err != nil {
		t.Fatalf("Wrap: %v", err)
	}
	cmd.WaitDelay = 2 * time.Second
	proctree.Prepare(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := proctree.Start(cmd); err != nil {
		t.Fatalf("Start: %v", err)
	}
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("the command did not start: %q %v", line, err)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	err = cmd.Wait()
	proctree.Cleanup(cmd)
	if string(rest) != "got-term\n" || cmd.ProcessState.ExitCode() != 7 {
		t.Errorf("after SIGTERM: output %q, %v; want the command's trap to run and exit 7", rest, err)
	}
}
