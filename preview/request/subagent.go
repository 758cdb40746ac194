package request

import (
	"slices"

	"github.com/agentdesk/agentdesk/preview"
)

// SubAgentDenied are the tools never offered to a sub-agent, sorted:
// NetClaw's SubAgentToolPolicy denylist, "spawn_agent" against recursive
// delegation and attach_file, which needs the parent's output transport
// (its result cannot cross the child-to-parent boundary). It is
// preview.DeniedTools, the list the [available-subagents] layer names;
// the commits followed are there.
var SubAgentDenied = preview.DeniedTools

// AllowedForSubAgent reports whether the sub-agent denylist lets a tool
// through (SubAgentToolPolicy.IsAllowedForSubAgent: names compared
// exactly).
func AllowedForSubAgent(name string) bool { return !slices.Contains(SubAgentDenied, name) }

// PublicCannotSpawn is the reason a Public session offers a sub-agent no
// tools: it cannot spawn one.
const PublicCannotSpawn = "the Public audience cannot spawn sub-agents: spawn_agent answers \"Error: This tool is not available.\" there"

// SubAgentsDisabled is the reason no tools are offered when
// SubAgents.Enabled is false.
const SubAgentsDisabled = "sub-agents are disabled (SubAgents.Enabled is false): spawn_agent answers \"Error: This tool is not available.\""

// Withheld is a catalogued tool a sub-agent is not offered, and why.
type Withheld struct {
	Name, Reason string
}

// Offered is the tool set a spawned sub-agent gets.
type Offered struct {
	// Audience is the parent session's audience, which the sub-agent
	// inherits.
	Audience preview.Audience
	// Tools are the tools offered, core and deferred, in the order of the
	// sub-agent's own registry (SubAgentTools).
	Tools []Tool
	// Withheld are the catalogued tools left out, with the reason, in
	// registration order.
	Withheld []Withheld
	// Reason is set when no tools at all are offered because the sub-agent
	// cannot be spawned (PublicCannotSpawn, SubAgentsDisabled).
	Reason string
}

// Core returns the tools offered from the start: the core tier, in order
// (what goes on the wire before any load_tool).
func (o Offered) Core() []Tool {
	return slices.DeleteFunc(slices.Clone(o.Tools), func(t Tool) bool { return t.Deferred })
}

// Deferred returns the tools the sub-agent finds with search_tools and
// activates with load_tool.
func (o Offered) Deferred() []Tool {
	return slices.DeleteFunc(slices.Clone(o.Tools), func(t Tool) bool { return !t.Deferred })
}

// Names returns the offered tools' names, in order.
func (o Offered) Names() []string {
	names := make([]string, len(o.Tools))
	for i, t := range o.Tools {
		names[i] = t.Name
	}
	return names
}

// Index returns the compressed tool index of the offered tools, as the
// sub-agent's tiered registry writes it into its system prompt (the
// tool-index part): the core tools by grant, the deferred first-party
// tools with a hint each, the MCP servers.
func (o Offered) Index() string { return TieredIndex(o.Tools) }

// SubAgentTools returns the tools NetClaw's first-party catalogue offers a
// sub-agent spawned from a session of audience a, under the default policy.
func SubAgentTools(a preview.Audience) Offered {
	return NetClaw().SubAgentTools(a, DefaultPolicy())
}

// SubAgentTools returns the tools a sub-agent spawned from a session of
// audience a is offered, as SubAgentSpawner.ResolveTools computes them
// (src/Netclaw.Actors/SubAgents/SubAgentSpawner.cs
// @28ddf700169220c86c596debd17d5d8dc03bfe7c): every registered tool, in
// registration order, less the denylist, then filtered by what the
// parent's audience may see (Policy.Exposed); each keeps its tier
// (Deferred: CoreTools). They are in the order SubAgentActor's own registry
// holds them: the others as given, then search_tools and load_tool, which
// the actor registers again last, over its registry (salma-marei/netclaw
// @ba08b016, see CoreTools). A Public session, or one with sub-agents
// disabled, cannot spawn: no tools, and Reason says why.
func (c *Catalog) SubAgentTools(a preview.Audience, p Policy) Offered {
	o := Offered{Audience: a}
	switch {
	case a == preview.Public:
		o.Reason = PublicCannotSpawn
		return o
	case !p.SubAgents:
		o.Reason = SubAgentsDisabled
		return o
	}
	var meta []Tool
	for _, t := range c.tools {
		if !AllowedForSubAgent(t.Name) {
			o.Withheld = append(o.Withheld, Withheld{t.Name, "denied to sub-agents (SubAgentToolPolicy)"})
			continue
		}
		if ok, why := p.Exposed(t, a); !ok {
			o.Withheld = append(o.Withheld, Withheld{t.Name, why})
			continue
		}
		if isMetaTool(t) {
			meta = append(meta, t)
			continue
		}
		o.Tools = append(o.Tools, t)
	}
	o.Tools = append(o.Tools, meta...)
	return o
}

// isMetaTool reports whether t is NetClaw's search_tools or load_tool,
// which SubAgentActor registers again, last, over its own registry.
func isMetaTool(t Tool) bool {
	return !t.IsMCP() && (t.Name == "search_tools" || t.Name == "load_tool")
}

// SessionTools returns the tools a session of audience a itself sees (the
// frontline's side: no denylist), with the same policy.
func (c *Catalog) SessionTools(a preview.Audience, p Policy) Offered {
	o := Offered{Audience: a}
	for _, t := range c.tools {
		if ok, why := p.Exposed(t, a); !ok {
			o.Withheld = append(o.Withheld, Withheld{t.Name, why})
			continue
		}
		o.Tools = append(o.Tools, t)
	}
	return o
}
