package approve

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/request"
)

// gated are the first-party tools whose calls need approval; every MCP
// tool needs it too. runner/tools marks their specs from Gated.
var gated = map[string]bool{
	"shell_execute": true,
	"web_fetch":     true,
	"web_search":    true,
}

// Gated reports whether a call of the first-party tool name needs
// approval (an MCP tool always does).
func Gated(name string) bool { return gated[name] }

// ToolError is an approval pattern naming a first-party tool that no call
// could make it match: the tool needs no approval, or NetClaw has no tool
// of that name. It names no flag: the command line words it as
// --approve's, a suite file as approve:'s.
type ToolError struct {
	// Pattern is the pattern as written; Tool the tool it names.
	Pattern, Tool string
	// Unknown is set when NetClaw has no such tool, and Near is the
	// closest name it has ("" when none is near).
	Unknown bool
	Near    string
}

// Error quotes the pattern and says why it approves nothing.
func (e *ToolError) Error() string {
	if !e.Unknown {
		return fmt.Sprintf("%q: %s needs no approval: it runs without one, so the pattern approves nothing; approvals are for shell_execute, web_fetch, web_search and MCP tools", e.Pattern, e.Tool)
	}
	near := ""
	if e.Near != "" {
		near = " (did you mean " + e.Near + "?)"
	}
	return fmt.Sprintf("%q: no tool is named %s%s", e.Pattern, e.Tool, near)
}

// CheckTool returns a *ToolError when p names a first-party tool that
// needs no approval or that NetClaw does not have; nil for any other
// pattern. A name with "__" is an MCP tool's (SERVER__TOOL), known only
// once its server runs, and mcp:SERVER names a server: neither is checked
// here.
func CheckTool(p Pattern) error {
	if p.Tool == "" || strings.Contains(p.Tool, mcpSeparator) {
		return nil
	}
	catalog := request.NetClaw()
	if _, ok := catalog.Tool(p.Tool); ok {
		if !Gated(p.Tool) {
			return &ToolError{Pattern: p.Text, Tool: p.Tool}
		}
		return nil
	}
	var names []string
	for _, t := range catalog.Tools() {
		names = append(names, t.Name)
	}
	e := &ToolError{Pattern: p.Text, Tool: p.Tool, Unknown: true}
	if near := lint.Suggest(p.Tool, names, 1); len(near) > 0 {
		e.Near = near[0]
	}
	return e
}
