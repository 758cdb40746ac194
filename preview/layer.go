package preview

import (
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// The fixed text of the [available-subagents] layer (REFERENCE section 4).
// The dash in the header is U+2014.
const (
	layerHeader = "[available-subagents — use spawn_agent to delegate]"
	toolsLine   = "Tools: inherited from parent audience policy, except denied sub-agent tools"
	layerFooter = "## How to delegate\n" +
		"Call `spawn_agent(agent: \"<name>\", task: \"<specific task>\", context: \"<optional background>\")`.\n" +
		"\n" +
		"- `task` is what the subagent should do — be concrete and bounded.\n" +
		"- `context` is optional per-invocation background (workspace details, the user's broader goal,\n" +
		"  facts the subagent would otherwise have to rediscover). Do NOT duplicate the agent's built-in\n" +
		"  instructions — use this for THIS invocation's situation.\n" +
		"- Subagents run autonomously with their own tools and return a synthesized result, not a transcript."
	emptyIntro = "No user-facing subagents are currently registered.\nAgents directory: "
	emptyOutro = "Sub-agents inherit the parent audience policy.\n" +
		"Denied tools for sub-agents: "
	emptyHowTo = "To add one: create an agent definition at <agents-directory>/<name>.md. " +
		"The next turn or subagent lookup reloads it automatically.\n" +
		"Then call `spawn_agent(agent: \"<name>\", task: \"<specific task>\", context: \"<optional background>\")`."
)

// DeniedTools are the tools a user-facing sub-agent never gets, whatever the
// parent audience's profile allows, sorted (ordinal), in the order the
// layer names them: SubAgentToolPolicy.GetDeniedSubAgentTools. It is the
// one copy of NetClaw's sub-agent denylist; request.SubAgentDenied is the
// same slice. The facts, with the commits:
//   - salma-marei/netclaw @ba08b016c9d3286e62ce64e5013d63d298264231,
//     src/Netclaw.Configuration/SubAgentToolPolicy.cs (its only stored
//     version): DeniedSubAgentToolNames holds "spawn_agent" and
//     ToolAudienceProfileToolCatalog.AttachFile ("attach_file"), "tools
//     whose results cannot cross the child-to-parent completion boundary".
//   - The newest spawners filter with that policy and say what it holds:
//     SubAgentSpawner.ResolveTools, netclaw-dev/netclaw
//     @28ddf700169220c86c596debd17d5d8dc03bfe7c and the fork
//     @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4: "denies recursive
//     delegation and tools that need parent-only output transport".
//   - netclaw-dev's stored SubAgentToolPolicy.cs versions
//     (@3770d6829952ad03c5658f301685ac69ba82eb2e and a later one with doc
//     comments) deny "spawn_agent" only ("only prevents recursive
//     delegation loops"); they are older than that spawner, whose comment
//     is the fork's policy's. Its @f87596eb is older still (an allowlist).
//   - check_agent_run, the parent's control tool for its background
//     children, is denied too: BackgroundChildAcceptanceTests.ToolsAndContext.cs
//     @86d464882fa3c56eb37f55a5f0fbf5fa662c6e38 asserts
//     SubAgentToolPolicy.IsAllowedForSubAgent(CheckAgentRunTool.ToolName)
//     is false. Sorted ordinal, as GetDeniedSubAgentTools returns them,
//     the empty layer names attach_file, check_agent_run, spawn_agent.
var DeniedTools = []string{"attach_file", "check_agent_run", "spawn_agent"}

// Enabled reports whether the frontline model sees a sub-agent layer at all:
// the audience is not Public and SubAgents.Enabled is true in the catalog's
// Config (netclaw.json, secrets.json, NETCLAW_SubAgents__Enabled). A nil
// Config means the runtime's defaults, under which sub-agents are enabled.
func Enabled(c *lint.Catalog, a Audience) bool {
	if a == Public || c == nil {
		return false
	}
	return c.Config == nil || c.Config.SubAgents.Enabled
}

// Listed returns the definitions the layer names, in the layer's order: the
// loaded, user-facing agents of the catalog (internal ones hidden, rejected
// files never, so neither a feed file shadowed by a local one), sorted by
// name with .NET's StringComparer.OrdinalIgnoreCase (see CompareNames).
// Names that compare equal keep the catalog's runtime load order, as .NET's
// stable OrderBy does. It returns nil when the layer is empty because the
// audience or the configuration turns sub-agents off.
func Listed(c *lint.Catalog, a Audience) []*lint.Definition {
	if !Enabled(c, a) {
		return nil
	}
	defs := make([]*lint.Definition, 0, len(c.Files))
	for _, f := range c.Files {
		if f == nil || f.Status != lint.Loaded || f.Def == nil || !f.Def.UserFacing() {
			continue
		}
		defs = append(defs, f.Def)
	}
	sortByName(defs)
	return defs
}

// Layer returns the [available-subagents] context layer the frontline model
// reads on every turn, byte for byte as the runtime builds it (REFERENCE
// section 4): "" for audience Public or when SubAgents.Enabled is false;
// otherwise a header, one block per listed agent (see Listed) and the
// delegation instructions, or, with no user-facing agent, the text that
// names the agents folder (c.Home.Agents) and the denied tools. Lines are
// joined with "\n" and the text has no trailing newline.
func Layer(c *lint.Catalog, a Audience) string {
	if !Enabled(c, a) {
		return ""
	}
	defs := Listed(c, a)
	if len(defs) == 0 {
		return emptyLayer(c.Home.Agents)
	}
	size := len(layerHeader) + 2 + len(layerFooter)
	for _, d := range defs {
		size += blockSize(d)
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(layerHeader)
	b.WriteString("\n\n")
	for _, d := range defs {
		writeBlock(&b, d)
	}
	b.WriteString(layerFooter)
	return b.String()
}

// emptyLayer is the layer when no user-facing agent is registered.
func emptyLayer(agentsDir string) string {
	var b strings.Builder
	b.WriteString(layerHeader)
	b.WriteString("\n\n")
	b.WriteString(emptyIntro)
	b.WriteString(agentsDir)
	b.WriteString("\n")
	b.WriteString(emptyOutro)
	b.WriteString(strings.Join(DeniedTools, ", "))
	b.WriteString("\n\n")
	b.WriteString(emptyHowTo)
	return b.String()
}

// Block returns the four lines the layer holds for one agent, with the blank
// line that follows them: "## {name}\n{description}\nTools: …\nTimeout: {n}s\n\n".
func Block(d *lint.Definition) string {
	var b strings.Builder
	b.Grow(blockSize(d))
	writeBlock(&b, d)
	return b.String()
}

// timeout is the agent's effective timeout as the layer prints it: the
// definition's TimeoutSeconds (lint fills the default when the file does not
// set one), or the default for a definition built without one.
func timeout(d *lint.Definition) int {
	if d.TimeoutSeconds == 0 {
		return lint.DefaultTimeoutSeconds
	}
	return d.TimeoutSeconds
}

// blockSize is the length in bytes of the agent's block, at most a few bytes
// over (the timeout is counted as up to 20 digits).
func blockSize(d *lint.Definition) int {
	return len("## \n\n\nTimeout: s\n\n") + len(d.Name) + len(d.Description) + len(toolsLine) + 20
}

func writeBlock(b *strings.Builder, d *lint.Definition) {
	var num [20]byte
	b.WriteString("## ")
	b.WriteString(d.Name)
	b.WriteByte('\n')
	b.WriteString(d.Description)
	b.WriteByte('\n')
	b.WriteString(toolsLine)
	b.WriteString("\nTimeout: ")
	b.Write(strconv.AppendInt(num[:0], int64(timeout(d)), 10))
	b.WriteString("s\n\n")
}
