package trialtest

import (
	"os"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestNew: in every protocol the home scans without a finding, its Main
// role (and the further role) names the model, the provider's type speaks the protocol and its
// endpoint is the server's, and the key is read from secrets.json. A file
// given replaces the one New would write; WriteConfig adds members.
func TestNew(t *testing.T) {
	for _, p := range Protocols {
		t.Run(p.String(), func(t *testing.T) {
			h := New(t, Model{Protocol: p, Provider: "prov", Name: "front", ID: "front-model", Key: "k-123", Roles: []string{"Compaction"}},
				map[string]string{"agents/tester.md": "---\nname: tester\ndescription: Tries things\n---\nYou are a tester.\n"})
			cat := h.Scan(t)
			if len(cat.Diagnostics()) != 0 || cat.Agent("tester") == nil {
				t.Fatalf("diagnostics %v", cat.Diagnostics())
			}
			c := cat.Config
			name, _ := c.Role("Main")
			def, _ := c.Definition(name)
			prov, _ := c.Provider(def.Provider)
			if name != "front" || def.ModelID != "front-model" || def.Provider != "prov" {
				t.Errorf("Main = %q, %+v", name, def)
			}
			if compaction, _ := c.Role("Compaction"); compaction != "front" {
				t.Errorf("Compaction = %q", compaction)
			}
			if got, err := wire.ProtocolFor(prov.Type); err != nil || got != p {
				t.Errorf("type %q speaks %v, %v; want %v", prov.Type, got, err, p)
			}
			if prov.Endpoint != h.Server.Endpoint(p) || prov.Endpoint != h.Model.Endpoint || prov.APIKey != "k-123" {
				t.Errorf("provider %+v, server %s", prov, h.Server.Endpoint(p))
			}
		})
	}
	h := New(t, Model{}, map[string]string{"config/netclaw.json": `{"SubAgents": {"Enabled": false}}`})
	if _, err := os.Stat(h.SecretsFile()); !os.IsNotExist(err) {
		t.Errorf("secrets.json without a key: %v", err)
	}
	if c := h.Scan(t).Config; c.SubAgents.Enabled || len(c.Providers) != 0 {
		t.Errorf("the given netclaw.json was not kept: %+v", c)
	}
	h.WriteConfig(t, `"McpServers": {"web": {"Transport": "http", "Url": "http://127.0.0.1:1/mcp"}}`)
	c := h.Scan(t).Config
	if prov, ok := c.Provider("mock"); !ok || prov.Type != "openai-compatible" || prov.Endpoint != h.Server.Endpoint(wire.OpenAI) || len(c.McpServers) != 1 {
		t.Errorf("after WriteConfig: %+v, %+v", prov, c.McpServers)
	}
}
