//go:build unix

package runner

import (
	"errors"
	"os"
	"syscall"
)

// errNoLocks says the system offers no file locks.
var errNoLocks = errors.New("file locks are not supported")

// tryLock takes an exclusive lock on f without waiting: false when
// another open file holds it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return false, nil
	case errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.ENOSYS):
		return false, errNoLocks
	}
	return false, err
}
