//go:build unix && !linux

package proctree

import (
	"os/exec"
	"syscall"
)

func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Start starts cmd.
func Start(cmd *exec.Cmd) error { return cmd.Start() }

// Kill kills cmd's process group.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return err
	}
	return nil
}

// Cleanup kills what is left of cmd's process group.
func Cleanup(cmd *exec.Cmd) Left {
	_ = Kill(cmd)
	return Left{}
}
