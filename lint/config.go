package lint

// Config is netclaw.json overlaid by secrets.json overlaid by NETCLAW_
// environment variables, bound to the keys agentdesk needs. Keys are matched
// case-insensitively, as Microsoft.Extensions.Configuration does. Values the
// files do not set hold the runtime's defaults.
type Config struct {
	SubAgents SubAgentsConfig
	Session   SessionConfig
	Models    ModelsConfig
	// Providers by name, keyed by the name as written; look one up with
	// Provider, which ignores case.
	Providers map[string]Provider
	// Diagnostics (rule "config") about netclaw.json, secrets.json or the
	// environment: parse errors, values out of range, a role naming a
	// definition or provider that does not exist.
	Diagnostics []Diagnostic
	// Present is true when netclaw.json exists.
	Present bool
}

// SubAgentsConfig is the SubAgents section.
type SubAgentsConfig struct {
	Enabled                  bool // default true
	PrefillTimeoutSeconds    int  // default 1800
	NoProgressTimeoutSeconds int  // default 1200
	MaxLlmCallSeconds        int  // default 3600
}

// SessionConfig is the Session section.
type SessionConfig struct {
	FirstTokenTimeoutSeconds int // default 600, the inter-delta budget
	MaxToolIterationsPerTurn int // default 60
}

// ModelsConfig is the Models section.
type ModelsConfig struct {
	// Roles maps a role ("Main", "Compaction", "Fallback") to a definition
	// name in Definitions.
	Roles map[string]string
	// Definitions by name.
	Definitions map[string]ModelDefinition
	// Legacy holds the older shape, {Provider, ModelId} straight under
	// Models.Main, Models.Compaction, Models.Fallback, by role.
	Legacy map[string]ModelDefinition
}

// ModelDefinition names a model at a provider.
type ModelDefinition struct {
	Provider      string
	ModelID       string
	ContextWindow int
}

// Provider is one Providers.<name> entry.
type Provider struct {
	Name     string
	Type     string // "ollama" when unset
	Endpoint string
	APIKey   string
}
