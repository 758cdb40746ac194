//go:build unix

package request

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading with O_NONBLOCK, so a FIFO
// swapped in after the check cannot block the open.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
