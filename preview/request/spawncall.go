package request

import "github.com/agentdesk/agentdesk/preview"

// spawnAgent is spawn_agent as the runtime's dispatcher checks a call of
// it: the parameters of SpawnAgentTool's record (the schema is
// preview.SpawnAgentParameters, byte for byte; see
// TestGeneratedSchemaMatchesSpawnAgent). It is the frontline's tool, never
// offered to a sub-agent, so it is not in the catalogue.
var spawnAgent = builtin(preview.SpawnAgentTool, "builtin", KindState, false, "", "src/Netclaw.Actors/Tools/SpawnAgentTool.cs", preview.SpawnAgentDescription,
	req("Agent", "string", "Name of the subagent to invoke (see available-subagents in context)"),
	req("Task", "string", "Task description for the subagent — be specific about what you need"),
	opt("Context", "string", "Optional background context the subagent should consider while working on the task. "+
		"Use this to pass along workspace details, the user's broader goal, or facts the subagent would otherwise have to rediscover. "+
		"Do NOT duplicate the agent's built-in instructions; use this for THIS invocation's situation."),
)

// CheckSpawnAgentCall makes the runtime's checks on a frontline's
// spawn_agent call before the tool runs (CheckCall: the meta values, the
// required _rationale, then keys no parameter binds) and returns the
// refusal the model would read instead of a spawn; "" when the call
// passes them, or when its arguments are not a JSON object (the caller
// reports those as they are).
func CheckSpawnAgentCall(arguments string) string {
	a, err := ParseArgs([]byte(arguments))
	if err != nil {
		return ""
	}
	_, _, refusal := CheckCall(spawnAgent, a)
	return refusal
}
