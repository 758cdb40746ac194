package runner

import (
	"context"
	"io"
	"net/http"

	"github.com/agentdesk/agentdesk/runner/wire"
)

// callStream reads the answer to one model call an item at a time: the
// response status, then its decoded events, until the stream ends or
// fails. A live call feeds it to its watchdog loop from a goroutine of
// its own (feed); a fast replay pulls it in step, on the call's own
// goroutine (next), where no wall clock can run out between two items
// and a goroutine and a channel a call were a tenth of a replay's CPU.
type callStream struct {
	r   *Run
	ctx context.Context // the call's
	req *http.Request
	// onRead is called whenever bytes arrive.
	onRead func()

	resp *http.Response
	dec  wire.Decoder
	// queue holds items that came before the next one the decoder
	// makes (a fast replay's wire items, see wireItem).
	queue []item
	head  int  // queue[head] is the next item
	sent  bool // the request has been sent
	over  bool // no item follows
	// ended is set when the decoder reached the end of the stream.
	ended bool
}

// next returns the next item; ok is false when the stream is over: it
// ended, failed (the failure was the last item), or the call's context
// ended.
func (s *callStream) next() (it item, ok bool) {
	for !s.over || s.head < len(s.queue) {
		if s.head < len(s.queue) {
			it = s.queue[s.head]
			s.head++
			if s.head == len(s.queue) {
				s.queue, s.head = s.queue[:0], 0
			}
			return it, true
		}
		s.step()
	}
	return item{}, false
}

// step moves the stream on by what makes the next item(s), queued.
func (s *callStream) step() {
	r := s.r
	if !s.sent {
		s.sent = true
		resp, err := r.client.Do(s.req)
		if err != nil {
			s.over = true
			if s.ctx.Err() == nil {
				// A failure of the transport's own, not the call ending.
				s.push(item{at: r.now(), err: err})
			}
			return
		}
		s.resp = resp
		s.onRead()
		s.push(item{at: r.now(), status: resp.StatusCode})
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			s.over = true
			s.push(item{at: r.now(), httpErr: errorMessage(resp)})
			s.close()
			return
		}
		s.dec = wire.NewDecoder(r.model.Protocol, &activityReader{r: resp.Body, onRead: s.onRead})
		return
	}
	e, err := s.dec.Next()
	at := r.now()
	switch {
	case err == io.EOF:
		s.over, s.ended = true, true
		s.close()
	case err != nil:
		s.over = true
		if s.ctx.Err() == nil {
			s.push(item{at: at, err: err})
		}
		s.close()
	default:
		s.push(item{at: at, ev: e, isEvent: true})
	}
}

// push queues it.
func (s *callStream) push(it item) { s.queue = append(s.queue, it) }

// wireItem is a fast replay's onRead: bytes arrived, at the run's time.
func (s *callStream) wireItem() { s.push(item{at: s.r.now(), wire: true}) }

// close closes the response body, once.
func (s *callStream) close() {
	if s.resp != nil {
		s.resp.Body.Close()
		s.resp = nil
	}
}

// feed sends the stream's items to items until it is over or ctx ends,
// then closes items (and ended first, when the decoder reached the end
// of the stream).
func (s *callStream) feed(items chan<- item, ended chan<- struct{}) {
	defer close(items)
	defer s.close()
	for {
		it, ok := s.next()
		if !ok {
			if s.ended {
				close(ended)
			}
			return
		}
		select {
		case items <- it:
		case <-s.ctx.Done():
			return
		}
	}
}
