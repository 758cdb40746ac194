package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/approve"
)

// approveUsage is the help of --approve.
const approveUsage = "approve the matching tool calls that need approval (repeatable): TOOL, TOOL:GLOB (the command of shell_execute, the URL of web_fetch, the query of web_search, the JSON arguments otherwise) or mcp:SERVER"

// addApproveFlag adds the repeatable --approve flag.
func addApproveFlag(fl *pflag.FlagSet, dst *[]string, usage string) {
	fl.StringArrayVar(dst, "approve", nil, usage)
}

// parseApprove parses the --approve patterns; a bad one is a usage error,
// and so is one naming a tool NetClaw does not have (it could never match,
// and the run would fail on the call it was meant to approve). A name with
// "__" is an MCP tool's (SERVER__TOOL), known only once its server runs.
func parseApprove(ss []string) ([]approve.Pattern, error) {
	ps, err := approve.ParseAll(ss)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	catalog := request.NetClaw()
	for _, p := range ps {
		if p.Tool == "" || strings.Contains(p.Tool, "__") {
			continue
		}
		if _, ok := catalog.Tool(p.Tool); ok {
			continue
		}
		var names []string
		for _, t := range catalog.Tools() {
			names = append(names, t.Name)
		}
		hint := ""
		if near := lint.Suggest(p.Tool, names, 1); len(near) > 0 {
			hint = " (did you mean " + near[0] + "?)"
		}
		return nil, usageErrorf("--approve %q: no tool is named %s%s: name a tool as `agentdesk tools` lists it, SERVER__TOOL for an MCP server's tool, or mcp:SERVER", p.Text, p.Tool, hint)
	}
	return ps, nil
}
