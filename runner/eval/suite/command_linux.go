//go:build linux

package suite

import (
	"errors"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
)

// noNamespaces is set once starting a check in namespaces of its own
// failed: user namespaces are off for this user.
var noNamespaces atomic.Bool

// isolationAvailable reports whether checks run without network: on
// Linux, each in a new user and network namespace (as `unshare -rn`
// does), where the only interface is a loopback that is down.
func isolationAvailable() bool { return !noNamespaces.Load() }

func markIsolationUnavailable() { noNamespaces.Store(true) }

// isolationRefused reports whether err is the kernel refusing the
// namespaces (disabled unprivileged user namespaces, a seccomp or
// AppArmor policy, the namespace limit).
func isolationRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) ||
		errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EUSERS)
}

// setCommandGroup starts the check in a process group of its own and,
// isolated, in a new user namespace mapping the user to itself and a new
// network namespace.
func setCommandGroup(cmd *exec.Cmd, isolated bool) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if isolated {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	}
	cmd.SysProcAttr = attr
}
