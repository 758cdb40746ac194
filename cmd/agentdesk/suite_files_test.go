//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// runBinaryBounded runs the built agentdesk like runBinary, but kills it
// and fails the test when it has not ended after a generous wait: the
// files under test used to hang it for ever.
func runBinaryBounded(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("agentdesk %v did not end (a FIFO opened for reading blocks)", args)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %v: %v", args, err)
	}
	return code, out.String(), errOut.String()
}

// TestSuiteFilesThatAreNotFiles: a FIFO, a dangling or looping link, or a
// folder named like a suite is an error, never a hang and never skipped:
// suite-unreadable in lint, a broken suite (exit 1) in test and route.
func TestSuiteFilesThatAreNotFiles(t *testing.T) {
	kinds := []struct {
		name string
		make func(path string) error
		says string
		// named: also named on the command line (a folder named there is
		// searched for suites).
		named bool
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file", true},
		{"dangling link", func(p string) error { return os.Symlink(filepath.Join(filepath.Dir(p), "gone.yaml"), p) }, "a symbolic link to a file that does not exist", true},
		{"looping link", func(p string) error { return os.Symlink(p, p) }, "a symbolic link loop", true},
		{"folder", func(p string) error { return os.Mkdir(p, 0o755) }, "is a folder", false},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			home := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent})
			agents := filepath.Join(home, "agents")
			for _, name := range []string{"reviewer.test.yaml", "picks.route.yaml"} {
				if err := k.make(filepath.Join(agents, name)); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := runBinaryBounded(t, nil, "lint", "--home", home)
			for _, name := range []string{"reviewer.test.yaml", "picks.route.yaml"} {
				if code != 1 || !strings.Contains(stdout, name+":1:1: error: ") || !strings.Contains(stdout, "[suite-unreadable]") || !strings.Contains(stdout, k.says) {
					t.Errorf("lint: %s: exit %d\n%s\n%s", name, code, stdout, stderr)
				}
			}
			code, stdout, stderr = runBinaryBounded(t, nil, "test", "--home", home)
			if code != 1 || !strings.Contains(stdout, "reviewer.test.yaml") || !strings.Contains(stdout, k.says) {
				t.Errorf("test: exit %d\n%s\n%s", code, stdout, stderr)
			}
			code, stdout, stderr = runBinaryBounded(t, nil, "route", "--suite", "--home", home)
			if code != 1 || !strings.Contains(stdout, "picks.route.yaml") || !strings.Contains(stdout, k.says) {
				t.Errorf("route --suite: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if !k.named {
				return
			}
			testSuite, routeSuite := filepath.Join(agents, "reviewer.test.yaml"), filepath.Join(agents, "picks.route.yaml")
			code, stdout, stderr = runBinaryBounded(t, nil, "lint", "--home", home, testSuite, routeSuite)
			if code != 1 || strings.Count(stdout, "[suite-unreadable]") != 2 || !strings.Contains(stdout, k.says) {
				t.Errorf("lint FILE: exit %d\n%s\n%s", code, stdout, stderr)
			}
			code, stdout, stderr = runBinaryBounded(t, nil, "test", "--home", home, testSuite)
			if code != 1 || !strings.Contains(stdout, k.says) {
				t.Errorf("test FILE: exit %d\n%s\n%s", code, stdout, stderr)
			}
			code, stdout, stderr = runBinaryBounded(t, nil, "route", "--home", home, "--suite", routeSuite)
			if code != 1 || !strings.Contains(stdout, k.says) {
				t.Errorf("route --suite FILE: exit %d\n%s\n%s", code, stdout, stderr)
			}
		})
	}
}
