package cassette

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// ErrReplaySilence is what a fast replay's body returns where the
// recording goes silent (the recorded call was ended by the watchdog): the
// run's next limit falls due at once, on the virtual clock.
var ErrReplaySilence = errors.New("the recording goes silent here")

// ErrReplayCancelled is what a replay returns where the recorded run was
// cancelled by its parent.
var ErrReplayCancelled = errors.New("the recorded run was cancelled here")

// ReplayExhaustedError is a replay asking for a model call its cassette
// does not hold.
type ReplayExhaustedError struct {
	// Calls is how many the cassette holds; Asked the call asked for.
	Calls, Asked int
	// Stale is set when the cassette was recorded under older loop rules
	// (LoopRules).
	Stale bool
}

func (e *ReplayExhaustedError) Error() string {
	if e.Stale {
		return fmt.Sprintf("the cassette holds %d model calls and the replay asks for call %d: the cassette was recorded under older loop rules "+
			"(a cap on tool rounds, no nudges for empty replies, agentdesk's own repeat guard), and today's loop, NetClaw's, goes on where that one stopped; record the run again", e.Calls, e.Asked)
	}
	return fmt.Sprintf("the cassette holds %d model calls and the replay asks for call %d: the replay has gone differently from the recording (a decoder change?)", e.Calls, e.Asked)
}

// Player is an http.RoundTripper that answers a run's model calls from a
// cassette, in order: the recorded status, then the recorded bytes, each
// chunk at its recorded time after the request, and the recorded end. It
// goes through the same decoders and watchdog as a live call.
//
// At recorded speed it waits on the wall clock, and where the recording
// goes silent (a call the watchdog ended) it stays silent until the call
// is cancelled, so the run's watchdog ends it alike. With a virtual clock
// (a fast replay) it moves the clock to each chunk's time instead of
// waiting, and reports silence as ErrReplaySilence.
type Player struct {
	tape  *Cassette
	clock *VirtualClock // nil: recorded speed

	mu   sync.Mutex
	next int
}

// NewPlayer plays tape back; clock is a fast replay's virtual clock, nil
// for recorded speed.
func NewPlayer(tape *Cassette, clock *VirtualClock) *Player {
	return &Player{tape: tape, clock: clock}
}

// RoundTrip answers the next model call from the cassette.
func (p *Player) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		// What was sent does not change the answer: the body is not
		// read (a replay's is encoded only when read, see
		// wire.NewLazyRequest).
		req.Body.Close()
	}
	p.mu.Lock()
	p.next++
	n := p.next
	p.mu.Unlock()
	c := p.tape.Call(n)
	if c == nil {
		if p.tape.Header.Loop != LoopRules {
			return nil, &ReplayExhaustedError{Calls: len(p.tape.Calls), Asked: n, Stale: true}
		}
		return nil, &ReplayExhaustedError{Calls: len(p.tape.Calls), Asked: n}
	}
	b := &playback{p: p, c: c, ctx: req.Context(), start: time.Now()}
	if p.clock != nil {
		b.start = p.clock.Now()
	}
	if c.Status == 0 && c.Error == "" {
		// The recorded call ended while waiting for the headers.
		return nil, b.finish()
	}
	if err := b.wait(c.At); err != nil {
		return nil, err
	}
	if c.Error != "" {
		return nil, errors.New(c.Error)
	}
	resp := &http.Response{
		Status: fmt.Sprintf("%d %s", c.Status, http.StatusText(c.Status)), StatusCode: c.Status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: b, ContentLength: -1, Request: req,
	}
	if c.ContentType != "" {
		resp.Header.Set("Content-Type", c.ContentType)
	}
	return resp, nil
}

// playback is the body of one replayed call.
type playback struct {
	p     *Player
	c     *Call
	ctx   context.Context
	start time.Time

	mu     sync.Mutex
	i, off int // the next chunk, and how much of it has been read
	err    error
}

// wait waits until at after the call's start: on the wall clock, or by
// moving the virtual clock.
func (b *playback) wait(at time.Duration) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	target := b.start.Add(at)
	if b.p.clock != nil {
		b.p.clock.Advance(target)
		return nil
	}
	d := time.Until(target)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-b.ctx.Done():
		return b.ctx.Err()
	}
}

// Read plays the next chunk, or the recorded end.
func (b *playback) Read(buf []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if len(buf) == 0 {
		return 0, nil
	}
	for b.i < len(b.c.Chunks) {
		ch := b.c.Chunks[b.i]
		if b.off == 0 {
			if err := b.wait(ch.At); err != nil {
				b.err = err
				return 0, err
			}
		}
		n := copy(buf, ch.Data[b.off:])
		b.off += n
		if b.off >= len(ch.Data) {
			b.i, b.off = b.i+1, 0
		}
		if n > 0 {
			return n, nil
		}
	}
	b.err = b.finish()
	return 0, b.err
}

// finish plays the recorded end of the call.
func (b *playback) finish() error {
	e := b.c.End
	if e == nil || e.How == EndCut {
		if b.p.clock != nil {
			return ErrReplaySilence
		}
		<-b.ctx.Done()
		return b.ctx.Err()
	}
	if err := b.wait(e.At); err != nil {
		return err
	}
	switch e.How {
	case EndEOF:
		return io.EOF
	case EndDropped:
		return io.ErrUnexpectedEOF
	case EndCancelled:
		return ErrReplayCancelled
	}
	msg := e.Error
	if msg == "" {
		msg = "reading the response failed"
	}
	return errors.New(msg)
}

// Close ends the playback.
func (b *playback) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = errors.New("read after close")
	}
	return nil
}
