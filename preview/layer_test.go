package preview

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

const agentsDir = "/home/u/.netclaw/agents"

func TestLayerGolden(t *testing.T) {
	mixed := handCatalog(agentsDir, enabledConfig(),
		agentSpec{name: "zeta", desc: "Last of all."},
		agentSpec{name: "Gamma-ray", desc: "Capitalised, with a hyphen."},
		agentSpec{name: "a_b", desc: "An underscore sorts after every letter when names are compared in upper case.", timeout: 600},
		agentSpec{name: "beta", desc: "Second line follows.\nIt is part of the description.", timeout: 5},
		agentSpec{name: "AB2", desc: "Two letters and a digit.", timeout: 30},
		agentSpec{name: "Alpha", desc: "First of the Greek letters."},
		agentSpec{name: "ab", desc: "Two letters."},
	)
	internal := handCatalog(agentsDir, nil,
		agentSpec{name: "planner", desc: "Internal planning helper.", internal: true},
		agentSpec{name: "reviewer", desc: "Reviews a diff for correctness and style."},
		agentSpec{name: "broken", desc: "Never listed: the runtime skips it.", rejected: true},
		agentSpec{name: "indexer", desc: "Builds the search index.", internal: true},
	)
	onlyInternal := handCatalog("/srv/netclaw/custom-agents", enabledConfig(),
		agentSpec{name: "planner", desc: "Internal planning helper.", internal: true},
		agentSpec{name: "broken", desc: "Rejected.", rejected: true},
	)
	// lint rejects the feed's release-notes as a duplicate of the local one.
	shadowed := handCatalog(agentsDir, enabledConfig(),
		agentSpec{name: "release-notes", desc: "Writes release notes from merged pull requests (local version).", timeout: 90},
		agentSpec{name: "feed-helper", desc: "Answers questions about the team's runbooks.", feed: "acme"},
		agentSpec{name: "release-notes", desc: "Writes release notes (feed version).", feed: "acme", rejected: true},
	)
	one := handCatalog(agentsDir, enabledConfig(),
		agentSpec{name: "code-analyst", desc: "Reads source code and explains what it does, with file and line references.", timeout: 120})
	disabled := handCatalog(agentsDir, &lint.Config{SubAgents: lint.SubAgentsConfig{Enabled: false}},
		agentSpec{name: "code-analyst", desc: "Reads code."})

	tests := []struct {
		name     string
		c        *lint.Catalog
		audience Audience
		golden   string
	}{
		{"empty catalog", handCatalog(agentsDir, enabledConfig()), Personal, "layer/empty.txt"},
		{"empty catalog, nil config", handCatalog(agentsDir, nil), Team, "layer/empty.txt"},
		{"one agent", one, Personal, "layer/one-agent.txt"},
		{"one agent, Team", one, Team, "layer/one-agent.txt"},
		{"many agents, mixed case", mixed, Personal, "layer/mixed-case.txt"},
		{"internal agents hidden", internal, Personal, "layer/internal.txt"},
		{"only internal agents", onlyInternal, Personal, "layer/only-internal.txt"},
		{"feed agent shadowed by a local one", shadowed, Personal, "layer/feed-shadowed.txt"},
		{"Public", one, Public, "layer/disabled.txt"},
		{"Public, empty catalog", handCatalog(agentsDir, nil), Public, "layer/disabled.txt"},
		{"disabled by config", disabled, Personal, "layer/disabled.txt"},
		{"disabled by config, Team", disabled, Team, "layer/disabled.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.golden, Layer(tt.c, tt.audience))
		})
	}
}

func TestLayerNilCatalog(t *testing.T) {
	if got := Layer(nil, Personal); got != "" {
		t.Errorf("Layer(nil) = %q, want \"\"", got)
	}
	if got := LayerTokens(nil, Personal); got.Total != 0 || got.Agents != nil {
		t.Errorf("LayerTokens(nil) = %+v, want zero", got)
	}
}

func TestLayerSkipsNilAndDefless(t *testing.T) {
	c := handCatalog(agentsDir, nil, agentSpec{name: "solo", desc: "Alone."})
	c.Files = append(c.Files, nil, &lint.File{Path: "x.md", Status: lint.Loaded})
	got := Listed(c, Personal)
	if len(got) != 1 || got[0].Name != "solo" {
		t.Fatalf("Listed = %v, want only solo", got)
	}
}

func TestLayerTimeoutDefaultForBareDefinition(t *testing.T) {
	c := handCatalog(agentsDir, nil, agentSpec{name: "solo", desc: "Alone."})
	c.Files[0].Def.TimeoutSeconds = 0
	if !strings.Contains(Layer(c, Personal), "\nTimeout: 60s\n") {
		t.Errorf("a definition without a timeout should print the default 60s:\n%s", Layer(c, Personal))
	}
}

func TestLayerKeepsRuntimeOrderForEqualNames(t *testing.T) {
	// Names that lint does not reject as duplicates can still compare equal
	// under OrdinalIgnoreCase: "ǅ" (title case) and "ǆ" (small)
	// both upper-case to "Ǆ". Such names keep the runtime load order.
	c := handCatalog(agentsDir, nil,
		agentSpec{name: "x\u01C6", desc: "First in the catalog."},
		agentSpec{name: "x\u01C5", desc: "Second in the catalog."},
	)
	got := Listed(c, Personal)
	if got[0].Name != "x\u01C6" || got[1].Name != "x\u01C5" {
		t.Errorf("names that tie keep runtime order: got %q, %q", got[0].Name, got[1].Name)
	}
	c.Files[0], c.Files[1] = c.Files[1], c.Files[0]
	got = Listed(c, Personal)
	if got[0].Name != "x\u01C5" || got[1].Name != "x\u01C6" {
		t.Errorf("names that tie keep runtime order: got %q, %q", got[0].Name, got[1].Name)
	}
}

func TestLayerShape(t *testing.T) {
	// Properties of every non-empty layer, checked on a large catalog: one
	// four-line block per agent, in order, and no trailing newline.
	c := bigCatalog(500, 7)
	layer := Layer(c, Personal)
	if strings.HasSuffix(layer, "\n") {
		t.Error("the layer must not end with a newline")
	}
	defs := Listed(c, Personal)
	if got := strings.Count(layer, "\nTools: inherited from parent audience policy, except denied sub-agent tools\n"); got != len(defs) {
		t.Errorf("%d Tools lines, want %d", got, len(defs))
	}
	var want strings.Builder
	want.WriteString("[available-subagents — use spawn_agent to delegate]\n\n")
	for _, d := range defs {
		want.WriteString(Block(d))
	}
	if !strings.HasPrefix(layer, want.String()) {
		t.Error("the layer is not the header followed by every block in order")
	}
	for i := 1; i < len(defs); i++ {
		if CompareNames(defs[i-1].Name, defs[i].Name) > 0 {
			t.Fatalf("%q listed before %q", defs[i-1].Name, defs[i].Name)
		}
	}
}

func TestEnabled(t *testing.T) {
	on := handCatalog(agentsDir, enabledConfig())
	off := handCatalog(agentsDir, &lint.Config{})
	tests := []struct {
		c    *lint.Catalog
		a    Audience
		want bool
	}{
		{on, Personal, true}, {on, Team, true}, {on, Public, false},
		{handCatalog(agentsDir, nil), Personal, true},
		{off, Personal, false}, {off, Team, false},
		{nil, Personal, false},
	}
	for _, tt := range tests {
		if got := Enabled(tt.c, tt.a); got != tt.want {
			t.Errorf("Enabled(config %+v, %s) = %v, want %v", tt.c, tt.a, got, tt.want)
		}
	}
}
