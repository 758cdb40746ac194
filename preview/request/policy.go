package request

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// The audience profiles and exposure rules, from NetClaw's source:
// Netclaw.Configuration/ToolAudienceProfiles.cs (ToolAudienceProfileToolCatalog,
// ToolAudienceProfileDefaults; the newest version stored, the 0.27.1 one
// with the closed legacy-default tables) and
// src/Netclaw.Actors/Tools/ToolAccessPolicy.cs @003d8a98c124b5ccfb949e7705d8c58d304f9c8c
// (IsToolExposed, IsShellCoupledTool, IsFeatureDisabledTool) with
// ToolAudienceProfileResolver.cs @2f76fbb2ed539f25b5775f130141a1de1f5e4de7
// (IsToolAllowed, IsMcpServerAllowed, IsMcpToolAllowed).

// The tool names the profiles speak of.
var (
	fileTools       = []string{"file_read", "file_list", "file_search", "tool_output_read", "file_write", "file_edit", "attach_file"}
	webTools        = []string{"web_search", "web_fetch"}
	skillTools      = []string{"skill_manage"}
	webhookTools    = []string{"set_webhook", "list_webhooks", "delete_webhook"}
	schedulingTools = []string{"set_reminder", "list_reminders", "cancel_reminder", "get_reminder_history", "run_reminder"}
	workingDirTools = []string{"set_working_directory"}

	// PublicDefaultTools is the Public profile's default AllowedTools.
	PublicDefaultTools = []string{"file_read", "file_list", "file_search", "tool_output_read", "attach_file"}
	// TeamDefaultTools is the Team profile's default AllowedTools.
	TeamDefaultTools = slices.Concat(fileTools, webTools, skillTools, schedulingTools, workingDirTools)

	// profileManaged are the tools an audience profile decides on; every
	// other first-party tool is allowed by every profile.
	profileManaged = slices.Concat(TeamDefaultTools, webhookTools, []string{"shell_execute"})

	// Every AllowedTools list a release shipped as a default: an installed
	// netclaw.json that holds exactly one of them (in any order) runs with
	// the current default (ToolConfig.BindFromConfiguration).
	legacyPublic = [][]string{
		{"file_read", "file_write", "attach_file"},
		{"file_read", "file_list", "attach_file"},
		PublicDefaultTools,
	}
	legacyTeam = [][]string{
		{"file_read", "attach_file"},
		{"file_read", "file_list", "file_write", "file_edit", "attach_file", "web_search", "web_fetch", "skill_manage",
			"set_reminder", "list_reminders", "cancel_reminder", "get_reminder_history", "set_working_directory"},
		{"file_read", "file_list", "file_search", "tool_output_read", "file_write", "file_edit", "attach_file",
			"web_search", "web_fetch", "skill_manage",
			"set_reminder", "list_reminders", "cancel_reminder", "get_reminder_history", "set_working_directory"},
		TeamDefaultTools,
	}
)

// Profile is one audience's tool profile (Tools.AudienceProfiles.<A>).
type Profile struct {
	// AllTools is ToolsMode All: every profile-managed tool is allowed;
	// otherwise only AllowedTools.
	AllTools     bool
	AllowedTools []string
	// AllMCPServers is McpServersMode All; otherwise only
	// AllowedMCPServers (matched ignoring case).
	AllMCPServers     bool
	AllowedMCPServers []string
	// MCPToolGrants, when a server is listed, limits that server's tools to
	// the listed bare tool names (McpServerToolGrants).
	MCPToolGrants map[string][]string
	// Denied are the tools ApprovalPolicy.ToolOverrides sets to Deny: the
	// runtime neither offers nor lists them (ToolRegistryTests,
	// Approval_deny_hides_first_party_tool_from_compact_catalog). Names
	// as written (a first-party name, or an MCP tool's server/tool).
	Denied []string
}

// DefaultProfile returns the runtime's default profile for an audience:
// Personal allows everything; Team the file, web, skill_manage, scheduling
// and working-directory tools and no MCP server; Public file_read,
// file_list, file_search, tool_output_read and attach_file.
func DefaultProfile(a preview.Audience) Profile {
	switch a {
	case preview.Personal:
		return Profile{AllTools: true, AllMCPServers: true}
	case preview.Team:
		return Profile{AllowedTools: slices.Clone(TeamDefaultTools)}
	}
	return Profile{AllowedTools: slices.Clone(PublicDefaultTools)}
}

// ShellMode is Tools.ShellMode: whether the shell-coupled tools run.
type ShellMode string

// The shell modes.
const (
	ShellHostAllowed ShellMode = "HostAllowed"
	ShellSandboxOnly ShellMode = "SandboxOnly"
	ShellOff         ShellMode = "Off"
)

// Policy is what decides which catalogued tools a session sees: the
// subsystem switches, the shell mode and the audience profiles.
type Policy struct {
	// Search, SkillSync, Scheduling, SubAgents, Webhooks and Memory are
	// the subsystems' Enabled switches.
	Search, SkillSync, Scheduling, SubAgents, Webhooks, Memory bool
	// Shell is Tools.ShellMode.
	Shell ShellMode
	// Profiles holds each audience's profile.
	Profiles map[preview.Audience]Profile
	// Notes say which values were assumed rather than read.
	Notes []string
}

// DefaultPolicy returns the policy agentdesk assumes with no
// configuration: search, skills, scheduling, sub-agents and memory on,
// webhooks off, the shell allowed on the host, the default profiles.
// Memory is on because MemoryConfig.Enabled defaults to true (NetClaw's
// MemoryConfigDefaultsTests, Memory_subsystem_remains_enabled_by_default).
// (The runtime's own defaults for the other switches live in configuration
// classes this catalogue did not copy; netclaw.json settles them, see
// PolicyFromConfig.)
func DefaultPolicy() Policy {
	return Policy{
		Search: true, SkillSync: true, Scheduling: true, SubAgents: true, Memory: true,
		Shell: ShellHostAllowed,
		Profiles: map[preview.Audience]Profile{
			preview.Personal: DefaultProfile(preview.Personal),
			preview.Team:     DefaultProfile(preview.Team),
			preview.Public:   DefaultProfile(preview.Public),
		},
	}
}

// PolicyFromConfig reads the policy from a merged NetClaw configuration
// (nil: DefaultPolicy): Search.Enabled, SkillSync.Enabled,
// Scheduling.Enabled, SubAgents.Enabled, Webhooks.Enabled, Memory.Enabled,
// Tools.ShellMode,
// and Tools.AudienceProfiles.<Audience>.{ToolsMode, AllowedTools,
// McpServersMode, AllowedMcpServers, McpServerToolGrants}. A configured
// AllowedTools list replaces the default, except that a list a release
// shipped as its default means the current default, as at the runtime. A
// value that does not parse is an error naming the key and where it was
// set.
func PolicyFromConfig(c *lint.Config) (Policy, error) {
	p := DefaultPolicy()
	if c == nil {
		return p, nil
	}
	if err := p.switchesFromConfig(c); err != nil {
		return p, err
	}
	if v, ok := c.Lookup("Tools:ShellMode"); ok && strings.TrimSpace(v) != "" {
		m, err := shellModeFromConfig(c, v)
		if err != nil {
			return p, err
		}
		p.Shell = m
	}
	for _, a := range preview.Audiences {
		prof, err := profileFromConfig(c, a, p.Profiles[a])
		if err != nil {
			return p, err
		}
		p.Profiles[a] = prof
	}
	return p, nil
}

// switchesFromConfig sets p's subsystem switches (Search, SkillSync,
// Scheduling, SubAgents, Webhooks, Memory) that c sets; one that is not
// true or false is an error.
func (p *Policy) switchesFromConfig(c *lint.Config) error {
	for _, s := range []struct {
		key string
		to  *bool
	}{
		{"Search:Enabled", &p.Search}, {"SkillSync:Enabled", &p.SkillSync},
		{"Scheduling:Enabled", &p.Scheduling}, {"SubAgents:Enabled", &p.SubAgents},
		{"Webhooks:Enabled", &p.Webhooks}, {"Memory:Enabled", &p.Memory},
	} {
		if v, ok := c.Lookup(s.key); ok && strings.TrimSpace(v) != "" {
			b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(v)))
			if err != nil {
				return configError(c, s.key, v, "true or false")
			}
			*s.to = b
		}
	}
	return nil
}

// shellModeFromConfig reads Tools:ShellMode's value v, in any case; one
// that is not a shell mode is an error.
func shellModeFromConfig(c *lint.Config, v string) (ShellMode, error) {
	for _, known := range []ShellMode{ShellHostAllowed, ShellSandboxOnly, ShellOff} {
		if strings.EqualFold(strings.TrimSpace(v), string(known)) {
			return known, nil
		}
	}
	return "", configError(c, "Tools:ShellMode", v, "HostAllowed, SandboxOnly or Off")
}

// profileFromConfig applies to prof, audience a's default profile, what
// Tools.AudienceProfiles.<a> in c sets: the modes, the allowed tools and
// MCP servers, the tools denied by approval overrides and the MCP tool
// grants.
func profileFromConfig(c *lint.Config, a preview.Audience, prof Profile) (Profile, error) {
	base := "Tools:AudienceProfiles:" + a.String() + ":"
	if err := prof.modesFromConfig(c, base); err != nil {
		return prof, err
	}
	if list, ok := configList(c, base+"AllowedTools"); ok {
		prof.AllowedTools = allowedTools(a, list)
	}
	if list, ok := configList(c, base+"AllowedMcpServers"); ok {
		prof.AllowedMCPServers = list
	}
	prof.Denied = append(prof.Denied, deniedFromConfig(c, base)...)
	prof.grantsFromConfig(c, base)
	return prof, nil
}

// modesFromConfig sets the profile's ToolsMode and McpServersMode that c
// sets under base (All or Allowlist, in any case); another value is an
// error.
func (prof *Profile) modesFromConfig(c *lint.Config, base string) error {
	for _, m := range []struct {
		key string
		to  *bool
	}{{"ToolsMode", &prof.AllTools}, {"McpServersMode", &prof.AllMCPServers}} {
		v, ok := c.Lookup(base + m.key)
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "all":
			*m.to = true
		case "allowlist":
			*m.to = false
		default:
			return configError(c, base+m.key, v, "Allowlist or All")
		}
	}
	return nil
}

// allowedTools is the AllowedTools list audience a's profile keeps when
// configured with list: the list itself, or the current default when a
// Team or Public list is one a release shipped as its default.
func allowedTools(a preview.Audience, list []string) []string {
	if a == preview.Personal {
		return list
	}
	legacy, current := legacyTeam, TeamDefaultTools
	if a == preview.Public {
		legacy, current = legacyPublic, PublicDefaultTools
	}
	out := list
	for _, row := range legacy {
		if sameSet(list, row) {
			out = slices.Clone(current)
		}
	}
	return out
}

// deniedFromConfig returns the tools whose ApprovalPolicy.ToolOverrides
// under base c sets to Deny, in c's key order.
func deniedFromConfig(c *lint.Config, base string) []string {
	var out []string
	denyBase := strings.ToLower(base + "ApprovalPolicy:ToolOverrides:")
	for _, k := range c.Keys() {
		name := k[min(len(k), len(denyBase)):]
		if !strings.HasPrefix(strings.ToLower(k), denyBase) || name == "" || strings.Contains(name, ":") {
			continue
		}
		if v, _ := c.Lookup(k); strings.EqualFold(strings.TrimSpace(v), "Deny") {
			out = append(out, name)
		}
	}
	return out
}

// grantsFromConfig sets the profile's McpServerToolGrants that c sets
// under base: per server, the tools it grants.
func (prof *Profile) grantsFromConfig(c *lint.Config, base string) {
	grantsBase := strings.ToLower(base + "McpServerToolGrants:")
	for _, k := range c.Keys() {
		if !strings.HasPrefix(strings.ToLower(k), grantsBase) {
			continue
		}
		server, _, _ := strings.Cut(k[len(grantsBase):], ":")
		if server == "" {
			continue
		}
		if prof.MCPToolGrants == nil {
			prof.MCPToolGrants = map[string][]string{}
		}
		if _, done := prof.MCPToolGrants[server]; done {
			continue
		}
		list, _ := configList(c, base+"McpServerToolGrants:"+server)
		prof.MCPToolGrants[server] = list
	}
}

// configList reads a configured list: key:0, key:1, ... in index order. A
// key set to "" (an empty array) is an empty list.
func configList(c *lint.Config, key string) ([]string, bool) {
	var out []string
	found := false
	if v, ok := c.Lookup(key); ok {
		found = true
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	for i := 0; ; i++ {
		v, ok := c.Lookup(key + ":" + strconv.Itoa(i))
		if !ok {
			break
		}
		found = true
		out = append(out, v)
	}
	if found && out == nil {
		out = []string{}
	}
	return out, found
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func configError(c *lint.Config, key, value, want string) error {
	where := "netclaw.json"
	if o, ok := c.Origin(key); ok {
		switch {
		case o.Path == lint.ConfigEnvironment:
			where = "the environment (" + o.Variable + ")"
		case o.Line > 0:
			where = fmt.Sprintf("%s:%d:%d", o.Path, o.Line, o.Column)
		default:
			where = o.Path
		}
	}
	return fmt.Errorf("%s: %s is %q; want %s", where, strings.ReplaceAll(key, ":", "."), value, want)
}

// registered reports whether the runtime registers the tool at all under
// this policy (web_search needs a search backend, the webhook route tools
// the webhooks subsystem, the memory tools the memory subsystem).
func (p Policy) registered(t Tool) bool {
	switch t.Name {
	case "web_search":
		return p.Search
	}
	switch t.Requires {
	case NeedsWebhooks:
		return p.Webhooks
	case NeedsMemory:
		return p.Memory
	}
	return true
}

// featureOff reports whether the tool's subsystem is switched off, which
// hides it from every audience (IsFeatureDisabledTool; the newest stored
// ToolAccessPolicy.cs that names run_reminder, a 52,247-character version
// whose commit the index does not name, adds it to the scheduling tools),
// and the netclaw.json switch that does it ("" when it is on).
func (p Policy) featureOff(name string) string {
	switch name {
	case "web_search", "web_fetch":
		return offSwitch(!p.Search, "Search.Enabled")
	case "skill_load", "skill_read_resource":
		return offSwitch(!p.SkillSync, "SkillSync.Enabled")
	case "spawn_agent", "check_agent_run":
		return offSwitch(!p.SubAgents, "SubAgents.Enabled")
	case "set_reminder", "cancel_reminder", "list_reminders", "get_reminder_history", "run_reminder":
		return offSwitch(!p.Scheduling, "Scheduling.Enabled")
	case "store_memory", "find_memories", "get_memories", "update_memory":
		return offSwitch(!p.Memory, "Memory.Enabled")
	}
	return ""
}

// offSwitch is key when off is set, else "".
func offSwitch(off bool, key string) string {
	if off {
		return key
	}
	return ""
}

// Exposed reports whether a session of audience a sees tool t, and if not,
// why, in the runtime's order: a subsystem switched off; an MCP server or
// tool the profile does not admit; a profile-managed tool the profile does
// not allow; a shell-coupled tool (grant shell, or check_background_job)
// outside Personal or without the host shell.
func (p Policy) Exposed(t Tool, a preview.Audience) (bool, string) {
	if !p.registered(t) {
		return false, "not registered: " + string(t.Requires) + " is off"
	}
	if key := p.featureOff(t.Name); key != "" {
		return false, "its subsystem is switched off (" + key + " is off)"
	}
	prof, ok := p.Profiles[a]
	if !ok {
		prof = DefaultProfile(a)
	}
	if slices.Contains(prof.Denied, t.Name) || t.Canonical != "" && slices.Contains(prof.Denied, t.Canonical) {
		return false, fmt.Sprintf("the %s profile's ApprovalPolicy.ToolOverrides denies it", a)
	}
	if t.IsMCP() {
		return prof.exposesMCP(t, a)
	}
	if a == preview.Public && (t.Name == "spawn_agent" || t.Name == "check_agent_run") {
		// A Public session cannot start a child run, so it has none to
		// check either (SpawnAgentTool's refusal; inferred for
		// check_agent_run).
		return false, "the Public audience cannot spawn sub-agents"
	}
	if slices.Contains(profileManaged, t.Name) && !prof.AllTools && !slices.Contains(prof.AllowedTools, t.Name) {
		return false, fmt.Sprintf("the %s profile does not allow it", a)
	}
	if t.Grant == "shell" || t.Name == "shell_execute" || t.Name == "check_background_job" {
		return p.exposesShell(a)
	}
	return true, ""
}

// exposesMCP reports whether audience a's profile admits the MCP tool t
// (its server, and the tool when the profile grants the server's tools
// one by one), and if not, why.
func (prof Profile) exposesMCP(t Tool, a preview.Audience) (bool, string) {
	if !prof.AllMCPServers && !slices.ContainsFunc(prof.AllowedMCPServers, func(s string) bool { return strings.EqualFold(s, t.Server) }) {
		return false, fmt.Sprintf("the %s profile does not admit MCP server %s", a, t.Server)
	}
	if grants, ok := prof.MCPToolGrants[t.Server]; ok {
		bare := strings.TrimPrefix(t.Canonical, t.Server+"/")
		if !slices.Contains(grants, bare) {
			return false, fmt.Sprintf("the %s profile grants only %s of server %s", a, strings.Join(grants, ", "), t.Server)
		}
	}
	return true, ""
}

// exposesShell reports whether a session of audience a sees a
// shell-coupled tool (only Personal, with the host shell), and if not,
// why.
func (p Policy) exposesShell(a preview.Audience) (bool, string) {
	if p.Shell != ShellHostAllowed {
		return false, "Tools.ShellMode is " + string(p.Shell)
	}
	if a != preview.Personal {
		return false, "shell tools are offered to Personal sessions only"
	}
	return true, ""
}
