package suite

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Fingerprint parts of the MCP servers a sample could use.
const (
	// PartMCPServers lists the configured servers the sample's audience
	// may use ("none" for a sample without tools, with --no-mcp, or
	// without servers), a disabled one marked so: a server removed,
	// added, enabled or disabled changes it, and the change names it.
	PartMCPServers = "mcp servers"
	// PartMCPServer + NAME is one listed server as configured: its
	// transport, command, arguments, the names of its environment
	// variables (never their values), its URL, and whether it is enabled.
	PartMCPServer = "mcp server: "
	// PartMCPTools + NAME is the tools the server offered when the sample
	// was recorded. It is compared only when a run knows them again (a
	// recorded sample's fingerprint has it; an offline one, which starts
	// no server, does not).
	PartMCPTools = "mcp tools: "
)

// noMCPParts is the MCP servers' part when the case can use none, made once
// (the caller copies it; none changes it).
var noMCPParts = func() []evalrec.Part {
	p := evalrec.NewPart(PartMCPServers, "none", "")
	p.Default = true
	return []evalrec.Part{p}
}()

// mcpParts fingerprints the MCP servers a sample of sp could use: those
// of the configuration its audience may use, when it offers tools and
// servers are not turned off (noMCP). Without any the list is "none",
// which a recording made before servers were fingerprinted also means.
func mcpParts(sp runner.Spec, noMCP bool) []evalrec.Part {
	usable := usableMCP(sp, noMCP)
	if len(usable) == 0 {
		return noMCPParts
	}
	names := make([]string, len(usable))
	out := []evalrec.Part{{}}
	for i, c := range usable {
		names[i] = c.Name
		if !c.Enabled {
			names[i] += " (disabled)"
		}
		out = append(out, mcpServerPart(c))
	}
	out[0] = evalrec.NewPart(PartMCPServers, strings.Join(names, ", "), "")
	return out
}

// usableMCP are the MCP servers of sp's configuration its audience may
// use, when it offers tools (a project) and servers are not turned off
// (noMCP).
func usableMCP(sp runner.Spec, noMCP bool) []lint.McpServer {
	if sp.Project == "" || noMCP || sp.Config == nil {
		return nil
	}
	aud := sp.Audience
	if aud == "" {
		aud = "Personal"
	}
	var usable []lint.McpServer
	for _, c := range sp.Config.McpServers {
		if sp.Config.McpServerAllowed(c.Name, aud) {
			usable = append(usable, c)
		}
	}
	return usable
}

// mcpServerPart fingerprints one server's settings: transport, command
// and arguments, the names (not values) of its environment, URL and
// whether it is enabled; its source names the file that set it.
func mcpServerPart(c lint.McpServer) evalrec.Part {
	env := make([]string, 0, len(c.EnvironmentVariables))
	for k := range c.EnvironmentVariables {
		env = append(env, k)
	}
	slices.Sort(env)
	b, _ := json.Marshal(struct {
		Transport   string
		Command     string
		Arguments   []string
		Environment []string
		URL         string
		Enabled     bool
	}{c.McpTransport(), c.Command, c.Arguments, env, c.URL, c.Enabled})
	source := "McpServers." + c.Name
	if p := c.Origin.Path; p != "" && p != lint.ConfigEnvironment {
		source = filepath.Base(p) + "'s " + source
	}
	return evalrec.NewDigest(PartMCPServer+c.Name, string(b), source)
}

// mcpToolParts fingerprints the tools each started server offered in a
// recorded run, for its recording.
func mcpToolParts(m *runfolder.MCPRecord) []evalrec.Part {
	if m == nil {
		return nil
	}
	var out []evalrec.Part
	for _, s := range m.Servers {
		if s.State != "started" {
			continue
		}
		out = append(out, evalrec.NewPart(PartMCPTools+s.Name, strings.Join(s.Tools, ", "), ""))
	}
	return out
}
