package tui

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// toolsLine says which tools a run of sel on model offers and where
// their calls go, for the Run pane's intro:
//
//	file_read, file_list, … (12; 9 more through load_tool) · MCP: tracker · in a copy of ~/proj: …
//
// A replay offers the recorded run's tools (runner's prepare: the
// cassette's header); its calls get the recorded results, or in the
// demo run again in a copy of the project (runner.Spec.LiveTools). A live
// run offers NetClaw's catalogue to a sub-agent of the browser's audience
// under netclaw.json's policy (as runner's trialOffer does), and the
// configured MCP servers, when there is a project folder.
//
// The line is kept until what it depends on changes (toolsLineKey).
func (p *runPane) toolsLine(sel *lint.File, model runfolder.Model) string {
	e := p.e
	r := p.recorded[model.Endpoint]
	k := toolsLineKey{catGen: e.catGen, audience: e.netClaw().Audience, project: e.opts.Project, demo: e.demoModel(sel) != "",
		modelType: model.Type, endpoint: model.Endpoint, recorded: r != nil && r.ready}
	if c := p.toolsCache; c != nil && c.key == k {
		return c.line
	}
	line := p.buildToolsLine(sel, model, r)
	p.toolsCache = &toolsLineCache{key: k, line: line}
	return line
}

// toolsLineKey is what the intro's tools line depends on: the catalog's
// configuration, the audience, the project, and the model (a replay's
// recording, once read).
type toolsLineKey struct {
	catGen    int
	audience  preview.Audience
	project   string
	demo      bool
	modelType string
	endpoint  string
	recorded  bool
}

// toolsLineCache is the last tools line built, with its key.
type toolsLineCache struct {
	key  toolsLineKey
	line string
}

// buildToolsLine builds toolsLine's text; r is the recording a replay
// model plays, once read (nil before).
func (p *runPane) buildToolsLine(sel *lint.File, model runfolder.Model, r *recordedLimits) string {
	e := p.e
	if model.Type == runner.ReplayProviderType {
		if r == nil || !r.ready || r.err != nil {
			return "the recorded run's (reading the recording…)"
		}
		names := "none"
		if len(r.tools) > 0 {
			names = strings.Join(r.tools, ", ")
		}
		if e.demoModel(sel) != "" && e.opts.Project != "" {
			return "the recorded calls run again, for real, in a copy of " + e.shortPath(e.opts.Project) + ": gated ones ask first; the folder itself is never changed · the recorded run's: " +
				names + mcpPart(p.mcpServers())
		}
		if len(r.tools) == 0 {
			return "none: the recorded run offered none"
		}
		return "the recorded run's: " + names + " · each call gets its recorded result; nothing runs"
	}
	if e.opts.Project == "" {
		return "none (no project folder)"
	}
	pol, err := request.PolicyFromConfig(e.config())
	if err != nil {
		return "none: " + err.Error()
	}
	o := request.NetClaw().SubAgentTools(e.netClaw().Audience, pol)
	if o.Reason != "" {
		return "none: " + o.Reason
	}
	var core []string
	for _, t := range o.Tools {
		if !t.Deferred {
			core = append(core, t.Name)
		}
	}
	line := strings.Join(core, ", ")
	if more := len(o.Tools) - len(core); more > 0 {
		line += fmt.Sprintf(" (%d more through load_tool)", more)
	}
	return line + mcpPart(p.mcpServers()) +
		" · in a copy of " + e.shortPath(e.opts.Project) + ": writes stay in the copy; commands, web and MCP calls ask first"
}

// mcpServers are the configured MCP servers a run of the browser's
// audience would start, by name (none is started to find out).
func (p *runPane) mcpServers() []string {
	cfg := p.e.config()
	if cfg == nil {
		return nil
	}
	return mcp.Startable(cfg.McpServers, mcp.Options{Audience: p.e.netClaw().Audience.String(), Config: cfg})
}

// mcpPart is " · MCP: a, b" for servers, "" for none.
func mcpPart(servers []string) string {
	if len(servers) == 0 {
		return ""
	}
	return " · MCP: " + strings.Join(servers, ", ")
}
