package request

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
)

// NetClaw's SubAgentToolPolicy: the static denylist holds spawn_agent and
// attach_file, names compared exactly; everything else passes.
func TestSubAgentDenylist(t *testing.T) {
	for name, want := range map[string]bool{
		"spawn_agent": false, "attach_file": false,
		"Spawn_Agent": true, "file_read": true, "shell_execute": true, "": true, "github__spawn_agent": true,
	} {
		if got := AllowedForSubAgent(name); got != want {
			t.Errorf("AllowedForSubAgent(%q) = %v, want %v", name, got, want)
		}
	}
	if !slices.IsSorted(SubAgentDenied) {
		t.Errorf("GetDeniedSubAgentTools is sorted: %v", SubAgentDenied)
	}
	// A catalogue holding spawn_agent (as the runtime's registry does)
	// still never offers it, whatever the policy allows.
	spawn := builtin("spawn_agent", "builtin", KindEffect, false, Always, "test", "Delegate.", req("Agent", "string", "a"))
	c, err := NetClaw().With(spawn)
	if err != nil {
		t.Fatal(err)
	}
	o := c.SubAgentTools(preview.Personal, DefaultPolicy())
	for _, name := range SubAgentDenied {
		if slices.Contains(o.Names(), name) {
			t.Errorf("%s offered to a sub-agent", name)
		}
		if !slices.ContainsFunc(o.Withheld, func(w Withheld) bool { return w.Name == name && strings.Contains(w.Reason, "denied to sub-agents") }) {
			t.Errorf("%s not reported as denied: %v", name, o.Withheld)
		}
	}
	if s := c.SessionTools(preview.Personal, DefaultPolicy()); !slices.Contains(s.Names(), "spawn_agent") || !slices.Contains(s.Names(), "attach_file") {
		t.Errorf("the session itself sees spawn_agent and attach_file: %v", s.Names())
	}
}

// The denylist is the runtime's exactly (salma-marei/netclaw @ba08b016
// SubAgentToolPolicy.cs, the policy behind the "parent-only output
// transport" of SubAgentSpawner @28ddf700), and the [available-subagents]
// layer names that very list when no agent is registered, as
// GetDeniedSubAgentTools feeds both at the runtime.
func TestSubAgentDenylistIsTheRuntimes(t *testing.T) {
	if want := []string{"attach_file", "check_agent_run", "spawn_agent"}; !slices.Equal(SubAgentDenied, want) {
		t.Errorf("SubAgentDenied = %v, want the runtime's %v", SubAgentDenied, want)
	}
	c := &lint.Catalog{}
	c.Home.Agents = "/srv/netclaw/agents"
	layer := preview.Layer(c, preview.Personal)
	const prefix = "Denied tools for sub-agents: "
	var named []string
	for _, line := range strings.Split(layer, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			named = strings.Split(rest, ", ")
		}
	}
	if !slices.Equal(named, SubAgentDenied) {
		t.Errorf("the empty layer names %v as denied, the catalogue denies %v:\n%s", named, SubAgentDenied, layer)
	}
	for _, name := range named {
		if AllowedForSubAgent(name) {
			t.Errorf("the layer says %s is denied, AllowedForSubAgent lets it through", name)
		}
	}
}

// The audience tool sets a sub-agent gets, under the default policy and
// with each switch that changes them.
func TestSubAgentToolsPerAudience(t *testing.T) {
	memory := []string{"find_memories", "get_memories", "store_memory", "update_memory"}
	// search_tools and load_tool come last: SubAgentActor registers them
	// again over its own registry after every other tool.
	meta := []string{"search_tools", "load_tool"}
	// file_read comes after the memory tools: WithSkillTools replaces it
	// (ReplaceCore, which appends) right before registering skill_load.
	personalBody := slices.Concat([]string{"shell_execute", "file_list", "file_search", "tool_output_read", "file_write", "file_edit",
		"web_search", "web_fetch", "set_working_directory"}, memory,
		[]string{"file_read", "skill_load", "skill_read_resource", "skill_manage",
			"set_reminder", "cancel_reminder", "list_reminders", "get_reminder_history", "run_reminder", "check_background_job"})
	personal := slices.Concat(personalBody, meta)
	team := slices.Concat([]string{"file_list", "file_search", "tool_output_read", "file_write", "file_edit",
		"web_search", "web_fetch", "set_working_directory"}, memory,
		[]string{"file_read", "skill_load", "skill_read_resource", "skill_manage",
			"set_reminder", "cancel_reminder", "list_reminders", "get_reminder_history", "run_reminder"}, meta)
	without := func(list []string, drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
	}
	policy := func(change func(*Policy)) Policy { p := DefaultPolicy(); change(&p); return p }
	cases := []struct {
		name     string
		audience preview.Audience
		policy   Policy
		want     []string
		reason   string
	}{
		{"personal", preview.Personal, DefaultPolicy(), personal, ""},
		{"team", preview.Team, DefaultPolicy(), team, ""},
		{"public cannot spawn", preview.Public, DefaultPolicy(), nil, PublicCannotSpawn},
		{"sub-agents off", preview.Personal, policy(func(p *Policy) { p.SubAgents = false }), nil, SubAgentsDisabled},
		{"shell off", preview.Personal, policy(func(p *Policy) { p.Shell = ShellOff }), without(personal, "shell_execute", "check_background_job"), ""},
		{"sandbox only", preview.Personal, policy(func(p *Policy) { p.Shell = ShellSandboxOnly }), without(personal, "shell_execute", "check_background_job"), ""},
		{"search off", preview.Team, policy(func(p *Policy) { p.Search = false }), without(team, "web_search", "web_fetch"), ""},
		{"skills off", preview.Personal, policy(func(p *Policy) { p.SkillSync = false }), without(personal, "skill_load", "skill_read_resource"), ""},
		{"scheduling off", preview.Team, policy(func(p *Policy) { p.Scheduling = false }), without(team, "set_reminder", "cancel_reminder", "list_reminders", "get_reminder_history", "run_reminder"), ""},
		{"memory off", preview.Personal, policy(func(p *Policy) { p.Memory = false }), without(personal, memory...), ""},
		{"memory off, team", preview.Team, policy(func(p *Policy) { p.Memory = false }), without(team, memory...), ""},
		{"webhooks on, personal", preview.Personal, policy(func(p *Policy) { p.Webhooks = true }),
			slices.Concat(personalBody[:6], []string{"list_webhooks"}, personalBody[6:], []string{"set_webhook", "delete_webhook"}, meta), ""},
		{"webhooks on, team", preview.Team, policy(func(p *Policy) { p.Webhooks = true }), team, ""},
		// Narrowed to file_read, Team keeps the tools no profile manages
		// (the memory tools among them).
		{"team profile narrowed", preview.Team, policy(func(p *Policy) {
			p.Profiles[preview.Team] = Profile{AllowedTools: []string{"file_read"}}
		}), slices.Concat(memory, []string{"file_read", "skill_load", "skill_read_resource"}, meta), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := NetClaw().SubAgentTools(tc.audience, tc.policy)
			if got := o.Names(); !slices.Equal(got, tc.want) {
				t.Errorf("tools\n got %v\nwant %v", got, tc.want)
			}
			if o.Reason != tc.reason {
				t.Errorf("reason %q, want %q", o.Reason, tc.reason)
			}
			if tc.reason != "" && (len(o.Tools) != 0 || o.Index() != "" || len(o.Wire()) != 0) {
				t.Errorf("a sub-agent that cannot spawn is offered something: %v", o.Names())
			}
			for _, tl := range o.Tools {
				if ok, why := tc.policy.Exposed(tl, tc.audience); !ok {
					t.Errorf("%s offered but not exposed: %s", tl.Name, why)
				}
			}
			if got := len(o.Tools) + len(o.Withheld); tc.reason == "" && got != len(NetClaw().Tools()) {
				t.Errorf("%d tools offered or withheld, catalogue has %d", got, len(NetClaw().Tools()))
			}
		})
	}
	if got := SubAgentTools(preview.Team).Names(); !slices.Equal(got, team) {
		t.Errorf("SubAgentTools(Team) = %v", got)
	}
}

// MCP tools: deferred, offered after the core tools, admitted per the
// audience profile's servers and tool grants.
func TestSubAgentToolsMCP(t *testing.T) {
	gh, _ := MCPTool("github", "list_issues", "List issues.", nil)
	gh2, _ := MCPTool("github", "create_issue", "Create an issue.", nil)
	mem, _ := MCPTool("memorizer", "search_memories", "Search.", nil)
	c, err := NetClaw().With(gh, gh2, mem)
	if err != nil {
		t.Fatal(err)
	}
	mcpOf := func(ts []Tool) []Tool {
		return slices.DeleteFunc(slices.Clone(ts), func(t Tool) bool { return !t.IsMCP() })
	}
	o := c.SubAgentTools(preview.Personal, DefaultPolicy())
	if d := mcpOf(o.Deferred()); len(d) != 3 || d[0].Name != "github__list_issues" || len(mcpOf(o.Tools)) != 3 {
		t.Errorf("deferred MCP tools = %v", d)
	}
	if len(o.Core())+len(o.Deferred()) != len(o.Tools) || len(o.Wire()) != len(o.Core()) {
		t.Error("the first request carries the core tools only")
	}
	if n := len(o.Tools); o.Tools[n-3].Name != "memorizer__search_memories" || o.Tools[n-2].Name != "search_tools" || o.Tools[n-1].Name != "load_tool" {
		t.Errorf("MCP tools come after the other first-party ones, search_tools and load_tool last: %v", o.Names())
	}
	if team := c.SubAgentTools(preview.Team, DefaultPolicy()); len(mcpOf(team.Deferred())) != 0 {
		t.Errorf("Team admits no MCP server by default: %v", team.Names())
	}
	p := DefaultPolicy()
	p.Profiles[preview.Team] = Profile{AllowedTools: TeamDefaultTools, AllowedMCPServers: []string{"GitHub", "memorizer"},
		MCPToolGrants: map[string][]string{"github": {"list_issues"}}}
	team := c.SubAgentTools(preview.Team, p)
	var names []string
	for _, tl := range mcpOf(team.Deferred()) {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"github__list_issues", "memorizer__search_memories"}) {
		t.Errorf("Team with github (list_issues only) and memorizer: %v", names)
	}
}

func writeConfig(t *testing.T, json string) *lint.Config {
	t.Helper()
	base := hometest.New(t, map[string]string{"config/netclaw.json": json})
	return lint.LoadConfig(lint.NewHome(base, ""), nil)
}

func TestPolicyFromConfig(t *testing.T) {
	c := writeConfig(t, `{
  "Search": {"Enabled": false},
  "Webhooks": {"Enabled": true},
  "Tools": {
    "ShellMode": "off",
    "AudienceProfiles": {
      "Team": {"AllowedTools": ["file_read", "shell_execute"], "McpServersMode": "All"},
      "Public": {"AllowedTools": ["file_read", "file_list", "attach_file"]},
      "Personal": {"McpServerToolGrants": {"github": ["list_issues"]}}
    }
  }
}`)
	p, err := PolicyFromConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	if p.Search || !p.Webhooks || p.Shell != ShellOff || !p.SkillSync || !p.Scheduling || !p.SubAgents {
		t.Errorf("switches: %+v", p)
	}
	if got := p.Profiles[preview.Team]; !slices.Equal(got.AllowedTools, []string{"file_read", "shell_execute"}) || !got.AllMCPServers || got.AllTools {
		t.Errorf("Team profile: %+v", got)
	}
	if got := p.Profiles[preview.Public].AllowedTools; !slices.Equal(got, PublicDefaultTools) {
		t.Errorf("a Public list a release shipped means the current default: %v", got)
	}
	if got := p.Profiles[preview.Personal]; !got.AllTools || !slices.Equal(got.MCPToolGrants["github"], []string{"list_issues"}) {
		t.Errorf("Personal profile: %+v", got)
	}
	// Team's shell_execute stays withheld: shell is Personal-only.
	if o := NetClaw().SubAgentTools(preview.Team, p); slices.Contains(o.Names(), "shell_execute") || !slices.Contains(o.Names(), "file_read") {
		t.Errorf("Team tools: %v", o.Names())
	}
	if p, err := PolicyFromConfig(nil); err != nil || !p.Search || p.Webhooks {
		t.Errorf("nil config: %+v, %v", p, err)
	}
	if !p.Memory {
		t.Error("Memory.Enabled unset: the runtime's default is on")
	}
	for _, bad := range []string{
		`{"Memory": {"Enabled": "perhaps"}}`,
		`{"Search": {"Enabled": "sometimes"}}`,
		`{"Tools": {"ShellMode": "Maybe"}}`,
		`{"Tools": {"AudienceProfiles": {"Team": {"ToolsMode": "Most"}}}}`,
	} {
		_, err := PolicyFromConfig(writeConfig(t, bad))
		if err == nil || !strings.Contains(err.Error(), "netclaw.json") {
			t.Errorf("%s: %v, want an error naming the file", bad, err)
		}
	}
}

// The memory tools are there exactly when the home's netclaw.json leaves
// Memory.Enabled on (or unset), for Personal and Team alike; a Public
// session still spawns nothing.
func TestMemoryToolsFollowMemoryEnabled(t *testing.T) {
	memory := []string{"find_memories", "get_memories", "store_memory", "update_memory"}
	for _, tc := range []struct {
		name, config string
		want         bool
	}{
		{"unset", `{}`, true},
		{"on", `{"Memory": {"Enabled": true}}`, true},
		{"off", `{"Memory": {"Enabled": false}}`, false},
		{"off as a string", `{"Memory": {"Enabled": "False"}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PolicyFromConfig(writeConfig(t, tc.config))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range []preview.Audience{preview.Personal, preview.Team} {
				o := NetClaw().SubAgentTools(a, p)
				for _, name := range memory {
					if got := slices.Contains(o.Names(), name); got != tc.want {
						t.Errorf("%s: %s offered %v, want %v", a, name, got, tc.want)
					}
				}
				if idx := o.Index(); strings.Contains(idx, "find_memories") != tc.want {
					t.Errorf("%s: the index %q", a, idx)
				}
				if !tc.want && !slices.ContainsFunc(o.Withheld, func(w Withheld) bool {
					return w.Name == "store_memory" && w.Reason == "not registered: Memory.Enabled is off"
				}) {
					t.Errorf("%s: withheld %v", a, o.Withheld)
				}
			}
			if o := NetClaw().SubAgentTools(preview.Public, p); len(o.Tools) != 0 {
				t.Errorf("Public: %v", o.Names())
			}
		})
	}
}

func TestOfferedRenderings(t *testing.T) {
	o := SubAgentTools(preview.Team)
	text := o.Text("code-analyst")
	for _, want := range []string{"sub-agent code-analyst", "Team session", "file_read", "core", "withheld:", "attach_file", "shell_execute"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if got := SubAgentTools(preview.Public).Text(""); !strings.Contains(got, PublicCannotSpawn) {
		t.Errorf("Public text: %s", got)
	}
	b, err := o.JSON("code-analyst")
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Audience string `json:"audience"`
		Tools    []struct {
			Name       string          `json:"name"`
			Offering   string          `json:"offering"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"tools"`
		Withheld []Withheld `json:"withheld"`
		Index    string     `json:"index"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Audience != "Team" || len(back.Tools) != len(o.Tools) || back.Index != o.Index() || len(back.Withheld) != len(o.Withheld) {
		t.Errorf("JSON: %s", b)
	}
	for i, tl := range back.Tools {
		if tl.Offering != o.Tools[i].Offering() || !json.Valid(tl.Parameters) {
			t.Errorf("%s: %+v", tl.Name, tl)
		}
		var want, got any
		_ = json.Unmarshal(o.Tools[i].Schema(), &want)
		_ = json.Unmarshal(tl.Parameters, &got)
		if !jsonEqual(want, got) {
			t.Errorf("%s: schema changed in the rendering", tl.Name)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
