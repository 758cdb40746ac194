package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/proctree"
)

// process is a started stdio server: its command in a process group of its
// own, its stdin and stdout for the MCP transport, and the tail of its
// stderr for notes.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tail

	done    chan struct{} // closed when the command has exited
	waitErr error

	stopOnce sync.Once
}

// startProcess starts s.Command with s.Arguments in a new process group,
// with environ overlaid by s.EnvironmentVariables (names compared ignoring
// case, as the runtime's StdioClientTransport options are built), in dir
// ("" for agentdesk's working folder), confined by wrap when not nil.
func startProcess(s lint.McpServer, environ []string, dir string, wrap func(*exec.Cmd) error) (*process, error) {
	cmd := exec.Command(s.Command, s.Arguments...)
	cmd.Dir = dir
	cmd.Env = overlayEnv(environ, s.EnvironmentVariables)
	if wrap != nil && cmd.Err == nil {
		if err := wrap(cmd); err != nil {
			return nil, err
		}
	}
	proctree.Prepare(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: stdout, stderr: &tail{max: 4 << 10}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := proctree.Start(cmd); err != nil {
		return nil, startError(s.Command, err)
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// startError words a failure to start the command.
func startError(command string, err error) error {
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("command %q is not found on PATH: install it, or give its absolute path in McpServers", command)
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("command %q does not exist: check Command in McpServers", command)
	case errors.Is(err, os.ErrPermission):
		return fmt.Errorf("command %q cannot be executed (permission denied): check the file's mode", command)
	}
	return fmt.Errorf("starting %q: %w", command, err)
}

// overlayEnv returns environ with vars set, a variable of the same name
// (ignoring case) replaced.
func overlayEnv(environ []string, vars map[string]string) []string {
	out := make([]string, 0, len(environ)+len(vars))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		replaced := false
		for k := range vars {
			if strings.EqualFold(k, name) {
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	return out
}

// exited reports whether the command has exited, and how.
func (p *process) exited() (bool, string) {
	select {
	case <-p.done:
		if p.waitErr != nil {
			return true, p.waitErr.Error()
		}
		return true, "exit status 0"
	default:
		return false, ""
	}
}

// pid returns the leader's process id, which is also the group's.
func (p *process) pid() int { return p.cmd.Process.Pid }

// stop ends the server and everything it started: stdin is closed (an MCP
// server exits at the end of its input), then after grace the group gets
// SIGTERM, and after grace again SIGKILL for the group and every
// descendant (proctree.Kill), even when the server has exited, for
// children it left behind. stop returns when the leader has been reaped.
func (p *process) stop(grace time.Duration) { p.end(grace, true) }

// kill ends the server and everything it started at once, with SIGKILL
// and no grace: for a server that never answered its start, which has
// nothing to wind down. It returns when the leader has been reaped.
func (p *process) kill() { p.end(0, false) }

// end is stop, or kill when not graceful.
func (p *process) end(grace time.Duration, graceful bool) {
	p.stopOnce.Do(func() {
		_ = p.stdin.Close()
		if graceful {
			p.windDown(grace)
		}
		// SIGKILL for the group and every descendant, even those that left
		// it (proctree's supervisor sweeps them; the group's own SIGKILL
		// would kill the supervisor before it could).
		_ = proctree.Kill(p.cmd)
		<-p.done
		proctree.Cleanup(p.cmd) // what the server left running outside its group
	})
}

// windDown gives the server grace to exit after its input closed, then
// SIGTERM and grace again.
func (p *process) windDown(grace time.Duration) {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		signalGroup(p.cmd, false)
		timer.Reset(grace)
		select {
		case <-p.done:
		case <-timer.C:
		}
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// lastLine returns the last non-blank line written, cut to 200 bytes.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(t.buf), []byte("\n"))
	s := strings.TrimSpace(string(lines[len(lines)-1]))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// waitCtx waits for the process to exit or ctx to end.
func (p *process) waitCtx(ctx context.Context) bool {
	select {
	case <-p.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// waitCtxFor waits up to d for the process to exit.
func (p *process) waitCtxFor(d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	p.waitCtx(ctx)
}
