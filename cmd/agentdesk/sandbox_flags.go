package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// sandboxFlags are --no-sandbox, --allow-network, --allow-network-mcp
// and --pass-env of run, test and the browser.
type sandboxFlags struct {
	off        bool
	network    bool
	networkMCP []string
	passEnv    []string
}

// add registers the flags.
func (s *sandboxFlags) add(fl *pflag.FlagSet) {
	fl.BoolVar(&s.off, "no-sandbox", false, "run approved commands and stdio MCP servers unsandboxed, as you, on the real filesystem (for a machine that cannot sandbox them)")
	fl.BoolVar(&s.network, "allow-network", false, "let sandboxed commands and stdio MCP servers reach the network (off by default: they only have their own loopback)")
	fl.StringArrayVar(&s.networkMCP, "allow-network-mcp", nil, "let the stdio MCP server `NAME` reach the network (repeatable)")
	fl.StringArrayVar(&s.passEnv, "pass-env", nil, "give commands and MCP servers the environment variable `NAME` although its name looks secret (repeatable)")
}

// check refuses --allow-network-mcp with a server the configuration does
// not name, and says so when both --no-sandbox and a network flag are
// given (the network flags then change nothing).
func (s sandboxFlags) check(cfg *lint.Config) error {
	for _, name := range s.networkMCP {
		known := false
		if cfg != nil {
			for _, m := range cfg.McpServers {
				known = known || m.Name == name
			}
		}
		if !known {
			return usageErrorf("--allow-network-mcp %s: netclaw.json's McpServers has no server of that name: give a configured server's name", termsafe.Escape(name))
		}
	}
	for _, name := range s.passEnv {
		if strings.TrimSpace(name) == "" || strings.Contains(name, "=") {
			return usageErrorf("--pass-env %q: give a variable's name, such as --pass-env GITHUB_TOKEN", name)
		}
	}
	return nil
}

// spec returns the runs' sandbox settings.
func (s sandboxFlags) spec() tools.Sandbox {
	return tools.Sandbox{Off: s.off, Network: s.network, NetworkServers: slices.Clone(s.networkMCP), PassEnv: slices.Clone(s.passEnv)}
}

// report is what the runs' sandbox is, for the stderr line.
func (s sandboxFlags) report() sandbox.Report {
	if s.off {
		return sandbox.Report{Unsandboxed: true}
	}
	return sandbox.Probe().WithNetwork(s.network, s.networkMCP)
}

// announce prints the sandbox line of a run or test that may run
// commands: what the sandbox is, or why commands will be refused.
func (s sandboxFlags) announce(g *globals) {
	fmt.Fprintf(g.stderr, "agentdesk: %s\n", s.report())
}
