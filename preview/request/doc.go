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
// Composing reads the files the runtime reads (the deployment playbook,
// the project's instructions, git state); it never writes and never
// touches the network. The operating core comes from the user's NetClaw
// install (lint/netclaw), never from agentdesk's source: a caller that
// found none says so through Input.CoreMissing, and the request lists the
// operating rules as missing.
package request
