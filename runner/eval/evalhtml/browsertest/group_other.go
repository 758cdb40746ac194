//go:build !unix

package browsertest

import "os/exec"

// inGroup does nothing where there are no process groups.
func inGroup(*exec.Cmd) {}

// killGroup kills the browser alone where there are no process groups.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
