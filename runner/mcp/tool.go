package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// tool is one tool of a server, offered under its model-facing name.
type tool struct {
	srv  *server
	name string // the tool's own name on the server
	spec tools.Spec
	// shape holds the sanitized schema's property names (which the
	// model's argument names are matched to) and the server's own input
	// schema (the authority for coercing arguments).
	shape argShape
}

// newTool makes the offered tool of t.
func newTool(srv *server, t *sdkTool) (*tool, error) {
	raw, err := json.Marshal(t.InputSchema)
	if err != nil || string(raw) == "null" {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	shown, err := Sanitize(raw)
	if err != nil {
		return nil, err
	}
	meta := srv.opts.Meta
	if meta == nil {
		meta = MetaProperties
	}
	desc := ClampDescription(t.Description, DefaultMaxDescription)
	return &tool{
		srv: srv, name: t.Name, shape: newArgShape(shown, raw),
		spec: tools.Spec{
			Name:        ModelName(srv.cfg.Name, t.Name),
			Description: desc,
			Parameters:  InjectMeta(shown, meta),
			Deferred:    true,
			Approval:    true,
			Server:      srv.cfg.Name,
			Remote:      srv.cfg.McpTransport() != lint.McpStdio,
		},
	}, nil
}

// Spec returns the tool as the model is offered it.
func (t *tool) Spec() tools.Spec { return t.spec }

// canonical is the runtime's name of the tool, server/tool.
func (t *tool) canonical() string { return CanonicalName(t.srv.cfg.Name, t.name) }

// failed is the runtime's error result of a call that failed.
func (t *tool) failed(format string, a ...any) tools.Result {
	return tools.Result{Text: fmt.Sprintf("Error: MCP tool '%s' failed: %s", t.canonical(), fmt.Sprintf(format, a...)), IsError: true}
}

// Call sends the call to the server: the meta arguments stripped, names
// and strings matched to the schema. See the package documentation for
// what a failure returns.
func (t *tool) Call(ctx context.Context, args json.RawMessage) tools.Result {
	set := t.srv.set
	obj, meta, err := t.shape.prepare(args)
	if err != nil {
		return t.failed("%v", err)
	}
	c, err := t.srv.live(ctx)
	if err != nil {
		set.note("MCP server '%s' is not running, so %s did not run: %v", t.srv.cfg.Name, t.spec.Name, err)
		return t.failed("MCP server '%s' is unavailable or tool '%s' is not registered.", t.srv.cfg.Name, t.name)
	}
	if !t.srv.hasTool(t.name) {
		set.note("MCP server '%s' no longer lists %s, so the call did not run", t.srv.cfg.Name, t.name)
		return t.failed("MCP server '%s' is unavailable or tool '%s' is not registered.", t.srv.cfg.Name, t.name)
	}
	limit := set.opts.callTimeout(meta)
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	res, err := c.session.CallTool(cctx, &sdk.CallToolParams{Name: t.name, Arguments: obj})
	if c.proc != nil && set.opts.AfterCall != nil {
		set.opts.AfterCall()
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return t.failed("the run was cancelled while the call was running")
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		set.note("MCP server '%s' did not answer %s within %s: the model got an error and the run goes on", t.srv.cfg.Name, t.spec.Name, limit)
		return t.failed("no answer within %s", limit)
	case rpcError(err) != nil:
		msg := rpcError(err).Message
		set.note("MCP server '%s' answered %s with an error: %s", t.srv.cfg.Name, t.spec.Name, cut(msg, 300))
		return t.failed("%s", msg)
	default:
		why := t.srv.broke(c, err)
		set.note("MCP server '%s' failed during %s: %s. The call was not repeated; the server is started again for the next call, as the runtime reconnects", t.srv.cfg.Name, t.spec.Name, why)
		return t.failed("%s", why)
	}
	text, isErr := formatResult(res)
	if isErr {
		detail := strings.TrimSpace(text)
		set.note("MCP server '%s' reported a failure of %s", t.srv.cfg.Name, t.spec.Name)
		if detail == "" {
			return tools.Result{Text: fmt.Sprintf("Error: MCP tool '%s' reported a failure (no detail provided).", t.canonical()), IsError: true}
		}
		return tools.Result{Text: fmt.Sprintf("Error: MCP tool '%s' reported a failure: %s", t.canonical(), detail), IsError: true}
	}
	if max := set.opts.maxResult(); len(text) > max {
		set.note("MCP server '%s' returned %d bytes from %s, over agentdesk's cap of %d bytes for one result: the model got an error instead", t.srv.cfg.Name, len(text), t.spec.Name, max)
		return t.failed("the result is %d bytes, over the cap of %d bytes for one MCP result", len(text), max)
	}
	return tools.Result{Text: text}
}

// live returns the server's connection, starting the server again when it
// died or never started, as the runtime reconnects before a call.
func (srv *server) live(ctx context.Context) (*conn, error) {
	if srv.set.isClosed() {
		return nil, errors.New("the run has ended")
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.conn != nil && !srv.conn.broken {
		return srv.conn, nil
	}
	if srv.conn != nil {
		srv.conn.close(srv.opts.grace())
		srv.conn = nil
	}
	c, list, err := srv.connect(ctx)
	srv.starts++
	if err != nil {
		srv.lastErr = err.Error()
		return nil, err
	}
	if srv.set.isClosed() {
		c.close(srv.opts.grace())
		return nil, errors.New("the run has ended")
	}
	srv.conn, srv.tools, srv.lastErr = c, list, ""
	return c, nil
}

// hasTool reports whether the server's current list has the tool.
func (srv *server) hasTool(name string) bool {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, t := range srv.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// broke marks c broken after a transport failure, stops it (with its
// process group) and says what happened.
func (srv *server) broke(c *conn, err error) string {
	srv.mu.Lock()
	if srv.conn == c {
		c.broken = true
	}
	srv.mu.Unlock()
	why := err.Error()
	garbage := strings.Contains(why, "invalid character") || strings.Contains(why, "cannot unmarshal")
	if c.proc != nil {
		if garbage {
			// The client closed the connection; the server's exit is
			// the consequence, not the cause.
			why = "it printed something that is not MCP's JSON-RPC on its stdout (" + why + ")"
		} else {
			c.proc.waitCtxFor(srv.opts.grace())
			if ok, how := c.proc.exited(); ok {
				why = "the server exited (" + how + ")"
			}
		}
		if line := c.proc.stderr.lastLine(); line != "" {
			why += "; its last stderr line: " + line
		}
	}
	go c.close(srv.opts.grace())
	return why
}

// formatResult renders a call's result as the text the model reads: the
// text blocks joined by newlines; other blocks as a bracketed line
// ([image: image/png, 1234 bytes]); the structured content as JSON when
// there is no other content. isErr is the result's isError.
func formatResult(r *sdk.CallToolResult) (text string, isErr bool) {
	if r == nil {
		return "", false
	}
	var parts []string
	for _, c := range r.Content {
		switch b := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, b.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %d bytes]", b.MIMEType, len(b.Data)))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes]", b.MIMEType, len(b.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource: %s]", b.URI))
		case *sdk.EmbeddedResource:
			if b.Resource != nil && b.Resource.Text != "" {
				parts = append(parts, b.Resource.Text)
			} else if b.Resource != nil {
				parts = append(parts, fmt.Sprintf("[resource: %s, %d bytes]", b.Resource.URI, len(b.Resource.Blob)))
			}
		default:
			parts = append(parts, jsonText(c))
		}
	}
	if len(parts) == 0 && r.StructuredContent != nil {
		parts = append(parts, jsonText(r.StructuredContent))
	}
	return strings.Join(parts, "\n"), r.IsError
}

// cut shortens s to n bytes on a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ClampDescription cuts a tool's description to maxUnits UTF-16 code units
// and marks the cut with " [truncated]", as NetClaw's
// McpToolAdapter.ClampDescription (netclaw-dev/netclaw 68468082) does with
// a .NET string's Length. A cut that splits a surrogate pair leaves half a
// character, which .NET's UTF-8 encoder writes as U+FFFD; so does this.
// maxUnits <= 0 keeps the description whole.
func ClampDescription(desc string, maxUnits int) string {
	if maxUnits <= 0 {
		return desc
	}
	units := 0
	for i, r := range desc {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1 // an invalid byte decodes to U+FFFD, one unit
		}
		if units+n > maxUnits {
			cut := desc[:i]
			if units < maxUnits {
				cut += "\uFFFD" // the high surrogate of a pair cut in two
			}
			return cut + " [truncated]"
		}
		units += n
	}
	return desc
}
