//go:build !unix

package suite

import "os/exec"

// isolationAvailable reports whether checks run without network: not
// here; the proxy variables are all there is.
func isolationAvailable() bool { return false }

func markIsolationUnavailable() {}

func isolationRefused(error) bool { return false }

func setCommandGroup(*exec.Cmd, bool) {}

// killCommandGroup kills the check (there are no process groups here).
func killCommandGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
