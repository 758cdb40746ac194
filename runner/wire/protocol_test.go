package wire

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestProtocolFor(t *testing.T) {
	tests := []struct {
		typ     string
		want    Protocol
		wantErr string
	}{
		{"", Ollama, ""},
		{"ollama", Ollama, ""},
		{"OpenAI", OpenAI, ""},
		{"openai-compatible", OpenAI, ""},
		{"openrouter", OpenAI, ""},
		{"veniceai", OpenAI, ""},
		{"anthropic", Anthropic, ""},
		{"github-copilot", 0, "github-copilot is not supported"},
		{"gemini", 0, `unknown provider type "gemini"`},
	}
	for _, tt := range tests {
		got, err := ProtocolFor(tt.typ)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: error %v, want %q", tt.typ, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: got %v, %v; want %v", tt.typ, got, err, tt.want)
		}
	}
}

func TestProtocolURL(t *testing.T) {
	tests := []struct {
		p        Protocol
		endpoint string
		want     string
	}{
		{OpenAI, "https://api.openai.com", "https://api.openai.com/v1/chat/completions"},
		{OpenAI, "https://api.openai.com/", "https://api.openai.com/v1/chat/completions"},
		{OpenAI, "https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"},
		{OpenAI, "https://openrouter.ai/api/v1/", "https://openrouter.ai/api/v1/chat/completions"},
		{OpenAI, "http://127.0.0.1:8000/v1/chat/completions", "http://127.0.0.1:8000/v1/chat/completions"},
		{Anthropic, "https://api.anthropic.com", "https://api.anthropic.com/v1/messages"},
		{Anthropic, "https://proxy.example/anthropic/v1", "https://proxy.example/anthropic/v1/messages"},
		{Ollama, "http://localhost:11434", "http://localhost:11434/api/chat"},
		{Ollama, "http://localhost:11434/api/", "http://localhost:11434/api/chat"},
		{Ollama, "http://host/ollama", "http://host/ollama/api/chat"},
	}
	for _, tt := range tests {
		got, err := tt.p.URL(tt.endpoint)
		if err != nil || got != tt.want {
			t.Errorf("%v %q: got %q, %v; want %q", tt.p, tt.endpoint, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "localhost:11434", "ftp://x", "http://"} {
		if _, err := OpenAI.URL(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestNewHTTPRequest(t *testing.T) {
	base := Request{
		Endpoint: "http://127.0.0.1:1", APIKey: "k-123", Model: "m", System: "You are X.",
		Messages: []Message{{Role: "user", Text: "do it"}},
	}
	tests := []struct {
		name    string
		p       Protocol
		mod     func(*Request)
		headers map[string]string
		body    string
	}{
		{
			name:    "openai-compatible",
			p:       OpenAI,
			mod:     func(r *Request) { r.MaxTokens = 100; r.ProviderType = "openai-compatible" },
			headers: map[string]string{"Authorization": "Bearer k-123", "Accept": "text/event-stream", "Content-Type": "application/json"},
			body:    `{"model":"m","messages":[{"role":"system","content":"You are X."},{"role":"user","content":"do it"}],"stream":true,"stream_options":{"include_usage":true},"max_tokens":100}`,
		},
		{
			name:    "openai proper uses max_completion_tokens",
			p:       OpenAI,
			mod:     func(r *Request) { r.MaxTokens = 100; r.ProviderType = "OpenAI" },
			headers: map[string]string{"Authorization": "Bearer k-123"},
			body:    `{"model":"m","messages":[{"role":"system","content":"You are X."},{"role":"user","content":"do it"}],"stream":true,"stream_options":{"include_usage":true},"max_completion_tokens":100}`,
		},
		{
			name:    "anthropic",
			p:       Anthropic,
			headers: map[string]string{"x-api-key": "k-123", "anthropic-version": "2023-06-01", "Authorization": ""},
			body:    `{"model":"m","system":"You are X.","messages":[{"role":"user","content":"do it"}],"max_tokens":8192,"stream":true}`,
		},
		{
			name:    "ollama without key",
			p:       Ollama,
			mod:     func(r *Request) { r.APIKey = ""; r.MaxTokens = 50 },
			headers: map[string]string{"Authorization": "", "Accept": "application/x-ndjson"},
			body:    `{"model":"m","messages":[{"role":"system","content":"You are X."},{"role":"user","content":"do it"}],"stream":true,"options":{"num_predict":50}}`,
		},
	}
	builders := []struct {
		name  string
		build func(Protocol, context.Context, Request) (*http.Request, error)
	}{{"eager", Protocol.NewHTTPRequest}, {"lazy", Protocol.NewLazyRequest}}
	for _, tt := range tests {
		for _, bl := range builders {
			t.Run(tt.name+"/"+bl.name, func(t *testing.T) {
				r := base
				if tt.mod != nil {
					tt.mod(&r)
				}
				req, err := bl.build(tt.p, context.Background(), r)
				if err != nil {
					t.Fatal(err)
				}
				if req.URL.String() != "http://127.0.0.1:1"+map[Protocol]string{OpenAI: "/v1/chat/completions", Anthropic: "/v1/messages", Ollama: "/api/chat"}[tt.p] {
					t.Errorf("URL %s", req.URL)
				}
				if req.Method != "POST" {
					t.Errorf("method %s", req.Method)
				}
				for k, v := range tt.headers {
					if got := req.Header.Get(k); got != v {
						t.Errorf("header %s = %q, want %q", k, got, v)
					}
				}
				b, _ := io.ReadAll(req.Body)
				if string(b) != tt.body {
					t.Errorf("body\n got %s\nwant %s", b, tt.body)
				}
				if !json.Valid(b) {
					t.Error("body is not JSON")
				}
			})
		}
	}
}

// TestNewLazyRequestEncodingError: a body that cannot be encoded (a
// tool's schema that is not JSON) fails NewHTTPRequest at once, and the
// lazy request's first Read with the same error.
func TestNewLazyRequestEncodingError(t *testing.T) {
	r := Request{Endpoint: "http://127.0.0.1:1", Model: "m", Messages: []Message{{Role: "user", Text: "x"}},
		Tools: []Tool{{Name: "bad", Parameters: json.RawMessage(`{"type":`)}}}
	_, eager := OpenAI.NewHTTPRequest(context.Background(), r)
	if eager == nil {
		t.Fatal("NewHTTPRequest encoded a schema that is not JSON")
	}
	req, err := OpenAI.NewLazyRequest(context.Background(), r)
	if err != nil {
		t.Fatalf("NewLazyRequest failed before the body was read: %v", err)
	}
	if req.ContentLength != -1 {
		t.Errorf("ContentLength %d, want -1 (unknown until encoded)", req.ContentLength)
	}
	if _, err := io.ReadAll(req.Body); err == nil || err.Error() != eager.Error() {
		t.Errorf("reading the lazy body: %v, want %v", err, eager)
	}
	if _, err := OpenAI.NewLazyRequest(context.Background(), Request{Endpoint: "ftp://x"}); err == nil {
		t.Error("NewLazyRequest accepted an endpoint that is not http(s)")
	}
}
