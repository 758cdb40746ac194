package evalrec

import (
	"context"
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Limiter caps the model calls under way at once, per provider: a suite's
// --jobs N lets at most N samples talk to one provider at a time (a sample
// makes its model calls one after another). It is safe for concurrent use.
type Limiter struct {
	n  int
	mu sync.Mutex
	// slots holds a semaphore per key.
	slots map[string]chan struct{}
}

// NewLimiter returns a Limiter of n calls per key (at least 1).
func NewLimiter(n int) *Limiter {
	return &Limiter{n: max(n, 1), slots: map[string]chan struct{}{}}
}

// N returns the calls allowed per key.
func (l *Limiter) N() int { return l.n }

// Acquire waits for a slot of key and returns the function that gives it
// back (call it once), or ctx's error.
func (l *Limiter) Acquire(ctx context.Context, key string) (release func(), err error) {
	l.mu.Lock()
	ch, ok := l.slots[key]
	if !ok {
		ch = make(chan struct{}, l.n)
		l.slots[key] = ch
	}
	l.mu.Unlock()
	select {
	case ch <- struct{}{}:
	case <-ctx.Done():
		return func() {}, ctx.Err()
	}
	var once sync.Once
	return func() { once.Do(func() { <-ch }) }, nil
}

// ProviderKey is the Limiter key of a model: its provider and endpoint
// (two providers configured at one endpoint share it; a replay, which
// calls no model, gets a key of its own).
func ProviderKey(m runfolder.Model) string {
	if m.Type == runner.ReplayProviderType {
		return "replay"
	}
	return strings.ToLower(m.Provider) + " " + m.Endpoint
}
