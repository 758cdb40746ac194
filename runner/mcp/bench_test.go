package mcp

import (
	"context"
	"os"
	"os/exec"
	"testing"

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
