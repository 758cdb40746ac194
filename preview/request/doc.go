// Package request composes the request the NetClaw runtime sends when it
// spawns a sub-agent, byte for byte: the system prompt's parts, the first
// user message, and the tools the sub-agent is offered.
//
// The tool catalogue (catalog.go, tools.go, policy.go, subagent.go,
// index.go, meta.go, results.go) holds every first-party NetClaw tool with
// the name, description and JSON schema the runtime's source generator
// emits, its grant category, whether it is offered at the start (core) or
// found with search_tools and activated with load_tool (deferred), and
// where its effect lands (Kind), which runner/tools uses to decide whether a
// trial runs a call for real, in an overlay, after approval, or as a stub.
// SubAgentTools applies the runtime's sub-agent denylist and the audience
// profile; Index renders the compressed tool index; ExtractMeta checks and
// strips the _rationale, _timeout_seconds and _background meta arguments
// with the runtime's refusal texts; Args looks arguments up ignoring case
// as the runtime does.
//
// The package reads no files and touches no network: configuration comes in
// as a *lint.Config, and tools found at run time (MCP) come in through
// Catalog.With. preview must not import this package (it imports preview
// for the Audience type).
package request
