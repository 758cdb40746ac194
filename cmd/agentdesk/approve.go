package main

import (
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/mcp"
)

// approveUsage is the help of --approve.
const approveUsage = "approve the tool calls that match (repeatable): TOOL, TOOL:GLOB or mcp:SERVER (agentdesk help sandbox)"

// addApproveFlag adds the repeatable --approve flag.
func addApproveFlag(fl *pflag.FlagSet, dst *[]string, usage string) {
	fl.StringArrayVar(dst, "approve", nil, usage)
}

// parseApprove parses the --approve patterns; a bad one is a usage error,
// and so is one naming a tool that needs no approval or that NetClaw does
// not have (it could never match, and the run would fail on the call it
// was meant to approve): approve.CheckTool decides.
func parseApprove(ss []string) ([]approve.Pattern, error) {
	ps, err := approve.ParseAll(ss)
	if err != nil {
		return nil, usageErrorf("--approve %v", err)
	}
	for _, p := range ps {
		var te *approve.ToolError
		if err := approve.CheckTool(p); errors.As(err, &te) {
			if te.Unknown {
				return nil, usageErrorf("--approve %v: name a tool as `agentdesk tools` lists it, SERVER__TOOL for an MCP server's tool, or mcp:SERVER", te)
			}
			return nil, usageErrorf("--approve %v", te)
		}
	}
	return ps, nil
}

// parseSuiteApprove reads --approve for suites, which name their own
// audience: the patterns must parse, an MCP server they name must be
// configured and enabled (checkApproveServers with no audience), and at
// least one of the audiences the suites' cases run as must be able to use
// each (checkApproveAudiences).
func parseSuiteApprove(texts []string, cfg *lint.Config, audiences []preview.Audience) ([]approve.Pattern, error) {
	ps, err := parseApprove(texts)
	if err != nil {
		return nil, err
	}
	if err := checkApproveServers(ps, cfg, ""); err != nil {
		return nil, err
	}
	if err := checkApproveAudiences(ps, cfg, audiences); err != nil {
		return nil, err
	}
	return ps, nil
}

// checkApproveServers refuses an mcp:SERVER or SERVER__TOOL pattern that
// could never match: no McpServers entry has that name (for mcp:SERVER
// ignoring case, as NetClaw matches server names; SERVER__TOOL is the
// model-facing name, which spells the server as configured), the entry is
// disabled, or the audience may not use it (as checkApproveAudiences says;
// audience "" when one audience is not known: test, route --suite and the
// browser check the audiences with checkApproveAudiences). It is the same
// usage error as a misspelt
// tool's, with the close name of a server the audience may use. The tool
// half of SERVER__TOOL is known only once the server runs, and is not
// checked.
func checkApproveServers(ps []approve.Pattern, cfg *lint.Config, audience string) error {
	names, usable := mcpServerNames(cfg, audience)
	for _, p := range ps {
		server, prefix := p.Server, "mcp:"
		if server == "" {
			before, _, ok := strings.Cut(p.Tool, mcp.Separator)
			if !ok {
				continue
			}
			server, prefix = before, ""
		}
		s, ok := approvedServer(p, cfg, server, names)
		switch {
		case len(names) == 0:
			return usageErrorf("--approve %q: no MCP server is configured (netclaw.json has no McpServers), so it approves nothing: leave it out, or add the server under McpServers", p.Text)
		case !ok:
			hint := approveServerHint(p, server, prefix, enabledServers(cfg), usable)
			return usageErrorf("--approve %q: no MCP server is named %s%s: name one of McpServers in netclaw.json (%s), as `agentdesk tools` lists them", p.Text, server, hint, serverChoices(cfg))
		case !s.Enabled:
			return usageErrorf("--approve %q: MCP server %s is disabled (McpServers.%s.Enabled is false), so none of its tools is offered: leave it out, or enable the server", p.Text, s.Name, s.Name)
		}
		if a, err := preview.ParseAudience(audience); audience != "" && err == nil {
			if err := checkApproveAudiences([]approve.Pattern{p}, cfg, []preview.Audience{a}); err != nil {
				return err
			}
		}
	}
	return nil
}

// mcpServerNames lists the configured MCP servers' names, and those of
// them that are enabled and that the audience may use (every enabled one
// when audience is ""). A nil cfg has none.
func mcpServerNames(cfg *lint.Config, audience string) (names, usable []string) {
	if cfg == nil {
		return nil, nil
	}
	for _, s := range cfg.McpServers {
		names = append(names, s.Name)
		if s.Enabled && (audience == "" || cfg.McpServerAllowed(s.Name, audience)) {
			usable = append(usable, s.Name)
		}
	}
	return names, usable
}

// enabledServers lists the names of the enabled MCP servers of cfg.
func enabledServers(cfg *lint.Config) []string {
	var out []string
	for _, s := range cfg.McpServers {
		if s.Enabled {
			out = append(out, s.Name)
		}
	}
	return out
}

// serverChoices words the MCP servers an --approve pattern may name: the
// enabled ones, then those disabled, said to be ("docs, github; files is
// disabled").
func serverChoices(cfg *lint.Config) string {
	var disabled []string
	for _, s := range cfg.McpServers {
		if !s.Enabled {
			disabled = append(disabled, s.Name)
		}
	}
	out := strings.Join(enabledServers(cfg), ", ")
	switch {
	case len(disabled) == 0:
		return out
	case out == "":
		out = "none is enabled; "
	default:
		out += "; "
	}
	if len(disabled) == 1 {
		return out + disabled[0] + " is disabled"
	}
	return out + strings.Join(disabled, ", ") + " are disabled"
}

// approvedServer finds the McpServers entry an mcp:SERVER or
// SERVER__TOOL pattern names. server is the pattern's server half. For
// SERVER__TOOL the model-facing name spells the server as configured, so
// the entry must prefix the tool name; a server whose own name holds the
// separator is matched whole, by trying each configured name.
func approvedServer(p approve.Pattern, cfg *lint.Config, server string, names []string) (lint.McpServer, bool) {
	s, ok := cfg.McpServer(server)
	if p.Server != "" {
		return s, ok
	}
	if ok {
		ok = strings.HasPrefix(p.Tool, s.Name+mcp.Separator)
	}
	if !ok {
		for _, n := range names {
			if strings.HasPrefix(p.Tool, n+mcp.Separator) {
				return cfg.McpServer(n)
			}
		}
	}
	return s, ok
}

// approveServerHint is the " (did you mean …?)" of a pattern naming no
// configured server: the closest name the audience may use, else the
// closest enabled name (names), spelt as the pattern spells it (mcp:SERVER, or
// SERVER__TOOL with the pattern's tool half). It is "" when no name is
// close.
func approveServerHint(p approve.Pattern, server, prefix string, names, usable []string) string {
	near := lint.Suggest(server, usable, 1)
	if len(near) == 0 {
		near = lint.Suggest(server, names, 1)
	}
	if len(near) == 0 {
		return ""
	}
	if prefix != "" {
		return " (did you mean " + prefix + near[0] + "?)"
	}
	_, tool, _ := strings.Cut(p.Tool, mcp.Separator)
	return " (did you mean " + near[0] + mcp.Separator + tool + "?)"
}

// checkApproveAudiences refuses a pattern that none of the audiences as
// can use (as empty: the audience is not known, nothing is checked): a
// tool they are not offered (Team and Public get no shell_execute), an MCP
// server they may not use. One audience for run and route; for test and
// the browser every audience a case or run of the invocation may have, so
// a pattern one of them can use is kept. approve.AudienceCheck decides.
func checkApproveAudiences(ps []approve.Pattern, cfg *lint.Config, as []preview.Audience) error {
	if len(as) == 0 {
		return nil
	}
	check := approve.NewAudienceCheck(cfg)
	for _, p := range ps {
		var ue *approve.UnusableError
		if err := check.CheckAny(p, as); errors.As(err, &ue) {
			return usageErrorf("--approve %v: leave it out, or run as an audience that %s", ue, ue.Lacks())
		}
	}
	return nil
}
