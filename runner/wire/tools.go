package wire

import (
	"encoding/json"
	"strings"
)

// toolCalls assembles tool-call fragments into whole calls, in the order
// they first appeared.
type toolCalls struct {
	calls []*toolCall
}

type toolCall struct {
	key   int // the protocol's key: OpenAI's index, Anthropic's block index
	part  ToolCallPart
	args  strings.Builder
	input string // Anthropic: the content_block_start input, used when no delta came
	done  bool
}

// get returns the call with key, starting one (with the next Index) when
// there is none.
func (t *toolCalls) get(key int) *toolCall {
	for _, c := range t.calls {
		if c.key == key && !c.done {
			return c
		}
	}
	c := &toolCall{key: key, part: ToolCallPart{Index: len(t.calls)}}
	t.calls = append(t.calls, c)
	return c
}

// finish returns the ToolCallDone event of c and marks it done.
func (c *toolCall) finish() Event {
	c.done = true
	p := c.part
	p.Arguments = c.args.String()
	if p.Arguments == "" && c.input != "" {
		p.Arguments = c.input
	}
	p.Complete = completeJSON(p.Arguments)
	return Event{Kind: ToolCallDone, Tool: p}
}

// flush queues the ToolCallDone event of every call not done yet.
func (t *toolCalls) flush(q *queue) {
	for _, c := range t.calls {
		if !c.done {
			q.push(c.finish())
		}
	}
}

// completeJSON reports whether a tool call's argument text is complete: one
// JSON value, or nothing at all (a call without arguments).
func completeJSON(s string) bool {
	if strings.TrimSpace(s) == "" {
		return true
	}
	return json.Valid([]byte(s))
}

// queue holds the events decoded from one frame until Next hands them out.
type queue struct {
	ev []Event
	i  int
}

func (q *queue) push(e Event) { q.ev = append(q.ev, e) }

func (q *queue) pop() (Event, bool) {
	if q.i < len(q.ev) {
		e := q.ev[q.i]
		q.ev[q.i] = Event{}
		q.i++
		return e, true
	}
	q.ev, q.i = q.ev[:0], 0
	return Event{}, false
}

func (q *queue) len() int { return len(q.ev) - q.i }

// jsonString decodes a raw JSON value that should be a string. It returns
// ok=false for null, absence and values of other types: servers disagree on
// these fields, and a stray type must not sink the whole stream.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	simple := true
	for _, c := range body {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			simple = false
			break
		}
	}
	if simple {
		return string(body), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// errorPayload reads an "error" member: null or absent is no error; a
// string is the message; an object gives message and type (or code).
func errorPayload(raw json.RawMessage) *StreamError {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if s, ok := jsonString(raw); ok {
		return &StreamError{Message: s}
	}
	var obj struct {
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return &StreamError{Message: string(raw)}
	}
	e := &StreamError{}
	e.Message, _ = jsonString(obj.Message)
	if t, ok := jsonString(obj.Type); ok {
		e.Type = t
	} else if c, ok := jsonString(obj.Code); ok {
		e.Type = c
	} else if len(obj.Code) > 0 && string(obj.Code) != "null" {
		e.Type = string(obj.Code)
	}
	if e.Message == "" && e.Type == "" {
		e.Message = string(raw)
	}
	return e
}
