package lint

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Config is netclaw.json overlaid by secrets.json overlaid by NETCLAW_
// environment variables, bound to the keys agentdesk needs. Keys are matched
// case-insensitively, as Microsoft.Extensions.Configuration does. Values the
// files do not set hold the runtime's defaults.
//
// LoadConfig builds one from a home; DefaultConfig is what the runtime uses
// with no configuration at all. A Config may also be written by hand (tests
// do): every method works on the exported fields alone, and on a nil *Config
// as if it were DefaultConfig.
type Config struct {
	// SubAgents is the SubAgents section: the layer switch and run limits.
	SubAgents SubAgentsConfig
	// Session is the Session section.
	Session SessionConfig
	// Models is the Models section: roles, definitions, the legacy shape.
	Models ModelsConfig
	// Providers by name, keyed by the name as written; look one up with
	// Provider, which ignores case.
	Providers map[string]Provider
	// SkillFeeds is the SkillFeeds section: which server feeds the runtime
	// reads (see AgentFeeds and FeedNotLoaded).
	SkillFeeds SkillFeedsConfig
	// McpServers are the McpServers entries, in the order .NET's binder
	// lists them (key order); look one up with McpServer, which ignores
	// case.
	McpServers []McpServer
	// McpProfiles holds, by audience ("Public", "Team", "Personal"), the
	// MCP access of each Tools.AudienceProfiles.<audience> the
	// configuration sets; the others keep the runtime's default (see
	// McpAccessFor).
	McpProfiles map[string]McpAccess
	// Diagnostics (rule "config", or "unreadable" for a file that cannot be
	// read) about netclaw.json, secrets.json or the environment: parse
	// errors, values of the wrong type or out of range, a role naming a
	// definition or provider that does not exist. Sorted by path, then
	// position. No message carries a secret value.
	Diagnostics []Diagnostic
	// Present is true when netclaw.json exists.
	Present bool

	// store is the merged flat key → value view behind Lookup, Keys and
	// Origin; nil for a Config built by hand.
	store *cfgStore
}

// SubAgentsConfig is the SubAgents section.
type SubAgentsConfig struct {
	Enabled                  bool // default true
	PrefillTimeoutSeconds    int  // default 1800
	NoProgressTimeoutSeconds int  // default 1200
}

// SessionConfig is the Session section.
type SessionConfig struct {
	FirstTokenTimeoutSeconds int // default 600, the inter-delta budget
}

// ModelsConfig is the Models section.
type ModelsConfig struct {
	// Roles maps a role ("Main", "Compaction", "Fallback") to a definition
	// name in Definitions. Keyed by the role as written; look one up with
	// Config.Role, which ignores case.
	Roles map[string]string
	// Definitions by name, keyed by the name as written; look one up with
	// Config.Definition, which ignores case.
	Definitions map[string]ModelDefinition
	// Legacy holds the older shape, {Provider, ModelId} straight under
	// Models.Main, Models.Compaction, Models.Fallback, by role. The three
	// known roles are keyed by their canonical spelling ("Main"); any other
	// Models.<key> holding a Provider or ModelId is keyed as written.
	Legacy map[string]ModelDefinition
}

// ModelDefinition names a model at a provider.
type ModelDefinition struct {
	// Provider names a Providers entry.
	Provider string
	// ModelID is bound from ModelId, ModelID, modelId ... (any case).
	ModelID string
	// ContextWindow is 0 when unset.
	ContextWindow int
}

// Provider is one Providers.<name> entry.
type Provider struct {
	// Name is the provider's key under Providers, as written.
	Name string
	// Type is "ollama" when unset. A known type (see ProviderTypes) is
	// normalised to its lowercase spelling; an unknown one is kept as
	// written and reported.
	Type string
	// Endpoint is the provider's base URL (a cassette path for replay).
	Endpoint string
	// APIKey is bound from ApiKey; it is a secret (see Config.Secrets).
	APIKey string
}

// ConfigEnvironment is the Diagnostic.Path and ConfigOrigin.Path of
// everything that comes from NETCLAW_ environment variables.
const ConfigEnvironment = "environment"

// ConfigEnvPrefix is the prefix of the environment variables NetClaw reads
// its configuration from (matched case-insensitively); "__" in the rest of
// the name separates key levels.
const ConfigEnvPrefix = "NETCLAW_"

// Default runtime limits (REFERENCE section 6).
const (
	defaultPrefillTimeoutSeconds    = 1800
	defaultNoProgressTimeoutSeconds = 1200
	defaultFirstTokenTimeoutSeconds = 600
)

// cfgProviderTypes are the provider types NetClaw knows, plus "replay",
// which agentdesk adds for recorded runs (Endpoint is a cassette path).
var cfgProviderTypes = []string{
	"ollama", "openai-compatible", "openrouter", "openai", "anthropic",
	"github-copilot", "veniceai", "replay",
}

// ProviderTypes returns the provider Type values a configuration may use:
// NetClaw's seven plus agentdesk's "replay".
func ProviderTypes() []string { return slices.Clone(cfgProviderTypes) }

// DefaultConfig returns the configuration the runtime uses when nothing sets
// a value: sub-agents enabled, the default timeouts, no providers or models.
func DefaultConfig() *Config {
	return &Config{
		SubAgents: SubAgentsConfig{
			Enabled:                  true,
			PrefillTimeoutSeconds:    defaultPrefillTimeoutSeconds,
			NoProgressTimeoutSeconds: defaultNoProgressTimeoutSeconds,
		},
		Session: SessionConfig{
			FirstTokenTimeoutSeconds: defaultFirstTokenTimeoutSeconds,
		},
		Models: ModelsConfig{
			Roles:       map[string]string{},
			Definitions: map[string]ModelDefinition{},
			Legacy:      map[string]ModelDefinition{},
		},
		Providers: map[string]Provider{},
	}
}

// LoadConfig reads the configuration of home h the way NetClaw does:
// h.ConfigFile() (netclaw.json), overlaid key by key by h.SecretsFile()
// (secrets.json), overlaid by the NETCLAW_<Section>__<Key>... variables of
// environ ("KEY=value" entries, as os.Environ returns; later entries win).
//
// Both files may be missing. They are JSON as .NET reads appsettings files:
// a UTF-8 (or UTF-16 with a byte-order mark) object, with // and /* */
// comments and trailing commas allowed. LoadConfig never fails: whatever does
// not parse or bind is reported in Diagnostics, and the value the runtime
// would use instead (the default) is kept. A file that does not parse adds
// nothing to the merge.
func LoadConfig(h Home, environ []string) *Config {
	var files []cfgFile
	if h.ConfigDir != "" {
		files = []cfgFile{cfgReadFile(h.ConfigFile()), cfgReadFile(h.SecretsFile())}
	}
	return cfgLoad(files, environ)
}

// cfgLoad merges files (netclaw.json first) and environ, then binds.
func cfgLoad(files []cfgFile, environ []string) *Config {
	c := DefaultConfig()
	st := newCfgStore()
	for i, f := range files {
		if i == 0 {
			c.Present = f.exists
		}
		if f.diag != nil {
			c.Diagnostics = append(c.Diagnostics, *f.diag)
			continue
		}
		if f.exists {
			c.Diagnostics = append(c.Diagnostics, st.addFile(f.path, f.data)...)
		}
	}
	st.addEnviron(environ)
	st.index()
	c.store = st
	b := cfgBinder{c: c, st: st}
	b.bind()
	b.checkMcpServers(cfgLookPath(environ))
	c.scrubDiagnostics()
	SortDiagnostics(c.Diagnostics)
	return c
}

// Lookup returns the merged value of key, a ':'-separated path matched
// case-insensitively ("subagents:enabled"), as .NET's IConfiguration would
// return it: JSON strings as their text, numbers and booleans as written
// ("1200", "true"), null and empty objects or arrays as "", array elements
// under "0", "1", .... Defaults are not keys: Lookup reports only what
// netclaw.json, secrets.json or the environment set.
func (c *Config) Lookup(key string) (string, bool) {
	if c == nil || c.store == nil {
		return "", false
	}
	e := c.store.get(strings.ToLower(key))
	if e == nil {
		return "", false
	}
	return e.value, true
}

// Keys returns every key set by netclaw.json, secrets.json or the
// environment, spelled as first written, sorted case-insensitively.
func (c *Config) Keys() []string {
	if c == nil || c.store == nil {
		return nil
	}
	keys := make([]string, 0, len(c.store.entries))
	for _, e := range c.store.entries {
		keys = append(keys, e.key)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a), strings.ToLower(b)), cmp.Compare(a, b))
	})
	return keys
}

// ConfigOrigin says which source set a merged value.
type ConfigOrigin struct {
	// Path is the file that set the value, or ConfigEnvironment.
	Path string
	// Pos is where the value starts in that file; zero for the environment.
	Pos
	// Variable is the environment variable that set the value, as written,
	// when Path is ConfigEnvironment.
	Variable string
}

// Origin returns where the merged value of key (matched as Lookup does) came
// from: the last source that set it.
func (c *Config) Origin(key string) (ConfigOrigin, bool) {
	if c == nil || c.store == nil {
		return ConfigOrigin{}, false
	}
	e := c.store.get(strings.ToLower(key))
	if e == nil {
		return ConfigOrigin{}, false
	}
	return e.origin(), true
}

// Provider returns the Providers entry called name, ignoring case.
func (c *Config) Provider(name string) (Provider, bool) {
	if c == nil {
		return Provider{}, false
	}
	return cfgFold(c.Providers, name)
}

// Definition returns the Models.Definitions entry called name, ignoring case.
func (c *Config) Definition(name string) (ModelDefinition, bool) {
	if c == nil {
		return ModelDefinition{}, false
	}
	return cfgFold(c.Models.Definitions, name)
}

// Role returns the definition name Models.Roles gives role ("Main",
// "compaction", ...), ignoring case. It does not apply the runtime's
// fallback of Compaction and Fallback to Main; the runner does.
func (c *Config) Role(role string) (string, bool) {
	if c == nil {
		return "", false
	}
	return cfgFold(c.Models.Roles, role)
}

// Secrets returns every value the runner must never write or print: each
// provider's non-empty ApiKey, every merged value whose key ends in
// "ApiKey", "Token", "Secret" or "Password" (any case), and the McpServers
// values secrets.json or the environment set or whose header or variable
// name names a credential (Authorization, *_TOKEN, ...). Values are
// distinct, longest first, so a redactor that replaces them in order never
// leaves part of a longer secret behind.
func (c *Config) Secrets() []string {
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if strings.TrimSpace(v) == "" || seen[v] {
			return
		}
		seen[v] = true
		out = append(out, v)
	}
	for _, p := range c.Providers {
		add(p.APIKey)
	}
	for _, v := range c.mcpSecrets() {
		add(v)
	}
	if c.store != nil {
		for k, e := range c.store.entries {
			if cfgSecretKey(k) {
				add(e.value)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a, b))
	})
	return out
}

// cfgSecretKey reports whether a lowercased key names a secret.
func cfgSecretKey(lower string) bool {
	last := lower[strings.LastIndexByte(lower, ':')+1:]
	for _, suffix := range []string{"apikey", "token", "secret", "password"} {
		if strings.HasSuffix(last, suffix) {
			return true
		}
	}
	return false
}

// cfgFold looks name up in m exactly, then ignoring case. When a hand-built
// map holds several keys equal but for case, the smallest wins, so the
// answer does not depend on map order.
func cfgFold[V any](m map[string]V, name string) (V, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	var (
		best  string
		found bool
	)
	for k := range m {
		if strings.EqualFold(k, name) && (!found || k < best) {
			best, found = k, true
		}
	}
	if !found {
		var zero V
		return zero, false
	}
	return m[best], true
}

// scrubDiagnostics replaces every secret, raw or as strconv.Quote escapes
// it, in the diagnostics' messages and hints with [REDACTED] (as
// SecretMasker hides them: from four characters, a short one only as a
// whole token). Messages never quote a secret key's value, and the binder
// scrubs what it quotes before cutting it short; this is the last net.
func (c *Config) scrubDiagnostics() {
	r := cfgScrubber(c.Secrets())
	for i := range c.Diagnostics {
		d := &c.Diagnostics[i]
		d.Message = r.Replace(d.Message)
		d.Hint = r.Replace(d.Hint)
	}
}

// cfgScrubber returns a masker of each secret and of its strconv.Quote
// escaped form with [REDACTED] (see SecretMasker: secrets under four
// characters would wreck messages and are not worth hiding, and a short
// one is hidden only as a whole token, so "serve" leaves "server" be).
func cfgScrubber(secrets []string) *SecretMasker {
	var all []string
	for _, s := range secrets {
		all = append(all, s)
		if q := strconv.Quote(s); q[1:len(q)-1] != s {
			all = append(all, q[1:len(q)-1])
		}
	}
	return NewSecretMasker(all, func(string) string { return "[REDACTED]" })
}
