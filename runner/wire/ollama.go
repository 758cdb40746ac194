package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// OllamaDecoder decodes Ollama's native /api/chat NDJSON stream: one JSON
// object a line, with message.content (Text), message.thinking (Thinking),
// message.tool_calls (whole calls, each a ToolCall and its ToolCallDone),
// and a last line with "done": true, done_reason (Finish) and the token
// counts (Usage). `{"error": "..."}` is an Error. Blank lines are Meta (a
// test server's keepalive); the stream ends after the done line.
type OllamaDecoder struct {
	lines *LineReader
	q     queue
	calls int
	err   error
}

// NewOllamaDecoder returns a decoder over an Ollama NDJSON body.
func NewOllamaDecoder(body io.Reader) *OllamaDecoder {
	return &OllamaDecoder{lines: NewLineReader(body, MaxLine)}
}

type ollamaLine struct {
	Message *struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		Thinking  json.RawMessage `json:"thinking"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"message"`
	Done            bool            `json:"done"`
	DoneReason      json.RawMessage `json:"done_reason"`
	PromptEvalCount int             `json:"prompt_eval_count"`
	EvalCount       int             `json:"eval_count"`
	Error           json.RawMessage `json:"error"`
}

// Next returns the next event; see Decoder.
func (d *OllamaDecoder) Next() (Event, error) {
	for {
		if e, ok := d.q.pop(); ok {
			return e, nil
		}
		if d.err != nil {
			return Event{}, d.err
		}
		line, err := d.lines.ReadLine()
		if err != nil {
			d.err = err
			return Event{}, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return Event{Kind: Meta}, nil
		}
		if err := d.line(line); err != nil {
			d.q = queue{}
			d.err = malformed(Ollama, d.lines.Line(), line, err)
			return Event{}, d.err
		}
	}
}

func (d *OllamaDecoder) line(data []byte) error {
	var l ollamaLine
	if err := json.Unmarshal(data, &l); err != nil {
		return err
	}
	if m := l.Message; m != nil {
		if s, ok := jsonString(m.Thinking); ok && s != "" {
			d.q.push(Event{Kind: Thinking, Text: s})
		}
		if s, ok := jsonString(m.Content); ok && s != "" {
			d.q.push(Event{Kind: Text, Text: s})
		}
		for _, tc := range m.ToolCalls {
			args := bytes.TrimSpace(tc.Function.Arguments)
			text := string(args)
			if s, ok := jsonString(args); ok {
				// Arguments sent as JSON text rather than an object.
				text = s
			} else if bytes.Equal(args, []byte("null")) {
				text = ""
			}
			p := ToolCallPart{Index: d.calls, ID: tc.ID, Name: tc.Function.Name, Arguments: text}
			d.calls++
			d.q.push(Event{Kind: ToolCall, Tool: p})
			p.Complete = completeJSON(text)
			d.q.push(Event{Kind: ToolCallDone, Tool: p})
		}
		if d.q.len() == 0 && !l.Done {
			d.q.push(Event{Kind: Role})
		}
	}
	if e := errorPayload(l.Error); e != nil {
		d.q.push(Event{Kind: Error, Err: e})
	}
	if l.Done {
		reason, ok := jsonString(l.DoneReason)
		if !ok && len(l.DoneReason) > 0 && string(l.DoneReason) != "null" {
			return fmt.Errorf("done_reason is %s, not a string", l.DoneReason)
		}
		d.q.push(Event{Kind: Finish, Finish: reason})
		if l.PromptEvalCount > 0 || l.EvalCount > 0 {
			d.q.push(Event{Kind: Usage, Usage: TokenUsage{InputTokens: l.PromptEvalCount, OutputTokens: l.EvalCount}})
		}
		d.err = io.EOF
	}
	if d.q.len() == 0 {
		d.q.push(Event{Kind: Meta})
	}
	return nil
}
