// Package mcptest is an MCP server for tests and demos, built on the
// official Go SDK: its tools echo, fail, hang, crash and flood on purpose,
// so the runner's MCP clients can be tested against a real server over any
// transport (stdio when a test binary serves it on its own stdin and
// stdout, streamable HTTP and SSE through httptest).
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server returns a new MCP server with the tools of the tests:
//
//	echo {text, count}   "echo: <text> count=<count>" (count is an integer)
//	args {url, limit, flag, zip}  the arguments it got, as JSON
//	env {name}           "<name>=<value>" of its own environment
//	crash                exits with status 3 mid-call, after a stderr line
//	hang                 answers only when the call is cancelled
//	fail                 a result with isError: "disk full"
//	rpcerr               a JSON-RPC error: "no such record"
//	big {n}              n bytes of "x"
//	spawn {pidfile}      starts `sleep 600`, writes its pid to pidfile
//	pid                  its own process id
//	garble               prints a line that is not JSON-RPC on its stdout
//	                     (over stdio, that breaks the connection)
//	fetch {url}          the body of an HTTP GET of url, or the error
//	write {path, text}   appends text to the file at path (made when
//	                     missing): "wrote N bytes to PATH", or the error
func Server() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "agentdesk-test", Version: "1"}, nil)
	type echoArgs struct {
		Text  string `json:"text"`
		Count int    `json:"count,omitempty"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text."}, func(_ context.Context, _ *sdk.CallToolRequest, a echoArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("echo: %s count=%d", a.Text, a.Count)}}}, nil, nil
	})
	raw := func(name, schema string, h sdk.ToolHandler) {
		s.AddTool(&sdk.Tool{Name: name, Description: name + " tool", InputSchema: json.RawMessage(schema)}, h)
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	raw("args", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"url":{"type":"string","pattern":"^https://"},"limit":{"type":["integer","null"]},"flag":{"type":"boolean"},"zip":{"type":"string"}},"required":["url"]}`,
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			b, _ := json.Marshal(args(req))
			return text(string(b)), nil
		})
	raw("env", `{"type":"object","properties":{"name":{"type":"string"}}}`, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		name, _ := args(req)["name"].(string)
		return text(name + "=" + os.Getenv(name)), nil
	})
	raw("crash", `{"type":"object"}`, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "panic: the server fell over")
		os.Exit(3)
		return nil, nil
	})
	raw("hang", `{"type":"object"}`, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	raw("fail", `{"type":"object"}`, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "disk full"}}}, nil
	})
	raw("rpcerr", `{"type":"object"}`, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return nil, fmt.Errorf("no such record")
	})
	raw("big", `{"type":"object","properties":{"n":{"type":"integer"}}}`, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		n, _ := args(req)["n"].(float64)
		return text(strings.Repeat("x", int(n))), nil
	})
	raw("spawn", `{"type":"object","properties":{"pidfile":{"type":"string"}}}`, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		// A child that would outlive the server but for its process group.
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		pid := fmt.Sprint(cmd.Process.Pid)
		if p, _ := args(req)["pidfile"].(string); p != "" {
			_ = os.WriteFile(p, []byte(pid), 0o644)
		}
		return text(pid), nil
	})
	raw("cwd", `{"type":"object"}`, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		return text(wd), nil
	})
	raw("fetch", `{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		u, _ := args(req)["url"].(string)
		body, err := get(ctx, u)
		if err != nil {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil
		}
		return text(body), nil
	})
	raw("write", `{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}},"required":["path"]}`, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		a := args(req)
		p, _ := a["path"].(string)
		t, _ := a["text"].(string)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = f.WriteString(t)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil
		}
		return text(fmt.Sprintf("wrote %d bytes to %s", len(t), p)), nil
	})
	raw("pid", `{"type":"object"}`, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text(fmt.Sprint(os.Getpid())), nil
	})
	raw("garble", `{"type":"object"}`, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		fmt.Fprintln(os.Stdout, "Loading model weights... done")
		return text("garbled"), nil
	})
	return s
}

// get returns the body of an HTTP GET of u.
func get(ctx context.Context, u string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return string(b), err
}
