package tui

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestHeldExecRunsLikeExecProcess: the command gets the terminal's streams
// unless it has its own, and its error comes back.
func TestHeldExecRunsLikeExecProcess(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	var term, own bytes.Buffer
	c := exec.Command("sh", "-c", "read line; echo \"got $line\"; echo oops >&2; exit 3")
	c.Stderr = &own
	h := heldExec{cmd: c}
	h.SetStdin(strings.NewReader("hello\n"))
	h.SetStdout(&term)
	h.SetStderr(&term) // kept: the command has its own
	err := h.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("error %v, want exit status 3", err)
	}
	if term.String() != "got hello\n" || own.String() != "oops\n" {
		t.Errorf("stdout %q, own stderr %q", term.String(), own.String())
	}
}
