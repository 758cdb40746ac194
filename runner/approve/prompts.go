package approve

import "context"

// Prompt is one request waiting for the author's answer: the browser
// reads it from Prompts.C, shows Req, and calls Answer once.
type Prompt struct {
	// Req is the call to approve.
	Req Request
	// RunID names the run that asks ("" when the asker was made without
	// one).
	RunID string
	reply chan Answer
}

// Answer sends the author's answer back. It never blocks: an answer to
// a prompt whose run stopped waiting (cancelled) is dropped, and only the
// first answer counts.
func (p Prompt) Answer(a Answer) {
	select {
	case p.reply <- a:
	default:
	}
}

// NewPrompt makes the prompt of a request, and the channel its answer
// comes on (buffered: Answer never blocks).
func NewPrompt(req Request, runID string) (Prompt, <-chan Answer) {
	reply := make(chan Answer, 1)
	return Prompt{Req: req, RunID: runID, reply: reply}, reply
}

// Wait waits for the answer on reply, or for ctx; a cancelled wait is a
// denial with ctx's error.
func Wait(ctx context.Context, reply <-chan Answer) (Answer, error) {
	select {
	case a := <-reply:
		if ctx.Err() != nil {
			return Deny, ctx.Err()
		}
		return a, nil
	case <-ctx.Done():
		return Deny, ctx.Err()
	}
}

// Prompts is an Asker that hands each request to a channel for someone
// else (the browser) to answer. It never touches a terminal.
type Prompts struct {
	// C carries the prompts; the browser reads it.
	C chan Prompt
	// RunID is copied into every prompt.
	RunID string
}

// NewPrompts returns a Prompts whose channel holds up to buffer prompts.
func NewPrompts(buffer int) *Prompts { return &Prompts{C: make(chan Prompt, buffer)} }

// ForRun returns an asker sending to the same channel with run id.
func (p *Prompts) ForRun(id string) *Prompts { return &Prompts{C: p.C, RunID: id} }

// Ask sends the request and waits for its answer, or for ctx.
func (p *Prompts) Ask(ctx context.Context, req Request) (Answer, error) {
	pr, reply := NewPrompt(req, p.RunID)
	select {
	case p.C <- pr:
	case <-ctx.Done():
		return Deny, ctx.Err()
	}
	return Wait(ctx, reply)
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }
