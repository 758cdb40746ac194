package main

import (
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
}

// newToolsCmd builds `agentdesk tools`.
func newToolsCmd(g *globals) *cobra.Command {
	var f toolsFlags
	cmd := &cobra.Command{
		Use:   "tools [AGENT]",
		Short: "List the tools a sub-agent gets, per audience",
		Long: `List the tools NetClaw offers a sub-agent spawned from a session of an
audience (Personal unless --audience says otherwise): every first-party
tool the audience profile lets through, less the sub-agent denylist
(spawn_agent, attach_file), with its grant category, whether it is offered
from the start (core) or found with search_tools and activated with
load_tool (deferred), and what it touches (read, write, effect,
netclaw-state, meta). The tools left out follow, with the reason. A Public
session cannot spawn a sub-agent, so it offers none.

The subsystem switches and the audience profiles come from the home's
netclaw.json (Search, SkillSync, Scheduling, SubAgents, Webhooks,
Tools.ShellMode, Tools.AudienceProfiles). An agent's own tools: list grants
nothing; naming AGENT only checks that it is loaded.

--format json adds each tool's description and JSON schema exactly as the
model receives them, and the compressed tool index.

Exit status: 0 listed, 1 unknown or unloaded agent, or a configuration
value the runtime would not read, 2 bad usage, 3 internal failure.`,
		Example: `  agentdesk tools
  agentdesk tools code-analyst --audience team
  agentdesk tools --format json | jq '.tools[].name'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			agent := ""
			if len(args) == 1 {
				agent = args[0]
			}
			return runTools(g, f, agent)
		},
	}
	fl := cmd.Flags()
	fl.Var(&f.audience, "audience", "audience of the session that spawns the sub-agent: Public, Team or Personal (any case)")
	fl.Var(&f.format, "format", "output format: text or json")
	return cmd
}

// runTools resolves the sub-agent's tools under the home's configuration
// and prints them.
func runTools(g *globals, f toolsFlags, agent string) error {
	c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return err
	}
	if agent != "" && c.Agent(agent) == nil {
		return unknownAgent(c, agent)
	}
	policy, err := request.PolicyFromConfig(c.Config)
	if err != nil {
		return exitWith(exitFindings, err)
	}
	o := request.NetClaw().SubAgentTools(preview.Audience(f.audience), policy)
	if f.format == previewJSON {
		b, err := o.JSON(agent)
		if err != nil {
			return exitWith(exitInternal, err)
		}
		return writeString(g.stdout, string(b))
	}
	return writeString(g.stdout, termsafe.EscapeLines(o.Text(agent)))
}
