package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The overhead of an MCP tool call in a trial is BenchmarkCallTool minus
// BenchmarkCallDirect: the same echo call to the same stdio server, once
// through the SDK alone (the server's own time plus the transport) and
// once through the offered tool (meta split, names and coercion, result
// formatting).

func BenchmarkCallDirect(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serverEnv+"=serve")
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer session.Close()
	params := &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello", "count": 3}}
	b.ResetTimer()
	for b.Loop() {
		res, err := session.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

func BenchmarkCallTool(b *testing.B) {
	s, _ := start(b, Options{}, stdioServer(b, "files", "serve"))
	tl := s.Tools()[0]
	for _, t := range s.Tools() {
		if t.Spec().Name == "files__echo" {
			tl = t
		}
	}
	args := withRationale(`{"text":"hello","count":"3","_timeout_seconds":30}`)
	b.ResetTimer()
	for b.Loop() {
		if res := tl.Call(context.Background(), args); res.IsError {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkSanitize sanitizes and completes a schema the size of a real
// server's (notion-search-like: nested objects, patterns, nullable types),
// as each tool's start does.
func BenchmarkSanitize(b *testing.B) {
	schema := []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"query":{"type":"string","minLength":1,"description":"Search query"},"filters":{"type":"object","properties":{"created_date_range":{"type":"object","properties":{"start_date":{"type":"string","format":"date","pattern":"^\\d{4}-\\d{2}-\\d{2}$"},"end_date":{"type":["string","null"],"format":"date"}},"additionalProperties":{}},"created_by_user_ids":{"type":"array","items":{"type":"string","pattern":"^[0-9a-f-]{36}$"},"maxItems":100}},"additionalProperties":{}},"page_size":{"type":["integer","null"],"minimum":1,"maximum":100}},"required":["query","filters"]}`)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Sanitize(schema)
		if err != nil {
			b.Fatal(err)
		}
		_ = InjectMeta(s, MetaProperties)
	}
}

// BenchmarkOwnWork is agentdesk's own work in one call, without the
// server: splitting the meta arguments, matching names, coercing, and
// formatting a result.
func BenchmarkOwnWork(b *testing.B) {
	raw := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"count":{"type":"integer"}}}`)
	shown, _ := Sanitize(raw)
	shape := newArgShape(shown, raw)
	args := json.RawMessage(`{"_rationale":"bench","Text":"hello","count":"3","_timeout_seconds":30}`)
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: hello count=3"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := shape.prepare(args); err != nil {
			b.Fatal(err)
		}
		_, _ = formatResult(res)
	}
}
