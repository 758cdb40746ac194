package main

import (
	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/runner/approve"
)

// approveUsage is the help of --approve.
const approveUsage = "approve the matching tool calls that need approval (repeatable): TOOL, TOOL:GLOB (the command of shell_execute, the URL of web_fetch, the JSON arguments otherwise) or mcp:SERVER"

// addApproveFlag adds the repeatable --approve flag.
func addApproveFlag(fl *pflag.FlagSet, dst *[]string, usage string) {
	fl.StringArrayVar(dst, "approve", nil, usage)
}

// parseApprove parses the --approve patterns; a bad one is a usage error.
func parseApprove(ss []string) ([]approve.Pattern, error) {
	ps, err := approve.ParseAll(ss)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return ps, nil
}
