package runner

import (
	"bytes"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// cassetteHeader describes the run for its cassette, redacted.
func (r *Run) cassetteHeader() cassette.Header {
	rec := &r.rec
	h := cassette.Header{
		Version:      cassette.Version,
		RecordedAt:   rec.StartedAt,
		RunID:        rec.RunID,
		Agent:        rec.Agent,
		AgentSHA256:  rec.AgentSHA256,
		Skill:        rec.Skill,
		Task:         rec.Task,
		Context:      rec.Context,
		Protocol:     r.model.Protocol.String(),
		Provider:     rec.Model.Provider,
		ProviderType: rec.Model.Type,
		Endpoint:     rec.Model.Endpoint,
		Model:        rec.Model.ModelID,
		Role:         rec.Model.Role,
		Tools:        append([]string{}, rec.Tools...),
		MaxTokens:    r.spec.MaxTokens,
		Limits: cassette.Limits{
			PrefillMS: rec.Limits.PrefillMS, InterDeltaMS: rec.Limits.InterDeltaMS, NoProgressMS: rec.Limits.NoProgressMS,
			ThinkingOnlyMS: rec.Limits.ThinkingOnlyMS,
		},
		Loop:    cassette.LoopRules,
		Project: r.red.String(rec.Project),
	}
	return h
}

// tapeCall adds model call ev.N to the cassette, redacted.
//
// A streamed body keeps its raw bytes and their timing, redacted line by
// line (a line that needs no redaction keeps its chunks as read; one that
// does becomes one chunk at the time its last byte came). If the stored
// bytes still decode to text that holds a secret (one split across frames,
// or escaped in the JSON), the call is stored re-encoded from the events
// the run decoded and redacted instead (Call.Reencoded). A non-2xx body is
// redacted whole.
func (r *Run) tapeCall(ev *CallEvidence) {
	calls := r.recorder.Take()
	call := &cassette.Call{N: ev.N}
	r.tape.Calls = append(r.tape.Calls, call)
	if len(calls) == 0 {
		msg := "no request was sent"
		if ev.Err != nil {
			msg = ev.Err.Error()
		}
		call.Error = r.red.String(msg)
		return
	}
	rc := calls[len(calls)-1]
	endAt := max(ev.End.Sub(rc.Start), 0)
	how := cassette.EndCut
	if ev.Cancelled {
		how = cassette.EndCancelled
	}
	switch {
	case !rc.Answered:
		// The call ended while waiting for the headers.
		call.At, call.End = endAt, &cassette.End{At: endAt, How: how}
		return
	case rc.Err != "":
		call.At, call.Error = rc.At, r.red.String(rc.Err)
		return
	}
	call.At, call.Status, call.ContentType = rc.At, rc.Status, rc.ContentType
	call.End = rc.End
	if call.End == nil {
		last := rc.At
		if n := len(rc.Chunks); n > 0 {
			last = rc.Chunks[n-1].At
		}
		call.End = &cassette.End{At: max(endAt, last), How: how}
	} else if call.End.Error != "" {
		call.End.Error = r.red.String(call.End.Error)
	}
	if rc.Status < 200 || rc.Status > 299 {
		call.Chunks = redactWhole(rc.Chunks, r.red)
		return
	}
	call.Chunks = redactLines(rc.Chunks, r.red)
	if cleanStream(r.model.Protocol, call.Chunks, r.red) {
		return
	}
	call.Reencoded = true
	call.Chunks = r.reencode(ev, rc)
	if n := len(call.Chunks); n > 0 {
		// The run noted the events a little after the bytes came.
		call.End.At = max(call.End.At, call.Chunks[n-1].At)
	}
	if !cleanStream(r.model.Protocol, call.Chunks, r.red) {
		// Nothing safe to keep: a replay of this call fails.
		call.Chunks = nil
		call.End = &cassette.End{At: call.End.At, How: cassette.EndError, Error: "the recording could not keep this stream redacted"}
	}
}

// redactWhole joins chunks and redacts them as one text, kept as one chunk
// at the time of the last.
func redactWhole(chunks []cassette.Chunk, red *redact.Redactor) []cassette.Chunk {
	if len(chunks) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, c := range chunks {
		b.Write(c.Data)
	}
	return []cassette.Chunk{{At: chunks[len(chunks)-1].At, Data: []byte(red.String(b.String()))}}
}

// redactLines redacts a body line by line, keeping the chunks of every
// line that needs nothing, and making each line that does one piece at the
// time of the chunk its last byte came in (with the rest of that chunk).
func redactLines(chunks []cassette.Chunk, red *redact.Redactor) []cassette.Chunk {
	var body []byte
	rc := rechunk{chunks: chunks, ends: make([]int, len(chunks)), owner: -1}
	for i, c := range chunks {
		body = append(body, c.Data...)
		rc.ends[i] = len(body)
	}
	for start := 0; start < len(body); {
		end := len(body)
		if i := bytes.IndexByte(body[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := string(body[start:end])
		if red.String(line) != line {
			rc.add(rc.chunkAt(end-1), []byte(red.String(line)))
		} else {
			rc.keep(body, start, end)
		}
		start = end
	}
	return rc.out
}

// rechunk puts a redacted body back into chunks: chunks are the body's
// as they came (ends[i] the offset after chunk i), out the chunks made
// so far, owner the chunk the last piece of out came from.
type rechunk struct {
	chunks []cassette.Chunk
	ends   []int
	out    []cassette.Chunk
	owner  int
}

// chunkAt returns the chunk holding byte off of the body.
func (rc *rechunk) chunkAt(off int) int {
	lo, hi := 0, len(rc.ends)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if rc.ends[mid] > off {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// add appends data at the time of the chunk origin: to the last piece
// when it came from the same chunk, else as a new one.
func (rc *rechunk) add(origin int, data []byte) {
	if len(data) == 0 {
		return
	}
	if origin == rc.owner {
		last := &rc.out[len(rc.out)-1]
		last.Data = append(last.Data, data...)
		return
	}
	rc.out = append(rc.out, cassette.Chunk{At: rc.chunks[origin].At, Data: append([]byte(nil), data...)})
	rc.owner = origin
}

// keep adds the line body[start:end], which needs no redaction, as it
// came: each piece at the time of its chunk.
func (rc *rechunk) keep(body []byte, start, end int) {
	for off := start; off < end; {
		c := rc.chunkAt(off)
		to := min(rc.ends[c], end)
		rc.add(c, body[off:to])
		off = to
	}
}

// cleanStream reports whether stored bytes hold no secret: not in the
// bytes themselves, and not in what they decode to (text and thinking
// joined, tool calls, keepalives, finish reasons, errors).
func cleanStream(p wire.Protocol, chunks []cassette.Chunk, red *redact.Redactor) bool {
	var b bytes.Buffer
	for _, c := range chunks {
		b.Write(c.Data)
	}
	if red.String(b.String()) != b.String() {
		return false
	}
	dec := wire.NewDecoder(p, &b)
	var text, thinking strings.Builder
	var other []string
	for {
		e, err := dec.Next()
		if err != nil {
			break
		}
		switch e.Kind {
		case wire.Text:
			text.WriteString(e.Text)
		case wire.Thinking:
			thinking.WriteString(e.Text)
		case wire.ToolCallDone:
			other = append(other, e.Tool.ID, e.Tool.Name, e.Tool.Arguments)
		case wire.Keepalive:
			other = append(other, e.Text)
		case wire.Finish:
			other = append(other, e.Finish)
		case wire.Error:
			other = append(other, e.Err.Error())
		}
	}
	for _, s := range append(other, text.String(), thinking.String()) {
		if red.String(s) != s {
			return false
		}
	}
	return true
}

// reencode rebuilds call ev.N's stream from the run's transcript, whose
// pieces are already redacted as a stream: each event as its protocol
// writes it, at the time the run noted it; the stream's terminator when the
// decoder reached it. What the transcript does not hold is lost: frames
// that carried nothing (Meta), and a malformed frame or an over-long line
// that ended the call (its replay then ends as the recorded end says, most
// often in silence).
func (r *Run) reencode(ev *CallEvidence, rc *cassette.RecordedCall) []cassette.Chunk {
	offset := rc.Start.Sub(r.start)
	type timed struct {
		at time.Duration
		ev wire.Event
	}
	var events []timed
	prev := wire.TokenUsage{
		InputTokens: r.usage.InputTokens - ev.Usage.InputTokens, OutputTokens: r.usage.OutputTokens - ev.Usage.OutputTokens,
		ReasoningTokens: r.usage.ReasoningTokens - ev.Usage.ReasoningTokens,
	}
	r.mu.Lock()
	for _, e := range r.transcript.entries() {
		if e.Call != ev.N {
			continue
		}
		at := max(time.Duration(e.TMS)*time.Millisecond-offset, rc.At)
		var w wire.Event
		switch e.Type {
		case "role":
			w = wire.Event{Kind: wire.Role}
		case "text":
			w = wire.Event{Kind: wire.Text, Text: e.Text}
		case "thinking":
			w = wire.Event{Kind: wire.Thinking, Text: e.Text}
		case "keepalive":
			w = wire.Event{Kind: wire.Keepalive, Text: e.Text}
		case "tool_call":
			t := e.Tool
			w = wire.Event{Kind: wire.ToolCallDone, Tool: wire.ToolCallPart{Index: t.Index, ID: t.ID, Name: t.Name, Arguments: t.Arguments, Complete: t.Complete}}
		case "usage":
			u := e.Usage
			w = wire.Event{Kind: wire.Usage, Usage: wire.TokenUsage{InputTokens: u.InputTokens - prev.InputTokens, OutputTokens: u.OutputTokens - prev.OutputTokens, ReasoningTokens: u.ReasoningTokens - prev.ReasoningTokens}}
		case "finish":
			w = wire.Event{Kind: wire.Finish, Finish: *e.Finish}
		case "error":
			if e.Status != 0 {
				continue // a non-2xx answer, not a stream
			}
			w = wire.Event{Kind: wire.Error, Err: &wire.StreamError{Message: e.Text}}
		default:
			continue
		}
		events = append(events, timed{at, w})
	}
	r.mu.Unlock()
	plain := make([]wire.Event, len(events))
	for i, e := range events {
		plain[i] = e.ev
	}
	chunks, end := wire.Encode(r.model.Protocol, plain)
	var out []cassette.Chunk
	last := rc.At
	for i, c := range chunks {
		if len(c) > 0 {
			last = max(last, events[i].at)
			out = append(out, cassette.Chunk{At: last, Data: c})
		}
	}
	if ev.StreamEnded && len(end) > 0 {
		out = append(out, cassette.Chunk{At: last, Data: end})
	}
	return out
}
