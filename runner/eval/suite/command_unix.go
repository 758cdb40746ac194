//go:build unix && !linux

package suite

import (
	"os/exec"
	"syscall"
)

// isolationAvailable reports whether checks run without network: only on
// Linux (see command_linux.go); here the proxy variables are all there is.
func isolationAvailable() bool { return false }

func markIsolationUnavailable() {}

func isolationRefused(error) bool { return false }

// setCommandGroup starts the check in a process group of its own.
func setCommandGroup(cmd *exec.Cmd, _ bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
