package preview

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// The spawn_agent tool as the runtime declares it to the frontline model
// (NetClaw's SpawnAgentTool and the schema its tool generator emits): the
// name, the description, and the parameters. The description is
// SpawnAgentTool's NetclawTool attribute in
// src/Netclaw.Actors/SubAgents/SpawnAgentTool.cs
// @28ddf700169220c86c596debd17d5d8dc03bfe7c (the background-run version:
// the tool answers with an acceptance record, ParentAcceptance). The generator names each
// parameter after the C# record's constructor parameter (Agent, Task,
// Context: a nullable one with a default is optional) and adds the meta
// parameters every generated tool takes (_rationale, required;
// _timeout_seconds; _background). The layer's own text spells the call
// spawn_agent(agent: …, task: …, context: …): the runtime reads argument
// names without regard to case or punctuation (see SpawnArgs).
const (
	SpawnAgentTool        = "spawn_agent"
	SpawnAgentDescription = "Delegate a task to a specialist subagent. " +
		"The subagent runs in the background and delivers its result to the parent. " +
		"Use the discovery context layer to see available subagents."
	// SpawnAgentParameters is the JSON Schema of the arguments, with the
	// properties in the runtime's order.
	SpawnAgentParameters = `{"type":"object","properties":{` +
		`"Agent":{"type":"string","description":"Name of the subagent to invoke (see available-subagents in context)"},` +
		`"Task":{"type":"string","description":"Task description for the subagent — be specific about what you need"},` +
		`"Context":{"type":"string","description":"Optional background context the subagent should consider while working on the task. ` +
		`Use this to pass along workspace details, the user's broader goal, or facts the subagent would otherwise have to rediscover. ` +
		`Do NOT duplicate the agent's built-in instructions; use this for THIS invocation's situation."},` +
		`"_rationale":{"type":"string","description":"State your intent for this tool call in one sentence — what are you trying to accomplish and why?"},` +
		`"_timeout_seconds":{"type":"integer","description":"Requested timeout in seconds. Only set when the default is insufficient."},` +
		`"_background":{"type":"boolean","description":"Set to true to run this tool in the background and receive results later."}` +
		`},"required":["Agent","Task","_rationale"]}`
)

// DefaultPreamble is the frontline system prompt agentdesk sends before the
// layer when the author gives none: short and neutral, so that the choice
// rests on the layer, as it does in a real session whose own prompt says
// nothing about sub-agents.
const DefaultPreamble = "You are a helpful assistant. Answer the user's request, " +
	"using the tools and context you have when they help."

// Frontline is the request the frontline model reads when a user's message
// arrives: a preamble (the system message), the spawn_agent tool, the
// [available-subagents] layer in the per-turn "[system: …]" user message,
// and the user's message. The layer travels per turn because NetClaw's
// SubAgentDiscoveryContextLayer is ContextLayerTiming.EveryTurn
// (src/Netclaw.Configuration/SubAgentDiscoveryContextLayer.cs, the
// version whose Timing is EveryTurn and whose BuildIndex reads
// SubAgentToolPolicy.GetDeniedSubAgentTools; stored beside
// @e0d5911f29003812ec35e1fec133d8711b33bfc9, which is EveryTurn too), and
// SessionMessageAssembler puts every EveryTurn layer into the per-turn
// block that LlmSessionActor sends as a user message just before the
// user's (see request.SystemNudge).
type Frontline struct {
	// Audience is the session's audience.
	Audience Audience
	// Preamble is the system message (DefaultPreamble, or the author's
	// own).
	Preamble string
	// Layer is Layer(c, Audience), byte for byte; Nudge wraps it as the
	// per-turn user message.
	Layer string
	// Tool is the spawn_agent tool offered.
	Tool Tool
	// Request is the user message.
	Request string
	// Agents are the names the layer lists, in its order.
	Agents []string
}

// Tool is a tool as a model is offered it.
type Tool struct {
	Name, Description string
	// Parameters is a JSON Schema object.
	Parameters string
}

// SpawnAgent returns the spawn_agent tool.
func SpawnAgent() Tool {
	return Tool{Name: SpawnAgentTool, Description: SpawnAgentDescription, Parameters: SpawnAgentParameters}
}

// PublicCannotDelegate says why a Public session's frontline cannot
// delegate: ErrPublic without what to do, for callers that say it their
// own way.
const PublicCannotDelegate = "the Public audience has no [available-subagents] layer and spawn_agent is refused there (\"Error: This tool is not available.\"): the frontline cannot delegate"

// Reasons a frontline request cannot be built: the frontline would not be
// able to delegate at all.
var (
	// ErrPublic: the Public audience has no layer and no spawn_agent.
	ErrPublic = errors.New(PublicCannotDelegate + "; use the Personal or Team audience")
	// ErrNoAgents: the layer lists no user-facing agent.
	ErrNoAgents = errors.New("the layer lists no user-facing agent")
)

// FrontlineRequest builds the frontline request for a user's message.
// preamble "" means DefaultPreamble. It fails when the frontline could not
// delegate at all: the Public audience (ErrPublic), sub-agents disabled
// (the error names SubAgents.Enabled), or a layer with no user-facing agent
// (ErrNoAgents, wrapped with the agents folder and the fix).
func FrontlineRequest(c *lint.Catalog, a Audience, preamble, request string) (Frontline, error) {
	if preamble == "" {
		preamble = DefaultPreamble
	}
	f := Frontline{Audience: a, Preamble: preamble, Tool: SpawnAgent(), Request: request}
	switch {
	case a == Public:
		return f, ErrPublic
	case c == nil:
		return f, fmt.Errorf("%w: no agents were read", ErrNoAgents)
	case !Enabled(c, a):
		return f, fmt.Errorf("sub-agents are disabled: SubAgents.Enabled is false in %s, so the frontline sees no layer and spawn_agent is refused; set it to true (or remove it)", configPath(c))
	}
	f.Layer = Layer(c, a)
	for _, d := range Listed(c, a) {
		f.Agents = append(f.Agents, d.Name)
	}
	if len(f.Agents) == 0 {
		return f, fmt.Errorf("%w: create a user-facing agent at %s/<name>.md (visibility internal hides one from the layer)", ErrNoAgents, c.Home.Agents)
	}
	return f, nil
}

// configPath names the file that sets SubAgents.Enabled.
func configPath(c *lint.Catalog) string {
	if c.Config != nil {
		if o, ok := c.Config.Origin("SubAgents:Enabled"); ok {
			if o.Path == lint.ConfigEnvironment {
				return "the environment (" + o.Variable + ")"
			}
			if o.Line > 0 {
				return fmt.Sprintf("%s:%d:%d", o.Path, o.Line, o.Column)
			}
			return o.Path
		}
	}
	return "netclaw.json"
}

// Systems returns the system messages in order: the preamble alone (the
// layer travels in the per-turn message, Nudge).
func (f Frontline) Systems() []string { return []string{f.Preamble} }

// Nudge returns the per-turn user message sent just before the user's:
// the layer as "[system: <layer>]" (SystemNudge).
func (f Frontline) Nudge() string { return SystemNudge(f.Layer) }

// SystemNudge wraps a per-turn block as the user message NetClaw puts
// into the history just before the user's message: "[system: " + block +
// "]" (SessionState.AddVolatileContextNudge, SystemNudgePrefix "[system:").
func SystemNudge(block string) string { return "[system: " + block + "]" }

// Render returns the request as text for a person to read: the system
// message, the tool, the per-turn message and the user message, under
// headings.
func (f Frontline) Render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# system (preamble)\n%s\n\n", f.Preamble)
	fmt.Fprintf(&b, "# tool %s\n%s\nparameters: %s\n\n", f.Tool.Name, f.Tool.Description, f.Tool.Parameters)
	fmt.Fprintf(&b, "# user (per-turn context: available-subagents, audience %s)\n%s\n\n# user\n%s\n", f.Audience, f.Nudge(), f.Request)
	return b.String()
}
