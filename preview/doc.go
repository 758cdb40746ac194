// Package preview renders sub-agent definitions for whoever consumes them,
// byte for byte as the NetClaw runtime does: the [available-subagents]
// context layer per audience (Layer), its cost in o200k_base tokens
// (CountTokens, LayerTokens), the composed system prompt of a spawn with an
// optional skill overlay (SystemPrompt), the first user message
// (FirstMessage), the frontline's side of a spawn (FrontlineRequest: a
// preamble, the layer and the spawn_agent tool around a user's request;
// ParseSpawnArgs and SpawnRefusal: how the runtime reads and answers a
// spawn_agent call), the outcome of every skill that routes through a sub-agent
// (SkillRoutes), a unified diff of two renderings (Diff), the SkillServer
// manifest entry of a definition (ManifestEntry), and the text of a new
// definition: the template (AgentTemplate) and a copy under a new name
// (Renamed).
//
// It reads a lint.Catalog and never touches the network or a terminal. The
// strings it returns are exactly what the model receives, control characters
// included; a caller that prints them to a terminal escapes them first.
package preview
