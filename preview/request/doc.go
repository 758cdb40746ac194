// Package request composes the request NetClaw's runtime sends a spawned
// sub-agent, part by part, so a trial, a preview and a test suite all
// measure the agent against the request it will really get.
//
// It owns the system prompt's parts in the runtime's order (Compose:
// operating rules, deployment playbook, project instructions, body, skill
// overlay, tool index, execution contract), the first user message with
// its working context (FirstMessage, WorkingContext, InspectGit) and the
// tool catalogue the runtime offers per audience.
//
// For the frontline (the main session) it owns the session's prompt
// (SessionPrompt), its tools from the start (SessionTools: the core tier
// and spawn_agent) and its context layers as NetClaw's session assembles
// them (ComposeSessionContext: the tiered tool index SessionToolIndex, the
// SkillIndex, the MemoryLayer, the available-subagents layer and the
// AttachmentsHint as the static system message; CurrentTimeLayer and the
// working context as the per-turn "[system: ...]" message).
//
// Composing reads the files the runtime reads (the deployment playbook,
// the project's instructions, git state); it never writes and never
// touches the network. The operating core comes from the user's NetClaw
// install (lint/netclaw), never from agentdesk's source: a caller that
// found none says so through Input.CoreMissing, and the request lists the
// operating rules as missing.
//
// The tool catalogue (catalog.go, tools.go, policy.go, subagent.go,
// index.go, meta.go, search.go, results.go, render.go) holds every
// first-party NetClaw tool with the name, description and JSON schema the
// runtime's source generator emits, its grant category, whether it is
// offered at the start (core) or found with search_tools and activated
// with load_tool (deferred), and where its effect lands (Kind), which
// runner/tools uses to decide whether a trial runs a call for real, in an
// overlay, after approval, or as a stub. SubAgentTools applies the
// runtime's sub-agent denylist and the audience profile (PolicyFromConfig
// reads it from netclaw.json); Index renders the compressed tool index;
// CheckCall makes the runtime's checks on a call's arguments (ExtractMeta:
// the _rationale, _timeout_seconds and _background meta arguments, checked
// and stripped; UnknownArguments: keys no parameter binds) with its refusal
// texts; Args binds arguments ignoring case as the runtime does. The catalogue reads no
// files: tools found at run time (MCP) come in through Catalog.With.
// preview must not import this package (it imports preview for the
// Audience type).
package request
