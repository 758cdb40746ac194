package main

import (
	"context"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
)

// toolsFlags holds the flags of agentdesk tools.
type toolsFlags struct {
	audience audienceFlag
	format   previewFormat
	// noMCP skips starting the configured MCP servers; mcpTimeout bounds
	// starting each.
	noMCP      bool
	mcpTimeout time.Duration
	// netclaw and project are the shared trial flags: accepted so a
	// script can pass the same flags to run, test, route and tools, and
	// checked as run checks them; the list does not depend on them.
	netclaw netclawFlag
	project string
}

// newToolsCmd builds `agentdesk tools`.
func newToolsCmd(g *globals) *cobra.Command {
	var f toolsFlags
	cmd := &cobra.Command{
		Use:   "tools [AGENT]",
		Short: "List the tools a sub-agent gets, per audience",
		Long: `List the tools NetClaw offers a sub-agent spawned from a session.
The audience is Personal unless --audience says otherwise.

The list holds every first-party tool the audience profile lets through,
less the sub-agent denylist. For each tool it gives:
  - its grant category;
  - its tier: core (offered from the start) or deferred (found with
    search_tools, activated with load_tool);
  - what it touches: read, write, effect, netclaw-state or meta.
The tools left out follow, with the reason.
A Public session cannot spawn a sub-agent, so it offers none.

The configured MCP servers the audience may use are started, each within
--mcp-timeout. Their live tools are listed as deferred tools named
server__tool. The servers are stopped again.
A stdio server runs in the sandbox, with no network (agentdesk help sandbox).
A server that does not start is listed with why. --no-mcp skips them.

The switches and the audience profiles come from the home's netclaw.json:
Search, SkillSync, Scheduling, SubAgents, Webhooks, Memory, Tools.ShellMode
and Tools.AudienceProfiles.
An agent's own tools: list grants nothing.
Naming AGENT only checks that it is loaded.

--netclaw-dir and --project are the trial flags of run, test and route.
tools checks them as those do: an install that cannot be read, or a project
that is not a folder, is bad usage. The list does not depend on them.

--format json adds each tool's description and JSON schema, exactly as the
model receives them, and the compressed tool index.

Exit status: 0 listed; 1 an unknown or unloaded agent, or a configuration
value the runtime would not read; 2 bad usage; 3 internal failure.`,
		Example: `  agentdesk tools
  agentdesk tools code-analyst --audience team
  agentdesk tools --format json | jq '.tools[].name'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			agent := ""
			if len(args) == 1 {
				agent = args[0]
			}
			return runTools(cmd.Context(), g, f, agent)
		},
	}
	fl := cmd.Flags()
	fl.Var(&f.audience, "audience", "audience of the session that spawns the sub-agent: Public, Team or Personal (any case)")
	fl.Var(&f.format, "format", "output format: text or json")
	fl.BoolVar(&f.noMCP, "no-mcp", false, "do not start the configured MCP servers to list their tools")
	fl.DurationVar(&f.mcpTimeout, "mcp-timeout", defaultMCPListTimeout, "how long each MCP server gets to start and list its tools")
	f.netclaw.add(fl)
	fl.StringVar(&f.project, "project", "", "folder a trial's tools work in (checked to be a folder; the list does not depend on it)")
	return cmd
}

// runTools resolves the sub-agent's tools under the home's configuration
// and prints them.
func runTools(ctx context.Context, g *globals, f toolsFlags, agent string) error {
	c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return err
	}
	a := preview.Audience(f.audience)
	if err := checkToolsFlags(g, f, c, agent, a); err != nil {
		return err
	}
	policy, err := request.PolicyFromConfig(c.Config)
	if err != nil {
		return exitWith(exitFindings, err)
	}
	o, live := offeredTools(ctx, g, f, c.Config, a, policy)
	if f.format == previewJSON {
		b, err := o.JSON(agent)
		if err == nil {
			b, err = withMCP(b, live)
		}
		if err != nil {
			return exitWith(exitInternal, err)
		}
		return writeString(g.stdout, string(b))
	}
	return writeString(g.stdout, termsafe.EscapeLines(o.Text(agent)+live.text()))
}

// checkToolsFlags is tools' validation step, once the home is read: the
// agent named must be one of c's, --project a folder, and --netclaw-dir
// checked as run checks it: the folder must hold an install whose
// assembly has audience a's operating core.
func checkToolsFlags(g *globals, f toolsFlags, c *lint.Catalog, agent string, a preview.Audience) error {
	if agent != "" && c.Agent(agent) == nil {
		return unknownAgent(c, agent)
	}
	if f.project != "" {
		if fi, err := os.Stat(f.project); err != nil || !fi.IsDir() {
			return usageErrorf("--project %s is not a folder: give the folder a trial's tools work in", termsafe.Escape(f.project))
		}
	}
	if f.netclaw.dir != "" {
		if _, err := f.netclaw.spawnNetClaw(g, c.Home, a); err != nil {
			return err
		}
	}
	return nil
}

// offeredTools is what NetClaw offers a sub-agent of audience a under
// policy. The configured MCP servers' tools are live: unless --no-mcp (or
// the audience gets no tools), the servers are started, listed and
// stopped, and live says what they gave.
func offeredTools(ctx context.Context, g *globals, f toolsFlags, cfg *lint.Config, a preview.Audience, policy request.Policy) (request.Offered, *mcpListing) {
	catalog := request.NetClaw()
	o := catalog.SubAgentTools(a, policy)
	if o.Reason != "" || f.noMCP {
		return o, nil
	}
	extra, live := liveMCPTools(ctx, g, cfg, a, f.mcpTimeout)
	if len(extra) == 0 {
		return o, live
	}
	withLive, err := catalog.With(extra...)
	if err != nil {
		live.Notes = append(live.Notes, err.Error())
		return o, live
	}
	return withLive.SubAgentTools(a, policy), live
}
