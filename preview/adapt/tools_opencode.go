package adapt

// OpenCode's tools, taken from OpenCode 1.18.33 (opencode-ai on npm): the
// tools `opencode debug agent NAME` lists as on for an agent with no
// permission of its own (question is off by default and has no NetClaw
// equivalent), and the permission key that governs each: edit governs
// write and edit (and patch). OpenCode 1.18 has no list or todoread tool;
// NetClaw's file_list maps to glob.
var openCodeTools = toolTable{
	version: "1.18.33",
	to: map[string]string{"file_read": "read", "file_list": "glob", "file_write": "write", "file_edit": "edit",
		"web_search": "websearch", "web_fetch": "webfetch"},
	known:    []string{"bash", "read", "glob", "grep", "edit", "write", "task", "webfetch", "todowrite", "websearch", "skill"},
	noneLeft: "the permission block turns every OpenCode tool off",
}

// openCodePermission is the permission key that turns an OpenCode tool on
// or off.
func openCodePermission(tool string) string {
	switch tool {
	case "write", "patch":
		return "edit"
	}
	return tool
}
