package cassette

import (
	"sync"
	"time"
)

// VirtualClock is the clock of a fast replay: it stands still until the
// replay moves it to the recorded time of what it plays, so the run's
// watchdog, timings and transcript see the recorded timeline without its
// pauses.
type VirtualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewVirtualClock returns a virtual clock standing at start.
func NewVirtualClock(start time.Time) *VirtualClock { return &VirtualClock{t: start} }

// Now returns the clock's time.
func (c *VirtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// advance moves the clock to t when t is later.
func (c *VirtualClock) Advance(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.t) {
		c.t = t
	}
}

// set moves the clock to t, back if need be (a limit that fell due before
// the last chunk the replay had already handed out).
func (c *VirtualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
