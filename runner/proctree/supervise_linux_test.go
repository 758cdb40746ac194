//go:build linux

package proctree

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner/proctree/proctreetest"
)

// parentEnv makes the test binary a stand-in for agentdesk: it starts
// the shell script in the variable's value through Prepare and Start,
// with the shell's output as its own, and waits to be killed.
const parentEnv = "PROCTREE_TEST_PARENT"

func init() {
	script, ok := os.LookupEnv(parentEnv)
	if !ok {
		return
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = os.Environ()
	Prepare(cmd)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := Start(cmd); err != nil {
		os.Stdout.WriteString("start: " + err.Error() + "\n")
		os.Exit(3)
	}
	os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
	_ = cmd.Wait()
	os.Exit(0)
}

// treeScript leaves every kind of descendant a command can leave, each
// printing its pid: a background child, one in a session of its own, one
// that also cleared its environment (no mark to find it by), and an
// orphan of a shell that exited (with a cleared environment and a session
// of its own); then the shell prints its own pid and waits.
const treeScript = `sleep 1000 & echo $!
setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!
env -i setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!
env -i /bin/sh -c 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!'
echo $$
exec sleep 1000
`

// TestParentKilledOutright: when agentdesk is SIGKILLed, every process a
// command started dies too — its background children, those in sessions
// of their own, those that cleared their environment, orphans — not only
// the shell (PR_SET_PDEATHSIG reaches only the process that asked for it).
func TestParentKilledOutright(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on PATH")
	}
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"="+treeScript)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	parent.Stderr = os.Stderr
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	procs := proctreetest.ReadPids(t, r, 6) // the supervisor, then the script's five
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	for _, p := range procs {
		proctreetest.WaitExited(t, p)
	}
}

// TestStartErrors: a command that cannot be started gives the error a
// direct start gives (the errno, so errors.Is works), through the
// supervisor too, and leaves nothing behind.
func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	notExec := dir + "/script"
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{
		{dir + "/missing", fs.ErrNotExist},
		{notExec, fs.ErrPermission},
	} {
		cmd := exec.Command(tc.path)
		Prepare(cmd)
		err := Start(cmd)
		var pe *fs.PathError
		if !errors.Is(err, tc.want) || !errors.As(err, &pe) || pe.Path != tc.path {
			t.Errorf("Start(%s) = %v, want a *fs.PathError for it that is %v", tc.path, err, tc.want)
		}
	}
}

// TestSupervisedExit: the supervisor exits as the command did — its exit
// code, or the signal that killed it — and Cleanup finds nothing left.
func TestSupervisedExit(t *testing.T) {
	for _, tc := range []struct {
		script string
		code   int
		signal syscall.Signal
	}{
		{script: "exit 0"},
		{script: "exit 7", code: 7},
		{script: "kill -TERM $$", code: -1, signal: syscall.SIGTERM},
		{script: "kill -KILL $$", code: -1, signal: syscall.SIGKILL},
		{script: "kill -USR1 $$", code: 128 + int(syscall.SIGUSR1)},
	} {
		cmd := exec.Command("/bin/sh", "-c", tc.script)
		Prepare(cmd)
		if err := Start(cmd); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		left := Cleanup(cmd)
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if cmd.ProcessState.ExitCode() != tc.code || (tc.signal != 0 && ws.Signal() != tc.signal) || left.OutputCut {
			t.Errorf("%q: exit %v (%v), left %+v; want code %d signal %v", tc.script, cmd.ProcessState, ws, left, tc.code, tc.signal)
		}
	}
}

// TestGraceForTheOutput: after the command exits, a descendant that still
// holds its output gets the command's WaitDelay to finish writing, then
// is killed and the cut is reported; one that holds nothing is killed at
// once, with nothing to report.
func TestGraceForTheOutput(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         string
		cut          bool
	}{
		{name: "late writer finishes", script: "(sleep 0.2; echo late) & echo early", want: "early\nlate\n"},
		{name: "holder cut", script: "sleep 1000 & echo early", want: "early\n", cut: true},
		{name: "detached killed at once", script: "sleep 1000 >/dev/null 2>&1 & echo early", want: "early\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", tc.script)
			Prepare(cmd)
			cmd.Stdout = &out
			cmd.WaitDelay = 10 * time.Second // ample for the late writer; it ends as soon as the output is let go
			if tc.cut {
				cmd.WaitDelay = 300 * time.Millisecond
			}
			if err := Start(cmd); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			left := Cleanup(cmd)
			if err != nil || out.String() != tc.want || left.OutputCut != tc.cut {
				t.Errorf("output %q (%v), cut %v; want %q, cut %v", out.String(), err, left.OutputCut, tc.want, tc.cut)
			}
		})
	}
}

// BenchmarkCommand measures one command's whole life (Prepare, Start,
// Wait, Cleanup) through the supervisor and, for comparison, started
// directly as before it.
func BenchmarkCommand(b *testing.B) {
	for _, supervised := range []bool{true, false} {
		name := "supervised"
		if !supervised {
			name = "direct"
		}
		b.Run(name, func(b *testing.B) {
			useSupervisor = supervised
			defer func() { useSupervisor = true }()
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				Prepare(cmd)
				if err := Start(cmd); err != nil {
					b.Fatal(err)
				}
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
				Cleanup(cmd)
			}
		})
	}
}

func TestParseStartReport(t *testing.T) {
	for _, tc := range []struct {
		line     string
		complete bool
		started  bool
		errno    int
	}{
		{"ok 42", true, true, 0},
		{"err 2", true, false, 2},
		{"ok 42", false, false, 0}, // cut off before its newline
		{"ok", true, false, 0},
		{"ok -1", true, false, 0},
		{"err x", true, false, 0},
		{"err 0", true, false, 0},
		{"done", true, false, 0},
		{"", true, false, 0},
	} {
		started, errno := parseStartReport(tc.line, tc.complete)
		if started != tc.started || errno != tc.errno {
			t.Errorf("parseStartReport(%q, %v) = %v, %d; want %v, %d", tc.line, tc.complete, started, errno, tc.started, tc.errno)
		}
	}
}

func FuzzParseStartReport(f *testing.F) {
	f.Add("ok 42", true)
	f.Add("err 13", true)
	f.Fuzz(func(t *testing.T, line string, complete bool) {
		started, errno := parseStartReport(line, complete)
		if started && errno != 0 || errno < 0 || (started || errno > 0) && !complete {
			t.Fatalf("parseStartReport(%q, %v) = %v, %d", line, complete, started, errno)
		}
	})
}
