package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
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
// transcript as they arrive. withdrawn asks for an answer without tools.
func (r *Run) call(n int, msgs []wire.Message, withdrawn bool) *CallEvidence {
	m := r.model
	url, _ := m.Protocol.URL(m.Endpoint) // checked by ResolveModel
	ev := &CallEvidence{N: n, Endpoint: r.red.String(url), Provider: m.Provider}
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
		wreq.Tools, wreq.ToolsWithdrawn = r.tools, withdrawn
	}

	callCtx, cancelCall := context.WithCancel(r.ctx)
	defer cancelCall()
	req, err := m.Protocol.NewHTTPRequest(callCtx, wreq)
	start := r.now()
	ev.Start = start
	if err != nil {
		ev.Err, ev.End = err, start
		return ev
	}

	wd := NewWatchdog(r.limits, start)
	entry := TranscriptEntry{Type: "request", URL: ev.Endpoint, Protocol: m.Protocol.String(), Model: m.ModelID}
	if n == 1 {
		entry.System, entry.Message = r.red.String(r.system), r.red.String(r.message)
	}
	if r.toolsOn {
		entry.Tools = r.toolNames()
		entry.Withdrawn = withdrawn
	}
	r.mu.Lock()
	r.wd = wd
	r.callN = n
	r.rec.Output = ""
	r.output.Reset()
	r.rec.Counts.ModelCalls = n
	r.note(start, entry)
	r.mu.Unlock()

	var lastRead atomic.Int64
	lastRead.Store(-1)
	items := make(chan item, 64)
	virtual := r.clock != nil
	onRead := func() { lastRead.Store(int64(time.Since(start))) }
	if virtual {
		onRead = func() {
			select {
			case items <- item{at: r.now(), wire: true}:
			case <-callCtx.Done():
			}
		}
	}
	streamEnded := make(chan struct{})
	go r.read(callCtx, req, onRead, items, streamEnded)

	text, think := r.red.Stream(), r.red.Stream()
	var raw strings.Builder
	flushThinking := func(t time.Time) {
		if s := think.Flush(); s != "" {
			r.piece(t, EventThinking, s)
		}
	}
	flushText := func(t time.Time) {
		if s := text.Flush(); s != "" {
			r.piece(t, EventText, s)
		}
	}
	// silence is a fast replay's recording that goes quiet: the next limit
	// falls due, or, with none running, the call fails.
	silence := func() bool {
		if t, ok := wd.Next(); ok {
			ev.Trip = &t
			r.mu.Lock()
			r.note(t.At, TranscriptEntry{Type: "watchdog", Reason: t.Reason, Text: t.Message()})
			r.mu.Unlock()
			return true
		}
		ev.Err = errors.New("the recording goes silent here and no limit is set to end the call")
		return true
	}

	// handle takes one item; it returns true when the call is over.
	// lastAt is when the last item came, on the run's clock; drained is
	// set when the reading goroutine finished on its own.
	var lastAt time.Time
	drained := false
	handle := func(it item) bool {
		lastAt = it.at
		switch {
		case it.wire:
			r.mu.Lock()
			wd.Wire(it.at)
			r.mu.Unlock()
			return false
		case errors.Is(it.err, errReplaySilence):
			return silence()
		case errors.Is(it.err, errReplayCancelled):
			ev.Cancelled = true
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "cancelled", Text: "cancelled by the parent (recorded)"})
			r.mu.Unlock()
			return true
		case it.err != nil:
			ev.Err = it.err
			return true
		case it.status != 0:
			ev.HTTPStatus = it.status
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "response", Status: it.status})
			r.mu.Unlock()
			return false
		case it.httpErr != "":
			ev.HTTPError = r.red.String(it.httpErr)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "error", Text: ev.HTTPError, Status: ev.HTTPStatus})
			r.mu.Unlock()
			return true
		case !it.isEvent:
			return false
		}
		e := it.ev
		r.mu.Lock()
		wd.Observe(e, it.at)
		r.mu.Unlock()
		switch e.Kind {
		case wire.Text:
			flushThinking(it.at)
			raw.WriteString(e.Text)
			if s := text.Write(e.Text); s != "" {
				r.piece(it.at, EventText, s)
			}
		case wire.Thinking:
			flushText(it.at)
			ev.Thought = true
			if s := think.Write(e.Text); s != "" {
				r.piece(it.at, EventThinking, s)
			}
		case wire.ToolCallDone:
			flushThinking(it.at)
			flushText(it.at)
			ev.ToolCalls = append(ev.ToolCalls, e.Tool)
			tc := r.toolCall(n, e.Tool)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "tool_call", Tool: &tc})
			r.emit(Event{Kind: EventToolCall, Call: n, At: it.at.Sub(r.start), Tool: &tc})
			r.mu.Unlock()
		case wire.Keepalive:
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "keepalive", Text: r.red.String(e.Text)})
			r.emit(Event{Kind: EventKeepalive, Call: n, At: it.at.Sub(r.start)})
			r.mu.Unlock()
		case wire.Role:
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "role"})
			r.mu.Unlock()
		case wire.Usage:
			mergeUsage(&ev.Usage, e.Usage)
			u := r.usageSoFar(ev.Usage)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "usage", Usage: &u})
			r.emit(Event{Kind: EventUsage, Call: n, At: it.at.Sub(r.start), Usage: &u})
			r.mu.Unlock()
		case wire.Finish:
			flushThinking(it.at)
			flushText(it.at)
			ev.Finished, ev.Finish = true, e.Finish
			finish := r.red.String(e.Finish)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "finish", Finish: &finish})
			r.emit(Event{Kind: EventFinish, Call: n, At: it.at.Sub(r.start), Finish: finish})
			r.mu.Unlock()
		case wire.Error:
			ev.StreamError = e.Err
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "error", Text: r.red.String(e.Err.Error())})
			r.mu.Unlock()
			return true
		}
		return false
	}

	var timer *time.Timer
	var timerC <-chan time.Time
	if !virtual {
		timer = time.NewTimer(time.Hour)
		defer timer.Stop()
		timerC = timer.C
	}
	arm := func() {
		if virtual {
			return
		}
		r.mu.Lock()
		next, ok := wd.Next()
		r.mu.Unlock()
		if ok {
			timer.Reset(max(time.Until(next.At), 0))
		} else {
			timer.Stop()
		}
	}
	// due reports, in a fast replay, a limit that falls due before an item
	// that arrives at t.
	due := func(t time.Time) bool {
		if !virtual {
			return false
		}
		r.mu.Lock()
		trip, ok := wd.Next()
		r.mu.Unlock()
		if !ok || !trip.At.Before(t) {
			return false
		}
		ev.Trip = &trip
		r.mu.Lock()
		r.note(trip.At, TranscriptEntry{Type: "watchdog", Reason: trip.Reason, Text: trip.Message()})
		r.mu.Unlock()
		return true
	}
	cancelled := func() {
		ev.Cancelled = true
		r.mu.Lock()
		r.note(r.now(), TranscriptEntry{Type: "cancelled", Text: context.Cause(r.ctx).Error()})
		r.mu.Unlock()
	}
	arm()
	for over := false; !over; {
		select {
		case it, ok := <-items:
			if !ok && r.ctx.Err() != nil && !closed(streamEnded) {
				// The reading goroutine saw the cancellation first.
				cancelled()
			}
			drained = !ok
			over = !ok || due(it.at) || handle(it)
		case <-timerC:
			// Take what has already arrived before judging.
		drain:
			for !over {
				select {
				case it, ok := <-items:
					over = !ok || handle(it)
				default:
					break drain
				}
			}
			if over {
				break
			}
			now := time.Now()
			r.mu.Lock()
			if d := lastRead.Load(); d >= 0 {
				wd.Wire(start.Add(time.Duration(d)))
			}
			trip, fired := wd.Check(now)
			r.mu.Unlock()
			if fired {
				ev.Trip = &trip
				r.mu.Lock()
				r.note(now, TranscriptEntry{Type: "watchdog", Reason: trip.Reason, Text: trip.Message()})
				r.mu.Unlock()
				over = true
			}
		case <-r.ctx.Done():
			cancelled()
			over = true
		}
		if !over {
			arm()
		}
	}
	cancelCall()
	for range items {
		// Let the reading goroutine see the cancellation and leave.
	}
	ev.StreamEnded = closed(streamEnded)
	end := r.now()
	if virtual {
		// The replay may have read ahead: the call ended when the limit
		// fell due, or with the item that ended it, or (the stream over)
		// when the replay reached its end.
		switch {
		case ev.Trip != nil:
			end = ev.Trip.At
		case !drained && !lastAt.IsZero():
			end = lastAt
		}
		r.clock.set(end)
	}
	ev.End = end
	flushThinking(end)
	flushText(end)
	ev.Text = raw.String()
	if u := wd; u != nil {
		if d, ok := u.FirstDelta(); ok {
			ev.FirstDelta, ev.HasFirstDelta = d, true
		}
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
	typ := "text"
	if kind == EventThinking {
		typ = "thinking"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if kind == EventText {
		// A Builder's String shares its bytes: no copy of the whole
		// output per piece.
		r.output.WriteString(s)
		r.rec.Output = r.output.String()
	}
	r.note(t, TranscriptEntry{Type: typ, Text: s})
	r.emit(Event{Kind: kind, Call: r.callN, At: t.Sub(r.start), Text: s})
}

// toolCall returns a tool call of model call n as the record shows it.
func (r *Run) toolCall(n int, p wire.ToolCallPart) ToolCall {
	return ToolCall{Call: n, Index: p.Index, ID: r.red.String(p.ID), Name: r.red.String(p.Name), Arguments: r.red.String(p.Arguments), Complete: p.Complete}
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

// read sends the request and feeds what comes back to items, closing it
// when done. onRead is called whenever bytes arrive; ended is closed when
// the decoder reached the end of the stream.
func (r *Run) read(ctx context.Context, req *http.Request, onRead func(), items chan<- item, ended chan<- struct{}) {
	defer close(items)
	send := func(it item) bool {
		select {
		case items <- it:
			return true
		case <-ctx.Done():
			return false
		}
	}
	resp, err := r.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			// A failure of the transport's own, not the call ending.
			send(item{at: r.now(), err: err})
		}
		return
	}
	defer resp.Body.Close()
	onRead()
	if !send(item{at: r.now(), status: resp.StatusCode}) {
		return
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		send(item{at: r.now(), httpErr: errorMessage(resp)})
		return
	}
	dec := wire.NewDecoder(r.model.Protocol, &activityReader{r: resp.Body, onRead: onRead})
	for {
		e, err := dec.Next()
		at := r.now()
		if err == io.EOF {
			close(ended)
			return
		}
		if err != nil {
			if ctx.Err() == nil {
				send(item{at: at, err: err})
			}
			return
		}
		if !send(item{at: at, ev: e, isEvent: true}) {
			return
		}
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
	return shorten(text, 500)
}

// writeRunFolder writes the artifacts of a finished run, run.json last;
// tape is the cassette's text, when recording.
func writeRunFolder(rec *Record, transcript []TranscriptEntry, tape []byte) error {
	var errs []error
	write := func(name string, data []byte) {
		if err := atomicfile.Replace(filepath.Join(rec.Dir, name), data, 0o600); err != nil {
			errs = append(errs, err)
		}
	}
	for _, f := range rec.Files {
		switch f {
		case TruncatedOutputFile:
			write(f, []byte(TruncatedMarkdown(rec)))
		case StreamFile:
			write(f, tape)
		}
	}
	if data, err := encodeTranscript(transcript); err != nil {
		errs = append(errs, fmt.Errorf("encoding the transcript of run %s: %w", rec.RunID, err))
	} else {
		write(TranscriptFile, data)
	}
	write(ResultFile, []byte(ResultMarkdown(rec)))
	if err := writeRecord(rec); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// writeRecord writes run.json.
func writeRecord(rec *Record) error {
	data, err := rec.MarshalIndent()
	if err != nil {
		return err
	}
	return atomicfile.Replace(filepath.Join(rec.Dir, RunFile), data, 0o600)
}
