package wire

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Spec describes one wire protocol, once: its name, the provider types
// that speak it, the path it posts to, its headers, its request body, its
// decoder and encoder, and the raw finish reasons it writes. Everything
// that differs between protocols reads it (Protocol.Spec); adding a
// protocol is a row in table and the files of its body, decoder and
// encoder.
type Spec struct {
	// Protocol is the protocol described.
	Protocol Protocol
	// Name is its name, as a cassette's header writes it ("openai").
	Name string
	// ProviderTypes are the NetClaw provider types that speak it, lower
	// case; "" stands for the runtime's default type.
	ProviderTypes []string
	// Path is the path a request posts to, given the endpoint's path
	// without its trailing slash.
	Path func(endpointPath string) string
	// Accept is the Accept header of a request.
	Accept string
	// Auth sets the header that carries a non-empty API key.
	Auth func(h http.Header, apiKey string)
	// Headers are further headers every request carries.
	Headers map[string]string
	// Finish are the raw finish reasons the protocol writes.
	Finish FinishNames
	// SystemApart is set when the system prompt travels apart from the
	// messages (Anthropic's "system"), not as system messages.
	SystemApart bool

	body       func(Request) any
	newDecoder func(io.Reader) Decoder
	newEncoder func() encoder
}

// FinishNames are a protocol's raw finish reasons for a reply that ended
// (Stop), hit its output limit (Length) and asked for tool calls (Tools).
type FinishNames struct {
	Stop, Length, Tools string
}

// suffixPath is the Path of a protocol whose endpoint may already end in
// its full path (kept), or in its prefix (the rest is added), or in
// neither (prefix and rest are added).
func suffixPath(prefix, rest string) func(string) string {
	return func(path string) string {
		switch {
		case strings.HasSuffix(path, prefix+rest):
			return path
		case strings.HasSuffix(path, prefix):
			return path + rest
		}
		return path + prefix + rest
	}
}

// bearer sends the key as a bearer token.
func bearer(h http.Header, key string) { h.Set("Authorization", "Bearer "+key) }

// table is every protocol, in the order a provider type is matched and
// listed (the default, Ollama, first).
var table = []*Spec{
	{
		Protocol: Ollama, Name: "ollama", ProviderTypes: []string{"", "ollama"},
		Path:   suffixPath("/api", "/chat"),
		Accept: "application/x-ndjson", Auth: bearer,
		Finish:     FinishNames{Stop: "stop", Length: "length", Tools: "stop"},
		body:       func(r Request) any { return ollamaBody(r) },
		newDecoder: func(r io.Reader) Decoder { return NewOllamaDecoder(r) },
		newEncoder: func() encoder { return &ollamaEncoder{} },
	},
	{
		Protocol: OpenAI, Name: "openai", ProviderTypes: []string{"openai", "openai-compatible", "openrouter", "veniceai"},
		Path: func(path string) string {
			switch {
			case strings.HasSuffix(path, "/chat/completions"):
				return path
			case path == "":
				return "/v1/chat/completions"
			}
			return path + "/chat/completions"
		},
		Accept: "text/event-stream", Auth: bearer,
		Finish:     FinishNames{Stop: "stop", Length: "length", Tools: "tool_calls"},
		body:       func(r Request) any { return openAIBody(r) },
		newDecoder: func(r io.Reader) Decoder { return NewOpenAIDecoder(r) },
		newEncoder: func() encoder { return &openAIEncoder{} },
	},
	{
		Protocol: Anthropic, Name: "anthropic", ProviderTypes: []string{"anthropic"},
		Path:   suffixPath("/v1", "/messages"),
		Accept: "text/event-stream",
		Auth:   func(h http.Header, key string) { h.Set("x-api-key", key) },
		Headers: map[string]string{
			"anthropic-version": AnthropicVersion,
		},
		Finish:      FinishNames{Stop: "end_turn", Length: "max_tokens", Tools: "tool_use"},
		SystemApart: true,
		body:        func(r Request) any { return anthropicBody(r) },
		newDecoder:  func(r io.Reader) Decoder { return NewAnthropicDecoder(r) },
		newEncoder:  func() encoder { return &anthropicEncoder{} },
	},
}

// Protocols lists every protocol, in the table's order.
func Protocols() []Protocol {
	out := make([]Protocol, len(table))
	for i, s := range table {
		out[i] = s.Protocol
	}
	return out
}

// Spec returns the protocol's row of the table; nil for a value that is
// no protocol.
func (p Protocol) Spec() *Spec {
	for _, s := range table {
		if s.Protocol == p {
			return s
		}
	}
	return nil
}

// Parse returns the protocol named name ("openai", "anthropic",
// "ollama"), as a cassette's header writes it.
func Parse(name string) (Protocol, error) {
	names := make([]string, len(table))
	for i, s := range table {
		if s.Name == name {
			return s.Protocol, nil
		}
		names[i] = s.Name
	}
	return 0, fmt.Errorf("protocol %q is not %s or %s", name, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// Recorded returns the protocol a recording's header names. A name the
// table lacks (a cassette made in code: reading a cassette file refuses
// one) is the runtime's default provider type's protocol, Ollama.
func Recorded(name string) Protocol {
	if p, err := Parse(name); err == nil {
		return p
	}
	return table[0].Protocol
}
