package adapt

import (
	"fmt"
	"slices"
	"strings"
)

// toolMap translates NetClaw's tool names into one target's, and back.
type toolMap struct {
	// to maps a NetClaw tool name to the target's.
	to map[string]string
	// known are the target's own tool names: kept as they are on export.
	known []string
	// prefixes mark tool names the target accepts by pattern (MCP tools);
	// a name that also starts with one of excludes does not count.
	prefixes, excludes []string
}

// NetClaw's tool names (REFERENCE section 6) and their equivalents. NetClaw
// has no equivalent of a shell; attach_file and spawn_agent have none in
// the targets (and spawn_agent is denied to every NetClaw sub-agent anyway).
var (
	claudeTools = toolMap{
		to: map[string]string{"file_read": "Read", "file_list": "Glob", "file_write": "Write", "file_edit": "Edit",
			"web_search": "WebSearch", "web_fetch": "WebFetch"},
		known: []string{"Agent", "Bash", "Edit", "Glob", "Grep", "LS", "MultiEdit", "NotebookEdit", "NotebookRead",
			"Read", "Task", "TodoWrite", "WebFetch", "WebSearch", "Write"},
		prefixes: []string{"mcp__"},
	}
	openCodeTools = toolMap{
		to: map[string]string{"file_read": "read", "file_list": "list", "file_write": "write", "file_edit": "edit",
			"web_search": "websearch", "web_fetch": "webfetch"},
		known: []string{"bash", "edit", "glob", "grep", "list", "lsp", "patch", "read", "skill", "task",
			"todoread", "todowrite", "webfetch", "websearch", "write"},
	}
	geminiTools = toolMap{
		to: map[string]string{"file_read": "read_file", "file_list": "list_directory", "file_write": "write_file",
			"file_edit": "replace", "web_search": "google_web_search", "web_fetch": "web_fetch"},
		known: []string{"glob", "google_web_search", "grep_search", "list_directory", "read_file", "read_many_files",
			"replace", "run_shell_command", "save_memory", "search_file_content", "web_fetch", "write_file", "write_todos", "*"},
		prefixes: []string{"mcp_"},
		// Claude Code's MCP names (mcp__server__tool) are not Gemini's.
		excludes: []string{"mcp__"},
	}
)

// export translates NetClaw tool names into the target's. Names with no
// equivalent are dropped and named in a warning: a target that reads its
// tools list as an allow-list would otherwise get a tool that does not
// exist.
func (m toolMap) export(tools []string, target string) (out []string, warnings []string) {
	var dropped []string
	for _, t := range tools {
		switch {
		case m.to[t] != "":
			out = appendOnce(out, m.to[t])
		case m.isKnown(t):
			out = appendOnce(out, t)
		default:
			dropped = append(dropped, t)
		}
	}
	if len(dropped) > 0 {
		w := fmt.Sprintf("tools %s have no %s equivalent: left out", quoteNames(dropped), target)
		if len(dropped) == 1 {
			w = fmt.Sprintf("tool %s has no %s equivalent: left out", quoteNames(dropped), target)
		}
		if len(out) == 0 {
			w += "; with no tools listed the agent gets every tool"
		}
		warnings = append(warnings, w)
	}
	return out, warnings
}

// isKnown reports whether t is one of the target's own tool names.
func (m toolMap) isKnown(t string) bool {
	if slices.Contains(m.known, t) {
		return true
	}
	for _, p := range m.excludes {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(t, p) && len(t) > len(p) {
			return true
		}
	}
	return false
}

// back translates the target's tool names into NetClaw's; names with no
// NetClaw equivalent are kept as they are (NetClaw's tools are advisory, so
// an unknown name costs nothing and is not lost).
func (m toolMap) back(tools []string) []string {
	var out []string
	for _, t := range tools {
		name := t
		for nc, tt := range m.to {
			if tt == t {
				name = nc
				break
			}
		}
		out = appendOnce(out, name)
	}
	return out
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// quoteNames joins names as 'a', 'b' and 'c'.
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
