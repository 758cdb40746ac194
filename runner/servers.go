package runner

import (
	"context"
	"os/exec"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// startMCP starts the MCP servers of the spec's configuration that its
// audience may use, when the run offers tools and calls a model or runs a
// replay's tools live (a replay that answers every call from its cassette
// starts none), and adds their
// tools to the run's tool set, deferred (search_tools finds them and load_tool
// activates them, as at the runtime). The servers are stopped, with their
// process groups, when the tool set closes at the end of the run (or when
// a spec error closes it first).
func (p *prepared) startMCP(ctx context.Context, s Spec) {
	set, ok := p.toolbox.(*tools.Set)
	if !ok || (p.cassette != nil && !p.liveTools) || s.NoMCP || s.Config == nil || len(s.Config.McpServers) == 0 {
		return
	}
	notes := &mcp.Notes{}
	// No Dir: a stdio server starts in agentdesk's working folder, not in
	// the project, as NetClaw starts it in the daemon's
	// (McpClientManager.CreateTransport, src/Netclaw.Daemon/Mcp, commit
	// 0c72b2947abfe6c0bfd3392f963c73244b1e2b19 and the other stored
	// versions, gives StdioClientTransportOptions no WorkingDirectory, and
	// the SDK then uses Environment.CurrentDirectory). A trial that ran it
	// in the project would pass where the runtime fails.
	servers := mcp.Start(ctx, s.Config.McpServers, mcp.Options{
		Audience: s.Audience,
		Config:   s.Config,
		Redact:   p.red.String,
		Note:     notes.Add,
		Catalog:  s.MCP,
		// A server that does not start within this limit offers no
		// tools; the run goes on.
		StartTimeout: s.MCPStartTimeout,
		Sandbox:      p.serverSandbox(s),
		AfterCall:    p.workspace.CollectWork,
	})
	for _, t := range servers.Tools() {
		set.Add(t)
	}
	set.OnClose(servers.Close)
	p.mcp, p.mcpNotes = servers, notes
}

// serverSandbox confines a stdio server as the run's commands are
// (tools.Workspace.ServerSandbox): its own EnvironmentVariables are kept
// whatever their names, agentdesk's secret-looking ones are not.
func (p *prepared) serverSandbox(s Spec) func(cmd *exec.Cmd, server string) error {
	return func(cmd *exec.Cmd, server string) error {
		pass := slices.Clone(s.Sandbox.PassEnv)
		for _, m := range s.Config.McpServers {
			if m.Name == server {
				for k := range m.EnvironmentVariables {
					pass = append(pass, k)
				}
			}
		}
		box, err := p.workspace.ServerSandbox(server)
		if err != nil {
			return err
		}
		if box == nil {
			cmd.Env, _ = sandbox.Scrub(cmd.Env, pass)
			return nil
		}
		box.PassEnv = pass
		return sandbox.Wrap(cmd, *box)
	}
}

// SandboxReport says what sb makes of the sandbox on this machine: for
// run.json, result.md, the run's stderr and the Run pane.
func SandboxReport(sb tools.Sandbox) sandbox.Report {
	if sb.Off {
		return sandbox.Report{Unsandboxed: true}
	}
	return sandbox.Probe().WithNetwork(sb.Network, sb.NetworkServers)
}

// ProbeSandbox confines the stdio servers a batch of runs probes for
// their tools (mcp.Probe) outside any run: sandboxed as a run's, with
// nothing writable but their own /tmp; refused where the machine cannot
// sandbox them.
func ProbeSandbox(sb tools.Sandbox, cfg *lint.Config) func(cmd *exec.Cmd, server string) error {
	return func(cmd *exec.Cmd, server string) error {
		pass := append(slices.Clone(sb.PassEnv), serverEnvNames(cfg, server)...)
		if sb.Off {
			cmd.Env, _ = sandbox.Scrub(cmd.Env, pass)
			return nil
		}
		if r := sandbox.Probe(); !r.Available() {
			return &sandbox.ServerRefusedError{Server: server, Why: r.Unavailable}
		}
		return sandbox.Wrap(cmd, sandbox.Config{Network: sb.Network || slices.Contains(sb.NetworkServers, server), PassEnv: pass})
	}
}

// serverEnvNames are the names of the environment variables the
// configuration cfg (nil: none) sets for the MCP server called server.
func serverEnvNames(cfg *lint.Config, server string) []string {
	if cfg == nil {
		return nil
	}
	var names []string
	for _, m := range cfg.McpServers {
		if m.Name == server {
			for k := range m.EnvironmentVariables {
				names = append(names, k)
			}
		}
	}
	return names
}

// mcpCatalog returns the catalogue entries of the started servers' tools,
// for the request's tool offer and index.
func (p *prepared) mcpCatalog() []request.Tool {
	if p.mcp == nil {
		return nil
	}
	var out []request.Tool
	for _, t := range p.mcp.Tools() {
		sp := t.Spec()
		own := strings.TrimPrefix(sp.Name, sp.Server+mcp.Separator)
		if c, err := request.MCPTool(sp.Server, own, sp.Description, sp.Parameters); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// mcpRecord describes the run's servers for run.json; nil when it started
// none.
func mcpRecord(servers *mcp.Servers, notes *mcp.Notes, red *redact.Redactor) *runfolder.MCPRecord {
	if servers == nil {
		return nil
	}
	rec := &runfolder.MCPRecord{Servers: []runfolder.MCPServerRecord{}, Notes: notes.All()}
	for _, st := range servers.Statuses() {
		sr := runfolder.MCPServerRecord{Name: st.Name, Transport: st.Transport, State: "started"}
		switch {
		case st.Skipped != "":
			sr.State, sr.Detail = "skipped", st.Skipped
		case st.Err != "" && len(st.Tools) == 0:
			sr.State, sr.Detail = "failed", red.String(st.Err)
		}
		for _, t := range st.Tools {
			sr.Tools = append(sr.Tools, t.Name)
		}
		rec.Servers = append(rec.Servers, sr)
	}
	return rec
}
