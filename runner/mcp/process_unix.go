//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// signalGroup sends SIGTERM (or SIGKILL) to cmd's whole process group.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
