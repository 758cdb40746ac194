package wire

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Encode writes events in protocol p's wire format: the inverse of the
// decoders. chunks[i] holds the bytes of events[i] (empty for an event the
// protocol cannot carry, such as a Meta, a ToolCall fragment, or a Usage
// that Ollama reports on its done line); end is what ends the stream
// (OpenAI's `data: [DONE]`, Anthropic's message_stop, nothing for Ollama).
//
// Decoding the joined chunks gives back the events that matter (text,
// thinking, whole tool calls, keepalives, finish, usage, errors) in order,
// except that OpenAI reports a tool call when its finish arrives. A
// recorder uses it to store a stream whose raw bytes it may not keep (a
// secret split across frames) in a form that replays alike.
func Encode(p Protocol, events []Event) (chunks [][]byte, end []byte) {
	sp := p.Spec()
	if sp == nil {
		sp = OpenAI.Spec()
	}
	enc := sp.newEncoder()
	chunks = make([][]byte, len(events))
	for i, e := range events {
		var b strings.Builder
		enc.event(&b, e, events[i+1:])
		chunks[i] = []byte(b.String())
	}
	var b strings.Builder
	enc.end(&b)
	return chunks, []byte(b.String())
}

type encoder interface {
	// event writes e; rest are the events after it.
	event(b *strings.Builder, e Event, rest []Event)
	end(b *strings.Builder)
}

// marshal encodes a value built here; it cannot fail.
func marshal(v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("wire: encoding %T: %v", v, err)) // only maps of strings and numbers
	}
	return string(out)
}

// oneLine makes a keepalive comment fit on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
}

// ---- OpenAI ----

type openAIEncoder struct{}

func (openAIEncoder) chunk(b *strings.Builder, delta map[string]any, finish any) {
	fmt.Fprintf(b, "data: %s\n\n", marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}))
}

func (o openAIEncoder) event(b *strings.Builder, e Event, _ []Event) {
	switch e.Kind {
	case Role:
		o.chunk(b, map[string]any{"role": "assistant"}, nil)
	case Text:
		o.chunk(b, map[string]any{"content": e.Text}, nil)
	case Thinking:
		o.chunk(b, map[string]any{"reasoning_content": e.Text}, nil)
	case ToolCallDone:
		t := e.Tool
		o.chunk(b, map[string]any{"tool_calls": []any{map[string]any{
			"index": t.Index, "id": t.ID, "type": "function", "function": map[string]any{"name": t.Name, "arguments": t.Arguments},
		}}}, nil)
	case Keepalive:
		fmt.Fprintf(b, ": %s\n\n", oneLine(e.Text))
	case Usage:
		u := e.Usage
		fmt.Fprintf(b, "data: %s\n\n", marshal(map[string]any{"choices": []any{}, "usage": map[string]any{
			"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens,
			"completion_tokens_details": map[string]any{"reasoning_tokens": u.ReasoningTokens},
		}}))
	case Finish:
		o.chunk(b, map[string]any{}, e.Finish)
	case Error:
		fmt.Fprintf(b, "data: %s\n\n", marshal(map[string]any{"error": map[string]any{"message": e.Err.Message, "type": e.Err.Type}}))
	}
}

func (openAIEncoder) end(b *strings.Builder) { b.WriteString("data: [DONE]\n\n") }

// ---- Anthropic ----

type anthropicEncoder struct {
	next int    // index of the next content block
	open string // type of the open block, "" when none
}

func (a *anthropicEncoder) frame(b *strings.Builder, name string, data map[string]any) {
	data["type"] = name
	fmt.Fprintf(b, "event: %s\ndata: %s\n\n", name, marshal(data))
}

func (a *anthropicEncoder) block(b *strings.Builder, typ string, cb map[string]any) {
	if a.open == typ {
		return
	}
	a.close(b)
	cb["type"] = typ
	a.frame(b, "content_block_start", map[string]any{"index": a.next, "content_block": cb})
	a.open = typ
}

func (a *anthropicEncoder) close(b *strings.Builder) {
	if a.open == "" {
		return
	}
	a.frame(b, "content_block_stop", map[string]any{"index": a.next})
	a.next++
	a.open = ""
}

func (a *anthropicEncoder) event(b *strings.Builder, e Event, _ []Event) {
	switch e.Kind {
	case Role:
		a.frame(b, "message_start", map[string]any{"message": map[string]any{"type": "message", "role": "assistant", "content": []any{}}})
	case Text:
		a.block(b, "text", map[string]any{"text": ""})
		a.frame(b, "content_block_delta", map[string]any{"index": a.next, "delta": map[string]any{"type": "text_delta", "text": e.Text}})
	case Thinking:
		a.block(b, "thinking", map[string]any{"thinking": ""})
		a.frame(b, "content_block_delta", map[string]any{"index": a.next, "delta": map[string]any{"type": "thinking_delta", "thinking": e.Text}})
	case ToolCallDone:
		a.close(b)
		t := e.Tool
		a.block(b, "tool_use", map[string]any{"id": t.ID, "name": t.Name, "input": map[string]any{}})
		if t.Arguments != "" {
			a.frame(b, "content_block_delta", map[string]any{"index": a.next, "delta": map[string]any{"type": "input_json_delta", "partial_json": t.Arguments}})
		}
		a.close(b)
	case Keepalive:
		a.frame(b, "ping", map[string]any{})
	case Usage:
		a.frame(b, "message_delta", map[string]any{"delta": map[string]any{}, "usage": map[string]any{"input_tokens": e.Usage.InputTokens, "output_tokens": e.Usage.OutputTokens}})
	case Finish:
		a.close(b)
		a.frame(b, "message_delta", map[string]any{"delta": map[string]any{"stop_reason": e.Finish}})
	case Error:
		a.frame(b, "error", map[string]any{"error": map[string]any{"type": e.Err.Type, "message": e.Err.Message}})
	}
}

func (a *anthropicEncoder) end(b *strings.Builder) {
	a.close(b)
	a.frame(b, "message_stop", map[string]any{})
}

// ---- Ollama ----

type ollamaEncoder struct {
	usage *TokenUsage // the last counts seen
}

func (*ollamaEncoder) line(b *strings.Builder, msg map[string]any) {
	msg["role"] = "assistant"
	if _, ok := msg["content"]; !ok {
		msg["content"] = ""
	}
	fmt.Fprintf(b, "%s\n", marshal(map[string]any{"message": msg, "done": false}))
}

func (o *ollamaEncoder) event(b *strings.Builder, e Event, rest []Event) {
	switch e.Kind {
	case Role:
		o.line(b, map[string]any{})
	case Text:
		o.line(b, map[string]any{"content": e.Text})
	case Thinking:
		o.line(b, map[string]any{"thinking": e.Text})
	case ToolCallDone:
		// The arguments go in as written: an object as it is, anything
		// else as a string, so that they decode to the same text.
		t := e.Tool
		args := t.Arguments
		if s := strings.TrimSpace(args); s == "" || !strings.HasPrefix(s, "{") || !json.Valid([]byte(s)) || s != args {
			args = marshal(t.Arguments)
		}
		call := `{"function":{"name":` + marshal(t.Name) + `,"arguments":` + args + `}`
		if t.ID != "" {
			call += `,"id":` + marshal(t.ID)
		}
		fmt.Fprintf(b, `{"message":{"role":"assistant","content":"","tool_calls":[%s}]},"done":false}`+"\n", call)
	case Keepalive:
		b.WriteString("\n")
	case Usage:
		u := e.Usage
		o.usage = &u
	case Error:
		fmt.Fprintf(b, "%s\n", marshal(map[string]any{"error": e.Err.Message}))
	case Finish:
		// The counts go on the done line, where Ollama reports them.
		l := map[string]any{"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": e.Finish}
		u := o.usage
		for _, n := range rest {
			if n.Kind == Usage {
				u = &n.Usage
				break
			}
		}
		if u != nil {
			l["prompt_eval_count"], l["eval_count"] = u.InputTokens, u.OutputTokens
		}
		fmt.Fprintf(b, "%s\n", marshal(l))
	}
}

func (*ollamaEncoder) end(*strings.Builder) {}
