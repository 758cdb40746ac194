package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Body returns the JSON body of one streaming call in protocol p.
//
// The conversation's turns go out in each protocol's shape:
//
//   - OpenAI: a system message (one per Request.Layers entry after it), then user, assistant and tool messages; an
//     assistant turn's calls in "tool_calls" (arguments as JSON text, content
//     null when the turn has no text), a result as {"role":"tool",
//     "tool_call_id":…}. Tools as [{"type":"function","function":{name,
//     description, parameters}}].
//   - Anthropic: "system" apart (a string, or with Layers one text block
//     each); an assistant turn's calls as tool_use blocks
//     after its text block; results as tool_result blocks (is_error when the
//     call failed) in one user message together with the user text that
//     follows them, since the API wants the roles to alternate. Tools as
//     [{name, description, input_schema}].
//   - Ollama: the system messages as OpenAI's, then user, assistant (calls in "tool_calls"
//     with the arguments as an object) and tool messages ({"role":"tool",
//     "tool_name":…}). Tools as OpenAI's.
//
// Arguments that are not a JSON object are sent as {} where the protocol
// wants an object.
func (p Protocol) Body(r Request) ([]byte, error) {
	sp := p.Spec()
	if sp == nil {
		return nil, fmt.Errorf("unknown protocol %d", int(p))
	}
	v := sp.body(r)
	return json.Marshal(v)
}

// systems returns the request's system messages in order: System, then
// each layer; empty ones are left out.
func (r Request) systems() []string {
	var out []string
	for _, s := range append([]string{r.System}, r.Layers...) {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// emptySchema stands in for a tool without a parameter schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

func schema(t Tool) json.RawMessage {
	if len(bytes.TrimSpace(t.Parameters)) == 0 {
		return emptySchema
	}
	return t.Parameters
}

// argumentsObject returns a call's arguments as a JSON object: the text
// itself when it is one, else {}.
func argumentsObject(args string) json.RawMessage {
	s := strings.TrimSpace(args)
	if strings.HasPrefix(s, "{") && json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	return json.RawMessage(`{}`)
}

// argumentsText returns a call's arguments as JSON text: "{}" for none.
func argumentsText(args string) string {
	if strings.TrimSpace(args) == "" {
		return "{}"
	}
	return args
}

// ---- OpenAI ----

type openAIMessageOut struct {
	Role       string              `json:"role"`
	Content    *string             `json:"content"`
	ToolCalls  []openAIToolCallOut `json:"tool_calls,omitempty"`
	ToolCallID string              `json:"tool_call_id,omitempty"`
}

type openAIToolCallOut struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type functionTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func functionTools(tools []Tool) []functionTool {
	out := make([]functionTool, len(tools))
	for i, t := range tools {
		out[i].Type = "function"
		out[i].Function.Name, out[i].Function.Description, out[i].Function.Parameters = t.Name, t.Description, schema(t)
	}
	return out
}

func openAIBody(r Request) any {
	var msgs []openAIMessageOut
	text := func(s string) *string { return &s }
	for _, sys := range r.systems() {
		msgs = append(msgs, openAIMessageOut{Role: "system", Content: text(sys)})
	}
	for _, m := range r.Messages {
		switch {
		case m.Role == "tool":
			msgs = append(msgs, openAIMessageOut{Role: "tool", Content: text(m.Text), ToolCallID: m.ToolCallID})
		case len(m.ToolCalls) > 0:
			out := openAIMessageOut{Role: m.Role}
			if m.Text != "" {
				out.Content = text(m.Text)
			}
			for _, c := range m.ToolCalls {
				var tc openAIToolCallOut
				tc.ID, tc.Type = c.ID, "function"
				tc.Function.Name, tc.Function.Arguments = c.Name, argumentsText(c.Arguments)
				out.ToolCalls = append(out.ToolCalls, tc)
			}
			msgs = append(msgs, out)
		default:
			msgs = append(msgs, openAIMessageOut{Role: m.Role, Content: text(m.Text)})
		}
	}
	body := struct {
		Model               string             `json:"model"`
		Messages            []openAIMessageOut `json:"messages"`
		Stream              bool               `json:"stream"`
		StreamOptions       any                `json:"stream_options"`
		MaxTokens           int                `json:"max_tokens,omitempty"`
		MaxCompletionTokens int                `json:"max_completion_tokens,omitempty"`
		Tools               []functionTool     `json:"tools,omitempty"`
		ToolChoice          string             `json:"tool_choice,omitempty"`
	}{Model: r.Model, Messages: msgs, Stream: true, StreamOptions: map[string]bool{"include_usage": true}}
	if strings.EqualFold(r.ProviderType, "openai") {
		body.MaxCompletionTokens = r.MaxTokens
	} else {
		body.MaxTokens = r.MaxTokens
	}
	if len(r.Tools) > 0 {
		body.Tools = functionTools(r.Tools)
		if r.ToolsWithdrawn {
			body.ToolChoice = "none"
		}
	}
	return body
}

// ---- Anthropic ----

type anthropicMessageOut struct {
	Role string `json:"role"`
	// Content is a string, or a list of blocks.
	Content any `json:"content"`
}

type anthropicBlockOut struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type anthropicToolOut struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// anthropicBody is the Messages API's request body for r.
func anthropicBody(r Request) any {
	msgs := anthropicMessages(r.Messages)
	max := r.MaxTokens
	if max <= 0 {
		max = DefaultAnthropicMaxTokens
	}
	body := struct {
		Model      string                `json:"model"`
		System     any                   `json:"system,omitempty"`
		Messages   []anthropicMessageOut `json:"messages"`
		MaxTokens  int                   `json:"max_tokens"`
		Stream     bool                  `json:"stream"`
		Tools      []anthropicToolOut    `json:"tools,omitempty"`
		ToolChoice any                   `json:"tool_choice,omitempty"`
	}{Model: r.Model, Messages: msgs, MaxTokens: max, Stream: true}
	switch systems := r.systems(); {
	case len(r.Layers) == 0 && r.System != "":
		body.System = r.System
	case len(systems) > 0:
		// One text block per system message: the layers stay apart.
		blocks := make([]anthropicBlockOut, len(systems))
		for i := range systems {
			blocks[i] = anthropicBlockOut{Type: "text", Text: &systems[i]}
		}
		body.System = blocks
	}
	for _, t := range r.Tools {
		body.Tools = append(body.Tools, anthropicToolOut{Name: t.Name, Description: t.Description, InputSchema: schema(t)})
	}
	if len(r.Tools) > 0 && r.ToolsWithdrawn {
		body.ToolChoice = map[string]string{"type": "none"}
	}
	return body
}

// anthropicTurns builds the messages of an Anthropic request: tool
// results (and the user text after them) gather in pending, for one user
// message.
type anthropicTurns struct {
	msgs    []anthropicMessageOut
	pending []anthropicBlockOut
}

// flush ends the user message of the pending tool results.
func (t *anthropicTurns) flush() {
	if len(t.pending) > 0 {
		t.msgs = append(t.msgs, anthropicMessageOut{Role: "user", Content: t.pending})
		t.pending = nil
	}
}

// anthropicMessages turns ms into the Messages API's messages: an
// assistant turn with tool calls as text and tool_use blocks, tool
// results as tool_result blocks of a user message, the rest as text.
func anthropicMessages(ms []Message) []anthropicMessageOut {
	var t anthropicTurns
	for _, m := range ms {
		text := m.Text
		switch {
		case m.Role == "tool":
			t.pending = append(t.pending, anthropicBlockOut{Type: "tool_result", ToolUseID: m.ToolCallID, Content: &text, IsError: m.IsError})
		case m.Role == "user" && len(t.pending) > 0:
			t.pending = append(t.pending, anthropicBlockOut{Type: "text", Text: &text})
		case len(m.ToolCalls) > 0:
			t.flush()
			t.msgs = append(t.msgs, anthropicMessageOut{Role: m.Role, Content: toolUseBlocks(m)})
		default:
			t.flush()
			t.msgs = append(t.msgs, anthropicMessageOut{Role: m.Role, Content: m.Text})
		}
	}
	t.flush()
	return t.msgs
}

// toolUseBlocks are the content blocks of a turn with tool calls: its
// text, when it has any, then a tool_use block per call.
func toolUseBlocks(m Message) []anthropicBlockOut {
	var blocks []anthropicBlockOut
	if m.Text != "" {
		text := m.Text
		blocks = append(blocks, anthropicBlockOut{Type: "text", Text: &text})
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, anthropicBlockOut{Type: "tool_use", ID: c.ID, Name: c.Name, Input: argumentsObject(c.Arguments)})
	}
	return blocks
}

// ---- Ollama ----

type ollamaMessageOut struct {
	Role      string              `json:"role"`
	Content   string              `json:"content"`
	ToolCalls []ollamaToolCallOut `json:"tool_calls,omitempty"`
	ToolName  string              `json:"tool_name,omitempty"`
}

type ollamaToolCallOut struct {
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func ollamaBody(r Request) any {
	var msgs []ollamaMessageOut
	for _, sys := range r.systems() {
		msgs = append(msgs, ollamaMessageOut{Role: "system", Content: sys})
	}
	for _, m := range r.Messages {
		out := ollamaMessageOut{Role: m.Role, Content: m.Text}
		if m.Role == "tool" {
			out.ToolName = m.ToolName
		}
		for _, c := range m.ToolCalls {
			var tc ollamaToolCallOut
			tc.Function.Name, tc.Function.Arguments = c.Name, argumentsObject(c.Arguments)
			out.ToolCalls = append(out.ToolCalls, tc)
		}
		msgs = append(msgs, out)
	}
	body := struct {
		Model    string             `json:"model"`
		Messages []ollamaMessageOut `json:"messages"`
		Stream   bool               `json:"stream"`
		Options  map[string]int     `json:"options,omitempty"`
		Tools    []functionTool     `json:"tools,omitempty"`
	}{Model: r.Model, Messages: msgs, Stream: true}
	if r.MaxTokens > 0 {
		body.Options = map[string]int{"num_predict": r.MaxTokens}
	}
	if len(r.Tools) > 0 && !r.ToolsWithdrawn {
		body.Tools = functionTools(r.Tools)
	}
	return body
}
