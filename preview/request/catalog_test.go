package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
)

// schemaDoc is a generated schema read back.
type schemaDoc struct {
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
	Extra      json.RawMessage            `json:"additionalProperties"`
}

type propDoc struct {
	Type                 string          `json:"type"`
	Description          string          `json:"description"`
	Items                json.RawMessage `json:"items"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
}

// The generator's schema shape, for every catalogued tool: the parameters
// in declaration order, then the three meta properties with their types
// and descriptions; required = the required parameters and _rationale; no
// additionalProperties at the top (no tool declares a variant).
func TestSchemaShape(t *testing.T) {
	for _, tool := range NetClaw().Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			raw := tool.Schema()
			if !json.Valid(raw) {
				t.Fatalf("schema is not valid JSON: %s", raw)
			}
			var s schemaDoc
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			if s.Type != "object" || s.Extra != nil {
				t.Errorf("type %q, additionalProperties %s; want object and none", s.Type, s.Extra)
			}
			var wantOrder, wantRequired []string
			for _, p := range tool.Params {
				wantOrder = append(wantOrder, p.Name)
				if p.Required {
					wantRequired = append(wantRequired, p.Name)
				}
			}
			wantOrder = append(wantOrder, "_rationale", "_timeout_seconds", "_background")
			wantRequired = append(wantRequired, "_rationale")
			if got := schemaProperties(raw); !slices.Equal(got, wantOrder) {
				t.Errorf("property order %v, want %v", got, wantOrder)
			}
			if !slices.Equal(s.Required, wantRequired) {
				t.Errorf("required %v, want %v", s.Required, wantRequired)
			}
			for name, want := range map[string][2]string{
				"_rationale":       {"string", "State your intent for this tool call in one sentence — what are you trying to accomplish and why?"},
				"_timeout_seconds": {"integer", "Requested timeout in seconds. Only set when the default is insufficient."},
				"_background":      {"boolean", "Set to true to run this tool in the background and receive results later."},
			} {
				var p propDoc
				if err := json.Unmarshal(s.Properties[name], &p); err != nil || p.Type != want[0] || p.Description != want[1] {
					t.Errorf("%s = %s, want type %s and the generator's description", name, s.Properties[name], want[0])
				}
			}
			for _, p := range tool.Params {
				if p.Name == "" || p.Name[0] < 'A' || p.Name[0] > 'Z' {
					t.Errorf("parameter %q is not PascalCase as the C# record names it", p.Name)
				}
				var d propDoc
				if err := json.Unmarshal(s.Properties[p.Name], &d); err != nil || d.Type != p.Type || d.Description != p.Description {
					t.Errorf("parameter %s = %s", p.Name, s.Properties[p.Name])
				}
			}
			if bytes.Contains(raw, []byte(`\u003c`)) || bytes.Contains(raw, []byte(`\u2014`)) {
				t.Errorf("schema escapes more than JSON needs: %s", raw)
			}
		})
	}
}

// The added tools' schemas, byte for byte as NetClaw's generator emits them
// from the C# records (ToolOutputReadTool, SqliteUpdateMemoryTool,
// RunReminderTool): written out here by hand from the records, not from
// the table.
func TestSchemaBytesOfAddedTools(t *testing.T) {
	meta := `"_rationale":{"type":"string","description":"State your intent for this tool call in one sentence — what are you trying to accomplish and why?"},` +
		`"_timeout_seconds":{"type":"integer","description":"Requested timeout in seconds. Only set when the default is insufficient."},` +
		`"_background":{"type":"boolean","description":"Set to true to run this tool in the background and receive results later."}}`
	for name, want := range map[string]string{
		"tool_output_read": `{"type":"object","properties":{` +
			`"CallId":{"type":"string","description":"Opaque call id shown by the truncated tool result. Never pass a file path."},` +
			`"Start":{"type":"integer","description":"Zero-based character offset (default 0, maximum 256000)."},` +
			`"Limit":{"type":"integer","description":"Maximum total characters returned, including continuation metadata (default 8000, minimum 128, maximum 10000)."},` +
			meta + `,"required":["CallId","_rationale"]}`,
		"get_memories": `{"type":"object","properties":{` +
			`"Ids":{"type":"string","description":"Comma-separated memory IDs to load. Copy the ids shown by find_memories, get_memories, or recall verbatim (e.g. \"doc-1a2b3c, rec-9d8e7f\")."},` +
			meta + `,"required":["Ids","_rationale"]}`,
		"update_memory": `{"type":"object","properties":{` +
			`"Id":{"type":"string","description":"Memory ID to update or delete. Copy the id shown by memory recall, find_memories, or get_memories verbatim (e.g. doc-… or rec-…)."},` +
			`"OldText":{"type":"string","description":"Text to find in the memory content (required for document edits)"},` +
			`"NewText":{"type":"string","description":"Replacement text for document edits or new payload for record supersede"},` +
			`"NewContent":{"type":"string","description":"Full replacement content for document edits. Do not combine with old_text/new_text."},` +
			`"Delete":{"type":"boolean","description":"Set to true to tombstone the memory"},` +
			meta + `,"required":["Id","_rationale"]}`,
		"store_memory": `{"type":"object","properties":{` +
			`"Title":{"type":"string","description":"Title for the memory entry"},` +
			`"Content":{"type":"string","description":"Content to store — use markdown, include code blocks, provide full context"},` +
			`"Tags":{"type":"string","description":"Optional comma-separated tags"},` +
			meta + `,"required":["Title","Content","_rationale"]}`,
		"find_memories": `{"type":"object","properties":{` +
			`"Query":{"type":"string","description":"Search query to find relevant memories"},` +
			`"Limit":{"type":"integer","description":"Maximum number of results to return (default 5)"},` +
			`"IncludeStale":{"type":"boolean","description":"Set true to include expired evidence for audit/debug search"},` +
			meta + `,"required":["Query","_rationale"]}`,
		"run_reminder": `{"type":"object","properties":{` +
			`"Id":{"type":"string","description":"The reminder ID to run now (returned by set_reminder or list_reminders)."},` +
			meta + `,"required":["Id","_rationale"]}`,
	} {
		tl, ok := NetClaw().Tool(name)
		if !ok {
			t.Errorf("%s is not catalogued", name)
			continue
		}
		if got := string(tl.Schema()); got != want {
			t.Errorf("%s schema\n got %s\nwant %s", name, got, want)
		}
	}
	for name, want := range map[string]string{
		"tool_output_read": "builtin/read/Always", "find_memories": "builtin/netclaw-state/Memory.Enabled",
		"get_memories": "builtin/netclaw-state/Memory.Enabled", "store_memory": "builtin/netclaw-state/Memory.Enabled",
		"update_memory": "builtin/netclaw-state/Memory.Enabled", "run_reminder": "scheduling/netclaw-state/Scheduling.Enabled",
	} {
		tl, _ := NetClaw().Tool(name)
		req := string(tl.Requires)
		if req == "" {
			req = "Always"
		}
		if got := tl.Grant + "/" + string(tl.Kind) + "/" + req; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	// The registration order: file_search and tool_output_read between
	// file_list and file_write; the memory tools after load_tool; file_read
	// (moved by WithSkillTools' ReplaceCore) between them and skill_load;
	// run_reminder after get_reminder_history.
	var names []string
	for _, tl := range NetClaw().Tools() {
		names = append(names, tl.Name)
	}
	order := strings.Join(names, ",")
	for _, run := range []string{
		"file_list,file_search,tool_output_read,file_write",
		"load_tool,find_memories,get_memories,store_memory,update_memory,file_read,skill_load",
		"get_reminder_history,run_reminder,check_background_job",
	} {
		if !strings.Contains(order, run) {
			t.Errorf("order %s lacks %s", order, run)
		}
	}
}

// The generator's type mapping: a string array gets items, a string
// dictionary additionalProperties, both of type string.
func TestGeneratedSchemaCollections(t *testing.T) {
	got := string(GeneratedSchema([]Param{
		req("Tags", "array", "the tags"),
		opt("Env", "object", `a "map" \ of strings`),
	}))
	want := `{"type":"object","properties":{` +
		`"Tags":{"type":"array","items":{"type":"string"},"description":"the tags"},` +
		`"Env":{"type":"object","additionalProperties":{"type":"string"},"description":"a \"map\" \\ of strings"},` +
		`"_rationale":{"type":"string","description":"State your intent for this tool call in one sentence — what are you trying to accomplish and why?"},` +
		`"_timeout_seconds":{"type":"integer","description":"Requested timeout in seconds. Only set when the default is insufficient."},` +
		`"_background":{"type":"boolean","description":"Set to true to run this tool in the background and receive results later."}},` +
		`"required":["Tags","_rationale"]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(GeneratedSchema(nil)); !strings.HasSuffix(got, `"required":["_rationale"]}`) {
		t.Errorf("a tool without parameters: %s", got)
	}
}

// The frontline's spawn_agent schema (preview, written from the same
// generator) is what GeneratedSchema makes of SpawnAgentTool's record:
// two independent copies of the wire format agree byte for byte.
func TestGeneratedSchemaMatchesSpawnAgent(t *testing.T) {
	got := GeneratedSchema([]Param{
		req("Agent", "string", "Name of the subagent to invoke (see available-subagents in context)"),
		req("Task", "string", "Task description for the subagent — be specific about what you need"),
		opt("Context", "string", "Optional background context the subagent should consider while working on the task. "+
			"Use this to pass along workspace details, the user's broader goal, or facts the subagent would otherwise have to rediscover. "+
			"Do NOT duplicate the agent's built-in instructions; use this for THIS invocation's situation."),
	})
	if string(got) != preview.SpawnAgentParameters {
		t.Errorf("got\n%s\nwant\n%s", got, preview.SpawnAgentParameters)
	}
}

func TestCatalogLookupAndWith(t *testing.T) {
	c := NetClaw()
	if tl, ok := c.Tool("file_read"); !ok || tl.Kind != KindRead || !tl.ReadOnly || tl.Deferred {
		t.Errorf("file_read = %+v, %v", tl, ok)
	}
	if _, ok := c.Tool("File_Read"); ok {
		t.Error("tool names are matched exactly, as the registry does")
	}
	m, err := MCPTool("github", "list_issues", "List issues.", json.RawMessage(` {"type": "object", "properties": {"repo": {"type": "string"}}} `))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "github__list_issues" || m.Canonical != "github/list_issues" || !m.Deferred || string(m.Schema()) != `{"type":"object","properties":{"repo":{"type":"string"}}}` {
		t.Errorf("MCP tool = %+v %s", m, m.Schema())
	}
	c2, err := c.With(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"github__list_issues", "github/list_issues"} {
		if got, ok := c2.Tool(name); !ok || got.Name != m.Name {
			t.Errorf("Tool(%q) = %v, %v", name, got.Name, ok)
		}
	}
	if _, ok := c.Tool("github__list_issues"); ok {
		t.Error("With changed the catalogue it was called on")
	}
	if _, err := c2.With(m); err == nil || !strings.Contains(err.Error(), "github__list_issues") {
		t.Errorf("a second tool of the same name: %v", err)
	}
	for _, bad := range []struct{ server, tool, schema string }{
		{"", "x", ""}, {"s", "", ""}, {"a/b", "x", ""}, {"s", "x\x1b", ""},
		{"s", "x", "[1]"}, {"s", "x", "{"}, {"s", "x", `"text"`},
	} {
		if _, err := MCPTool(bad.server, bad.tool, "", json.RawMessage(bad.schema)); !errors.Is(err, ErrBadTool) {
			t.Errorf("MCPTool(%q, %q, %q) = %v, want ErrBadTool", bad.server, bad.tool, bad.schema, err)
		}
	}
	if e, err := MCPTool("s", "x", "", nil); err != nil || string(e.Schema()) != `{"type":"object","properties":{}}` {
		t.Errorf("no schema: %s, %v", e.Schema(), err)
	}
}

// Every first-party tool has the facts the tools engineer relies on.
func TestFirstPartyTable(t *testing.T) {
	// The registry's order at the runtime (salma-marei/netclaw
	// @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4): WithFirstPartyTools, the
	// memory tools (Program.cs), then WithSkillTools, whose ReplaceCore of
	// file_read drops it from its place and appends it (ToolRegistry.Replace
	// @ba08b016c9d3286e62ce64e5013d63d298264231) just before skill_load;
	// then the reminder, background-job and webhook-route tools.
	wantOrder := []string{"shell_execute", "file_list", "file_search", "tool_output_read", "file_write", "file_edit", "attach_file",
		"list_webhooks", "web_search", "web_fetch", "set_working_directory", "search_tools", "load_tool",
		"find_memories", "get_memories", "store_memory", "update_memory",
		"file_read", "skill_load", "skill_read_resource", "skill_manage",
		"set_reminder", "cancel_reminder", "list_reminders", "get_reminder_history", "run_reminder", "check_background_job",
		"set_webhook", "delete_webhook", "check_agent_run"}
	var order []string
	for _, tl := range NetClaw().Tools() {
		order = append(order, tl.Name)
	}
	if !slices.Equal(order, wantOrder) {
		t.Errorf("registration order\n got %v\nwant %v", order, wantOrder)
	}
	// The core tier names catalogued tools only: a misspelt name would
	// quietly make its tool deferred.
	for _, name := range CoreTools {
		if tl, ok := NetClaw().Tool(name); !ok || tl.Deferred {
			t.Errorf("core tool %s: catalogued %v, deferred %v", name, ok, tl.Deferred)
		}
	}
	kinds := map[Kind]bool{KindRead: true, KindWrite: true, KindEffect: true, KindState: true, KindMeta: true}
	grants := map[string]bool{"file": true, "shell": true, "web": true, "builtin": true, "scheduling": true, "webhook_admin": true}
	for _, tl := range NetClaw().Tools() {
		if !kinds[tl.Kind] || !grants[tl.Grant] || tl.Deferred == IsCore(tl.Name) || tl.IsMCP() {
			t.Errorf("%s: kind %q grant %q deferred %v", tl.Name, tl.Kind, tl.Grant, tl.Deferred)
		}
		fromFork := strings.HasPrefix(tl.Source, "salma-marei/netclaw src/")
		if !strings.HasPrefix(tl.Source, "netclaw-dev/netclaw src/") && !fromFork || !strings.Contains(tl.Source, " @") {
			t.Errorf("%s: source %q does not name the file and commit", tl.Name, tl.Source)
		}
		if tl.Kind == KindWrite && tl.ReadOnly {
			t.Errorf("%s writes but is marked read-only", tl.Name)
		}
		// Only the files the index stores for netclaw-dev in older
		// versions than the fork's (or not at all) come from the fork;
		// shell_execute's because its text names the first message's
		// temp_dir; the tiered meta tools too.
		if fromFork != slices.Contains([]string{"shell_execute", "tool_output_read", "find_memories", "get_memories", "store_memory", "update_memory", "search_tools", "load_tool"}, tl.Name) {
			t.Errorf("%s: source %q", tl.Name, tl.Source)
		}
	}
}
