package suite

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// exitsWithin reports whether process pid is gone, or exits within d: a
// pidfd becomes readable when its process terminates, so this waits on the
// event, not on a clock. Without pidfds it looks once.
func exitsWithin(pid int, d time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return errors.Is(err, unix.ESRCH) || gone(pid)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(d/time.Millisecond))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return n > 0 || gone(pid)
	}
}
