package runner

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// item is what the reading goroutine hands the watchdog loop.
type item struct {
	at      time.Time
	ev      wire.Event
	isEvent bool
	wire    bool   // bytes arrived (fast replay only: the wall clock cannot say when)
	status  int    // response status, once
	httpErr string // the body's message on a non-2xx answer
	err     error  // transport or decoding failure
}

// activityReader reports when bytes arrive, so the watchdog sees wire
// activity below the event level.
type activityReader struct {
	r      io.Reader
	onRead func()
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.onRead()
	}
	return n, err
}

// call makes model call n with the conversation so far under its own
// watchdog and returns its evidence. Events go to the run's readers and
// transcript as they arrive.
// The steps are modelCall's: send, readEvents (each item through handle,
// the watchdog applied between them), finish.
func (r *Run) call(n int, msgs []wire.Message) *CallEvidence {
	c := r.newCall(n)
	defer c.cancel()
	req, err := c.request(msgs)
	if err != nil {
		c.ev.Err, c.ev.End = err, c.start
		return c.ev
	}
	c.send(req, nudgeOf(n, msgs))
	c.readEvents()
	return c.finish()
}

// modelCall is the state of one model call while it streams: the evidence
// it builds, its watchdog, the channel the reading goroutine feeds, and the
// redacting streams the reply's text and thinking pass through.
type modelCall struct {
	r  *Run
	n  int
	ev *CallEvidence
	wd *Watchdog

	ctx    context.Context // the call's; cancelled when it ends
	cancel context.CancelFunc
	start  time.Time
	// virtual is a fast replay: the run's clock is virtual, there is no
	// timer, and limits fall due between items.
	virtual bool

	// stream reads the answer; a live call's goroutine feeds it to
	// items (streamEnded closed when it reached the end of the stream).
	stream      *callStream
	items       chan item
	streamEnded chan struct{}
	// lastRead is when bytes last arrived, as time since start (-1: not
	// yet); the reading goroutine stores it, the timer path reads it.
	lastRead atomic.Int64
	timer    *time.Timer
	timerC   <-chan time.Time

	text, think *redact.StreamRedactor
	raw         strings.Builder
	// lastAt is when the last item came, on the run's clock; drained is
	// set when the reading goroutine finished on its own.
	lastAt  time.Time
	drained bool
}

// newCall starts the state of model call n; its start is now.
func (r *Run) newCall(n int) *modelCall {
	m := r.model
	url, _ := m.Protocol.URL(m.Endpoint) // checked by ResolveModel
	c := &modelCall{
		r:       r,
		n:       n,
		ev:      &CallEvidence{N: n, Endpoint: r.red.String(url), Provider: m.Provider},
		virtual: r.clock != nil,
		text:    r.red.Stream(),
		think:   r.red.Stream(),
	}
	c.ctx, c.cancel = context.WithCancel(r.ctx)
	return c
}

// request builds the call's HTTP request and starts its clock.
func (c *modelCall) request(msgs []wire.Message) (*http.Request, error) {
	r, m := c.r, c.r.model
	wreq := wire.Request{
		Endpoint:     m.Endpoint,
		APIKey:       m.APIKey,
		ProviderType: m.Type,
		Model:        m.ModelID,
		System:       r.system,
		Layers:       r.layers,
		Messages:     msgs,
		MaxTokens:    r.spec.MaxTokens,
	}
	if r.toolsOn {
		wreq.Tools = r.offeredNow()
	}
	build := m.Protocol.NewHTTPRequest
	if r.player != nil {
		// A replay answers from the recording without reading the body.
		build = m.Protocol.NewLazyRequest
	}
	req, err := build(c.ctx, wreq)
	c.start = r.now()
	c.ev.Start = c.start
	return req, err
}

// send notes the request, makes this call the run's current one under a
// fresh watchdog, and, but in a fast replay, starts the goroutine that
// sends req and reads the answer into c.items.
func (c *modelCall) send(req *http.Request, nudge string) {
	r, m := c.r, c.r.model
	c.wd = NewWatchdog(r.limits, c.start)
	entry := runfolder.TranscriptEntry{Type: "request", URL: c.ev.Endpoint, Protocol: m.Protocol.String(), Model: m.ModelID}
	if c.n == 1 {
		entry.System, entry.Message = r.red.String(r.system), r.red.String(r.message)
	}
	if r.toolsOn {
		entry.Tools = r.toolNames()
	}
	entry.Nudge = r.red.String(nudge)
	r.mu.Lock()
	r.wd = c.wd
	r.callN = c.n
	r.rec.Output = ""
	r.output.Reset()
	r.rec.Counts.ModelCalls = c.n
	r.note(c.start, entry)
	r.mu.Unlock()

	c.stream = &callStream{r: r, ctx: c.ctx, req: req}
	if c.virtual {
		// A fast replay reads in step with the watchdog (readInStep).
		c.stream.onRead = c.stream.wireItem
		return
	}
	c.lastRead.Store(-1)
	c.stream.onRead = func() { c.lastRead.Store(int64(time.Since(c.start))) }
	c.items = make(chan item, 64)
	c.streamEnded = make(chan struct{})
	go c.stream.feed(c.items, c.streamEnded)
}

// readEvents takes items until the call is over: the stream ends or
// fails, the watchdog trips, or the run is cancelled.
func (c *modelCall) readEvents() {
	r := c.r
	if c.virtual {
		c.readInStep()
		return
	}
	c.timer = time.NewTimer(time.Hour)
	defer c.timer.Stop()
	c.timerC = c.timer.C
	c.arm()
	for over := false; !over; {
		select {
		case it, ok := <-c.items:
			if !ok && r.ctx.Err() != nil && !closed(c.streamEnded) {
				// The reading goroutine saw the cancellation first.
				c.cancelled()
			}
			c.drained = !ok
			over = !ok || c.due(it.at) || c.handle(it)
		case <-c.timerC:
			over = c.timerFired()
		case <-r.ctx.Done():
			c.cancelled()
			over = true
		}
		if !over {
			c.arm()
		}
	}
}

// readInStep is readEvents of a fast replay: it pulls each item from the
// stream itself, with no timer (limits fall due between items, see due),
// in the order a reading goroutine would hand them over.
func (c *modelCall) readInStep() {
	r := c.r
	for {
		if r.ctx.Err() != nil {
			c.cancelled()
			return
		}
		it, ok := c.stream.next()
		if !ok {
			if r.ctx.Err() != nil && !c.stream.ended {
				// The stream saw the cancellation first.
				c.cancelled()
			}
			c.drained = true
			return
		}
		if c.due(it.at) || c.handle(it) {
			return
		}
	}
}

// handle takes one item; it returns true when the call is over.
func (c *modelCall) handle(it item) bool {
	r, ev := c.r, c.ev
	c.lastAt = it.at
	switch {
	case it.wire:
		r.mu.Lock()
		c.wd.Wire(it.at)
		r.mu.Unlock()
		return false
	case errors.Is(it.err, cassette.ErrReplaySilence):
		return c.silence()
	case errors.Is(it.err, cassette.ErrReplayCancelled):
		ev.Cancelled = true
		r.mu.Lock()
		r.note(it.at, runfolder.TranscriptEntry{Type: "cancelled", Text: "cancelled by the parent (recorded)"})
		r.mu.Unlock()
		return true
	case it.err != nil:
		ev.Err = it.err
		return true
	case it.status != 0:
		ev.HTTPStatus = it.status
		r.mu.Lock()
		r.note(it.at, runfolder.TranscriptEntry{Type: "response", Status: it.status})
		r.mu.Unlock()
		return false
	case it.httpErr != "":
		ev.HTTPError = r.red.String(it.httpErr)
		r.mu.Lock()
		r.note(it.at, runfolder.TranscriptEntry{Type: "error", Text: ev.HTTPError, Status: ev.HTTPStatus})
		r.mu.Unlock()
		return true
	case !it.isEvent:
		return false
	}
	return c.event(it.at, it.ev)
}

// event takes one decoded event that arrived at t, after the watchdog saw
// it; it returns true when the call is over.
func (c *modelCall) event(t time.Time, e wire.Event) bool {
	r, ev, n := c.r, c.ev, c.n
	r.mu.Lock()
	c.wd.Observe(e, t)
	r.mu.Unlock()
	switch e.Kind {
	case wire.Text:
		c.flushThinking(t)
		c.raw.WriteString(e.Text)
		if s := c.text.Write(e.Text); s != "" {
			r.piece(t, EventText, s)
		}
	case wire.Thinking:
		c.flushText(t)
		ev.Thought = true
		if s := c.think.Write(e.Text); s != "" {
			r.piece(t, EventThinking, s)
		}
	case wire.ToolCallDone:
		c.flushThinking(t)
		c.flushText(t)
		ev.ToolCalls = append(ev.ToolCalls, e.Tool)
		tc := r.toolCall(n, e.Tool)
		r.mu.Lock()
		r.note(t, runfolder.TranscriptEntry{Type: "tool_call", Tool: &tc})
		r.emit(Event{Kind: EventToolCall, Call: n, At: t.Sub(r.start), Tool: &tc})
		r.mu.Unlock()
	case wire.Keepalive:
		r.mu.Lock()
		r.note(t, runfolder.TranscriptEntry{Type: "keepalive", Text: r.red.String(e.Text)})
		r.emit(Event{Kind: EventKeepalive, Call: n, At: t.Sub(r.start)})
		r.mu.Unlock()
	case wire.Role:
		r.mu.Lock()
		r.note(t, runfolder.TranscriptEntry{Type: "role"})
		r.mu.Unlock()
	case wire.Usage:
		mergeUsage(&ev.Usage, e.Usage)
		u := r.usageSoFar(ev.Usage)
		r.mu.Lock()
		r.note(t, runfolder.TranscriptEntry{Type: "usage", Usage: &u})
		r.emit(Event{Kind: EventUsage, Call: n, At: t.Sub(r.start), Usage: &u})
		r.mu.Unlock()
	case wire.Finish:
		c.flushThinking(t)
		c.flushText(t)
		ev.Finished, ev.Finish = true, e.Finish
		finish := r.red.String(e.Finish)
		r.mu.Lock()
		r.note(t, runfolder.TranscriptEntry{Type: "finish", Finish: &finish})
		r.emit(Event{Kind: EventFinish, Call: n, At: t.Sub(r.start), Finish: finish})
		r.mu.Unlock()
	case wire.Error:
		ev.StreamError = e.Err
		r.mu.Lock()
		r.note(t, runfolder.TranscriptEntry{Type: "error", Text: r.red.String(e.Err.Error())})
		r.mu.Unlock()
		return true
	}
	return false
}

// flushThinking emits the thinking the redactor still holds back.
func (c *modelCall) flushThinking(t time.Time) {
	if s := c.think.Flush(); s != "" {
		c.r.piece(t, EventThinking, s)
	}
}

// flushText emits the reply text the redactor still holds back.
func (c *modelCall) flushText(t time.Time) {
	if s := c.text.Flush(); s != "" {
		c.r.piece(t, EventText, s)
	}
}

// The watchdog, applied between items.

// arm sets the timer to the next limit that can fall due (wall clock only).
func (c *modelCall) arm() {
	if c.virtual {
		return
	}
	c.r.mu.Lock()
	next, ok := c.wd.Next()
	c.r.mu.Unlock()
	if ok {
		c.timer.Reset(max(time.Until(next.At), 0))
	} else {
		c.timer.Stop()
	}
}

// timerFired judges the call when the timer fires: it first takes what has
// already arrived, then asks the watchdog. It returns true when the call is
// over.
func (c *modelCall) timerFired() bool {
	r := c.r
	// Take what has already arrived before judging.
	for empty := false; !empty; {
		select {
		case it, ok := <-c.items:
			if !ok || c.handle(it) {
				return true
			}
		default:
			empty = true
		}
	}
	now := time.Now()
	r.mu.Lock()
	if d := c.lastRead.Load(); d >= 0 {
		c.wd.Wire(c.start.Add(time.Duration(d)))
	}
	trip, fired := c.wd.Check(now)
	r.mu.Unlock()
	if fired {
		c.tripped(trip, now)
	}
	return fired
}

// due reports, in a fast replay, a limit that falls due before an item
// that arrives at t.
func (c *modelCall) due(t time.Time) bool {
	if !c.virtual {
		return false
	}
	c.r.mu.Lock()
	trip, ok := c.wd.Next()
	c.r.mu.Unlock()
	if !ok || !trip.At.Before(t) {
		return false
	}
	c.tripped(trip, trip.At)
	return true
}

// silence is a fast replay's recording that goes quiet: the next limit
// falls due, or, with none running, the call fails. The call is over.
func (c *modelCall) silence() bool {
	if t, ok := c.wd.Next(); ok {
		c.tripped(t, t.At)
		return true
	}
	c.ev.Err = errors.New("the recording goes silent here and no limit is set to end the call")
	return true
}

// tripped records that the watchdog ended the call with trip, noted at t.
func (c *modelCall) tripped(trip Trip, t time.Time) {
	c.ev.Trip = &trip
	c.r.mu.Lock()
	c.r.note(t, runfolder.TranscriptEntry{Type: "watchdog", Reason: trip.Reason, Text: trip.Message()})
	c.r.mu.Unlock()
}

// cancelled records that the run was cancelled during the call.
func (c *modelCall) cancelled() {
	c.ev.Cancelled = true
	c.r.mu.Lock()
	c.r.note(c.r.now(), runfolder.TranscriptEntry{Type: "cancelled", Text: context.Cause(c.r.ctx).Error()})
	c.r.mu.Unlock()
}

// finish ends the call: it stops the reading goroutine, settles when the
// call ended (in a fast replay, moving the run's clock there), flushes
// what the redactors hold and completes the evidence.
func (c *modelCall) finish() *CallEvidence {
	r, ev := c.r, c.ev
	c.cancel()
	if c.virtual {
		c.stream.close()
		ev.StreamEnded = c.stream.ended
	} else {
		for range c.items {
			// Let the reading goroutine see the cancellation and leave.
		}
		ev.StreamEnded = closed(c.streamEnded)
	}
	end := r.now()
	if c.virtual {
		// The replay may have read ahead: the call ended when the limit
		// fell due, or with the item that ended it, or (the stream over)
		// when the replay reached its end.
		switch {
		case ev.Trip != nil:
			end = ev.Trip.At
		case !c.drained && !c.lastAt.IsZero():
			end = c.lastAt
		}
		r.clock.Set(end)
	}
	ev.End = end
	c.flushThinking(end)
	c.flushText(end)
	ev.Text = c.raw.String()
	if d, ok := c.wd.FirstDelta(); ok {
		ev.FirstDelta, ev.HasFirstDelta = d, true
	}
	return ev
}

// closed reports whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// piece emits a redacted text or thinking piece. The caller does not hold r.mu.
func (r *Run) piece(t time.Time, kind EventKind, s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if kind == EventText {
		// A Builder's String shares its bytes: no copy of the whole
		// output per piece.
		r.output.WriteString(s)
		r.rec.Output = r.output.String()
	}
	r.notePiece(t, kind == EventThinking, s)
	r.emit(Event{Kind: kind, Call: r.callN, At: t.Sub(r.start), Text: s})
}

// toolCall returns a tool call of model call n as the record shows it.
func (r *Run) toolCall(n int, p wire.ToolCallPart) runfolder.ToolCall {
	return runfolder.ToolCall{Call: n, Index: p.Index, ID: r.red.String(p.ID), Name: r.red.String(p.Name), Arguments: r.red.String(p.Arguments), Complete: p.Complete}
}

// mergeUsage keeps the last non-zero count of each field: providers report
// running totals, some in more than one frame.
func mergeUsage(dst *wire.TokenUsage, u wire.TokenUsage) {
	if u.InputTokens > 0 {
		dst.InputTokens = u.InputTokens
	}
	if u.OutputTokens > 0 {
		dst.OutputTokens = u.OutputTokens
	}
	if u.ReasoningTokens > 0 {
		dst.ReasoningTokens = u.ReasoningTokens
	}
}

// errorMessage reads the message of a non-2xx answer: error.message,
// error, or message from a JSON body, else the start of the text.
func errorMessage(resp *http.Response) string {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var j struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &j) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		switch {
		case json.Unmarshal(j.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(j.Error, &obj) == nil && obj.Message != "":
			if obj.Type != "" {
				return obj.Type + ": " + obj.Message
			}
			return obj.Message
		case j.Message != "":
			return j.Message
		}
	}
	text := strings.Join(strings.Fields(string(body)), " ")
	if text == "" {
		return http.StatusText(resp.StatusCode)
	}
	return runfolder.Shorten(text, 500)
}

// nudgeOf returns the nudge a later call's conversation ends with: its
// last turn, when that is a user turn; "" for the first call.
func nudgeOf(n int, msgs []wire.Message) string {
	if n == 1 || len(msgs) == 0 || msgs[len(msgs)-1].Role != "user" {
		return ""
	}
	return msgs[len(msgs)-1].Text
}
