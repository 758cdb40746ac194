//go:build !unix

package suite

import "os/exec"

// isolationAvailable reports whether checks run without network: not
// here; the proxy variables are all there is.
func isolationAvailable() bool { return false }

func markIsolationUnavailable() {}

func isolationRefused(error) bool { return false }

func setCommandGroup(*exec.Cmd, bool) {}
