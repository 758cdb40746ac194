package runner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// The runtime's model when nothing is configured (REFERENCE section 6).
const (
	DefaultProviderName = "local-ollama"
	DefaultEndpoint     = "http://localhost:11434"
	DefaultModelID      = "qwen3:30b"
)

// ViaBuiltInDefault is Model.Via when no model is configured at all and
// the runtime's built-in default is used.
const ViaBuiltInDefault = "built-in default (no model configured)"

// NormalizeRole returns "Main", "Compaction" or "Fallback" for role in any
// case; "" is the runtime's default, Compaction.
func NormalizeRole(role string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(role)) {
	case "":
		return lint.DefaultModelRole, nil
	case "main":
		return "Main", nil
	case "compaction":
		return "Compaction", nil
	case "fallback":
		return "Fallback", nil
	}
	return "", fmt.Errorf("model role %q is not Main, Compaction or Fallback", role)
}

// defaultEndpoints are the endpoints of provider types that have a public
// one, used when a provider sets none.
var defaultEndpoints = map[string]string{
	"ollama":     DefaultEndpoint,
	"openai":     "https://api.openai.com/v1",
	"openrouter": "https://openrouter.ai/api/v1",
	"veniceai":   "https://api.venice.ai/api/v1",
	"anthropic":  "https://api.anthropic.com",
}

// ResolveModel finds the model for role the way the runtime does:
// Models.Roles.<role> names a Models.Definitions entry; else the older
// {Provider, ModelId} straight under Models.<role>; Compaction and Fallback
// fall back to Main; with no model configured at all, the built-in default
// (Ollama at http://localhost:11434, qwen3:30b). The definition's Provider
// keys into Providers (case-insensitive), whose Type picks the protocol. A
// provider of type replay resolves to a Model whose Endpoint is the path of
// the cassette to play (Protocol unset: the cassette says it). cfg may be
// nil (the defaults).
//
// An agent's modelRole may load as a number no role has (.NET's
// Enum.TryParse takes `modelRole: 42`; lint warns, enum-loose). Every
// NetClaw chat-client provider and router maps a role other than Fallback
// and Compaction to the Main model (`_ => main`), so such a role resolves
// as Main, and Via says why. A flag or suite value is checked with
// NormalizeRole before it gets here.
func ResolveModel(cfg *lint.Config, role string) (runfolder.Model, error) {
	if n, ok := undefinedRole(role); ok {
		m, err := resolveModel(cfg, "Main")
		if err != nil {
			return runfolder.Model{}, fmt.Errorf("modelRole %d is not a role, so the runtime uses the Main model: %w", n, err)
		}
		m.Via += fmt.Sprintf(" (modelRole %d is not a role: the runtime uses Main)", n)
		return m, nil
	}
	return resolveModel(cfg, role)
}

// undefinedRole reports whether role is an integer that is not one of
// ModelRole's members (Main = 0, Fallback = 1, Compaction = 2), as lint
// carries a modelRole the runtime parsed to an undefined value.
func undefinedRole(role string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(role), 10, 32)
	return n, err == nil && (n < 0 || n > 2)
}

func resolveModel(cfg *lint.Config, role string) (runfolder.Model, error) {
	role, err := NormalizeRole(role)
	if err != nil {
		return runfolder.Model{}, err
	}
	if cfg == nil {
		cfg = lint.DefaultConfig()
	}
	m := runfolder.Model{Role: role}
	var def lint.ModelDefinition
	// defKey is the configuration key of the definition found, for
	// messages that say where it is.
	var defKey string
	found := false
	candidates := []string{role}
	if role != "Main" {
		candidates = append(candidates, "Main")
	}
	for _, cand := range candidates {
		def, defKey, found, err = roleDefinition(cfg, cand, &m)
		if err != nil {
			return runfolder.Model{}, err
		}
		if found {
			if cand != role {
				m.Via += " (" + role + " falls back to Main)"
			}
			break
		}
	}
	return modelOf(cfg, m, def, defKey, found)
}

// roleDefinition looks up the model definition the configuration gives
// the role cand: the one Models.Roles names, else the older shape's
// Models.<role>; defKey is its configuration key. It sets m's
// Definition and Via. A role that names a missing definition is an
// error.
func roleDefinition(cfg *lint.Config, cand string, m *runfolder.Model) (def lint.ModelDefinition, defKey string, found bool, err error) {
	if name, ok := cfg.Role(cand); ok && strings.TrimSpace(name) != "" {
		d, ok := cfg.Definition(name)
		if !ok {
			return def, "", false, fmt.Errorf("%s: Models.Roles.%s names model definition %q, which Models.Definitions does not have: fix netclaw.json",
				configAt(cfg, "Models:Roles:"+cand), cand, name)
		}
		m.Definition = name
		m.Via = "Models.Roles." + cand
		return d, "Models:Definitions:" + name, true, nil
	}
	if d, ok := legacyModel(cfg, cand); ok {
		m.Via = "Models." + cand + " (older shape)"
		return d, "Models:" + cand, true, nil
	}
	return def, "", false, nil
}

// ResolveDefinition resolves the Models.Definitions entry called name (in
// any case) as ResolveModel resolves a role's, for a run asked to use that
// model whatever the role says (agentdesk test --models); role is the role
// the run would have had, for run.json. Via names the entry.
func ResolveDefinition(cfg *lint.Config, name, role string) (runfolder.Model, error) {
	if cfg == nil {
		cfg = lint.DefaultConfig()
	}
	if r, err := NormalizeRole(role); err == nil {
		role = r
	} else {
		role = "Main"
	}
	def, ok := cfg.Definition(name)
	if !ok {
		return runfolder.Model{}, fmt.Errorf("model definition %q is not in Models.Definitions of netclaw.json", name)
	}
	for k := range cfg.Models.Definitions {
		if strings.EqualFold(k, name) {
			name = k
		}
	}
	m := runfolder.Model{Role: role, Definition: name, Via: "Models.Definitions." + name + " (chosen by name)"}
	return modelOf(cfg, m, def, "Models:Definitions:"+name, true)
}

// modelOf finishes resolving m from def (found false: no model is
// configured, the built-in default).
func modelOf(cfg *lint.Config, m runfolder.Model, def lint.ModelDefinition, defKey string, found bool) (runfolder.Model, error) {
	role := m.Role
	var err error
	if !found {
		return builtInModel(cfg, m)
	}
	m.ModelID = strings.TrimSpace(def.ModelID)
	if m.ModelID == "" {
		return runfolder.Model{}, fmt.Errorf("%s: the %s model (%s) has no ModelId: set it in netclaw.json",
			configAt(cfg, defKey+":Provider", "Models:Roles:"+role), role, m.Via)
	}
	if strings.TrimSpace(def.Provider) == "" {
		return runfolder.Model{}, fmt.Errorf("%s: the %s model (%s) names no Provider: set it in netclaw.json",
			configAt(cfg, defKey+":ModelId", "Models:Roles:"+role), role, m.Via)
	}
	p, ok := cfg.Provider(def.Provider)
	if !ok {
		return runfolder.Model{}, fmt.Errorf("%s: the %s model (%s) uses provider %q, which Providers does not have: add Providers.%s to netclaw.json",
			configAt(cfg, defKey+":Provider"), role, m.Via, def.Provider, def.Provider)
	}
	provKey := "Providers:" + p.Name
	m.Provider = def.Provider
	if p.Name != "" {
		m.Provider = p.Name
	}
	m.Type = providerType(p)
	if m.Type == ReplayProviderType {
		// The cassette's path; Start reads it and takes the protocol
		// and the model from its header.
		m.Endpoint = strings.TrimSpace(p.Endpoint)
		if m.Endpoint == "" {
			return runfolder.Model{}, fmt.Errorf("%s: provider %s has type replay but no Endpoint: set Providers.%s.Endpoint to the path of a cassette (a run folder's stream.cassette)",
				configAt(cfg, provKey+":Type"), m.Provider, m.Provider)
		}
		return m, nil
	}
	if m.Protocol, err = wire.ProtocolFor(m.Type); err != nil {
		return runfolder.Model{}, fmt.Errorf("%s: provider %s: %w", configAt(cfg, provKey+":Type"), m.Provider, err)
	}
	m.Endpoint = strings.TrimSpace(p.Endpoint)
	if m.Endpoint == "" {
		m.Endpoint = defaultEndpoints[m.Type]
	}
	if m.Endpoint == "" {
		return runfolder.Model{}, fmt.Errorf("%s: provider %s (type %s) has no Endpoint: set Providers.%s.Endpoint in netclaw.json",
			configAt(cfg, provKey+":Type", defKey+":Provider"), m.Provider, m.Type, m.Provider)
	}
	if _, err := m.Protocol.URL(m.Endpoint); err != nil {
		return runfolder.Model{}, fmt.Errorf("%s: provider %s: %w", configAt(cfg, provKey+":Endpoint"), m.Provider, err)
	}
	m.APIKey = p.APIKey
	return m, nil
}

// builtInModel finishes m as the built-in default model (no model is
// configured): its provider, endpoint and model, with the endpoint, type
// and key of a configured provider of the default's name.
func builtInModel(cfg *lint.Config, m runfolder.Model) (runfolder.Model, error) {
	m.Via = ViaBuiltInDefault
	m.Provider, m.Type, m.Endpoint, m.ModelID = DefaultProviderName, "ollama", DefaultEndpoint, DefaultModelID
	if p, ok := cfg.Provider(DefaultProviderName); ok {
		m.Type, m.APIKey = providerType(p), p.APIKey
		if p.Endpoint != "" {
			m.Endpoint = p.Endpoint
		}
	}
	m.Protocol = wire.Ollama
	if m.Type != "ollama" {
		var err error
		if m.Protocol, err = wire.ProtocolFor(m.Type); err != nil {
			return runfolder.Model{}, err
		}
	}
	return m, nil
}

// configAt says where the configuration sets the first of keys it sets:
// "path:line:col" in netclaw.json or secrets.json, or the environment
// variable; "netclaw.json" when none is set (a value from the defaults).
func configAt(cfg *lint.Config, keys ...string) string {
	for _, k := range keys {
		o, ok := cfg.Origin(k)
		switch {
		case !ok:
			continue
		case o.Path == lint.ConfigEnvironment:
			return "environment variable " + o.Variable
		case o.Line > 0:
			return fmt.Sprintf("%s:%d:%d", o.Path, o.Line, o.Column)
		}
		return o.Path
	}
	return "netclaw.json"
}

// providerType returns the provider's type, lowercase; "" is ollama.
func providerType(p lint.Provider) string {
	t := strings.ToLower(strings.TrimSpace(p.Type))
	if t == "" {
		return "ollama"
	}
	return t
}

// legacyModel returns the older Models.<role> {Provider, ModelId} entry.
func legacyModel(cfg *lint.Config, role string) (lint.ModelDefinition, bool) {
	for k, d := range cfg.Models.Legacy {
		if strings.EqualFold(k, role) && (d.Provider != "" || d.ModelID != "") {
			return d, true
		}
	}
	return lint.ModelDefinition{}, false
}
