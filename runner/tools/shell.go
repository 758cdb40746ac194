package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/proctree"
)

// Shell limits.
const (
	// DefaultShellTimeout is a command's time limit when the call asks for
	// none (_timeout_seconds).
	DefaultShellTimeout = 120 * time.Second
	// MaxShellTimeout caps what _timeout_seconds may ask for.
	MaxShellTimeout = 600 * time.Second
	// MaxShellOutput caps the output kept from each of stdout and stderr:
	// a head and a tail window; what lies between is counted, not kept.
	MaxShellOutput = 32 << 10
	// ShellDrainGrace is how long output is still read after the command
	// exits (a background child holding the pipes open), before its
	// process group is killed.
	ShellDrainGrace = 2 * time.Second
	// MaxShellFileBlocks is the `ulimit -f` a command runs under (in the
	// shell's blocks of 512 or 1024 bytes): a command cannot fill the disk
	// with one file.
	MaxShellFileBlocks = 204800
)

// ShellTool returns shell_execute on the workspace: each command runs in
// the overlay's work tree (a copy of the view made on the first command),
// through /bin/sh, in its own process group, with stdin closed, under the
// runtime's time limit; the group is killed on timeout, on cancel and when
// the command ends (background children included). What the command
// changed in the work tree is read back into the overlay. Every call needs
// approval.
func (w *Workspace) ShellTool() Tool {
	return &builtin{spec: Spec{Name: ShellExecute, Approval: true,
		Description: "Execute local search, VCS, builds, tests, processes, or other operations requiring shell semantics.",
		Parameters: schema([][3]string{{"Command", "string", "The smallest shell operation that answers the request."},
			{"WorkingDirectory", "string", "Set only for one call in a named child directory or worktree."}}, "Command")},
		call: w.shell}
}

func (w *Workspace) shell(ctx context.Context, a args, m Meta) Result {
	command, _, err := a.str("Command")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if strings.TrimSpace(command) == "" {
		return Errorf("%s", request.CommandRequired)
	}
	if strings.ContainsRune(command, 0) {
		return Errorf("%s", CommandHasNUL) // before the work tree is copied: nothing can run it
	}
	timeout := DefaultShellTimeout
	if m.TimeoutSeconds > 0 {
		timeout = min(time.Duration(m.TimeoutSeconds)*time.Second, MaxShellTimeout)
	}
	wt, err := w.ov.WorkTree()
	if err != nil {
		return Errorf("Error: %v", err)
	}
	dir := wt.Dir()
	if wd, ok, _ := a.str("WorkingDirectory"); ok && strings.TrimSpace(wd) != "" {
		pl, refused := w.resolve(wd)
		if refused != nil {
			return *refused
		}
		if pl.ov != w.ov {
			return Refusef("Error: Access denied: %s is the session folder; in a trial, commands run in the project (%s).", safe(wd), w.ov.Project())
		}
		dir = filepath.Join(dir, filepath.FromSlash(pl.rel))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return Errorf("%s", request.DirectoryNotFound(pl.show()))
		}
	}
	out := RunCommand(ctx, command, dir, timeout)
	if _, err := wt.Collect(); err != nil {
		out.Text += "\n[agentdesk: " + err.Error() + "]"
	}
	return out
}

// CommandHasNUL is shell_execute's answer to a command holding a NUL
// byte: no program can receive one in its arguments, so it is refused
// before anything runs (the runtime's source shows no answer of its own).
const CommandHasNUL = "Error: The command contains a NUL character (\\0), which no shell command can carry; send it again without it."

// RunCommand runs command with /bin/sh in dir, in its own process group,
// stdin closed, output capped (MaxShellOutput each), under timeout; it
// kills the group on timeout, when ctx is done and after the command
// exits. The result is formatted as the runtime formats shell_execute's.
func RunCommand(ctx context.Context, command, dir string, timeout time.Duration) Result {
	if strings.ContainsRune(command, 0) {
		return Errorf("%s", CommandHasNUL)
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	script := fmt.Sprintf("ulimit -f %d 2>/dev/null\n%s", MaxShellFileBlocks, command)
	cmd := exec.CommandContext(tctx, "/bin/sh", "-c", script)
	cmd.Dir = dir
	cmd.Stdin = nil
	var stdout, stderr window
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	proctree.Prepare(cmd)
	cmd.Cancel = func() error { return proctree.Kill(cmd) }
	cmd.WaitDelay = ShellDrainGrace
	if err := proctree.Start(cmd); err != nil {
		return Errorf("Error: Failed to start command: %v", err)
	}
	err := cmd.Wait()
	proctree.Cleanup(cmd) // what the command left running in the background, in its group or not
	switch {
	case errors.Is(tctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		return Errorf("%s", request.ShellTimedOut(int(timeout/time.Second)))
	case ctx.Err() != nil:
		return Errorf("%s", request.ShellCancelled)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return Errorf("Error: %v", err)
	}
	text := stdout.String()
	if e := stderr.String(); e != "" {
		if text != "" {
			text += "\n"
		}
		text += e
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		text += "\n[output cut: a background process kept the output open after the command ended; it was stopped]"
	}
	return Result{Text: request.ShellResult(code, text, ""), Cut: stdout.cut() || stderr.cut()}
}

// window keeps the first and last MaxShellOutput/2 bytes written to it.
type window struct {
	mu    sync.Mutex
	head  []byte
	tail  []byte
	total int64
}

func (w *window) Write(p []byte) (int, error) {
	written := len(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.total += int64(len(p))
	half := MaxShellOutput / 2
	if room := half - len(w.head); room > 0 {
		n := min(room, len(p))
		w.head = append(w.head, p[:n]...)
		p = p[n:]
	}
	if len(p) > 0 {
		w.tail = append(w.tail, p...)
		if len(w.tail) > half {
			w.tail = append(w.tail[:0], w.tail[len(w.tail)-half:]...)
		}
	}
	return written, nil
}

func (w *window) cut() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total > int64(len(w.head)+len(w.tail))
}

func (w *window) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	kept := int64(len(w.head) + len(w.tail))
	if w.total <= kept {
		return strings.ToValidUTF8(string(w.head)+string(w.tail), "\uFFFD")
	}
	return strings.ToValidUTF8(string(w.head), "\uFFFD") +
		fmt.Sprintf("\n[… %d bytes of output omitted …]\n", w.total-kept) +
		strings.ToValidUTF8(string(w.tail), "\uFFFD")
}
