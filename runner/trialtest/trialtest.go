// Package trialtest is the fixture of a trial in tests: a loopback model
// server (runner/modeltest) and a temp NetClaw home whose netclaw.json
// sends the Main role to it, in any protocol, with the API key in
// secrets.json. It does not import runner, so runner's own tests use it
// too; only tests do. The home is written with lint/hometest.
//
//	h := trialtest.New(t, trialtest.Model{Protocol: wire.Anthropic, Key: key},
//		map[string]string{"agents/tester.md": tester})
//	h.Server.Enqueue(modeltest.Reply("done"))
//	cat := h.Scan(t)
package trialtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// Protocols are the protocols a test runs over, each in turn.
var Protocols = []wire.Protocol{wire.OpenAI, wire.Anthropic, wire.Ollama}

// ProviderType returns the provider type netclaw.json names for p:
// "openai-compatible", "anthropic" or "ollama".
func ProviderType(p wire.Protocol) string {
	switch p {
	case wire.Anthropic:
		return "anthropic"
	case wire.Ollama:
		return "ollama"
	}
	return "openai-compatible"
}

// Model is the one model a test home's Main role sends its calls to. The
// zero value is "test" (model id "test-model") of provider "mock", an
// OpenAI-compatible server, with no key.
type Model struct {
	// Protocol is the protocol the provider speaks; OpenAI when zero.
	Protocol wire.Protocol
	// Endpoint is the provider's endpoint (New sets it to its server's).
	Endpoint string
	// Provider names the provider; "mock" when "".
	Provider string
	// Name names the model's definition, the Main role's value; "test"
	// when "".
	Name string
	// ID is the definition's ModelId; "test-model" when "".
	ID string
	// Roles are further roles ("Compaction", "Fallback") that name the
	// same definition as Main.
	Roles []string
	// Key is the provider's ApiKey in secrets.json; no secrets.json when
	// "".
	Key string
}

func (m Model) names() (protocol wire.Protocol, provider, name, id string) {
	protocol, provider, name, id = m.Protocol, m.Provider, m.Name, m.ID
	if protocol == 0 {
		protocol = wire.OpenAI
	}
	if provider == "" {
		provider = "mock"
	}
	if name == "" {
		name = "test"
	}
	if id == "" {
		id = "test-model"
	}
	return protocol, provider, name, id
}

// Config returns the text of a netclaw.json whose Main role is m; each of
// more is a further member of its object, as `"McpServers": {…}`.
func (m Model) Config(more ...string) string {
	p, provider, name, id := m.names()
	roles := fmt.Sprintf(`"Main": %q`, name)
	for _, r := range m.Roles {
		roles += fmt.Sprintf(`, %q: %q`, r, name)
	}
	return object(append([]string{
		fmt.Sprintf(`"Models": {"Roles": {%s}, "Definitions": {%q: {"Provider": %q, "ModelId": %q}}}`, roles, name, provider, id),
		fmt.Sprintf(`"Providers": {%q: {"Type": %q, "Endpoint": %q}}`, provider, ProviderType(p), m.Endpoint),
	}, more...))
}

// Secrets returns the text of a secrets.json that holds m's key; each of
// more is a further member of its object.
func (m Model) Secrets(more ...string) string {
	_, provider, _, _ := m.names()
	return object(append([]string{fmt.Sprintf(`"Providers": {%q: {"ApiKey": %q}}`, provider, m.Key)}, more...))
}

// object is a JSON object of members, one a line.
func object(members []string) string {
	return "{\n  " + strings.Join(members, ",\n  ") + "\n}"
}

// Home is a temp NetClaw home whose Main model is Server.
type Home struct {
	lint.Home
	// Server is the loopback model server, closed when the test ends.
	Server *modeltest.Server
	// Model is the model netclaw.json names, its Endpoint Server's.
	Model Model
}

// New starts a model server and writes a home into a new temp folder:
// files (paths relative to the home, as hometest.Write takes them), then
// config/netclaw.json (m.Config) and, when m has a key,
// config/secrets.json, unless files hold them already.
func New(t testing.TB, m Model, files map[string]string) *Home {
	t.Helper()
	srv := modeltest.NewServer()
	t.Cleanup(srv.Close)
	p, _, _, _ := m.names()
	m.Endpoint = srv.Endpoint(p)
	all := map[string]string{"config/netclaw.json": m.Config()}
	if m.Key != "" {
		all["config/secrets.json"] = m.Secrets()
	}
	for k, v := range files {
		all[k] = v
	}
	return &Home{Home: lint.NewHome(hometest.New(t, all), ""), Server: srv, Model: m}
}

// WriteConfig rewrites netclaw.json: the home's model plus more members.
func (h *Home) WriteConfig(t testing.TB, more ...string) {
	t.Helper()
	hometest.WriteFile(t, h.ConfigFile(), h.Model.Config(more...))
}

// Scan scans the home as the runtime would, with an empty environment,
// failing t on an error.
func (h *Home) Scan(t testing.TB) *lint.Catalog {
	t.Helper()
	cat, err := lint.Scan(h.Home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}
