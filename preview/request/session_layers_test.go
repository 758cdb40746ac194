package request

import (
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// Ports of NetClaw's ToolRegistryTests for the tiered index
// (GenerateCompressedIndex_lists_deferred_first_party_hint_without_schema,
// ..._groups_by_category, ..._empty_registry_returns_empty), then the
// exact bytes BuildCompressedIndex writes.
func TestTieredIndex(t *testing.T) {
	reminder := Tool{Name: "set_reminder", Grant: "scheduling", Description: "Schedule a future reminder for a delivery target.",
		Params: []Param{{Name: "DeliveryTarget", Type: "string"}}}
	shell := Tool{Name: "shell_execute", Grant: "shell", Description: "Run a command."}
	read := Tool{Name: "file_read", Grant: "file", Description: "Read a file."}
	list := Tool{Name: "file_list", Grant: "file", Description: "List a folder."}
	store := Tool{Name: "memorizer__store", Server: "memorizer", Canonical: "memorizer/store", Grant: "mcp", Description: "Store."}
	search := Tool{Name: "memorizer__search", Server: "memorizer", Canonical: "memorizer/search", Grant: "mcp", Description: "Search."}
	long := Tool{Name: "web_fetch", Grant: "web", Description: "  Fetch a web page\n\tand return   its readable text, with links kept as footnotes, for the model to read.  "}
	blank := Tool{Name: "check_background_job", Grant: "shell", Description: " \n "}

	if got := TieredIndex(nil); got != "" {
		t.Errorf("no tools: %q", got)
	}
	idx := TieredIndex([]Tool{reminder})
	if !strings.Contains(idx, "[deferred first-party tools - discover with search_tools]") || !strings.Contains(idx, "set_reminder: Schedule a future reminder") ||
		strings.Contains(idx, "DeliveryTarget") || strings.Contains(idx, "inputSchema") {
		t.Errorf("deferred hint:\n%s", idx)
	}
	got := TieredIndex([]Tool{store, read, long, shell, search, reminder, list, blank})
	want := "[directly callable core tools]\n" +
		"file: file_read, file_list\n" +
		"shell: shell_execute\n" +
		"\n" +
		"[deferred first-party tools - discover with search_tools]\n" +
		"check_background_job: No description available.\n" +
		"set_reminder: Schedule a future reminder for a delivery target.\n" +
		"web_fetch: Fetch a web page and return its readable text, with links kept as footnotes, ...\n" +
		"\n" +
		"[MCP capability servers - discover tools with search_tools]\n" +
		"memorizer (2 tools): Persistent memory storage and retrieval across sessions.\n" +
		"- Choose a server by need (browser, memory, email, etc.).\n" +
		"- Then call search_tools(query: \"<intent>\", server: \"<server_name>\").\n" +
		"- To browse one server, call search_tools(query: \"all\", server: \"<server_name>\").\n" +
		"- MCP tools are not directly callable until loaded via search_tools.\n"
	if got != want {
		t.Errorf("index:\n%s\nwant\n%s", got, want)
	}
	if h := compactHint(long.Description); len([]rune(h)) != 80 {
		t.Errorf("hint of %d characters: %q", len([]rune(h)), h)
	}
}

// The core tier is the newest registration's: spawn_agent and the
// scheduling and web tools are deferred.
func TestSessionCoreTier(t *testing.T) {
	for name, core := range map[string]bool{
		"shell_execute": true, "file_read": true, "file_search": true, "tool_output_read": true, "attach_file": true,
		"set_working_directory": true, "search_tools": true, "load_tool": true, "skill_load": true, "skill_read_resource": true,
		"spawn_agent": false, "web_fetch": false, "web_search": false, "set_reminder": false, "skill_manage": false, "check_background_job": false,
	} {
		if IsCore(name) != core {
			t.Errorf("%s: core %v, want %v", name, !core, core)
		}
	}
	var names []string
	for _, tl := range SessionTools(preview.Personal, DefaultPolicy()) {
		names = append(names, tl.Name)
	}
	joined := "," + strings.Join(names, ",") + ","
	for _, want := range []string{",shell_execute,", ",file_read,", ",search_tools,", ",load_tool,", ",spawn_agent,"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the frontline's tools %v lack %s", names, want)
		}
	}
	for _, deferred := range []string{",web_fetch,", ",set_reminder,", ",skill_manage,"} {
		if strings.Contains(joined, deferred) {
			t.Errorf("the frontline's tools %v offer the deferred %s from the start", names, deferred)
		}
	}
	if names[len(names)-1] != "spawn_agent" {
		t.Errorf("spawn_agent is not last: %v", names)
	}
}

// SkillRegistry.GenerateIndex, byte for byte: the header, categories in
// ordinal order ("user" for skills at the root), skills by name, the
// argument hint after the name, descriptions cut to 120 UTF-16 units,
// disable-model-invocation skills left out.
func TestSkillIndex(t *testing.T) {
	if got := SkillIndex(nil); got != "" {
		t.Errorf("no skills: %q", got)
	}
	if got := SkillIndex([]SkillEntry{{Name: "secret", Description: "x", Hidden: true}}); got != "" {
		t.Errorf("only hidden skills: %q", got)
	}
	long := strings.Repeat("é", 130)
	got := SkillIndex([]SkillEntry{
		{Name: "release-notes", Description: "Write release notes.", ArgumentHint: "<version>"},
		{Name: "netclaw-memory", Category: ".system", Description: "Memory tools, recall guidance."},
		{Name: "deploy", Category: "ops", Description: long},
		{Name: "changelog", Description: "Keep the changelog."},
		{Name: "hidden", Description: "Slash only.", Hidden: true},
		{Name: "blank", Category: "ops", Description: "  "},
	})
	want := "[skills]|invoke via /name\n" +
		"|Load skill guidance with skill_load(name) BEFORE using related features.\n" +
		"|Read bundled resources with skill_read_resource(skillName, resourcePath).\n" +
		"|Skills routed to a subagent require a concrete task when loaded.\n" +
		"|.system:\n" +
		"|  netclaw-memory: Memory tools, recall guidance.\n" +
		"|ops:\n" +
		"|  blank: (no description)\n" +
		"|  deploy: " + strings.Repeat("é", 117) + "...\n" +
		"|user:\n" +
		"|  changelog: Keep the changelog.\n" +
		"|  release-notes <version>: Write release notes.\n"
	if got != want {
		t.Errorf("index:\n%s\nwant\n%s", got, want)
	}
}

// The skills the index lists come from the scan of <home>/skills: the
// category is the folder a skill's folder sits in; flat files and root
// skills have none; refused skills are left out.
func TestSessionSkills(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "skills/changelog/SKILL.md", "---\nname: changelog\ndescription: Keep the changelog.\nargument-hint: \"[file]\"\n---\nBody.\n")
	f.write(t, f.home, "skills/ops/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy the service.\n---\nBody.\n")
	f.write(t, f.home, "skills/.system/netclaw-memory/SKILL.md", "---\nname: netclaw-memory\ndescription: Memory guidance.\n---\nBody.\n")
	f.write(t, f.home, "skills/quick.md", "---\nname: quick\ndescription: A flat skill.\ndisable-model-invocation: true\n---\nBody.\n")
	f.write(t, f.home, "skills/broken/SKILL.md", "---\nname: broken\n---\nNo description.\n")
	c, err := lint.Scan(lint.NewHome(f.home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := SessionSkills(c)
	byName := map[string]SkillEntry{}
	for _, s := range got {
		byName[s.Name] = s
	}
	want := map[string]SkillEntry{
		"changelog":      {Name: "changelog", Description: "Keep the changelog.", ArgumentHint: "[file]"},
		"deploy":         {Name: "deploy", Category: "ops", Description: "Deploy the service."},
		"netclaw-memory": {Name: "netclaw-memory", Category: ".system", Description: "Memory guidance."},
		"quick":          {Name: "quick", Description: "A flat skill.", Hidden: true},
	}
	if len(got) != len(want) {
		t.Fatalf("skills %+v", got)
	}
	for name, w := range want {
		if byName[name] != w {
			t.Errorf("%s: %+v, want %+v", name, byName[name], w)
		}
	}
}

// CurrentTimeContextLayer's text: "O" for the UTC instant (seven
// fractional digits, "+00:00"), the local time with its offset, the
// weekday, the zone's id.
func TestCurrentTimeLayer(t *testing.T) {
	instant := time.Date(2026, 12, 2, 5, 48, 54, 123456789, time.UTC)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	tests := []struct {
		loc  *time.Location
		id   string
		want string
	}{
		{time.UTC, "UTC", "[current-time]\nutc: 2026-12-02T05:48:54.1234567+00:00\nlocal: 2026-12-02 05:48:54 +00:00\nday_of_week: Wednesday\ntimezone: UTC"},
		{berlin, "Europe/Berlin", "[current-time]\nutc: 2026-12-02T05:48:54.1234567+00:00\nlocal: 2026-12-02 06:48:54 +01:00\nday_of_week: Wednesday\ntimezone: Europe/Berlin"},
		{kolkata, "Asia/Kolkata", "[current-time]\nutc: 2026-12-02T05:48:54.1234567+00:00\nlocal: 2026-12-02 11:18:54 +05:30\nday_of_week: Wednesday\ntimezone: Asia/Kolkata"},
	}
	for _, tt := range tests {
		if got := CurrentTimeLayer(instant, tt.loc, tt.id); got != tt.want {
			t.Errorf("%s:\n%q\nwant\n%q", tt.id, got, tt.want)
		}
	}
	midnight := time.Date(2026, 12, 6, 23, 30, 0, 0, time.UTC)
	if got := CurrentTimeLayer(midnight, berlin, "Europe/Berlin"); !strings.Contains(got, "utc: 2026-12-06T23:30:00.0000000+00:00\nlocal: 2026-12-07 00:30:00 +01:00\nday_of_week: Monday") {
		t.Errorf("the local day is Berlin's:\n%s", got)
	}
}

func TestLocalZoneID(t *testing.T) {
	env := func(tz string) func(string) string {
		return func(k string) string {
			if k == "TZ" {
				return tz
			}
			return ""
		}
	}
	for tz, want := range map[string]string{
		"Europe/Berlin": "Europe/Berlin", ":America/New_York": "America/New_York", "/usr/share/zoneinfo/Asia/Tokyo": "Asia/Tokyo",
	} {
		if got := LocalZoneID(env(tz)); got != want {
			t.Errorf("TZ=%q: %q, want %q", tz, got, want)
		}
	}
	if got := LocalZoneID(env("")); got == "" {
		t.Error("no zone id without TZ")
	}
}

// The session's context as the assembler sends it on the first turn:
// the static layers in the daemon's registration order, then
// [attachments]; the per-turn block (time, working context) as
// "[system: ...]"; each layer switched by its configuration.
func TestComposeSessionContext(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews diffs.\n---\nYou review.\n")
	f.write(t, f.home, "skills/changelog/SKILL.md", "---\nname: changelog\ndescription: Keep the changelog.\n---\nBody.\n")
	instant := time.Date(2026, 12, 2, 5, 48, 54, 0, time.UTC)
	git := &GitState{Kind: GitNotRepository}
	scan := func(config string) *lint.Catalog {
		t.Helper()
		if config != "" {
			f.write(t, f.home, "config/netclaw.json", config)
		}
		c, err := lint.Scan(lint.NewHome(f.home, ""), lint.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	compose := func(c *lint.Catalog, a preview.Audience, project string) SessionContext {
		t.Helper()
		pol, err := PolicyFromConfig(c.Config)
		if err != nil {
			t.Fatal(err)
		}
		return ComposeSessionContext(SessionContextInput{Catalog: c, Audience: a, Policy: pol, Tools: NetClaw().Tools(),
			Project: project, Now: instant, ZoneID: "UTC", Git: git})
	}
	names := func(sc SessionContext) string {
		var n []string
		for _, l := range sc.Layers {
			if l.PerTurn {
				n = append(n, "+"+l.Name)
			} else {
				n = append(n, l.Name)
			}
		}
		return strings.Join(n, ",")
	}

	c := scan("")
	sc := compose(c, preview.Personal, f.project)
	if got, want := names(sc), "tool-index,skill-index,memory,attachments,+available-subagents,+current-time,+working-context"; got != want {
		t.Errorf("layers %s, want %s", got, want)
	}
	pol := DefaultPolicy()
	var exposed []Tool
	for _, tl := range NetClaw().Tools() {
		if ok, _ := pol.Exposed(tl, preview.Personal); ok {
			exposed = append(exposed, tl)
		}
	}
	sp := preview.SpawnAgent()
	exposed = append(exposed, Tool{Name: sp.Name, Description: sp.Description, Grant: "builtin"})
	wantStatic := strings.Join([]string{
		netTrim(TieredIndex(exposed)),
		netTrim(SkillIndex([]SkillEntry{{Name: "changelog", Description: "Keep the changelog."}})),
		MemoryLayer,
		AttachmentsHint,
	}, "\n\n")
	if sc.Static != wantStatic {
		t.Errorf("static message:\n%s\nwant\n%s", sc.Static, wantStatic)
	}
	if !strings.Contains(sc.Static, "spawn_agent: Delegate a task to a specialist subagent.") {
		t.Errorf("the index does not list spawn_agent as deferred:\n%s", sc.Static)
	}
	sh := HostShell()
	wantNudge := "[system: " + preview.Layer(c, preview.Personal) + "\n\n[current-time]\nutc: 2026-12-02T05:48:54.0000000+00:00\nlocal: 2026-12-02 05:48:54 +00:00\nday_of_week: Wednesday\ntimezone: UTC\n\n" +
		"[working-context]\nshell:\n  platform: " + sh.Platform + "\n  executable: /bin/bash\n  grammar: Bash\nproject_dir: " + f.project + "]"
	if sc.Nudge != wantNudge {
		t.Errorf("nudge:\n%q\nwant\n%q", sc.Nudge, wantNudge)
	}
	if len(sc.NotReproduced) == 0 || !strings.Contains(strings.Join(sc.NotReproduced, "\n"), "[session]") {
		t.Errorf("not reproduced: %v", sc.NotReproduced)
	}

	tests := []struct {
		name, config string
		audience     preview.Audience
		project      string
		want         string
	}{
		{"team: no shell, no project", "", preview.Team, "", "tool-index,skill-index,memory,attachments,+available-subagents,+current-time"},
		{"memory off", `{"Memory": {"Enabled": false}}`, preview.Personal, "", "tool-index,skill-index,attachments,+available-subagents,+current-time,+working-context"},
		{"skill sync off", `{"SkillSync": {"Enabled": "false"}}`, preview.Personal, "", "tool-index,memory,attachments,+available-subagents,+current-time,+working-context"},
		{"public: file_read is still granted", "", preview.Public, f.project, "tool-index,attachments,+current-time"},
	}
	for _, tt := range tests {
		f.write(t, f.home, "config/netclaw.json", "{}")
		sc := compose(scan(tt.config), tt.audience, tt.project)
		if got := names(sc); got != tt.want {
			t.Errorf("%s: layers %s, want %s", tt.name, got, tt.want)
		}
	}
}

// Port of ToolRegistryTests.Approval_deny_hides_first_party_tool_from_compact_catalog:
// a tool the audience's ApprovalPolicy.ToolOverrides sets to Deny is
// neither listed in the index nor offered, to the session or a sub-agent;
// another audience keeps it.
func TestApprovalDenyHidesTool(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "config/netclaw.json", `{"Tools": {"AudienceProfiles": {"Personal": {"ApprovalPolicy": {"ToolOverrides": {"web_fetch": "Deny", "file_edit": "deny", "file_write": "Approval"}}}}}}`)
	c, err := lint.Scan(lint.NewHome(f.home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := PolicyFromConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	sc := ComposeSessionContext(SessionContextInput{Catalog: c, Audience: preview.Personal, Policy: pol, Tools: NetClaw().Tools(), Now: time.Unix(0, 0)})
	index := sc.Layers[0].Text
	if strings.Contains(index, "web_fetch") || strings.Contains(index, "file_edit") || !strings.Contains(index, "file_write") {
		t.Errorf("index:\n%s", index)
	}
	for _, tl := range SessionTools(preview.Personal, pol) {
		if tl.Name == "file_edit" {
			t.Error("the session is offered a denied tool")
		}
	}
	sub := NetClaw().SubAgentTools(preview.Personal, pol)
	if names := "," + strings.Join(sub.Names(), ",") + ","; strings.Contains(names, ",web_fetch,") || !strings.Contains(names, ",file_write,") {
		t.Errorf("sub-agent tools %s", names)
	}
	if team := NetClaw().SubAgentTools(preview.Team, pol); !strings.Contains(","+strings.Join(team.Names(), ",")+",", ",file_edit,") {
		t.Errorf("Team lost file_edit to Personal's override: %v", team.Names())
	}
}

// writeHint, the single-pass BuildCompactHint, agrees with the plain
// reading of it: trim, collapse white space, cut to 77 UTF-16 units and
// "..." past 80 (a split surrogate pair gives U+FFFD).
func TestCompactHintMatchesReference(t *testing.T) {
	reference := func(d string) string {
		if netBlank(d) {
			return "No description available."
		}
		return cutUTF16(strings.Join(strings.FieldsFunc(d, preview.IsDotNetSpace), " "), 80)
	}
	long := strings.Repeat("word ", 20)
	for _, d := range []string{
		"", " \t\n", "Short.", "  lead and trail  ", "tabs\tand\nnewlines\r\nand\u00a0nbsp\u2003em",
		long, strings.Repeat("x", 80), strings.Repeat("x", 81), strings.Repeat("x", 77) + "   " + "y",
		strings.Repeat("x", 76) + "😀" + strings.Repeat("z", 10), strings.Repeat("x", 75) + "😀" + strings.Repeat("z", 10),
		strings.Repeat("é", 79), strings.Repeat("x", 79) + " \t y", "bad \xff utf8", strings.Repeat("a", 70) + "\xff\xfe" + strings.Repeat("b", 20),
		strings.Repeat("x", 76) + " " + strings.Repeat("y", 10),
	} {
		if got, want := compactHint(d), reference(d); got != want {
			t.Errorf("compactHint(%q)\n got %q\nwant %q", d, got, want)
		}
	}
}

func FuzzCompactHint(f *testing.F) {
	f.Add("Schedule or update a reminder by ID. If a reminder with the given ID already exists it will be updated.")
	f.Add(strings.Repeat("x", 76) + "😀 tail")
	f.Fuzz(func(t *testing.T, d string) {
		want := "No description available."
		if !netBlank(d) {
			want = cutUTF16(strings.Join(strings.FieldsFunc(d, preview.IsDotNetSpace), " "), 80)
		}
		if got := compactHint(d); got != want {
			t.Errorf("compactHint(%q) = %q, want %q", d, got, want)
		}
	})
}
