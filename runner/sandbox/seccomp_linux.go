//go:build linux

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A read-only mount does not stop connect() on a Unix socket, and
// Landlock (up to ABI 7) does not either: a command could reach a host
// server listening on one (Docker's, D-Bus's, an ssh-agent, an ssh
// ControlMaster) and act outside the trial through it. So the command may
// not make Unix sockets with socket(2): socketpair(2) still works, and so
// do TCP and UDP on the sandbox's own loopback. io_uring, which can make
// sockets without socket(2), is refused too.

// seccompArch is the audit architecture of this build, and where the low
// 32 bits of a system call's first argument lie in seccomp_data.
var seccompArch = map[string]struct {
	arch uint32
	arg0 uint32
}{
	"amd64":   {unix.AUDIT_ARCH_X86_64, 16},
	"arm64":   {unix.AUDIT_ARCH_AARCH64, 16},
	"riscv64": {unix.AUDIT_ARCH_RISCV64, 16},
	"ppc64le": {unix.AUDIT_ARCH_PPC64LE, 16},
	"s390x":   {unix.AUDIT_ARCH_S390X, 20},
}

// x32Bit marks the x32 system calls on amd64 (and is above every native
// call number elsewhere): they are refused outright.
const x32Bit = 0x40000000

// noUnixSockets installs the seccomp filter on the calling thread (which
// execs the command; no_new_privs is set already).
func noUnixSockets() error {
	a, ok := seccompArch[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("the sandbox has no seccomp filter for %s", runtime.GOARCH)
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		kill  = unix.SECCOMP_RET_KILL_PROCESS
	)
	filter := []unix.SockFilter{
		/* 0 */ {Code: ld, K: 4}, // arch
		/* 1 */ {Code: jeq, K: a.arch, Jt: 0, Jf: 8}, // another ABI: kill
		/* 2 */ {Code: ld, K: 0}, // nr
		/* 3 */ {Code: jge, K: x32Bit, Jt: 6, Jf: 0}, // x32: kill
		/* 4 */ {Code: jeq, K: unix.SYS_IO_URING_SETUP, Jt: 4, Jf: 0},
		/* 5 */ {Code: jeq, K: unix.SYS_SOCKET, Jt: 0, Jf: 2},
		/* 6 */ {Code: ld, K: a.arg0}, // the domain
		/* 7 */ {Code: jeq, K: unix.AF_UNIX, Jt: 1, Jf: 0},
		/* 8 */ {Code: ret, K: allow},
		/* 9 */ {Code: ret, K: deny},
		/* 10 */ {Code: ret, K: kill},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return fmt.Errorf("installing the seccomp filter that keeps Unix sockets out: %w", err)
	}
	runtime.KeepAlive(filter)
	return nil
}
