package runner

import (
	"context"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/runner/approve"
)

// eventAsker puts a run's gated calls to the reader of its events
// (Spec.AskInEvents): each becomes an EventApproval, and the run waits for
// its answer or for its context.
type eventAsker struct {
	mu  sync.Mutex
	run *Run
}

// Ask emits the request as an event and waits for the answer.
func (a *eventAsker) Ask(ctx context.Context, req approve.Request) (approve.Answer, error) {
	a.mu.Lock()
	r := a.run
	a.mu.Unlock()
	if r == nil {
		return approve.Deny, context.Canceled
	}
	pr, reply := approve.NewPrompt(req, r.ID())
	r.mu.Lock()
	r.emit(Event{Kind: EventApproval, At: time.Since(r.start), Approval: &pr})
	r.mu.Unlock()
	return approve.Wait(ctx, reply)
}

// attach gives the asker its run once it exists.
func (a *eventAsker) attach(r *Run) {
	a.mu.Lock()
	a.run = r
	a.mu.Unlock()
}
