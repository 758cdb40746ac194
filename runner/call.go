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

	"github.com/agentdesk/agentdesk/runner/wire"
)

// item is what the reading goroutine hands the watchdog loop.
type item struct {
	at      time.Time
	ev      wire.Event
	isEvent bool
	status  int    // response status, once
	httpErr string // the body's message on a non-2xx answer
	err     error  // transport or decoding failure
}

// activityReader records when bytes last arrived, as nanoseconds since the
// call started, so the watchdog sees wire activity below the event level.
type activityReader struct {
	r     io.Reader
	start time.Time
	last  *atomic.Int64
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.last.Store(int64(time.Since(a.start)))
	}
	return n, err
}

// call makes one streaming model call under the watchdog and returns its
// evidence. Events go to the run's readers and transcript as they arrive.
func (r *Run) call() *CallEvidence {
	m := r.model
	url, _ := m.Protocol.URL(m.Endpoint) // checked by ResolveModel
	ev := &CallEvidence{Endpoint: r.red.String(url)}

	callCtx, cancelCall := context.WithCancel(r.ctx)
	defer cancelCall()
	req, err := m.Protocol.NewHTTPRequest(callCtx, wire.Request{
		Endpoint:     m.Endpoint,
		APIKey:       m.APIKey,
		ProviderType: m.Type,
		Model:        m.ModelID,
		System:       r.system,
		Messages:     []wire.Message{{Role: "user", Text: r.message}},
		MaxTokens:    r.spec.MaxTokens,
	})
	if err != nil {
		ev.Err = err
		return ev
	}

	start := time.Now()
	wd := NewWatchdog(r.limits, start)
	r.mu.Lock()
	r.wd = wd
	r.note(start, TranscriptEntry{Type: "request", URL: ev.Endpoint, Protocol: m.Protocol.String(), Model: m.ModelID,
		System: r.red.String(r.system), Message: r.red.String(r.message)})
	r.mu.Unlock()

	var lastRead atomic.Int64
	lastRead.Store(-1)
	items := make(chan item, 64)
	go r.read(callCtx, req, start, &lastRead, items)

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

	// handle takes one item; it returns true when the call is over.
	handle := func(it item) bool {
		switch {
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
			tc := r.toolCall(e.Tool)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "tool_call", Tool: &tc})
			r.emit(Event{Kind: EventToolCall, At: it.at.Sub(r.start), Tool: &tc})
			r.mu.Unlock()
		case wire.Keepalive:
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "keepalive", Text: r.red.String(e.Text)})
			r.emit(Event{Kind: EventKeepalive, At: it.at.Sub(r.start)})
			r.mu.Unlock()
		case wire.Role:
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "role"})
			r.mu.Unlock()
		case wire.Usage:
			mergeUsage(&ev.Usage, e.Usage)
			u := Usage(ev.Usage)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "usage", Usage: &u})
			r.emit(Event{Kind: EventUsage, At: it.at.Sub(r.start), Usage: &u})
			r.mu.Unlock()
		case wire.Finish:
			flushThinking(it.at)
			flushText(it.at)
			ev.Finished, ev.Finish = true, e.Finish
			finish := r.red.String(e.Finish)
			r.mu.Lock()
			r.note(it.at, TranscriptEntry{Type: "finish", Finish: &finish})
			r.emit(Event{Kind: EventFinish, At: it.at.Sub(r.start), Finish: finish})
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

	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	arm := func() {
		r.mu.Lock()
		next, ok := wd.Next()
		r.mu.Unlock()
		if ok {
			timer.Reset(max(time.Until(next.At), 0))
		} else {
			timer.Stop()
		}
	}
	arm()
	for over := false; !over; {
		select {
		case it, ok := <-items:
			over = !ok || handle(it)
		case <-timer.C:
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
			ev.Cancelled = true
			r.mu.Lock()
			r.note(time.Now(), TranscriptEntry{Type: "cancelled", Text: context.Cause(r.ctx).Error()})
			r.mu.Unlock()
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
	end := time.Now()
	flushThinking(end)
	flushText(end)
	ev.Text = raw.String()
	return ev
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
		r.rec.Output += s
	}
	r.note(t, TranscriptEntry{Type: typ, Text: s})
	r.emit(Event{Kind: kind, At: t.Sub(r.start), Text: s})
}

func (r *Run) toolCall(p wire.ToolCallPart) ToolCall {
	return ToolCall{Index: p.Index, ID: r.red.String(p.ID), Name: r.red.String(p.Name), Arguments: r.red.String(p.Arguments), Complete: p.Complete}
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
// when done.
func (r *Run) read(ctx context.Context, req *http.Request, start time.Time, lastRead *atomic.Int64, items chan<- item) {
	defer close(items)
	send := func(it item) bool {
		select {
		case items <- it:
			return true
		case <-ctx.Done():
			return false
		}
	}
	resp, err := r.runner.client.Do(req)
	if err != nil {
		send(item{at: time.Now(), err: err})
		return
	}
	defer resp.Body.Close()
	lastRead.Store(int64(time.Since(start)))
	if !send(item{at: time.Now(), status: resp.StatusCode}) {
		return
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		send(item{at: time.Now(), httpErr: errorMessage(resp)})
		return
	}
	dec := wire.NewDecoder(r.model.Protocol, &activityReader{r: resp.Body, start: start, last: lastRead})
	for {
		e, err := dec.Next()
		at := time.Now()
		if err == io.EOF {
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

// finish classifies the run's end, writes its folder, and wakes readers.
func (r *Run) finish(ev *CallEvidence, v Verdict) {
	end := time.Now()
	r.mu.Lock()
	rec := &r.rec
	rec.State, rec.Outcome, rec.Reason = v.State(), v.Outcome, v.Reason
	rec.Error = r.red.String(v.Message)
	rec.EndedAt = &end
	rec.Timings.TotalMS = end.Sub(r.start).Milliseconds()
	if r.wd != nil {
		if d, ok := r.wd.FirstDelta(); ok {
			ms := r.wd.start.Add(d).Sub(r.start).Milliseconds()
			rec.Timings.FirstDeltaMS = &ms
		}
	}
	rec.Usage = Usage(ev.Usage)
	rec.FinishReason = r.red.String(ev.Finish)
	rec.ToolCalls = rec.ToolCalls[:0]
	for _, tc := range ev.ToolCalls {
		rec.ToolCalls = append(rec.ToolCalls, r.toolCall(tc))
	}
	rec.Files = []string{RunFile, ResultFile, TranscriptFile}
	if v.Truncated && Visible(rec.Output) {
		rec.Files = append(rec.Files, TruncatedOutputFile)
		rec.Error += fmt.Sprintf("; it begins %q; the full text, marked partial, is in %s", shorten(rec.Output, 160), filepath.Join(rec.Dir, TruncatedOutputFile))
	}
	r.note(end, TranscriptEntry{Type: "outcome", Outcome: v.Outcome, Reason: v.Reason, Text: rec.Error})
	final := *rec
	transcript := r.transcript
	r.mu.Unlock()

	err := writeRunFolder(&final, transcript)

	r.mu.Lock()
	r.writeErr = err
	r.ended = true
	r.emit(Event{Kind: EventDone, At: end.Sub(r.start), Record: &final})
	r.mu.Unlock()
	close(r.done)
}

// writeRunFolder writes the artifacts of a finished run, run.json last.
func writeRunFolder(rec *Record, transcript []TranscriptEntry) error {
	var errs []error
	write := func(name string, data []byte) {
		if err := writeAtomic(filepath.Join(rec.Dir, name), data); err != nil {
			errs = append(errs, err)
		}
	}
	for _, f := range rec.Files {
		if f == TruncatedOutputFile {
			write(f, []byte(TruncatedMarkdown(rec)))
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
	return writeAtomic(filepath.Join(rec.Dir, RunFile), data)
}
