package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// OpenAIDecoder decodes an OpenAI chat completions SSE stream (also what
// openai-compatible servers, OpenRouter, Venice, vLLM, llama.cpp and
// DeepSeek send).
//
// Text comes from choices[0].delta.content; thinking from
// delta.reasoning_content and delta.reasoning (both are read; the same text
// in both counts once); tool calls
// from delta.tool_calls fragments keyed by index, completed when a
// finish_reason arrives (or the stream ends); usage from a non-null "usage"
// member (OpenAI sends it in a last chunk with empty choices, vLLM with
// "choices": null). `data: {"error": {...}}` is an Error event but
// `"error": null` is not. `data: [DONE]` ends the stream. A chunk with only
// a role is Role; one with nothing is Meta.
type OpenAIDecoder struct {
	sse   *SSEReader
	q     queue
	tools toolCalls
	err   error
	// shape is the last chunk read in full that held text and nothing
	// else, split around its content string (see sameShape).
	shape chunkShape
	// noShapes turns sameShape off (tests compare both ways).
	noShapes bool
}

// chunkShape is a chunk without its content string: what comes before
// it (head) and after it (tail).
type chunkShape struct {
	head, tail []byte
	ok         bool
}

// NewOpenAIDecoder returns a decoder over an OpenAI SSE body.
func NewOpenAIDecoder(body io.Reader) *OpenAIDecoder {
	return &OpenAIDecoder{sse: NewSSEReader(body, MaxLine)}
}

type openAIChunk struct {
	Choices []openAIChoice  `json:"choices"`
	Usage   *openAIUsage    `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type openAIChoice struct {
	Index        int             `json:"index"`
	Delta        openAIDelta     `json:"delta"`
	FinishReason json.RawMessage `json:"finish_reason"`
}

type openAIDelta struct {
	Role             json.RawMessage  `json:"role"`
	Content          json.RawMessage  `json:"content"`
	ReasoningContent json.RawMessage  `json:"reasoning_content"`
	Reasoning        json.RawMessage  `json:"reasoning"`
	ToolCalls        []openAIToolCall `json:"tool_calls"`
}

type openAIToolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type openAIUsage struct {
	PromptTokens            int `json:"prompt_tokens"`
	CompletionTokens        int `json:"completion_tokens"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

var doneMarker = []byte("[DONE]")

// Next returns the next event; see Decoder.
func (d *OpenAIDecoder) Next() (Event, error) {
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
		if bytes.Equal(data, doneMarker) {
			d.tools.flush(&d.q)
			d.err = io.EOF
			continue
		}
		if len(data) == 0 {
			return Event{Kind: Meta}, nil
		}
		if err := d.frame(f.Event, data); err != nil {
			d.q = queue{}
			d.err = malformed(OpenAI, f.Line, data, err)
			return Event{}, d.err
		}
	}
}

func (d *OpenAIDecoder) frame(event string, data []byte) error {
	if event == "" {
		if text, ok := d.sameShape(data); ok {
			d.q.push(Event{Kind: Text, Text: text})
			return nil
		}
	}
	var c openAIChunk
	scanned := decodeOpenAIChunk(data, &c)
	if !scanned {
		if err := json.Unmarshal(data, &c); err != nil {
			return err
		}
	}
	if event == "error" && len(c.Error) == 0 {
		// Some gateways send `event: error` with the error object itself
		// as the data.
		c.Error = data
	}
	before := d.q.len()
	role := false
	if len(c.Choices) > 0 {
		ch := c.Choices[0]
		for _, x := range c.Choices {
			if x.Index == 0 {
				ch = x
				break
			}
		}
		if r, ok := jsonString(ch.Delta.Role); ok && r != "" {
			role = true
		}
		rc, _ := jsonString(ch.Delta.ReasoningContent)
		if rc != "" {
			d.q.push(Event{Kind: Thinking, Text: rc})
		}
		// Servers moving from reasoning_content to reasoning (vLLM) send
		// the same text in both for a while: keep it once.
		if r, _ := jsonString(ch.Delta.Reasoning); r != "" && r != rc {
			d.q.push(Event{Kind: Thinking, Text: r})
		}
		if s, ok := jsonString(ch.Delta.Content); ok && s != "" {
			d.q.push(Event{Kind: Text, Text: s})
		}
		for i, tc := range ch.Delta.ToolCalls {
			key := i
			if tc.Index != nil {
				key = *tc.Index
			}
			call := d.tools.get(key)
			if tc.ID != "" {
				call.part.ID = tc.ID
			}
			if tc.Function.Name != "" {
				call.part.Name += tc.Function.Name
			}
			args, _ := jsonString(tc.Function.Arguments)
			if args == "" && len(tc.Function.Arguments) > 0 && tc.Function.Arguments[0] == '{' {
				// A server that sends the arguments as an object
				// rather than as JSON text.
				args = string(tc.Function.Arguments)
			}
			call.args.WriteString(args)
			d.q.push(Event{Kind: ToolCall, Tool: ToolCallPart{Index: call.part.Index, ID: tc.ID, Name: tc.Function.Name, Arguments: args}})
		}
		if r, ok := jsonString(ch.FinishReason); ok && r != "" {
			d.tools.flush(&d.q)
			d.q.push(Event{Kind: Finish, Finish: r})
		} else if len(ch.FinishReason) > 0 && string(ch.FinishReason) != "null" {
			return fmt.Errorf("finish_reason is %s, not a string", ch.FinishReason)
		}
	}
	if c.Usage != nil {
		u := TokenUsage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
		if c.Usage.CompletionTokensDetails != nil {
			u.ReasoningTokens = c.Usage.CompletionTokensDetails.ReasoningTokens
		}
		d.q.push(Event{Kind: Usage, Usage: u})
	}
	if e := errorPayload(c.Error); e != nil {
		d.q.push(Event{Kind: Error, Err: e})
	}
	if d.q.len() == before {
		if role {
			d.q.push(Event{Kind: Role})
		} else {
			d.q.push(Event{Kind: Meta})
		}
	}
	if scanned && event == "" && d.q.len() == before+1 && d.q.ev[len(d.q.ev)-1].Kind == Text && len(c.Choices) == 1 {
		d.noteShape(data, c.Choices[0].Delta.Content)
	}
	return nil
}

// noteShape keeps the shape of data, a chunk that decoded (by
// decodeOpenAIChunk) to one Text event and nothing else, from the one
// choice's content, a string token within data.
func (d *OpenAIDecoder) noteShape(data, content []byte) {
	off := cap(data) - cap(content)
	if d.noShapes || len(content) < 2 || off < 0 || off+len(content) > len(data) || &data[off] != &content[0] {
		return
	}
	d.shape = chunkShape{head: bytes.Clone(data[:off]), tail: bytes.Clone(data[off+len(content):]), ok: true}
}

// sameShape reads a chunk that is the last shape with another content
// string: the Text event of that string. Servers send every piece of a
// reply in the same chunk but for its text (the id, the model, the
// creation time, a null finish_reason), and decoding each in full was
// the most of replaying a stream. A chunk with the same bytes around a
// string token the scanner reads decodes as that chunk did, but for the
// string: where ok is true the event is the one frame would push
// (TestSameShape, FuzzOpenAIDecoder compare both ways).
func (d *OpenAIDecoder) sameShape(data []byte) (string, bool) {
	sh := &d.shape
	if !sh.ok || len(data) < len(sh.head)+2+len(sh.tail) || !bytes.HasPrefix(data, sh.head) {
		return "", false
	}
	s := chunkScanner{b: data, i: len(sh.head)}
	start, end, _, ok := s.str()
	if !ok || !bytes.Equal(data[end:], sh.tail) {
		return "", false
	}
	text, ok := jsonString(data[start:end])
	if !ok || text == "" {
		return "", false
	}
	return text, true
}
