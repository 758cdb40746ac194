package runner

import (
	"sync"
	"time"
)

// virtualClock is the clock of a fast replay: it stands still until the
// replay moves it to the recorded time of what it plays, so the run's
// watchdog, timings and transcript see the recorded timeline without its
// pauses.
type virtualClock struct {
	mu sync.Mutex
	t  time.Time
}

func newVirtualClock(start time.Time) *virtualClock { return &virtualClock{t: start} }

func (c *virtualClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// advance moves the clock to t when t is later.
func (c *virtualClock) advance(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.t) {
		c.t = t
	}
}

// set moves the clock to t, back if need be (a limit that fell due before
// the last chunk the replay had already handed out).
func (c *virtualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// now returns the run's time: the wall clock, or a fast replay's virtual
// clock.
func (r *Run) now() time.Time {
	if r.clock != nil {
		return r.clock.now()
	}
	return time.Now()
}
