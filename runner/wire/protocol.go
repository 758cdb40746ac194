package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Protocol is one of the three wire protocols.
type Protocol int

// The protocols.
const (
	// OpenAI is chat completions over SSE: POST {Endpoint}/chat/completions.
	OpenAI Protocol = iota + 1
	// Anthropic is the Messages API over SSE: POST {Endpoint}/v1/messages.
	Anthropic
	// Ollama is the native NDJSON chat API: POST {Endpoint}/api/chat.
	Ollama
)

// String returns "openai", "anthropic" or "ollama".
func (p Protocol) String() string {
	if sp := p.Spec(); sp != nil {
		return sp.Name
	}
	return fmt.Sprintf("protocol(%d)", int(p))
}

// ProtocolFor returns the protocol a NetClaw provider type speaks
// (case-insensitive; "" is ollama, the runtime's default). github-copilot is
// refused: it needs an OAuth device flow a trial run cannot do.
func ProtocolFor(providerType string) (Protocol, error) {
	t := strings.ToLower(strings.TrimSpace(providerType))
	if t == "github-copilot" {
		return 0, fmt.Errorf("provider type github-copilot is not supported for trial runs: it signs in through GitHub's device flow; point the agent's model role at another provider in netclaw.json")
	}
	var known []string
	for _, sp := range table {
		for _, pt := range sp.ProviderTypes {
			if pt == t {
				return sp.Protocol, nil
			}
			if pt != "" {
				known = append(known, pt)
			}
		}
	}
	return 0, fmt.Errorf("unknown provider type %q: use %s or %s", providerType, strings.Join(known[:len(known)-1], ", "), known[len(known)-1])
}

// NewDecoder returns the decoder of protocol p over a response body, with
// the default line cap.
func NewDecoder(p Protocol, body io.Reader) Decoder {
	sp := p.Spec()
	if sp == nil {
		sp = OpenAI.Spec()
	}
	return sp.newDecoder(body)
}

// Message is one turn of the conversation sent to the model.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string
	// Text is the turn's text; for a tool turn, the tool's result.
	Text string
	// ToolCalls are the tool calls of an assistant turn: ID, Name and
	// Arguments (the arguments' JSON text) of each.
	ToolCalls []ToolCallPart
	// ToolCallID is the id of the call a tool turn answers; ToolName its
	// tool's name (Ollama matches results by name).
	ToolCallID string
	ToolName   string
	// IsError marks a tool turn whose call failed or was refused: the
	// Anthropic body sends it as is_error. The runner leaves it unset, as
	// NetClaw's sub-agent flags no result (runner's loop); the modeltest
	// server reads it back so tests can tell.
	IsError bool
}

// Request is one model call, independent of the protocol.
type Request struct {
	// Endpoint is the provider's base URL (Providers.<name>.Endpoint).
	Endpoint string
	// APIKey is sent as a bearer token (OpenAI, Ollama) or x-api-key
	// (Anthropic) when not empty.
	APIKey string
	// ProviderType is the NetClaw provider type; "openai" sends
	// max_completion_tokens instead of max_tokens.
	ProviderType string
	// Model is the model id.
	Model string
	// System is the system prompt.
	System string
	// Layers are further system messages that follow System, each a
	// message of its own (the context layers a frontline session reads):
	// OpenAI and Ollama get one system message each, Anthropic one text
	// block each in "system", after System's. Empty ones are left out.
	Layers []string
	// Messages follow the system prompt.
	Messages []Message
	// MaxTokens caps the reply; 0 leaves the provider's default, except for
	// Anthropic, which requires one (DefaultAnthropicMaxTokens).
	MaxTokens int
	// Tools are the tools offered to the model, in each protocol's tool
	// format; none are sent when it is empty.
	Tools []Tool
	// ToolsWithdrawn asks for an answer without tool calls, in a
	// conversation that already has some: OpenAI and Anthropic keep the
	// tools declared (the earlier turns refer to them) with tool_choice
	// "none"; Ollama, which has no tool_choice, gets no tools.
	ToolsWithdrawn bool
}

// Tool is a tool offered to the model, described neutrally.
type Tool struct {
	// Name is the name the model calls it by.
	Name string
	// Description tells the model what the tool does.
	Description string
	// Parameters is a JSON Schema object describing the arguments; nil
	// means an object with no properties.
	Parameters json.RawMessage
}

// DefaultAnthropicMaxTokens is the max_tokens sent to Anthropic when the
// request sets none: the Messages API requires the field.
const DefaultAnthropicMaxTokens = 8192

// AnthropicVersion is the anthropic-version header sent with every request.
const AnthropicVersion = "2023-06-01"

// URL returns the URL protocol p posts to for a provider endpoint.
//
// OpenAI: {Endpoint}/chat/completions, where an endpoint with no path gets
// /v1 first; an endpoint that already ends in /chat/completions is kept.
// Anthropic: {Endpoint}/v1/messages (an endpoint ending in /v1 gets
// /messages). Ollama: {Endpoint}/api/chat (an endpoint ending in /api gets
// /chat).
func (p Protocol) URL(endpoint string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return "", fmt.Errorf("provider endpoint %q is not a URL: %w", endpoint, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("provider endpoint %q is not an http(s) URL with a host: fix Endpoint in netclaw.json", endpoint)
	}
	path := strings.TrimRight(u.Path, "/")
	sp := p.Spec()
	if sp == nil {
		return "", fmt.Errorf("unknown protocol %d", int(p))
	}
	path = sp.Path(path)
	u.Path = path
	u.RawPath = ""
	return u.String(), nil
}

// NewHTTPRequest builds the streaming POST for one model call.
func (p Protocol) NewHTTPRequest(ctx context.Context, r Request) (*http.Request, error) {
	target, err := p.URL(r.Endpoint)
	if err != nil {
		return nil, err
	}
	body, err := p.Body(r)
	if err != nil {
		return nil, err
	}
	return p.newRequest(ctx, target, r.APIKey, bytes.NewReader(body))
}

// NewLazyRequest builds the request NewHTTPRequest builds, but encodes
// its body only when the body is first read (its length is then unknown
// to the request: ContentLength -1). A replay answers a call from its
// recording and never reads what was sent, so it is spared encoding the
// system prompt and the tools' schemas at every call; whatever does read
// the body reads the same bytes, and an encoding error comes from Read.
func (p Protocol) NewLazyRequest(ctx context.Context, r Request) (*http.Request, error) {
	target, err := p.URL(r.Endpoint)
	if err != nil {
		return nil, err
	}
	req, err := p.newRequest(ctx, target, r.APIKey, &lazyBody{p: p, r: r})
	if err != nil {
		return nil, err
	}
	req.ContentLength = -1
	return req, nil
}

// lazyBody is a request body encoded on its first Read.
type lazyBody struct {
	p       Protocol
	r       Request
	encoded *bytes.Reader
	err     error
}

// Read encodes the body the first time, then reads it.
func (b *lazyBody) Read(buf []byte) (int, error) {
	if b.encoded == nil && b.err == nil {
		body, err := b.p.Body(b.r)
		b.encoded, b.err = bytes.NewReader(body), err
		b.r = Request{}
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.encoded.Read(buf)
}

// newRequest is the POST to target with body and the protocol's headers.
func (p Protocol) newRequest(ctx context.Context, target, apiKey string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, body)
	if err != nil {
		return nil, fmt.Errorf("building the request to %s: %w", target, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "agentdesk")
	if sp := p.Spec(); sp != nil {
		req.Header.Set("Accept", sp.Accept)
		for k, v := range sp.Headers {
			req.Header.Set(k, v)
		}
		if apiKey != "" {
			sp.Auth(req.Header, apiKey)
		}
	}
	return req, nil
}
