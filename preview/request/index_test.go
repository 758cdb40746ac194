package request

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/preview"
)

// golden compares got with testdata/<name>, or rewrites it with -update.
func matchGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, got)
}

// The full catalogue a sub-agent is offered, per audience, as JSON: names,
// grants, kinds, schemas, what is withheld and why, and the index.
func TestGoldenCatalog(t *testing.T) {
	for _, a := range preview.Audiences {
		o := SubAgentTools(a)
		b, err := o.JSON("")
		if err != nil {
			t.Fatal(err)
		}
		name := strings.ToLower(a.String())
		matchGolden(t, filepath.Join("catalog", name+".json"), b)
		matchGolden(t, filepath.Join("catalog", name+".txt"), []byte(o.Text("")))
	}
}

// A sub-agent's tool-index part is its tiered registry's compressed index
// (SubAgentActor.BuildSystemPrompt, GenerateCompressedIndex): the core
// tools by grant in the actor's registration order (search_tools and
// load_tool last), then every deferred first-party tool by name with its
// description on one line, cut to 80 characters.
func TestIndexFirstParty(t *testing.T) {
	want := "[directly callable core tools]\n" +
		"shell: shell_execute\n" +
		"file: file_list, file_search, file_write, file_edit, set_working_directory, file_read\n" +
		"builtin: tool_output_read, skill_load, skill_read_resource, search_tools, load_tool\n" +
		"\n" +
		"[deferred first-party tools - discover with search_tools]\n" +
		"cancel_reminder: Delete a reminder by its ID. Use list_reminders to find reminder IDs.\n" +
		"check_background_job: Query the status of a background job or cancel it. Returns status, elapsed ti...\n" +
		"find_memories: Search cross-session memory for prior knowledge. Returns lightweight results ...\n" +
		"get_memories: Load full content for one or more memories by ID. Use find_memories first to ...\n" +
		"get_reminder_history: Get recent execution history for a reminder. Returns timestamps, success/fail...\n" +
		"list_reminders: List reminder definitions with IDs, schedules, status, and next fire times.\n" +
		"run_reminder: Run an existing reminder now to test it. The reminder's schedule does not cha...\n" +
		"set_reminder: Schedule or update a reminder by ID. If a reminder with the given ID already ...\n" +
		"skill_manage: Create, edit, patch, or delete skills and their resource files. Actions: crea...\n" +
		"store_memory: Save knowledge to cross-session memory for future retrieval. Use for solution...\n" +
		"update_memory: Edit or delete a memory by ID. For document edits, provide either old_text an...\n" +
		"web_fetch: Fetch a web page URL and save its content to a local file. Default format='ra...\n" +
		"web_search: Search the web and return a list of results with titles, URLs, and snippets\n"
	got := SubAgentTools(preview.Personal).Index()
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The index names no parameter and carries no schema (NetClaw's
	// GenerateCompressedIndex_lists_deferred_first_party_hint_without_schema).
	for _, leak := range []string{"ReminderId", "inputSchema", "_rationale", "\"type\""} {
		if strings.Contains(got, leak) {
			t.Errorf("the index carries %q", leak)
		}
	}
	if Index(nil) != "" || TieredIndex(nil) != "" {
		t.Error("no tools, no index")
	}
}

// The MCP part: servers grouped ignoring case and sorted ordinally, the
// capability line by server name or from the first described tool, cut to
// 96 UTF-16 units.
func TestIndexMCP(t *testing.T) {
	long := "Does   a great many things\nacross lines, " + strings.Repeat("é", 100)
	mk := func(server, tool, desc string) Tool {
		tl, err := MCPTool(server, tool, desc, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	tools := []Tool{
		mk("zeta", "run", "  "), mk("zeta", "go", long),
		mk("Browser", "click", "Click."), mk("browser", "type", "Type."),
		mk("notes", "x", ""),
		mk("Mailbox", "send", "Send."),
	}
	got := Index(tools)
	cut := []rune("Does a great many things across lines, " + strings.Repeat("é", 100))[:93]
	want := "[MCP capability servers - discover tools with search_tools]\n" +
		"Browser (2 tools): Interactive browser automation for navigation, clicking, typing, and page snapshots.\n" +
		"Mailbox (1 tools): Email operations for sending, reading, and inbox workflows.\n" +
		"notes (1 tools): General MCP capability server.\n" +
		"zeta (2 tools): " + string(cut) + "...\n" +
		"- Choose a server by need (browser, memory, email, etc.).\n" +
		"- Then call search_tools(query: \"<intent>\", server: \"<server_name>\").\n" +
		"- To browse one server, call search_tools(query: \"all\", server: \"<server_name>\").\n" +
		"- MCP tools are not directly callable until loaded via search_tools.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	fr, _ := NetClaw().Tool("file_read")
	both := Index(append([]Tool{fr}, tools[2]))
	if !strings.HasPrefix(both, "[directly callable tools]\nfile: file_read\n\n[MCP capability servers") {
		t.Errorf("both parts are separated by a blank line:\n%s", both)
	}
}

func TestSearchTools(t *testing.T) {
	gh, _ := MCPTool("github", "list_issues", "List the issues of a repository.", json.RawMessage(`{"type":"object","properties":{"owner":{},"repo":{},"state":{},"labels":{},"page":{}}}`))
	c, _ := NetClaw().With(gh)
	o := c.SubAgentTools(preview.Personal, DefaultPolicy())

	text, loaded := SearchTools(o, "issues", "github")
	want := "Found 1 tool(s):\n\n  github__list_issues — List the issues of a repository. (params: owner, repo, state, labels, +1 more)\n\nTo expose a selected tool schema, call load_tool(\"<tool_name>\"). Normal authorization still runs at dispatch.\n"
	if text != want || len(loaded) != 1 {
		t.Errorf("search:\n%q\nwant\n%q", text, want)
	}
	if text, _ := SearchTools(o, "servers", ""); !strings.HasPrefix(text, "Available MCP servers (1):\n\n  github (1 tools): GitHub operations") ||
		!strings.HasSuffix(text, "\nTo find tools, call search_tools(query: \"<intent>\", server: \"<server_name>\"), then load_tool(\"<name>\") to expose its schema.\n") {
		t.Errorf("servers:\n%s", text)
	}
	if text, loaded := SearchTools(o, "ALL", "mcp:github"); !strings.HasPrefix(text, "Found 1 tool(s) in server 'github':") || len(loaded) != 1 {
		t.Errorf("browse:\n%s", text)
	}
	if text, _ := SearchTools(o, "all", ""); !strings.HasSuffix(text, "\nTo browse tools, call search_tools(query: \"all\", server: \"<server_name>\").\n") {
		t.Errorf("all without a server:\n%s", text)
	}
	if text, _ := SearchTools(o, "read file", ""); !strings.Contains(text, "  file_read — Read text files or inspect non-text files. Images can be loaded for visual in... (params: Path, StartLine, Limit, _rationale, +2 more)") {
		t.Errorf("first-party search:\n%s", text)
	}
	if text, loaded := SearchTools(o, "file_raed", ""); !strings.Contains(text, "Did you mean:\n\n  ? file_read :: ") || loaded != nil ||
		!strings.HasSuffix(text, "\nSuggestions are not loaded yet. Call load_tool with one of the exact tool names above.\n") {
		t.Errorf("suggestions:\n%s", text)
	}
	if text, _ := SearchTools(o, "zzzzqqq", "github"); text != "No tools found matching 'zzzzqqq' in server 'github'. Try search_tools(query: \"all\", server: \"github\") to browse tools." {
		t.Errorf("nothing: %q", text)
	}

	// load_tool answers with the name the model calls the tool by, given
	// either form.
	for _, name := range []string{" github/list_issues ", "github__list_issues"} {
		if got := LoadToolResult(c, o, name); got != "github__list_issues" {
			t.Errorf("load %q: %q", name, got)
		}
	}
	if got := LoadToolResult(c, o, "file_read"); got != "file_read" {
		t.Errorf("load first-party: %q", got)
	}
	// A tool the sub-agent may not see is not found, as one that does not
	// exist.
	if got := LoadToolResult(c, o, "attach_file"); got != "Tool 'attach_file' not found. Use search_tools to find available tools." {
		t.Errorf("load denied: %q", got)
	}
	if got := LoadToolResult(c, o, "issues"); got != "Tool 'issues' not found. Did you mean: github__list_issues?" {
		t.Errorf("load unknown: %q", got)
	}
	if got := LoadToolResult(c, o, "  "); got != "Error: tool name is required." {
		t.Errorf("load blank: %q", got)
	}
}
