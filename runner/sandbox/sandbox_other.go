//go:build !linux

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// Probe says what the sandbox can be on this machine: nothing, elsewhere
// than Linux.
func Probe() Report {
	return Report{Unavailable: "agentdesk's sandbox needs Linux; this is " + runtime.GOOS}
}

// Wrap refuses: elsewhere than Linux there is no sandbox.
func Wrap(cmd *exec.Cmd, c Config) error {
	return fmt.Errorf("%s: %w", Probe().Unavailable, ErrUnavailable)
}
