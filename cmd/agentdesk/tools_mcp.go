package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// defaultMCPListTimeout bounds starting each MCP server for agentdesk tools.
const defaultMCPListTimeout = 20 * time.Second

// mcpListing is what agentdesk tools found out about the configured MCP
// servers: each server's state and the notes of the ones that failed.
type mcpListing struct {
	Servers []mcpServerListing `json:"servers"`
	Notes   []string           `json:"notes,omitempty"`
}

// mcpServerListing is one configured server in agentdesk tools.
type mcpServerListing struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// State is started, skipped or failed.
	State  string `json:"state"`
	Detail string `json:"detail,omitempty"`
	// Tools are the server's tools as the model sees them (server__tool).
	Tools []string `json:"tools"`
	// Hidden are tools the audience's McpServerToolGrants leave out.
	Hidden []string `json:"hidden,omitempty"`
}

// liveMCPTools starts the configured MCP servers the audience may use,
// each within timeout, lists their tools as catalogue entries, and stops
// them (with their process groups) before it returns. Stdio servers start
// in the sandbox, as a run's do (runner.ProbeSandbox: no network, nothing
// writable but their own /tmp); where the machine cannot sandbox, they
// are refused and listed as failed. It returns nil, nil when the
// configuration names no server.
func liveMCPTools(ctx context.Context, g *globals, cfg *lint.Config, a preview.Audience, timeout time.Duration) ([]request.Tool, *mcpListing) {
	if cfg == nil || len(cfg.McpServers) == 0 {
		return nil, nil
	}
	servers := mcp.Start(ctx, cfg.McpServers, mcp.Options{
		Audience:     a.String(),
		Config:       cfg,
		Environ:      g.environ,
		StartTimeout: timeout,
		Redact:       redact.New(cfg.Secrets()...).String,
		Sandbox:      runner.ProbeSandbox(tools.Sandbox{}, cfg),
	})
	defer servers.Close()
	l := &mcpListing{Servers: []mcpServerListing{}}
	var extra []request.Tool
	for _, st := range servers.Statuses() {
		sl := mcpServerListing{Name: st.Name, Transport: st.Transport, State: "started", Tools: []string{}, Hidden: st.Hidden}
		switch {
		case st.Skipped != "":
			sl.State, sl.Detail = "skipped", st.Skipped
		case st.Err != "":
			sl.State, sl.Detail = "failed", st.Err
		}
		for _, spec := range st.Tools {
			sl.Tools = append(sl.Tools, spec.Name)
			t, err := request.MCPTool(st.Name, strings.TrimPrefix(spec.Name, st.Name+mcp.Separator), spec.Description, spec.Parameters)
			if err != nil {
				l.Notes = append(l.Notes, err.Error())
				continue
			}
			extra = append(extra, t)
		}
		l.Servers = append(l.Servers, sl)
	}
	l.Notes = append(l.Notes, servers.OtherNotes()...)
	return extra, l
}

// text renders the listing for a person.
func (l *mcpListing) text() string {
	if l == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nMCP servers (started for this listing, then stopped; every call needs approval: --approve mcp:SERVER):\n")
	for _, s := range l.Servers {
		switch s.State {
		case "started":
			fmt.Fprintf(&b, "  %s (%s): %d tools", s.Name, s.Transport, len(s.Tools))
			if len(s.Hidden) > 0 {
				fmt.Fprintf(&b, ", %d more withheld by McpServerToolGrants (%s)", len(s.Hidden), strings.Join(s.Hidden, ", "))
			}
			b.WriteByte('\n')
		case "skipped":
			fmt.Fprintf(&b, "  %s (%s): not started: %s\n", s.Name, s.Transport, s.Detail)
		default:
			fmt.Fprintf(&b, "  %s (%s): failed to start: %s\n", s.Name, s.Transport, s.Detail)
		}
	}
	for _, n := range l.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

// withMCP adds the listing to agentdesk tools' JSON object as
// "mcp_servers", after its other members.
func withMCP(doc []byte, l *mcpListing) ([]byte, error) {
	if l == nil {
		return doc, nil
	}
	end := bytes.LastIndexByte(doc, '}')
	if end < 0 {
		return nil, fmt.Errorf("the tools listing is not a JSON object")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(l); err != nil {
		return nil, fmt.Errorf("encoding the MCP servers: %w", err)
	}
	out := append([]byte{}, bytes.TrimRight(doc[:end], " \n")...)
	out = append(out, ",\n  \"mcp_servers\": "...)
	out = append(out, bytes.TrimRight(buf.Bytes(), "\n")...)
	return append(out, "\n}\n"...), nil
}
