//go:build !unix

package proctree

import "os/exec"

func prepare(*exec.Cmd) {}

// Start starts cmd.
func Start(cmd *exec.Cmd) error { return cmd.Start() }

// Kill kills cmd's process (there are no process groups here).
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// Cleanup kills cmd's process.
func Cleanup(cmd *exec.Cmd) Left {
	_ = Kill(cmd)
	return Left{}
}
