//go:build !unix

package mcp

import "os/exec"

// signalGroup kills the leader where there are no process groups.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
