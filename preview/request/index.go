package request

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Index returns the compressed tool index of these tools, as the untiered
// ToolRegistry.BuildCompressedIndex writes it
// (src/Netclaw.Actors/Tools/ToolRegistry.cs
// @a18e4a67cab9638a89069219c5388270aee96555, netclaw-dev's newest stored
// version, where every first-party tool is directly callable), with "\n"
// line ends (the runtime's AppendLine on Linux and macOS). The runtime
// that tiers its tools writes TieredIndex instead, whose MCP part is this
// one's:
//
//	[directly callable tools]
//	<grant>: <name>, <name>, ...        one line a grant, in order of first appearance
//
//	[MCP capability servers - discover tools with search_tools]
//	<server> (<n> tools): <capability>  one line a server, by name
//	- Choose a server by need (browser, memory, email, etc.).
//	- Then call search_tools(query: "<intent>", server: "<server_name>").
//	- To browse one server, call search_tools(query: "all", server: "<server_name>").
//	- MCP tools are not directly callable until loaded via search_tools.
//
// Each part is there only when it has tools; no tools give "".
func Index(tools []Tool) string {
	if len(tools) == 0 {
		return ""
	}
	var b strings.Builder
	var grants []string
	byGrant := map[string][]string{}
	var mcp []Tool
	for _, t := range tools {
		if t.IsMCP() {
			mcp = append(mcp, t)
			continue
		}
		if _, seen := byGrant[t.Grant]; !seen {
			grants = append(grants, t.Grant)
		}
		byGrant[t.Grant] = append(byGrant[t.Grant], t.Name)
	}
	if len(grants) > 0 {
		b.WriteString("[directly callable tools]\n")
		for _, g := range grants {
			b.WriteString(g)
			b.WriteString(": ")
			b.WriteString(strings.Join(byGrant[g], ", "))
			b.WriteByte('\n')
		}
	}
	if len(mcp) > 0 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("[MCP capability servers - discover tools with search_tools]\n")
		for _, s := range ServerSummaries(mcp) {
			b.WriteString(s.Server)
			b.WriteString(" (")
			b.WriteString(strconv.Itoa(s.Tools))
			b.WriteString(" tools): ")
			b.WriteString(s.Description)
			b.WriteByte('\n')
		}
		b.WriteString("- Choose a server by need (browser, memory, email, etc.).\n")
		b.WriteString("- Then call search_tools(query: \"<intent>\", server: \"<server_name>\").\n")
		b.WriteString("- To browse one server, call search_tools(query: \"all\", server: \"<server_name>\").\n")
		b.WriteString("- MCP tools are not directly callable until loaded via search_tools.\n")
	}
	return b.String()
}

// ServerSummary is one MCP server in the index and in search_tools'
// server catalogue.
type ServerSummary struct {
	// Server is the server's name as its first tool spells it.
	Server string
	// Description is the capability line (DescribeServerCapability).
	Description string
	// Tools is how many of its tools are listed.
	Tools int
}

// ServerSummaries groups the MCP tools by server (names compared ignoring
// case) and sorts the groups by name, ordinally, as
// ToolRegistry.GetMcpServerSummaries does. Tools that are not MCP tools
// are skipped.
func ServerSummaries(tools []Tool) []ServerSummary {
	var order []string
	groups := map[string][]Tool{}
	for _, t := range tools {
		if !t.IsMCP() {
			continue
		}
		k := strings.ToUpper(t.Server)
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], t)
	}
	out := make([]ServerSummary, 0, len(order))
	for _, k := range order {
		g := groups[k]
		name := g[0].Server
		out = append(out, ServerSummary{Server: name, Description: describeServer(name, g), Tools: len(g)})
	}
	slices.SortStableFunc(out, func(a, b ServerSummary) int { return compareOrdinal(a.Server, b.Server) })
	return out
}

// describeServer is DescribeServerCapability: a fixed line for a server
// whose name speaks of a browser, memory, mail, git or search; else the
// first non-blank tool description on one line, cut to 96 UTF-16 units
// (93 and "...").
func describeServer(server string, tools []Tool) string {
	n := strings.ToLower(strings.TrimFunc(server, unicode.IsSpace))
	switch {
	case strings.Contains(n, "browser"):
		return "Interactive browser automation for navigation, clicking, typing, and page snapshots."
	case strings.Contains(n, "memorizer") || strings.Contains(n, "memory"):
		return "Persistent memory storage and retrieval across sessions."
	case strings.Contains(n, "email") || strings.Contains(n, "mail"):
		return "Email operations for sending, reading, and inbox workflows."
	case strings.Contains(n, "github") || strings.Contains(n, "git"):
		return "GitHub operations for repositories, issues, and pull requests."
	case strings.Contains(n, "search"):
		return "Search and retrieval capabilities."
	}
	for _, t := range tools {
		if strings.TrimFunc(t.Description, unicode.IsSpace) == "" {
			continue
		}
		line := strings.Join(strings.FieldsFunc(t.Description, unicode.IsSpace), " ")
		units := utf16.Encode([]rune(line))
		if len(units) <= 96 {
			return line
		}
		return string(utf16.Decode(units[:93])) + "..."
	}
	return "General MCP capability server."
}

// compareOrdinal compares as .NET's ordinal string comparison does: by
// UTF-16 code units.
func compareOrdinal(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}

// MCPSectionEstimate returns the index's MCP part as it would read if each
// of servers offered one tool with no description: what a request whose
// servers were not started leaves out, at the least (each server's real
// capability line and its tools' schemas, loaded through load_tool, add
// more). No servers give "".
func MCPSectionEstimate(servers []string) string {
	var tools []Tool
	for _, s := range servers {
		if t, err := MCPTool(s, "tool", "", nil); err == nil {
			tools = append(tools, t)
		}
	}
	return Index(tools)
}
