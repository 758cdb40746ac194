package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// spawnInput is what a spawn's request is composed from on the command
// line: preview --spawn and preview --agent / --skill.
type spawnInput struct {
	agent    *lint.File
	skill    *lint.Skill
	audience preview.Audience
	project  string
	task     string
	context  string
	netclaw  netclawFlag
	// mcp, when set, says how the MCP servers are treated (preview
	// --spawn): started and listed, or left out and said to be. Its
	// listing is filled in by composeSpawn.
	mcp *spawnMCP
}

// spawnMCP is the MCP part of a composed spawn.
type spawnMCP struct {
	off     bool
	timeout time.Duration
	ctx     context.Context
	// listing is what starting the servers found (nil: none started).
	listing *mcpListing
	// skipped are the servers --no-mcp left out; estimate is the tokens
	// their index section would take at the least.
	skipped  []string
	estimate int
}

// composeSpawn composes the request a trial of in.agent would send, as
// `agentdesk run` composes it; the [session] block names the run folder
// the trial would get, with <run-id> for its id.
func composeSpawn(g *globals, c *lint.Catalog, in spawnInput) (*request.Request, error) {
	nc, err := in.netclaw.spawnNetClaw(g, c.Home, in.audience)
	if err != nil {
		return nil, err
	}
	pol, err := request.PolicyFromConfig(c.Config)
	if err != nil {
		return nil, exitWith(exitFindings, err)
	}
	var extra []request.Tool
	if m := in.mcp; m != nil && c.Config != nil {
		names := mcp.Startable(c.Config.McpServers, mcp.Options{Audience: in.audience.String(), Config: c.Config})
		switch {
		case len(names) == 0:
		case m.off:
			m.skipped = names
			m.estimate = preview.CountTokens(request.MCPSectionEstimate(names))
		default:
			extra, m.listing = liveMCPTools(m.ctx, g, c.Config, in.audience, m.timeout)
		}
	}
	offer, err := request.OfferFor(in.audience, pol, extra...)
	if err != nil {
		return nil, exitWith(exitInternal, err)
	}
	// A session that cannot spawn (Public, or SubAgents.Enabled false) is
	// still composed for, but `agentdesk run` refuses the trial: say so.
	if why := request.NetClaw().SubAgentTools(in.audience, pol).Reason; why != "" {
		g.warn("agentdesk", "NetClaw would not spawn this agent: "+why+"; agentdesk run refuses this trial")
	}
	var session *request.SessionStorage
	if runs, err := runfolder.DefaultRunsDir(g.Getenv); err == nil {
		st := runner.TrialStorage(filepath.Join(runs, "<run-id>"), "<run-id>")
		session = &st
	}
	ri := request.Input{
		Agent: in.agent.Def, AgentPath: in.agent.Path, Skill: in.skill,
		Paths: request.Paths{Base: c.Home.Base}, Audience: in.audience,
		Core: nc.Core, CoreMissing: nc.CoreMissing,
		Project: in.project, Task: in.task, Context: in.context,
		Session: session, Offer: &offer,
	}
	if dir, ok := c.Config.Lookup("Workspaces:Directory"); ok {
		ri.Paths.Workspaces = dir
	}
	r, err := request.Compose(ri)
	if err != nil {
		return nil, exitWith(exitFindings, err)
	}
	return r, nil
}

// spawnProject returns --project, else the working directory (where
// `agentdesk run` puts a trial's project), checked to be a folder.
func spawnProject(project string) (string, error) {
	if project == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", exitWith(exitInternal, fmt.Errorf("finding the working directory: %w; pass --project DIR", err))
		}
		return wd, nil
	}
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return "", usageErrorf("--project %s is not a folder", termsafe.Escape(project))
	}
	return filepath.Abs(project)
}

// spawnJSON is `preview --spawn --format json`.
type spawnJSON struct {
	Agent        string                `json:"agent"`
	Path         string                `json:"path"`
	Skill        string                `json:"skill,omitempty"`
	Audience     preview.Audience      `json:"audience"`
	Project      string                `json:"project"`
	Core         *spawnCoreJSON        `json:"core"`
	Missing      []request.Missing     `json:"missing"`
	Absent       []request.Missing     `json:"absent"`
	Parts        []request.Part        `json:"parts"`
	System       string                `json:"system"`
	FirstMessage string                `json:"firstMessage"`
	Tools        []request.OfferedTool `json:"tools"`
	Index        string                `json:"index"`
	// ParentSees names what the parent session receives for the spawn
	// (preview.WhatTheParentSees).
	ParentSees []string `json:"parentSees"`
	// MCPServers is what starting the MCP servers found; MCPNotStarted
	// names those --no-mcp left out, with the tokens their index section
	// would take at the least.
	MCPServers    *mcpListing    `json:"mcp_servers,omitempty"`
	MCPNotStarted *mcpNotStarted `json:"mcp_not_started,omitempty"`
	Tokens        struct {
		System       int `json:"system"`
		FirstMessage int `json:"firstMessage"`
	} `json:"tokens"`
}

// mcpNotStarted is the MCP servers preview --spawn --no-mcp left out.
type mcpNotStarted struct {
	Servers []string `json:"servers"`
	// Tokens estimates their index section, at the least.
	Tokens int `json:"tokens_at_least"`
}

// spawnCoreJSON says where the operating core came from.
type spawnCoreJSON struct {
	Source  string `json:"source"`
	Version string `json:"version,omitempty"`
}

// writeSpawn prints a composed request: where the core came from (or why
// it is missing), every part of the system prompt with its source and
// tokens, the first message, and the tools with their schemas.
func writeSpawn(g *globals, f previewFlags, in spawnInput, r *request.Request) error {
	doc := newSpawnJSON(in, r)
	if f.format == previewJSON {
		return writeJSON(g.stdout, doc)
	}
	w := spawnText{color: g.Color(g.stdout)}
	w.header(doc, in, r)
	w.prompt(doc, r)
	w.tools(r.Tools)
	w.mcp(in.mcp)
	w.head(fmt.Sprintf("======== what the parent will see: %d items ========", len(doc.ParentSees)))
	for _, l := range doc.ParentSees {
		fmt.Fprintf(&w.b, "- %s\n", l)
	}
	return writeString(g.stdout, w.b.String())
}

// newSpawnJSON is the composed request r of in as preview --spawn
// --format json prints it, with its token counts.
func newSpawnJSON(in spawnInput, r *request.Request) spawnJSON {
	doc := spawnJSON{
		Agent: in.agent.Def.Name, Path: in.agent.Path, Audience: r.Audience, Project: in.project,
		Missing: r.Missing, Absent: r.Absent, Parts: r.Parts, System: r.System, FirstMessage: r.FirstMessage, Tools: r.Tools, Index: r.Index,
		ParentSees: preview.WhatTheParentSees,
	}
	if in.skill != nil {
		doc.Skill = in.skill.Name
	}
	if m := in.mcp; m != nil {
		doc.MCPServers = m.listing
		if len(m.skipped) > 0 {
			doc.MCPNotStarted = &mcpNotStarted{Servers: m.skipped, Tokens: m.estimate}
		}
	}
	if r.CoreSource != "" {
		doc.Core = &spawnCoreJSON{Source: r.CoreSource, Version: r.CoreVersion}
	}
	doc.Tokens.System = preview.CountTokens(r.System)
	doc.Tokens.FirstMessage = preview.CountTokens(r.FirstMessage)
	return doc
}

// spawnText builds preview --spawn's text, section by section; the
// section heads are dimmed when color is on.
type spawnText struct {
	b     strings.Builder
	color bool
}

// head writes a section's head line.
func (w *spawnText) head(s string) { w.b.WriteString(dimLines(s+"\n", w.color)) }

// header says what is spawned (agent, skill, path, audience, project),
// where the operating core came from, and each part missing or absent.
func (w *spawnText) header(doc spawnJSON, in spawnInput, r *request.Request) {
	what := "agent " + termsafe.Escape(doc.Agent)
	if doc.Skill != "" {
		what += " as skill /" + termsafe.Escape(doc.Skill)
	}
	fmt.Fprintf(&w.b, "Spawn of %s (%s), audience %s, project %s\n", what, termsafe.Escape(doc.Path), r.Audience, termsafe.Escape(in.project))
	if doc.Core != nil {
		v := ""
		if doc.Core.Version != "" {
			v = ", NetClaw " + termsafe.Escape(doc.Core.Version)
		}
		fmt.Fprintf(&w.b, "Operating core: %s%s\n", termsafe.Escape(doc.Core.Source), v)
	}
	for _, m := range r.Missing {
		fmt.Fprintf(&w.b, "MISSING %s: %s; a trial runs without it%s\n", m.Part, termsafe.Escape(m.Reason), netclawDirHint(m.Reason))
	}
	for _, m := range r.Absent {
		fmt.Fprintf(&w.b, "No %s: %s\n", m.Part, termsafe.Escape(m.Reason))
	}
	w.b.WriteString("\n")
}

// prompt writes each part of the system prompt under a head naming its
// source and tokens, then the first user message.
func (w *spawnText) prompt(doc spawnJSON, r *request.Request) {
	w.head(fmt.Sprintf("======== system prompt: %d parts, %s ========", len(r.Parts), plural(doc.Tokens.System, "token")))
	for _, p := range r.Parts {
		w.head(fmt.Sprintf("-------- %s: %s, from %s --------", p.Part, plural(p.Tokens, "token"), termsafe.Escape(p.Source)))
		w.text(p.Text)
	}
	w.head(fmt.Sprintf("======== first user message: %s ========", plural(doc.Tokens.FirstMessage, "token")))
	w.text(r.FirstMessage)
}

// text writes text made safe to print, ending in a newline.
func (w *spawnText) text(text string) {
	w.b.WriteString(termsafe.EscapeLines(text))
	if !strings.HasSuffix(text, "\n") {
		w.b.WriteString("\n")
	}
}

// tools writes the tools offered, core or deferred, with their schemas.
func (w *spawnText) tools(tools []request.OfferedTool) {
	core := 0
	for _, t := range tools {
		if t.Core {
			core++
		}
	}
	w.head(fmt.Sprintf("======== tools: %d offered, %d core, %d deferred ========", len(tools), core, len(tools)-core))
	for _, t := range tools {
		kind := "core"
		if !t.Core {
			kind = "deferred"
		}
		fmt.Fprintf(&w.b, "%s (%s): %s\n", termsafe.Escape(t.Name), kind, termsafe.Escape(t.Description))
		fmt.Fprintf(&w.b, "  schema: %s\n", termsafe.Escape(string(t.Parameters)))
	}
}

// mcp writes what the MCP servers started offer, and which servers
// --no-mcp left out with the tokens they would add; nothing when m is nil.
func (w *spawnText) mcp(m *spawnMCP) {
	if m == nil {
		return
	}
	if m.listing != nil {
		w.b.WriteString(termsafe.EscapeLines(m.listing.text()))
	}
	if len(m.skipped) > 0 {
		fmt.Fprintf(&w.b, "\nMCP servers not started (--no-mcp): %s. Their index section and server__tool tools are not shown: at least %s more.\n",
			termsafe.Escape(strings.Join(m.skipped, ", ")), plural(m.estimate, "token"))
	}
}
