package approve

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
)

// mcpSeparator joins an MCP tool's model-facing name, SERVER__TOOL (as
// runner/mcp.Separator; this package sits below runner/mcp).
const mcpSeparator = "__"

// UnusableError is an approval pattern its audience can never use: the
// tool is not offered to the audience, or the MCP server is not one the
// audience may use, so the pattern approves nothing. It names no flag: the
// command line words it as --approve's, a suite file as approve:'s.
type UnusableError struct {
	// Pattern is the pattern as written; Audience the audience's name.
	Pattern, Audience string
	// Tool is the tool the audience is not offered, and Reason why; both
	// "" when Server is set.
	Tool, Reason string
	// Server is the MCP server the audience may not use.
	Server string
}

// Error quotes the pattern and says why it approves nothing.
func (e *UnusableError) Error() string {
	if e.Server != "" {
		return fmt.Sprintf("%q: the %s audience may not use MCP server %s (Tools.AudienceProfiles.%s: McpServersMode Allowlist, and AllowedMcpServers does not name it), so none of its tools is offered", e.Pattern, e.Audience, e.Server, e.Audience)
	}
	return fmt.Sprintf("%q: the %s audience is not offered %s (%s), so the pattern approves nothing", e.Pattern, e.Audience, e.Tool, e.Reason)
}

// Lacks says what an audience that could use the pattern has: "gets it"
// (the tool), "may use it" (the server), for advice such as "run as an
// audience that gets it".
func (e *UnusableError) Lacks() string {
	if e.Server != "" {
		return "may use it"
	}
	return "gets it"
}

// AudienceCheck decides, under one configuration (netclaw.json's
// Tools.AudienceProfiles, Tools.ShellMode and subsystem switches), which
// audiences can use an approval pattern: the one place that decides it for
// `run`, `test`, `route`, the browser and suite files.
type AudienceCheck struct {
	cfg *lint.Config
	// ok is false when the configuration's policy does not parse (lint
	// reports it; no tool is refused).
	ok bool
	// offered holds each audience's sub-agent tool set, made once: a
	// check is read-only, safe for concurrent use.
	offered map[preview.Audience]request.Offered
}

// NewAudienceCheck returns the check for cfg (nil: the runtime's
// defaults).
func NewAudienceCheck(cfg *lint.Config) *AudienceCheck {
	pol, err := request.PolicyFromConfig(cfg)
	c := &AudienceCheck{cfg: cfg, ok: err == nil, offered: map[preview.Audience]request.Offered{}}
	if c.ok {
		for _, a := range preview.Audiences {
			c.offered[a] = request.NetClaw().SubAgentTools(a, pol)
		}
	}
	return c
}

// Check returns nil when a sub-agent spawned from a session of audience a
// may be offered what p approves, else an *UnusableError: a TOOL or
// TOOL:GLOB naming a first-party tool a withholds (Team and Public get no
// shell_execute), an mcp:SERVER or SERVER__TOOL naming a server a may not
// use. What is not the audience's doing is left to other checks and
// passes here: a tool the catalogue does not have, a server that is not
// configured or is disabled, a configuration that does not parse.
func (c *AudienceCheck) Check(p Pattern, a preview.Audience) error {
	if server, ok := c.server(p); ok {
		if !c.cfg.McpServerAllowed(server, a.String()) {
			return &UnusableError{Pattern: p.Text, Audience: a.String(), Server: server}
		}
		return nil
	}
	if p.Tool == "" || strings.Contains(p.Tool, mcpSeparator) || !c.ok {
		return nil
	}
	for _, w := range c.offered[a].Withheld {
		if w.Name == p.Tool {
			return &UnusableError{Pattern: p.Text, Audience: a.String(), Tool: p.Tool, Reason: w.Reason}
		}
	}
	return nil
}

// CheckAny returns nil when some audience of as may use p (or as is
// empty: the audience is not known), else the first audience's
// *UnusableError: a pattern given once for runs of several audiences is
// refused only when none of them can use it.
func (c *AudienceCheck) CheckAny(p Pattern, as []preview.Audience) error {
	var first error
	for _, a := range as {
		err := c.Check(p, a)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// server returns the configured MCP server p names, as configured: the
// server of mcp:SERVER (ignoring case, as NetClaw matches server names),
// or the one whose name starts SERVER__TOOL (the model-facing name spells
// it as configured). ok is false for any other pattern, and for a server
// that is not configured.
func (c *AudienceCheck) server(p Pattern) (string, bool) {
	if c.cfg == nil {
		return "", false
	}
	if p.Server != "" {
		s, ok := c.cfg.McpServer(p.Server)
		return s.Name, ok
	}
	if !strings.Contains(p.Tool, mcpSeparator) {
		return "", false
	}
	for _, s := range c.cfg.McpServers {
		if strings.HasPrefix(p.Tool, s.Name+mcpSeparator) {
			return s.Name, true
		}
	}
	return "", false
}

// Audit returns why the pattern text can never match, or "" when it can,
// or when the pattern or the audience does not parse (their own checks
// say so): the check a suite file's approve: items get (lint/suitefile,
// which sits below the tool catalogue, is handed it). With audience ""
// (not known) it checks the tool alone, as *ToolError's Error words it:
// one that needs no approval, or that NetClaw does not have. With an
// audience it checks only whether that audience (a name, any case) can use
// it, as *UnusableError's Error words it.
func (c *AudienceCheck) Audit(text, audience string) string {
	p, err := Parse(text)
	if err != nil {
		return ""
	}
	if audience == "" {
		if err := CheckTool(p); err != nil {
			return err.Error()
		}
		return ""
	}
	a, err := preview.ParseAudience(audience)
	if err != nil {
		return ""
	}
	if err := c.Check(p, a); err != nil {
		return err.Error()
	}
	return ""
}
