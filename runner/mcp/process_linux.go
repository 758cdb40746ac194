//go:build linux

package mcp

import "syscall"

// setParentDeathSignal has the kernel kill the server's leader if
// agentdesk itself is killed outright (SIGKILL leaves no time to stop it).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
