package tui

import (
	"io"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"
)

// execFloor is the least time a program started with tea.Exec (the editor,
// the pager) keeps the terminal.
//
// Bubble Tea v2.1.1 can leave the screen frozen for good after an exec that
// returns at once (an editor that hands the file to a running window, a
// pager on a short file): stopping the renderer does not wait for its loop,
// whose ticker.Stop can then land after the restart's ticker.Reset, and no
// frame is drawn again (charmbracelet/bubbletea#1778, fix proposed in #1781).
// Holding the terminal a little longer lets the old loop end first. Drop
// this once the Bubble Tea in go.mod has the fix.
const execFloor = 150 * time.Millisecond

// heldExec is an *exec.Cmd for tea.Exec that keeps the terminal at least
// execFloor; otherwise it is what tea.ExecProcess would run.
type heldExec struct{ cmd *exec.Cmd }

// execHeld is tea.ExecProcess through heldExec.
func execHeld(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	return tea.Exec(heldExec{cmd: c}, fn)
}

// Run runs the command and returns its error, no sooner than execFloor
// after it started.
func (h heldExec) Run() error {
	start := time.Now()
	err := h.cmd.Run()
	if rest := execFloor - time.Since(start); rest > 0 {
		time.Sleep(rest)
	}
	return err
}

// SetStdin gives the command the terminal's input unless it has its own.
func (h heldExec) SetStdin(r io.Reader) {
	if h.cmd.Stdin == nil {
		h.cmd.Stdin = r
	}
}

// SetStdout gives the command the terminal's output unless it has its own.
func (h heldExec) SetStdout(w io.Writer) {
	if h.cmd.Stdout == nil {
		h.cmd.Stdout = w
	}
}

// SetStderr gives the command the program's error output unless it has
// its own.
func (h heldExec) SetStderr(w io.Writer) {
	if h.cmd.Stderr == nil {
		h.cmd.Stderr = w
	}
}
