//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// Files named beside a request that are FIFOs or devices are refused with
// what they are, never read until a writer comes: route --system-file,
// a routing suite's preamble-file, a test case's context-file.
func TestSideFilesNeverBlock(t *testing.T) {
	_, env, _ := routeHome(t, wire.OpenAI, "", nil)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	fifo := filepath.Join(t.TempDir(), "pre.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		code, _, stderr := runTrialCmd(t, env, "", "route", "--show-request", "--system-file", p, "hi")
		if code != 2 || !strings.Contains(stderr, "--system-file "+p+": it is ") || !strings.Contains(stderr, "not a regular file") {
			t.Errorf("--system-file %s: exit %d, stderr %q", p, code, stderr)
		}
	}
	hometest.WriteFile(t, filepath.Join(home, "agents", "front.route.yaml"), "preamble-file: "+fifo+"\ncases:\n  - {name: a, request: r, expect: none}\n")
	if code, out, stderr := runTrialCmd(t, env, "", "route", "--suite", "--offline"); code != 1 || !strings.Contains(out, "preamble-file "+fifo+" cannot be read: it is a named pipe (FIFO)") {
		t.Errorf("route --suite: exit %d\n%s\n%s", code, out, stderr)
	}
	os.Remove(filepath.Join(home, "agents", "front.route.yaml"))
	hometest.WriteFile(t, filepath.Join(home, "agents", "reviewer.test.yaml"), "cases:\n  - {name: a, task: t, context-file: "+fifo+"}\n")
	if code, out, stderr := runTrialCmd(t, env, "", "test", "--offline"); code != 1 || !strings.Contains(out, "context-file "+fifo+" cannot be read: it is a named pipe (FIFO)") {
		t.Errorf("test: exit %d\n%s\n%s", code, out, stderr)
	}
}
