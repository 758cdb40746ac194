package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentdesk/agentdesk/runner/wire"
)

// renderer writes a script's steps in one protocol.
type renderer interface {
	preamble(w io.Writer)
	step(w io.Writer, s Step)
	terminator(w io.Writer)
	contentType() string
}

// protocolServer is how the test server answers in one protocol: its
// endpoint, its renderer of a script's steps and the body of a non-2xx
// answer.
type protocolServer struct {
	// endpoint follows the server's URL in the provider Endpoint.
	endpoint  string
	render    func(sc *Script, model string) renderer
	errorBody func(status int, msg string) string
}

// servers are the test server's answers by protocol. The protocols
// themselves (paths, headers, finish reasons) are wire's table.
var servers = map[wire.Protocol]protocolServer{
	wire.OpenAI: {
		endpoint: "/v1",
		render: func(sc *Script, model string) renderer {
			field := sc.ReasoningField
			if field == "" {
				field = "reasoning_content"
			}
			return &openAIRenderer{sc: sc, model: model, reasoning: field}
		},
		errorBody: func(status int, msg string) string {
			return mustJSON(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": status}})
		},
	},
	wire.Anthropic: {
		render: func(sc *Script, model string) renderer { return &anthropicRenderer{sc: sc, model: model} },
		errorBody: func(_ int, msg string) string {
			return mustJSON(map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": msg}})
		},
	},
	wire.Ollama: {
		render:    func(sc *Script, model string) renderer { return &ollamaRenderer{sc: sc, model: model} },
		errorBody: func(_ int, msg string) string { return mustJSON(map[string]any{"error": msg}) },
	},
}

// server returns how the test server answers in protocol p (OpenAI's for
// a value that is no protocol).
func server(p wire.Protocol) protocolServer {
	if s, ok := servers[p]; ok {
		return s
	}
	return servers[wire.OpenAI]
}

func newRenderer(p wire.Protocol, sc *Script, model string) renderer {
	return server(p).render(sc, model)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only values built here are marshalled
	}
	return string(b)
}

// errorBody is the body of a non-2xx answer in protocol p.
func errorBody(p wire.Protocol, status int, msg string) string {
	return server(p).errorBody(status, msg)
}

func finishReason(p wire.Protocol, reason string) string {
	sp := p.Spec()
	if sp == nil {
		sp = wire.OpenAI.Spec()
	}
	switch reason {
	case FinishStop:
		return sp.Finish.Stop
	case FinishLength:
		return sp.Finish.Length
	case FinishTools:
		return sp.Finish.Tools
	}
	return reason
}

// ---- OpenAI chat completions SSE ----

type openAIRenderer struct {
	sc        *Script
	model     string
	reasoning string
	tools     int
}

func (r *openAIRenderer) contentType() string { return "text/event-stream" }

func (r *openAIRenderer) chunk(w io.Writer, delta map[string]any, finish any) {
	c := map[string]any{
		"id": "chatcmpl-modeltest", "object": "chat.completion.chunk", "created": 1730000000, "model": r.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
	}
	fmt.Fprintf(w, "data: %s\n\n", mustJSON(c))
}

func (r *openAIRenderer) usageChunk(w io.Writer, u Usage) {
	usage := map[string]any{
		"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens,
		"total_tokens":              u.InputTokens + u.OutputTokens,
		"completion_tokens_details": map[string]any{"reasoning_tokens": u.ReasoningTokens},
	}
	fmt.Fprintf(w, "data: %s\n\n", mustJSON(map[string]any{"id": "chatcmpl-modeltest", "object": "chat.completion.chunk", "model": r.model, "choices": []any{}, "usage": usage}))
}

func (r *openAIRenderer) preamble(w io.Writer) {
	if !r.sc.NoPreamble {
		r.chunk(w, map[string]any{"role": "assistant", "content": ""}, nil)
	}
}

func (r *openAIRenderer) step(w io.Writer, s Step) {
	switch s.kind {
	case stepText:
		r.chunk(w, map[string]any{"content": s.text}, nil)
	case stepThinking:
		r.chunk(w, map[string]any{r.reasoning: s.text}, nil)
	case stepToolCall:
		i := r.tools
		r.tools++
		r.chunk(w, map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": s.id, "type": "function", "function": map[string]any{"name": s.text, "arguments": ""},
		}}}, nil)
		for _, part := range s.parts {
			r.chunk(w, map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": part},
			}}}, nil)
		}
	case stepKeepalive:
		io.WriteString(w, ": keep-alive\n\n")
	case stepError:
		fmt.Fprintf(w, "data: %s\n\n", mustJSON(map[string]any{"error": map[string]any{"message": s.text, "type": "server_error", "code": nil}}))
	case stepFinish:
		r.chunk(w, map[string]any{}, finishReason(wire.OpenAI, s.text))
	case stepRole:
		r.chunk(w, map[string]any{"role": "assistant"}, nil)
	case stepUsage:
		r.usageChunk(w, s.usage)
	case stepRaw:
		io.WriteString(w, s.text)
	}
}

func (r *openAIRenderer) terminator(w io.Writer) {
	if r.sc.Usage != nil {
		r.usageChunk(w, *r.sc.Usage)
	}
	if !r.sc.NoTerminator {
		io.WriteString(w, "data: [DONE]\n\n")
	}
}

// ---- Anthropic Messages SSE ----

type anthropicRenderer struct {
	sc    *Script
	model string
	next  int    // index of the next content block
	open  string // type of the open block, "" when none
}

func (r *anthropicRenderer) contentType() string { return "text/event-stream" }

func (r *anthropicRenderer) event(w io.Writer, name string, data map[string]any) {
	data["type"] = name
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, mustJSON(data))
}

func (r *anthropicRenderer) start(w io.Writer) {
	msg := map[string]any{
		"id": "msg_modeltest", "type": "message", "role": "assistant", "model": r.model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
	}
	if u := r.sc.Usage; u != nil {
		msg["usage"] = map[string]any{"input_tokens": u.InputTokens, "output_tokens": 1}
	}
	r.event(w, "message_start", map[string]any{"message": msg})
}

func (r *anthropicRenderer) preamble(w io.Writer) {
	if !r.sc.NoPreamble {
		r.start(w)
	}
}

// block makes sure a block of type typ is open, closing another one first.
func (r *anthropicRenderer) block(w io.Writer, typ string, cb map[string]any) {
	if r.open == typ && typ != "tool_use" {
		return
	}
	r.close(w)
	cb["type"] = typ
	r.event(w, "content_block_start", map[string]any{"index": r.next, "content_block": cb})
	r.open = typ
}

func (r *anthropicRenderer) close(w io.Writer) {
	if r.open == "" {
		return
	}
	if r.open == "thinking" {
		r.event(w, "content_block_delta", map[string]any{"index": r.next, "delta": map[string]any{"type": "signature_delta", "signature": "c2lnbmF0dXJl"}})
	}
	r.event(w, "content_block_stop", map[string]any{"index": r.next})
	r.next++
	r.open = ""
}

func (r *anthropicRenderer) step(w io.Writer, s Step) {
	switch s.kind {
	case stepText:
		r.block(w, "text", map[string]any{"text": ""})
		r.event(w, "content_block_delta", map[string]any{"index": r.next, "delta": map[string]any{"type": "text_delta", "text": s.text}})
	case stepThinking:
		r.block(w, "thinking", map[string]any{"thinking": ""})
		r.event(w, "content_block_delta", map[string]any{"index": r.next, "delta": map[string]any{"type": "thinking_delta", "thinking": s.text}})
	case stepToolCall:
		r.block(w, "tool_use", map[string]any{"id": s.id, "name": s.text, "input": map[string]any{}})
		for _, part := range s.parts {
			r.event(w, "content_block_delta", map[string]any{"index": r.next, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
		r.close(w)
	case stepKeepalive:
		r.event(w, "ping", map[string]any{})
	case stepError:
		r.event(w, "error", map[string]any{"error": map[string]any{"type": "overloaded_error", "message": s.text}})
	case stepFinish:
		r.close(w)
		md := map[string]any{"delta": map[string]any{"stop_reason": finishReason(wire.Anthropic, s.text), "stop_sequence": nil}}
		if u := r.sc.Usage; u != nil {
			md["usage"] = map[string]any{"output_tokens": u.OutputTokens}
		}
		r.event(w, "message_delta", md)
	case stepRole:
		r.start(w)
	case stepUsage:
		r.event(w, "message_delta", map[string]any{"delta": map[string]any{}, "usage": map[string]any{"input_tokens": s.usage.InputTokens, "output_tokens": s.usage.OutputTokens}})
	case stepRaw:
		io.WriteString(w, s.text)
	}
}

func (r *anthropicRenderer) terminator(w io.Writer) {
	if !r.sc.NoTerminator {
		r.close(w)
		r.event(w, "message_stop", map[string]any{})
	}
}

// ---- Ollama /api/chat NDJSON ----

type ollamaRenderer struct {
	sc    *Script
	model string
}

func (r *ollamaRenderer) contentType() string { return "application/x-ndjson" }

func (r *ollamaRenderer) line(w io.Writer, msg map[string]any, extra map[string]any) {
	msg["role"] = "assistant"
	if _, ok := msg["content"]; !ok {
		msg["content"] = ""
	}
	l := map[string]any{"model": r.model, "created_at": "2025-01-01T00:00:00.000000Z", "message": msg, "done": false}
	for k, v := range extra {
		l[k] = v
	}
	fmt.Fprintf(w, "%s\n", mustJSON(l))
}

func (r *ollamaRenderer) preamble(io.Writer) {}

func (r *ollamaRenderer) step(w io.Writer, s Step) {
	switch s.kind {
	case stepText:
		r.line(w, map[string]any{"content": s.text}, nil)
	case stepThinking:
		r.line(w, map[string]any{"thinking": s.text}, nil)
	case stepToolCall:
		text := strings.Join(s.parts, "")
		var args any = text
		if json.Valid([]byte(text)) {
			args = json.RawMessage(text)
		} else if text == "" {
			args = map[string]any{}
		}
		call := map[string]any{"function": map[string]any{"name": s.text, "arguments": args}}
		if s.id != "" {
			call["id"] = s.id
		}
		r.line(w, map[string]any{"tool_calls": []any{call}}, nil)
	case stepKeepalive:
		io.WriteString(w, "\n")
	case stepError:
		fmt.Fprintf(w, "%s\n", mustJSON(map[string]any{"error": s.text}))
	case stepFinish:
		extra := map[string]any{"done": true, "done_reason": finishReason(wire.Ollama, s.text)}
		if u := r.sc.Usage; u != nil {
			extra["prompt_eval_count"] = u.InputTokens
			extra["eval_count"] = u.OutputTokens
		}
		r.line(w, map[string]any{}, extra)
	case stepRole:
		r.line(w, map[string]any{}, nil)
	case stepUsage:
		r.line(w, map[string]any{}, map[string]any{"prompt_eval_count": s.usage.InputTokens, "eval_count": s.usage.OutputTokens})
	case stepRaw:
		io.WriteString(w, s.text)
	}
}

func (r *ollamaRenderer) terminator(io.Writer) {}
