//go:build !linux

package suite

import "time"

// exitsWithin reports whether process pid is gone; without pidfds it looks
// once.
func exitsWithin(pid int, _ time.Duration) bool { return gone(pid) }
