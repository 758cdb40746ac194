//go:build unix

package trialtools

import (
	"os"
	"syscall"
)

// listingFile returns a second handle on the open folder f for reading its
// entries. A File opened through an os.Root lstats every entry it reads
// (to fill in FileInfo eagerly); a plain handle on the same open folder
// takes the entry types the kernel reports with the names, which is many
// times faster on big folders. Nothing is opened by name: the handle is a
// duplicate of f's descriptor, so it is the folder that was checked. The
// caller closes it.
func listingFile(f *os.File) (*os.File, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var fd int
	var dupErr error
	syscall.ForkLock.RLock()
	err = raw.Control(func(orig uintptr) {
		fd, dupErr = syscall.Dup(int(orig))
		if dupErr == nil {
			syscall.CloseOnExec(fd)
		}
	})
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	if dupErr != nil {
		return nil, dupErr
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}
