//go:build unix

package overlay

import (
	"errors"
	"syscall"
)

// oNonblock opens a FIFO swapped in at the last moment without blocking.
const oNonblock = syscall.O_NONBLOCK

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || err != nil && contains(err.Error(), "too many links")
}
