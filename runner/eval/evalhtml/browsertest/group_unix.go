//go:build unix

package browsertest

import (
	"os/exec"
	"syscall"
)

// inGroup makes the browser the leader of a process group of its own.
func inGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the browser's process group: the browser and its helpers.
func killGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
