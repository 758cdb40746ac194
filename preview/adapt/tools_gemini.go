package adapt

import (
	"regexp"
	"strings"
)

// Gemini CLI's tool names, taken from Gemini CLI 0.61.0 (@google/gemini-cli
// on npm): ALL_BUILTIN_TOOL_NAMES and TOOL_LEGACY_ALIASES of its bundle,
// and the rules of its isValidToolName, which the agent loader applies to
// every entry of tools. One name it does not accept (save_memory, which
// 0.61 no longer has, or an MCP name not of the form mcp_<server>_<tool>)
// makes it refuse the whole file.
var geminiTools = toolTable{
	version: "0.61.0",
	to: map[string]string{"file_read": "read_file", "file_list": "list_directory", "file_write": "write_file",
		"file_edit": "replace", "web_search": "google_web_search", "web_fetch": "web_fetch"},
	known: []string{"glob", "write_todos", "write_file", "google_web_search", "web_fetch", "replace",
		"run_shell_command", "grep_search", "read_many_files", "read_file", "list_directory", "activate_skill",
		"ask_user", "tracker_create_task", "tracker_update_task", "tracker_get_task", "tracker_list_tasks",
		"tracker_add_dependency", "tracker_visualize", "get_internal_docs", "enter_plan_mode", "exit_plan_mode",
		"update_topic", "complete_task", "invoke_agent", "read_mcp_resource", "list_mcp_resources",
		// The agent loader allows wildcards.
		"*"},
	aliases:  map[string]string{"search_file_content": "grep_search"},
	pattern:  geminiPattern,
	noneLeft: "with no tools listed the agent gets every tool",
}

// geminiSlug is the form of an MCP server and tool name in Gemini CLI.
var geminiSlug = regexp.MustCompile(`^[a-z0-9_.:-]+$`)

// geminiPattern is isValidToolName's rule for names outside the built-in
// list: discovered_tool_*, and mcp_<server>_<tool> (the server name has no
// underscore; mcp_*, mcp_<server>_* are wildcards).
func geminiPattern(t string) bool {
	if strings.HasPrefix(t, "discovered_tool_") {
		return true
	}
	rest, ok := strings.CutPrefix(t, "mcp_")
	if !ok {
		return false
	}
	if rest == "*" {
		return true
	}
	server, tool, ok := strings.Cut(rest, "_")
	if !ok || server == "" || tool == "" || !geminiSlug.MatchString(strings.ToLower(server)) {
		return false
	}
	if tool == "*" {
		return true
	}
	return strings.Trim(tool, "_") != "" && geminiSlug.MatchString(strings.ToLower(tool))
}
