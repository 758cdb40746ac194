package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/proctree"
	"github.com/agentdesk/agentdesk/runner/sandbox"
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
		var refused *Result
		if dir, refused = w.workingDir(wt, wd); refused != nil {
			return *refused
		}
	}
	box, refusal := w.sandboxFor(wt)
	if refusal != "" {
		return Refusef("%s", refusal)
	}
	env, failure := w.tempEnv()
	if failure != "" {
		return Errorf("%s", failure)
	}
	// Whether sandboxed or not, a command never gets agentdesk's secrets.
	env, _ = sandbox.Scrub(append(os.Environ(), env...), w.box.PassEnv)
	out, code := runCommand(ctx, command, dir, timeout, env, box)
	c, err := wt.Collect()
	if err != nil {
		out.Text += "\n[agentdesk: " + err.Error() + "]"
	}
	out.Text += sizeLimitNote(wt.Dir(), append(c.Written, c.Skipped...), code)
	return out
}

// workingDir is the folder of the work tree wt a command with the
// WorkingDirectory wd runs in, or the answer that refuses it: a path the
// workspace refuses, the session folder (commands run in the project),
// or no folder there.
func (w *Workspace) workingDir(wt *overlay.WorkTree, wd string) (string, *Result) {
	pl, refused := w.resolve(wd)
	if refused != nil {
		return "", refused
	}
	if pl.ov != w.ov {
		r := Refusef("Error: Access denied: %s is the session folder; in a trial, commands run in the project (%s).", safe(wd), w.ov.Project())
		return "", &r
	}
	dir := filepath.Join(wt.Dir(), filepath.FromSlash(pl.rel))
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		r := Errorf("%s", request.DirectoryNotFound(pl.show()))
		return "", &r
	}
	return dir, nil
}

// sandboxFor returns the sandbox a command runs in (nil with
// --no-sandbox): the work tree shown at the project's path (and at its
// own, for links into it), the session folder writable, the run's temp
// folder as /tmp. Where the machine cannot sandbox, refusal is the
// answer the model reads instead.
func (w *Workspace) sandboxFor(wt *overlay.WorkTree) (box *sandbox.Config, refusal string) {
	if w.box.Off {
		return nil, ""
	}
	if r := sandbox.Probe(); !r.Available() {
		return nil, sandbox.Refusal(r)
	}
	c := &sandbox.Config{
		Binds:   []sandbox.Bind{{Source: wt.Dir(), Target: w.ov.Project()}, {Source: wt.Dir(), Target: wt.Dir()}},
		Network: w.box.Network,
		PassEnv: w.box.PassEnv,
	}
	if w.session != nil {
		if fi, err := os.Stat(w.session.Project()); err == nil && fi.IsDir() {
			c.Binds = append(c.Binds, sandbox.Bind{Source: w.session.Project(), Target: w.session.Project()})
		}
	}
	if w.tempDir != "" {
		if err := os.MkdirAll(w.tempDir, 0o700); err == nil {
			c.TempDir = w.tempDir
		}
	}
	return c, ""
}

// ServerSandbox returns the sandbox a stdio MCP server of the run starts
// in: a command's (the run's copy, made now, at the project's path), the
// network on when the run allows it or names the server; nil with
// --no-sandbox. Where the machine cannot sandbox, the error says why
// (sandbox.Refusal's words).
func (w *Workspace) ServerSandbox(server string) (*sandbox.Config, error) {
	if w.box.Off {
		return nil, nil
	}
	if r := sandbox.Probe(); !r.Available() {
		return nil, &sandbox.ServerRefusedError{Server: server, Why: r.Unavailable}
	}
	wt, err := w.ov.WorkTree()
	if err != nil {
		return nil, err
	}
	c, _ := w.sandboxFor(wt)
	c.Network = w.box.Network || slices.Contains(w.box.NetworkServers, server)
	return c, nil
}

// CollectWork reads what commands and servers wrote in the run's copy of
// the project back into the overlay, when the copy was made.
func (w *Workspace) CollectWork() {
	if wt := w.ov.WorkTreeIfMade(); wt != nil {
		_, _ = wt.Collect()
	}
}

// xfszExit is the shell's exit code for a command that SIGXFSZ (signal
// 25 on Linux and macOS) ended: 128 + 25.
const xfszExit = 128 + 25

// shellFileBlocks is the `ulimit -f` commands run under (a variable so
// tests can make the limit small).
var shellFileBlocks = MaxShellFileBlocks

// sizeLimitNote tells the model that the disk-fill guard stopped a write:
// a file the command wrote in the work tree is exactly at the limit (the
// kernel cuts the write there and sends SIGXFSZ), or the command's exit
// code is the shell's for a process SIGXFSZ ended (a write elsewhere).
// The limit is `ulimit -f` blocks of 512 bytes (dash) or 1024 (bash).
// It returns "" when nothing hit the limit.
func sizeLimitNote(dir string, changed []string, code int) string {
	limits := [2]int64{int64(shellFileBlocks) * 512, int64(shellFileBlocks) * 1024}
	var hit []string
	for _, c := range changed {
		rel := c
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if i := strings.LastIndex(c, " ("); err != nil && i > 0 { // a Skipped entry carries a reason
			rel = c[:i]
			fi, err = os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		}
		if err == nil && fi.Mode().IsRegular() && (fi.Size() == limits[0] || fi.Size() == limits[1]) {
			hit = append(hit, safe(rel))
		}
	}
	switch {
	case len(hit) > 0:
		return fmt.Sprintf("\n[agentdesk: the write of %s was stopped at the file size limit a trial sets (ulimit -f %d); the file holds only its first %d bytes]",
			strings.Join(hit, ", "), shellFileBlocks, limits[0])
	case code == xfszExit:
		return fmt.Sprintf("\n[agentdesk: a process was stopped writing past the file size limit a trial sets (ulimit -f %d)]", shellFileBlocks)
	}
	return ""
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
	res, _ := runCommand(ctx, command, dir, timeout, nil, nil)
	return res
}

// tempEnv returns the environment a command gets for the run's temp_dir
// (TMPDIR, TMP and TEMP, as NetClaw's ManagedTemporaryEnvironment sets
// them), making the folder first; nil when the workspace has none. When
// the folder cannot be made, failure is the runtime's answer and the
// command does not run.
func (w *Workspace) tempEnv() (env []string, failure string) {
	if w.tempDir == "" {
		return nil, ""
	}
	if err := os.MkdirAll(w.tempDir, 0o700); err != nil {
		return nil, "Error preparing managed temporary directory: " + err.Error()
	}
	return []string{"TMPDIR=" + w.tempDir, "TMP=" + w.tempDir, "TEMP=" + w.tempDir}, ""
}

// runCommand is RunCommand, with the command's exit code (-1 when it
// did not run to its end); env, when not nil, is the command's
// environment (else agentdesk's), and box, when not nil, the sandbox it
// runs in.
func runCommand(ctx context.Context, command, dir string, timeout time.Duration, env []string, box *sandbox.Config) (Result, int) {
	if strings.ContainsRune(command, 0) {
		return Errorf("%s", CommandHasNUL), -1
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	script := fmt.Sprintf("ulimit -f %d 2>/dev/null\n%s", shellFileBlocks, command)
	cmd := exec.CommandContext(tctx, "/bin/sh", "-c", script)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	cmd.Stdin = nil
	var stdout, stderr window
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = ShellDrainGrace
	if box != nil {
		if err := sandbox.Wrap(cmd, *box); err != nil {
			return Errorf("Error: the command could not be sandboxed, so it did not run: %v", err), -1
		}
	}
	proctree.Prepare(cmd)
	cmd.Cancel = func() error { return proctree.Kill(cmd) }
	if err := proctree.Start(cmd); err != nil {
		return Errorf("Error: Failed to start command: %v", err), -1
	}
	err := cmd.Wait()
	left := proctree.Cleanup(cmd) // what the command left running in the background, in its group or not
	switch {
	case errors.Is(tctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		return Errorf("%s", request.ShellTimedOut(int(timeout/time.Second))), -1
	case ctx.Err() != nil:
		return Errorf("%s", request.ShellCancelled), -1
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return Errorf("Error: %v", err), -1
	}
	text := commandOutput(stdout.String(), stderr.String(), errors.Is(err, exec.ErrWaitDelay) || left.OutputCut)
	res := Result{Text: request.ShellResult(code, text, ""), Cut: stdout.cut() || stderr.cut()}
	// A fork bomb ends at the sandbox's process limit: a failed call.
	res.IsError = box != nil && strings.Contains(text, strings.TrimSpace(sandbox.ProcessLimitNote))
	return res, code
}

// commandOutput is a command's output as the model reads it: standard
// output, then standard error, then a note when a background process
// held the output open (held) and was stopped.
func commandOutput(stdout, stderr string, held bool) string {
	text := stdout
	if stderr != "" {
		if text != "" {
			text += "\n"
		}
		text += stderr
	}
	if held {
		text += "\n[output cut: a background process kept the output open after the command ended; it was stopped]"
	}
	return text
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
