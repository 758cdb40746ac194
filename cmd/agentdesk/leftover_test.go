package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestLeftoversOfAKilledRunAreSwept: the built binary runs two trials on a
// project (each has its copy and session folder in TMPDIR); the first is
// killed with SIGKILL mid-stream. The next agentdesk that starts removes
// the killed run's folders and leaves the live run's alone.
func TestLeftoversOfAKilledRunAreSwept(t *testing.T) {
	bin := binary(t)
	srv, env, _ := trialHome(t, wire.OpenAI)
	tmp := t.TempDir()
	env = append([]string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp}, env...)
	start := func() *exec.Cmd {
		srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Working "), modeltest.Text("on it\n"), modeltest.Pause(time.Minute)}})
		cmd := exec.Command(bin, "run", "code-analyst", "--task", "x", "--project", toolProject(t))
		cmd.Env = env
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = &bytes.Buffer{}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "Working on it\n" {
			t.Fatalf("first line %q: %v", line, err)
		}
		return cmd
	}
	// owned lists the run folders in tmp, by the pid their lock names.
	owned := func() map[int][]string {
		out := map[int][]string{}
		ents, _ := os.ReadDir(tmp)
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(tmp, e.Name(), "owner.lock"))
			if err != nil {
				continue
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(b), "pid ")))
			out[pid] = append(out[pid], e.Name())
		}
		return out
	}
	killed, live := start(), start()
	before := owned()
	if len(before[killed.Process.Pid]) != 2 || len(before[live.Process.Pid]) != 2 {
		t.Fatalf("folders by owner %v: want a copy and a session folder for each run", before)
	}
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	if got := owned(); len(got[killed.Process.Pid]) != 2 {
		t.Fatalf("the killed run's folders went before a sweep: %v", got)
	}

	next := exec.Command(bin, "lint")
	next.Env = env
	next.Run()
	after := owned()
	if len(after[killed.Process.Pid]) != 0 {
		t.Errorf("the killed run's folders %v are still there", after[killed.Process.Pid])
	}
	if len(after[live.Process.Pid]) != 2 {
		t.Errorf("the live run's folders: %v, want %v", after[live.Process.Pid], before[live.Process.Pid])
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 2 {
		t.Errorf("TMPDIR holds %d entries, want the live run's 2", len(ents))
	}
	live.Process.Signal(syscall.SIGINT)
	live.Wait()
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("TMPDIR holds %d entries after the live run ended, want none", len(ents))
	}
}
