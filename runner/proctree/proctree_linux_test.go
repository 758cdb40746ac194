//go:build linux

package proctree

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

// gone waits (bounded) until pid no longer names the process that
// started at start: exited and reaped, not a zombie left behind.
func gone(t *testing.T, pid int, start string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, s, state, ok := stat(pid)
		if !ok || s != start {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d (state %c) outlived its command", pid, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startLeaver starts a shell that leaves `setsid sleep 1000` behind (in a
// session of its own) and prints its pid; then runs tail.
func startLeaver(t *testing.T, ctx context.Context, tail string) (*exec.Cmd, int, string) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on PATH")
	}
	// The shell goes on to tail once the test has looked at the sleep (a
	// line on its input): a command that ends has its leftovers killed at
	// once.
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "setsid sleep 1000 </dev/null >/dev/null 2>&1 &\necho $!\nread go\n"+tail)
	Prepare(cmd)
	cmd.Cancel = func() error { return Kill(cmd) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the left-behind pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("pid %q: %v", line, err)
	}
	// Wait until the child has become sleep in a session of its own.
	deadline := time.Now().Add(10 * time.Second)
	for {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if strings.TrimSpace(string(comm)) == "sleep" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d never became sleep (comm %q)", pid, comm)
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, start, _, ok := stat(pid)
	if !ok {
		t.Fatalf("process %d vanished before the test could look at it", pid)
	}
	if pgid, _ := syscall.Getpgid(pid); pgid == cmd.Process.Pid {
		t.Fatalf("process %d is still in the command's group; the test does not test setsid", pid)
	}
	if _, err := in.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	return cmd, pid, start
}

func TestNothingLeftBehind(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tail   string
		cancel bool
	}{
		{name: "command ends", tail: "exit 0"},
		{name: "run cancelled", tail: "sleep 1000", cancel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd, pid, start := startLeaver(t, ctx, tc.tail)
			if tc.cancel {
				cancel()
			}
			_ = cmd.Wait()
			Cleanup(cmd)
			gone(t, pid, start)
		})
	}
}

func TestPrepareKeepsAttrAndEnv(t *testing.T) {
	cmd := exec.Command("/bin/true")
	cmd.Env = []string{"A=1"}
	Prepare(cmd)
	if !cmd.SysProcAttr.Setpgid || cmd.SysProcAttr.Pdeathsig == 0 {
		t.Fatalf("SysProcAttr = %+v, want a group of its own and a parent-death signal", cmd.SysProcAttr)
	}
	if cmd.Env[0] != "A=1" || tokenOf(cmd) == "" {
		t.Fatalf("Env = %q, want A=1 kept and a mark added", cmd.Env)
	}
	other := exec.Command("/bin/true")
	Prepare(other)
	if tokenOf(other) == tokenOf(cmd) {
		t.Fatalf("two commands got the same mark %q", tokenOf(cmd))
	}
}

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		in    string
		ok    bool
		ppid  int
		start string
		state byte
	}{
		{in: "42 (sleep) S 7 42 42 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 12345 100 0", ok: true, ppid: 7, start: "12345", state: 'S'},
		{in: "42 (a) b) (c) Z 1 42 42 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 99 100 0", ok: true, ppid: 1, start: "99", state: 'Z'},
		{in: "42 (sleep) S 7", ok: false},
		{in: "no parens at all", ok: false},
		{in: "42 (x) S notanumber 42 42 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 1 100 0", ok: false},
	} {
		ppid, start, state, ok := parseStat([]byte(tc.in))
		if ok != tc.ok || (ok && (ppid != tc.ppid || start != tc.start || state != tc.state)) {
			t.Errorf("parseStat(%q) = %d %q %c %v, want %d %q %c %v", tc.in, ppid, start, state, ok, tc.ppid, tc.start, tc.state, tc.ok)
		}
	}
}

func TestHasEntry(t *testing.T) {
	env := []byte("A=1\x00" + EnvName + "=7-1\x00B=2\x00")
	for _, tc := range []struct {
		mark string
		want bool
	}{
		{EnvName + "=7-1", true},
		{EnvName + "=7-10", false},
		{EnvName + "=7-", false},
		{"B=2", true},
	} {
		if got := hasEntry(env, []byte(tc.mark)); got != tc.want {
			t.Errorf("hasEntry(%q) = %v, want %v", tc.mark, got, tc.want)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("42 (sleep) S 7 42 42 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 12345 100 0"))
	f.Add([]byte(")"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ppid, _, _, ok := parseStat(b)
		if !ok && ppid != 0 {
			t.Fatalf("not ok but ppid %d", ppid)
		}
	})
}

func FuzzHasEntry(f *testing.F) {
	f.Add([]byte("A=1\x00B=2"), []byte("B=2"))
	f.Fuzz(func(t *testing.T, env, mark []byte) {
		if hasEntry(env, mark) && !strings.Contains(string(env), string(mark)) {
			t.Fatalf("found %q that is not in %q", mark, env)
		}
	})
}

// BenchmarkKillMarked measures one look through /proc for a command's
// marked descendants (what Kill and Cleanup do after every command).
func BenchmarkKillMarked(b *testing.B) {
	mark := []byte(EnvName + "=no-such-command")
	for b.Loop() {
		if len(killMarked(mark, -1)) != 0 {
			b.Fatal("killed something unmarked")
		}
	}
}
