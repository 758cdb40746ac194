package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint"
)

// server is one configured server and its current connection, if any.
type server struct {
	cfg  lint.McpServer
	opts *Options
	set  *Servers

	mu      sync.Mutex
	conn    *conn // nil while not connected
	tools   []*sdk.Tool
	starts  int
	lastErr string
	// probed is set when the tools come from a Catalog: the server
	// starts on its first call.
	probed bool
}

// conn is one live session with a server.
type conn struct {
	session *sdk.ClientSession
	proc    *process // nil for sse and http
	cancel  context.CancelFunc
	// broken is set once a call failed at the transport: the connection is
	// not used again.
	broken bool
}

// close ends the session and, for stdio, the whole process group.
func (c *conn) close(grace time.Duration) {
	if c == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		_ = c.session.Close()
		close(done)
	}()
	if c.proc != nil {
		c.proc.stop(grace)
	}
	select {
	case <-done:
	case <-time.After(grace):
	}
	c.cancel()
}

// transport is the MCP transport to the server, per its configuration:
// for stdio, its command, started (in the sandbox, when there is one)
// and kept in c; for sse, its event stream; else streamable HTTP, which
// needs a Url.
func (s *server) transport(c *conn) (sdk.Transport, error) {
	switch s.cfg.McpTransport() {
	case lint.McpStdio:
		var wrap func(*exec.Cmd) error
		if s.opts.Sandbox != nil {
			wrap = func(cmd *exec.Cmd) error { return s.opts.Sandbox(cmd, s.cfg.Name) }
		}
		p, err := startProcess(s.cfg, s.opts.environ(), s.opts.Dir, wrap)
		if err != nil {
			return nil, err
		}
		c.proc = p
		return &sdk.IOTransport{Reader: p.stdout, Writer: p.stdin, MaxLineLength: s.opts.maxMessage()}, nil
	case lint.McpSSE:
		return &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.httpClient(), MaxEventSize: s.opts.maxMessage()}, nil
	default:
		if strings.TrimSpace(s.cfg.URL) == "" {
			return nil, fmt.Errorf("transport %q is not stdio or sse, so the runtime reads it as http, and there is no Url", s.cfg.Transport)
		}
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.httpClient(), MaxRetries: -1, DisableStandaloneSSE: true, MaxEventSize: s.opts.maxMessage()}, nil
	}
}

// connect starts the server (for stdio, its command), runs the MCP
// handshake and lists its tools, all within opts.StartTimeout.
func (s *server) connect(ctx context.Context) (*conn, []*sdk.Tool, error) {
	if p := s.cfg.Problem(); p != "" {
		// The configuration cannot start it: say so in lint's words.
		return nil, nil, errors.New(p)
	}
	lifetime, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := &conn{cancel: cancel}
	transport, err := s.transport(c)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	type result struct {
		session *sdk.ClientSession
		tools   []*sdk.Tool
		err     error
	}
	ch := make(chan result, 1)
	go func() {
		client := sdk.NewClient(&sdk.Implementation{Name: "agentdesk", Version: "trial"}, nil)
		session, err := client.Connect(lifetime, transport, nil)
		if err != nil {
			ch <- result{err: err}
			return
		}
		var list []*sdk.Tool
		for t, err := range session.Tools(lifetime, nil) {
			if err != nil {
				_ = session.Close()
				ch <- result{err: fmt.Errorf("listing its tools: %w", err)}
				return
			}
			list = append(list, t)
		}
		ch <- result{session: session, tools: list}
	}()
	limit := s.opts.startTimeout(s.cfg.Name)
	timer := time.NewTimer(limit)
	defer timer.Stop()
	var r result
	unanswered := false // the start timed out or was cancelled
	select {
	case r = <-ch:
	case <-timer.C:
		r.err, unanswered = fmt.Errorf("it did not answer the MCP handshake within %s", limit), true
	case <-ctx.Done():
		r.err, unanswered = fmt.Errorf("the run ended while it was starting: %w", ctx.Err()), true
	}
	if r.err != nil {
		cancel()
		switch {
		case c.proc == nil:
		case unanswered:
			// It never answered: nothing to wind down, no grace to give.
			c.proc.kill()
		default:
			c.proc.stop(s.opts.grace())
		}
		if r.session != nil {
			_ = r.session.Close()
		}
		return nil, nil, s.explain(r.err, c.proc)
	}
	c.session = r.session
	return c, r.tools, nil
}

// explain adds what the process said or how it ended to a failure.
func (s *server) explain(err error, p *process) error {
	if p == nil {
		return err
	}
	var b strings.Builder
	b.WriteString(err.Error())
	if strings.Contains(err.Error(), "invalid character") || strings.Contains(err.Error(), "cannot unmarshal") {
		b.WriteString(" (its stdout is not MCP's JSON-RPC: a stdio server must print nothing else there)")
	}
	if ok, how := p.exited(); ok {
		fmt.Fprintf(&b, " (the command exited: %s)", how)
	}
	if line := p.stderr.lastLine(); line != "" {
		fmt.Fprintf(&b, "; its last stderr line: %s", line)
	}
	return errors.New(b.String())
}

// httpClient sends the configured headers with every request.
func (s *server) httpClient() *http.Client {
	base := s.opts.HTTPTransport
	if base == nil {
		base = http.DefaultTransport
	}
	return &http.Client{Transport: headerTransport{base: base, headers: s.cfg.Headers}}
}

type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "agentdesk")
	}
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	return h.base.RoundTrip(req)
}

// rpcError returns the JSON-RPC error a server answered a call with, or
// nil when err is not one (the connection failed instead).
func rpcError(err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return nil
}

// jsonText encodes v compactly.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
