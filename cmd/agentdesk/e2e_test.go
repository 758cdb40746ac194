package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/creack/pty"
)

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// binary builds agentdesk once per test process into a temporary folder and
// returns its path.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("building the binary is skipped with -short")
	}
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentdesk-e2e-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "agentdesk")
		// go test puts its own GOROOT/bin first on the PATH, so this is
		// the toolchain running the tests.
		cmd := exec.Command("go", "build", "-o", binaryPath, "-ldflags", "-X main.version=v0.0.0-test", ".")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binaryErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// runBinary runs the built agentdesk with a clean environment.
func runBinary(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
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

// TestMain removes the binary that binary built, once every test is done
// with it. Started as an MCP server (mcpServerEnv), it serves instead.
func TestMain(m *testing.M) {
	serveMCPIfAsked()
	code := m.Run()
	if binaryPath != "" {
		os.RemoveAll(filepath.Dir(binaryPath))
	}
	os.Exit(code)
}

func TestBinaryEndToEnd(t *testing.T) {
	clean := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent})
	bad := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent, "agents/broken.md": badAgent})

	t.Run("version", func(t *testing.T) {
		code, stdout, stderr := runBinary(t, nil, "--version")
		if code != 0 || stdout != "agentdesk v0.0.0-test\n" || stderr != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
	t.Run("clean", func(t *testing.T) {
		code, stdout, stderr := runBinary(t, nil, "lint", "--home", clean)
		if code != 0 || stdout != "1 loaded, 0 rejected, 0 errors, 0 warnings\n" || stderr != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
	t.Run("findings go to stdout, nothing to stderr", func(t *testing.T) {
		code, stdout, stderr := runBinary(t, []string{"NETCLAW_HOME=" + bad}, "lint")
		if code != 1 || !strings.Contains(stdout, "[frontmatter]") || stderr != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
	t.Run("bad usage goes to stderr, nothing to stdout", func(t *testing.T) {
		code, stdout, stderr := runBinary(t, nil, "lint", "--format", "yaml", "--home", clean)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "agentdesk: ") ||
			!strings.HasSuffix(stderr, "Run 'agentdesk lint --help' for usage.\n") || strings.Count(stderr, "agentdesk: ") != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
	t.Run("missing path", func(t *testing.T) {
		missing := filepath.Join(clean, "agents", "gone.md")
		code, stdout, stderr := runBinary(t, nil, "lint", missing)
		if code != 2 || stdout != "" || !strings.Contains(stderr, missing) {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
	t.Run("sarif is JSON", func(t *testing.T) {
		code, stdout, _ := runBinary(t, nil, "lint", "--format", "sarif", "--home", bad)
		var doc map[string]any
		if code != 1 || json.Unmarshal([]byte(stdout), &doc) != nil || doc["version"] != "2.1.0" {
			t.Errorf("exit %d, stdout %q", code, stdout)
		}
	})
	t.Run("colour on a terminal unless NO_COLOR", func(t *testing.T) {
		warn := hometest.New(t, map[string]string{"agents/writer.md": warnAgent})
		tests := []struct {
			env  []string
			want bool
		}{{nil, true}, {[]string{"NO_COLOR=1"}, false}}
		for _, tt := range tests {
			out := runOnTerminal(t, tt.env, "lint", "--home", warn)
			if got := strings.Contains(out, "\x1b[1;33mwarning"); got != tt.want {
				t.Errorf("env %v: coloured = %v, want %v:\n%q", tt.env, got, tt.want, out)
			}
		}
	})
}

// runOnTerminal runs the binary with a pseudo-terminal as its stdin, stdout
// and stderr and returns what it printed.
func runOnTerminal(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERM=xterm-256color"}, env...)
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	var out bytes.Buffer
	_, _ = io.Copy(&out, ptmx) // ends with EIO once the child has exited
	_ = cmd.Wait()
	return out.String()
}
