package wire

import (
	"bytes"
	"encoding/json"
	"io"
)

// AnthropicDecoder decodes an Anthropic Messages SSE stream.
//
// message_start is Role (with its usage); content_block_start of a text or
// thinking block is Meta unless it already carries text, of a
// redacted_thinking block Thinking with no text, of a tool_use block a
// ToolCall fragment with id and name; content_block_delta gives Text
// (text_delta), Thinking (thinking_delta), ToolCall (input_json_delta), or
// Meta (signature_delta and the rest); content_block_stop of a tool_use
// block is its ToolCallDone; message_delta gives Usage and Finish with the
// raw stop_reason; ping is a Keepalive; error is an Error; message_stop ends
// the stream. Unknown event types are Meta.
type AnthropicDecoder struct {
	sse   *SSEReader
	q     queue
	tools toolCalls
	// blocks maps a content block index to its type.
	blocks map[int]string
	err    error
}

// NewAnthropicDecoder returns a decoder over an Anthropic SSE body.
func NewAnthropicDecoder(body io.Reader) *AnthropicDecoder {
	return &AnthropicDecoder{sse: NewSSEReader(body, MaxLine), blocks: map[int]string{}}
}

type anthropicFrame struct {
	Type    string `json:"type"`
	Message *struct {
		Usage *anthropicUsage `json:"usage"`
	} `json:"message"`
	Index        int `json:"index"`
	ContentBlock *struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking string          `json:"thinking"`
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Input    json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta *struct {
		Type        string          `json:"type"`
		Text        string          `json:"text"`
		Thinking    string          `json:"thinking"`
		PartialJSON string          `json:"partial_json"`
		StopReason  json.RawMessage `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type anthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

func (u *anthropicUsage) tokens() TokenUsage {
	return TokenUsage{
		InputTokens:  u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
		OutputTokens: u.OutputTokens,
	}
}

// Next returns the next event; see Decoder.
func (d *AnthropicDecoder) Next() (Event, error) {
	for {
		if e, ok := d.q.pop(); ok {
			return e, nil
		}
		if d.err != nil {
			return Event{}, d.err
		}
		f, err := d.sse.Next()
		if err != nil {
			d.tools.flush(&d.q)
			d.err = err
			continue
		}
		if f.Comment {
			return Event{Kind: Keepalive, Text: string(f.Data)}, nil
		}
		data := bytes.TrimSpace(f.Data)
		if len(data) == 0 {
			if f.Event == "ping" {
				return Event{Kind: Keepalive}, nil
			}
			return Event{Kind: Meta}, nil
		}
		if err := d.frame(f.Event, data); err != nil {
			d.q = queue{}
			d.err = malformed(Anthropic, f.Line, data, err)
			return Event{}, d.err
		}
	}
}

func (d *AnthropicDecoder) frame(event string, data []byte) error {
	var f anthropicFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	typ := f.Type
	if typ == "" {
		typ = event
	}
	switch typ {
	case "ping":
		d.q.push(Event{Kind: Keepalive})
	case "message_start":
		d.q.push(Event{Kind: Role})
		if f.Message != nil && f.Message.Usage != nil {
			d.q.push(Event{Kind: Usage, Usage: f.Message.Usage.tokens()})
		}
	case "content_block_start":
		if f.ContentBlock == nil {
			d.q.push(Event{Kind: Meta})
			break
		}
		b := f.ContentBlock
		d.blocks[f.Index] = b.Type
		switch b.Type {
		case "text":
			if b.Text != "" {
				d.q.push(Event{Kind: Text, Text: b.Text})
			}
		case "thinking":
			if b.Thinking != "" {
				d.q.push(Event{Kind: Thinking, Text: b.Thinking})
			}
		case "redacted_thinking":
			d.q.push(Event{Kind: Thinking})
		case "tool_use", "server_tool_use":
			call := d.tools.get(f.Index)
			call.part.ID, call.part.Name = b.ID, b.Name
			if in := bytes.TrimSpace(b.Input); len(in) > 0 && !bytes.Equal(in, []byte("{}")) && !bytes.Equal(in, []byte("null")) {
				call.input = string(in)
			}
			d.q.push(Event{Kind: ToolCall, Tool: ToolCallPart{Index: call.part.Index, ID: b.ID, Name: b.Name}})
		}
	case "content_block_delta":
		if f.Delta == nil {
			break
		}
		switch f.Delta.Type {
		case "text_delta":
			if f.Delta.Text != "" {
				d.q.push(Event{Kind: Text, Text: f.Delta.Text})
			}
		case "thinking_delta":
			if f.Delta.Thinking != "" {
				d.q.push(Event{Kind: Thinking, Text: f.Delta.Thinking})
			}
		case "input_json_delta":
			if t := d.blocks[f.Index]; t == "tool_use" || t == "server_tool_use" {
				call := d.tools.get(f.Index)
				call.args.WriteString(f.Delta.PartialJSON)
				d.q.push(Event{Kind: ToolCall, Tool: ToolCallPart{Index: call.part.Index, Arguments: f.Delta.PartialJSON}})
			}
		}
	case "content_block_stop":
		if t := d.blocks[f.Index]; t == "tool_use" || t == "server_tool_use" {
			d.q.push(d.tools.get(f.Index).finish())
		}
		delete(d.blocks, f.Index)
	case "message_delta":
		if f.Usage != nil {
			d.q.push(Event{Kind: Usage, Usage: f.Usage.tokens()})
		}
		if f.Delta != nil {
			if r, ok := jsonString(f.Delta.StopReason); ok && r != "" {
				d.tools.flush(&d.q)
				d.q.push(Event{Kind: Finish, Finish: r})
			}
		}
	case "message_stop":
		d.tools.flush(&d.q)
		d.q.push(Event{Kind: Meta})
		d.err = io.EOF
	case "error":
		e := errorPayload(f.Error)
		if e == nil {
			e = &StreamError{Message: string(data)}
		}
		d.q.push(Event{Kind: Error, Err: e})
	}
	if d.q.len() == 0 {
		d.q.push(Event{Kind: Meta})
	}
	return nil
}
