// Package adapt carries NetClaw sub-agent definitions to other agent tools
// and back. Export converts a lint.Definition into the native file of
// Claude Code, OpenCode, Gemini CLI, Codex CLI, the JIT sub-agent tools
// (seed 003) or a MaxClaw role (seed 004): name, description and body always,
// the advisory fields (tools, modelRole) where the target has a place for
// them, and a warning naming every field it cannot represent. Import reads a
// Claude Code, OpenCode, Gemini CLI or Codex CLI file back into NetClaw
// agent-md that the runtime loads.
//
// Exported files only ever go into a managed destination (Destination): a
// folder with a state file that records, per generated file, its source and
// the digest of what was written, so that a rerun updates and prunes its own
// files and refuses to touch any other. Every write is atomic (a temporary
// file, then a rename or a link).
//
// Fields a target has no place for are kept in a one-line comment,
// "# netclaw: {...}", where the target's format allows comments (YAML
// frontmatter, TOML); Import reads it back, so a definition survives a round
// trip through any target that can be imported.
package adapt
