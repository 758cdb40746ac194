package adapt

import (
	"slices"
	"strings"
)

// Claude Code's tool names, taken from Claude Code 2.1.328
// (@anthropic-ai/claude-code on npm): the built-in tool list and the legacy
// names it still resolves, as its own bundle spells them. LS, MultiEdit and
// NotebookRead are no tools of 2.1.x; Task is now Agent.
var (
	claudeTools = toolTable{
		version: "2.1.328",
		to: map[string]string{"file_read": "Read", "file_list": "Glob", "file_write": "Write", "file_edit": "Edit",
			"web_search": "WebSearch", "web_fetch": "WebFetch"},
		known:    claudeKnown,
		aliases:  claudeAliases,
		pattern:  claudePattern,
		noneLeft: "with no tools listed the agent gets every tool",
	}
	claudeKnown = []string{"Agent", "Artifact", "AskUserQuestion", "Bash", "ClaudeDesign", "CronCreate", "CronDelete",
		"CronList", "Edit", "EndConversation", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree",
		"Glob", "Grep", "ListAgents", "ListMcpResourcesTool", "LSP", "Monitor", "NotebookEdit", "OfferChromeSetup",
		"PowerShell", "Projects", "propose_skills", "PushNotification", "Read", "ReadMcpResourceDirTool",
		"ReadMcpResourceTool", "ReadNotifications", "RemoteTrigger", "ReportFindings", "ScheduleWakeup",
		"SendFeedback", "SendMessage", "SendUserFile", "SendUserMessage", "SetGoal", "ShareOnboardingGuide",
		"ShowOnboardingRolePicker", "Skill", "SubagentHandback", "TaskCreate", "TaskGet", "TaskList", "TaskStop",
		"TaskUpdate", "TodoWrite", "ToolSearch", "WaitForMcpServers", "WebFetch", "WebSearch", "Workflow", "Write"}
	claudeAliases = map[string]string{"Task": "Agent", "KillShell": "TaskStop", "KillBash": "TaskStop",
		"ListPeers": "ListAgents", "Brief": "SendUserMessage", "ListMcpResources": "ListMcpResourcesTool",
		"ReadMcpResource": "ReadMcpResourceTool", "ReadMcpResourceDir": "ReadMcpResourceDirTool",
		"ProposeGoal": "SetGoal"}
)

// claudePattern accepts MCP tools (mcp__server, mcp__server__tool) and a
// permission rule on a tool Claude Code has, such as Bash(psql:*).
func claudePattern(t string) bool {
	if rest, ok := strings.CutPrefix(t, "mcp__"); ok {
		return rest != "" && !strings.ContainsAny(rest, " \t,")
	}
	open := strings.IndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, ")") || strings.Contains(t, "\n") {
		return false
	}
	base := t[:open]
	return slices.Contains(claudeKnown, base) || claudeAliases[base] != ""
}
