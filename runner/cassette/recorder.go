package cassette

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// Recorder is an http.RoundTripper that keeps what the model answered: the
// status, and every read of the body with its time since the request went
// out. It keeps the bytes raw; the runner redacts them
// before they are stored.
type Recorder struct {
	inner http.RoundTripper

	mu    sync.Mutex
	calls []*RecordedCall
}

// RecordedCall is one request as the Recorder saw it.
type RecordedCall struct {
	Start       time.Time
	Answered    bool // the headers came, or the transport failed
	At          time.Duration
	Status      int
	ContentType string
	Err         string
	Chunks      []Chunk
	End         *End
}

// NewRecorder records what inner (http.DefaultTransport when nil) answers.
func NewRecorder(inner http.RoundTripper) *Recorder {
	if inner == nil {
		inner = http.DefaultTransport
	}
	return &Recorder{inner: inner}
}

// RoundTrip sends req through the real transport and records the answer.
func (rc *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	c := &RecordedCall{Start: time.Now()}
	rc.mu.Lock()
	rc.calls = append(rc.calls, c)
	rc.mu.Unlock()
	resp, err := rc.inner.RoundTrip(req)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	c.At = time.Since(c.Start)
	if err != nil {
		if req.Context().Err() == nil {
			// A failure of its own, not the run ending the call.
			c.Answered, c.Err = true, err.Error()
		}
		return nil, err
	}
	c.Answered, c.Status, c.ContentType = true, resp.StatusCode, resp.Header.Get("Content-Type")
	resp.Body = &recBody{body: resp.Body, rc: rc, c: c, ctx: req.Context()}
	return resp, nil
}

// Take returns the requests recorded since the last take.
func (rc *Recorder) Take() []*RecordedCall {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.calls
	rc.calls = nil
	return out
}

// recBody records a response body as it is read.
type recBody struct {
	body io.ReadCloser
	rc   *Recorder
	c    *RecordedCall
	ctx  context.Context
}

func (b *recBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.rc.mu.Lock()
	defer b.rc.mu.Unlock()
	at := time.Since(b.c.Start)
	if n > 0 {
		b.c.Chunks = append(b.c.Chunks, Chunk{At: at, Data: bytes.Clone(p[:n])})
	}
	if err != nil && b.c.End == nil && b.ctx.Err() == nil {
		switch {
		case err == io.EOF:
			b.c.End = &End{At: at, How: EndEOF}
		case errors.Is(err, io.ErrUnexpectedEOF):
			b.c.End = &End{At: at, How: EndDropped}
		default:
			b.c.End = &End{At: at, How: EndError, Error: err.Error()}
		}
	}
	return n, err
}

func (b *recBody) Close() error { return b.body.Close() }
