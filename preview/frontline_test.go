package preview

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestFrontlineRequest(t *testing.T) {
	agents := []agentSpec{
		{name: "reviewer", desc: "Reviews diffs."},
		{name: "ops", desc: "Internal.", internal: true},
		{name: "Analyst", desc: "Analyses logs."},
	}
	c := handCatalog("/home/u/.netclaw/agents", enabledConfig(), agents...)
	for _, a := range []Audience{Personal, Team} {
		f, err := FrontlineRequest(c, a, "", "review my diff")
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if f.Layer != Layer(c, a) || f.Layer == "" {
			t.Errorf("%s: the layer is not Layer's bytes", a)
		}
		if got := f.Systems(); len(got) != 1 || got[0] != DefaultPreamble {
			t.Errorf("%s: systems %q", a, got)
		}
		// The layer is per turn (SubAgentDiscoveryContextLayer is
		// EveryTurn): the user message just before the request.
		if got := f.Nudge(); got != "[system: "+f.Layer+"]" {
			t.Errorf("%s: per-turn message %q", a, got)
		}
		if strings.Join(f.Agents, ",") != "Analyst,reviewer" {
			t.Errorf("%s: agents %v", a, f.Agents)
		}
		if f.Request != "review my diff" || f.Tool != SpawnAgent() {
			t.Errorf("%s: request %q tool %+v", a, f.Request, f.Tool)
		}
	}
	if f, _ := FrontlineRequest(c, Personal, "Be terse.", "x"); f.Preamble != "Be terse." {
		t.Errorf("own preamble: %q", f.Preamble)
	}

	bad := []struct {
		name string
		c    *lint.Catalog
		a    Audience
		want string
		is   error
	}{
		{"public", c, Public, "Public audience has no", ErrPublic},
		{"disabled", handCatalog("/a", &lint.Config{}, agents...), Personal, "SubAgents.Enabled is false in netclaw.json", nil},
		{"only internal", handCatalog("/h/agents", enabledConfig(), agentSpec{name: "x", desc: "d", internal: true}), Team, "create a user-facing agent at /h/agents/<name>.md", ErrNoAgents},
		{"none", handCatalog("/h/agents", nil), Personal, "no user-facing agent", ErrNoAgents},
		{"rejected only", handCatalog("/h/agents", nil, agentSpec{name: "x", desc: "d", rejected: true}), Personal, "no user-facing agent", ErrNoAgents},
	}
	for _, tc := range bad {
		_, err := FrontlineRequest(tc.c, tc.a, "", "x")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to say %q", tc.name, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: error %v is not %v", tc.name, err, tc.is)
		}
	}
}

func TestSpawnAgentTool(t *testing.T) {
	var schema struct {
		Type       string                       `json:"type"`
		Properties map[string]map[string]string `json:"properties"`
		Required   []string                     `json:"required"`
	}
	if err := json.Unmarshal([]byte(SpawnAgentParameters), &schema); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	if schema.Type != "object" || strings.Join(schema.Required, ",") != "Agent,Task,_rationale" {
		t.Errorf("schema %+v", schema)
	}
	for name, typ := range map[string]string{"Agent": "string", "Task": "string", "Context": "string", "_rationale": "string", "_timeout_seconds": "integer", "_background": "boolean"} {
		if p := schema.Properties[name]; p["type"] != typ || p["description"] == "" {
			t.Errorf("property %s: %v", name, p)
		}
	}
	if !strings.HasPrefix(SpawnAgentDescription, "Delegate a task to a specialist subagent. ") {
		t.Errorf("description %q", SpawnAgentDescription)
	}
}

func TestParseSpawnArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want SpawnArgs
		err  bool
	}{
		{`{"Agent":"a","Task":"t","Context":"c"}`, SpawnArgs{Agent: "a", Task: "t", Context: "c", HasAgent: true, HasTask: true}, false},
		{`{"agent":"a","task":"t"}`, SpawnArgs{Agent: "a", Task: "t", HasAgent: true, HasTask: true}, false},
		{`{"AGENT":"x","agent":"y","Agent":"z","task":"t"}`, SpawnArgs{Agent: "z", Task: "t", HasAgent: true, HasTask: true}, false},
		{`{"a_gent":"x","TASK":"t"}`, SpawnArgs{Agent: "x", Task: "t", HasAgent: true, HasTask: true}, false},
		{`{"agent":null,"task":"t"}`, SpawnArgs{Task: "t", HasTask: true}, false},
		{`{"agent":7,"task":{"k":1}}`, SpawnArgs{Agent: "7", Task: `{"k":1}`, HasAgent: true, HasTask: true}, false},
		{`{"agent":"\u00e9"}`, SpawnArgs{Agent: "é", HasAgent: true}, false},
		{``, SpawnArgs{}, false},
		{`{}`, SpawnArgs{}, false},
		{`{"agent":"a","task":"t"`, SpawnArgs{}, true},
		{`["agent"]`, SpawnArgs{}, true},
		{`"agent"`, SpawnArgs{}, true},
		{`{"agent":"a"} {}`, SpawnArgs{}, true},
	} {
		got, err := ParseSpawnArgs(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("%q: error %v", tc.in, err)
			continue
		}
		if tc.err && !errors.Is(err, ErrNotObject) {
			t.Errorf("%q: error %v is not ErrNotObject", tc.in, err)
		}
		if got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestSpawnRefusal(t *testing.T) {
	c := handCatalog("/h/agents", enabledConfig(),
		agentSpec{name: "reviewer", desc: "d"}, agentSpec{name: "ops", desc: "d", internal: true}, agentSpec{name: "analyst", desc: "d"})
	empty := handCatalog("/h/agents", enabledConfig(), agentSpec{name: "ops", desc: "d", internal: true})
	ok := func(agent, task string) SpawnArgs {
		return SpawnArgs{Agent: agent, Task: task, HasAgent: true, HasTask: true}
	}
	for _, tc := range []struct {
		c     *lint.Catalog
		a     Audience
		args  SpawnArgs
		want  string
		spawn string
	}{
		{c, Personal, ok("reviewer", "t"), "", "reviewer"},
		{c, Team, ok("REVIEWER", "t"), "", "reviewer"},
		{c, Personal, ok("ops", "t"), "Error: Unknown agent 'ops'. Available agents: analyst, reviewer", ""},
		{c, Personal, ok("ghost", "t"), "Error: Unknown agent 'ghost'. Available agents: analyst, reviewer", ""},
		{c, Personal, ok(" reviewer", "t"), "Error: Unknown agent ' reviewer'. Available agents: analyst, reviewer", ""},
		{empty, Personal, ok("ops", "t"), "Error: No subagents are available. Agent 'ops' not found. Author one at /h/agents/*.md or define a skill with metadata.subagent once #661 lands.", ""},
		{c, Personal, ok("  ", "t"), "Error: 'agent' parameter is required.", ""},
		{c, Personal, ok("reviewer", "\t"), "Error: 'task' parameter is required.", ""},
		{c, Public, ok("reviewer", "t"), "Error: This tool is not available.", ""},
		{c, Personal, SpawnArgs{Task: "t", HasTask: true}, "Error parsing arguments for tool 'spawn_agent': Required parameter 'Agent' is missing.", ""},
		{c, Public, SpawnArgs{Agent: "x", HasAgent: true}, "Error parsing arguments for tool 'spawn_agent': Required parameter 'Task' is missing.", ""},
	} {
		got, def := SpawnRefusal(tc.c, tc.a, tc.args)
		name := ""
		if def != nil {
			name = def.Name
		}
		if got != tc.want || name != tc.spawn {
			t.Errorf("%+v in %s: got %q (%s), want %q (%s)", tc.args, tc.a, got, name, tc.want, tc.spawn)
		}
	}
}

func FuzzParseSpawnArgs(f *testing.F) {
	for _, s := range []string{`{"agent":"a","task":"t"}`, `{"Agent":null}`, `[1]`, `{"a_gent":{"x":[1,2]}}`, `{`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseSpawnArgs(s)
		if err != nil {
			if !errors.Is(err, ErrNotObject) {
				t.Fatalf("%q: error %v is not ErrNotObject", s, err)
			}
			return
		}
		if !a.HasAgent && a.Agent != "" || !a.HasTask && a.Task != "" {
			t.Fatalf("%q: a value without its flag: %+v", s, a)
		}
	})
}
