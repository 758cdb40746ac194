package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner/mcp"
)

// mcpFlags are --no-mcp and --mcp-timeout of run and test (tools has its
// own, with a shorter default for a listing).
type mcpFlags struct {
	off     bool
	timeout time.Duration
}

// add registers the flags.
func (m *mcpFlags) add(fl *pflag.FlagSet) {
	fl.BoolVar(&m.off, "no-mcp", false, "start none of the MCP servers in netclaw.json: their tools are not offered")
	fl.DurationVar(&m.timeout, "mcp-timeout", mcp.DefaultStartTimeout, "how long each MCP server gets to start and list its tools; one that does not offers no tools")
}

// check refuses a timeout that is not positive.
func (m mcpFlags) check() error {
	if m.timeout <= 0 {
		return usageErrorf("--mcp-timeout is %s: give a positive duration such as 10s, or --no-mcp", m.timeout)
	}
	return nil
}

// starting is the progress line printed while MCP servers start.
func (m mcpFlags) starting(names []string) string {
	for i, n := range names {
		names[i] = termsafe.Escape(n)
	}
	s := "s"
	if len(names) == 1 {
		s = ""
	}
	return fmt.Sprintf("agentdesk: starting MCP server%s %s (each gets up to %s: --mcp-timeout changes it, --no-mcp skips them)\n", s, strings.Join(names, ", "), m.timeout)
}
