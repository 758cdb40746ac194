package lint

import (
	"fmt"
	"strings"
)

// Severity says how much a diagnostic matters. The zero value, Off, means the
// rule does not apply under the profile in use.
type Severity int

// Severities, from none to the most severe. Info is a note about what the
// runtime does that needs no fix (it logs the same words); it never changes
// lint's exit status, even with --strict.
const (
	Off Severity = iota
	Info
	Warning
	Error
)

// String returns "error", "warning", "info" or "off".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "off"
}

// Profile selects which consumer's view the rules take.
type Profile int

// Profiles: Runtime is what NetClaw does when it loads a file (the default);
// Publish adds SkillServer's stricter upload checks.
const (
	Runtime Profile = iota
	Publish
)

// String returns "runtime" or "publish".
func (p Profile) String() string {
	if p == Publish {
		return "publish"
	}
	return "runtime"
}

// ParseProfile reads "runtime" or "publish" (case-insensitive).
func ParseProfile(s string) (Profile, error) {
	switch strings.ToLower(s) {
	case "", "runtime":
		return Runtime, nil
	case "publish":
		return Publish, nil
	}
	return Runtime, fmt.Errorf("unknown profile %q: use runtime or publish", s)
}

// Rule is one check with a stable id.
type Rule struct {
	// ID is stable: scripts and CI configs rely on it.
	ID string
	// Summary says in one line what the rule checks.
	Summary string
	// Runtime and Publish are the severities under each profile.
	Runtime, Publish Severity
	// Rejects is true when the NetClaw runtime skips a file that breaks this
	// rule. Warnings never reject, and some errors (encoding, config) do not
	// either: the runtime loads the file anyway.
	Rejects bool
}

// Severity returns the rule's severity under p.
func (r Rule) Severity(p Profile) Severity {
	if p == Publish {
		return r.Publish
	}
	return r.Runtime
}

// Rule ids. The check of each rule is in the file named after its id,
// rule_<id>.go (rule_name_missing.go for name-missing); the config rule's
// checks are the configuration binder's, in config_*.go.
const (
	RuleFrontmatter         = "frontmatter"
	RuleYAML                = "yaml"
	RuleNameMissing         = "name-missing"
	RuleDescriptionMissing  = "description-missing"
	RuleBodyEmpty           = "body-empty"
	RuleNameFormat          = "name-format"
	RuleModelRole           = "model-role"
	RuleVisibility          = "visibility"
	RuleTimeoutObsolete     = "timeout-obsolete"
	RuleTimeoutRange        = "timeout-range"
	RulePrefillTimeoutRange = "prefill-timeout-range"
	RuleDuplicateName       = "duplicate-name"
	RuleDuplicateKey        = "duplicate-key"
	RuleUnknownField        = "unknown-field"
	RuleDescriptionLong     = "description-long"
	RuleBodyLarge           = "body-large"
	RuleEncoding            = "encoding"
	RuleVersion             = "version"
	RuleRoutingTarget       = "routing-target"
	RuleFeedModified        = "feed-modified"
	RuleConfig              = "config"
	RuleUnreadable          = "unreadable"
	RuleEnumLoose           = "enum-loose"
	RuleFeedNotLoaded       = "feed-not-loaded"
	RuleAgentsFolder        = "agents-folder"
	RuleSkill               = "skill"
	RuleMcpServer           = "mcp-server"
)

// Rules lists every rule, in the order docs/rules.md documents them (generated from this list).
var Rules = []Rule{
	{RuleFrontmatter, "frontmatter missing, unclosed, empty, or not at byte 0", Error, Error, true},
	{RuleYAML, "YAML syntax error, or a known key with the wrong type", Error, Error, true},
	{RuleNameMissing, "no name, or a blank one", Error, Error, true},
	{RuleDescriptionMissing, "no description, or a blank one", Error, Error, true},
	{RuleBodyEmpty, "no system prompt after the frontmatter", Error, Error, true},
	{RuleNameFormat, "name is not lowercase kebab-case of at most 64 characters", Warning, Error, false},
	{RuleModelRole, "modelRole is not Main or Compaction", Error, Error, true},
	{RuleVisibility, "visibility is not user-facing or internal", Error, Error, true},
	{RuleTimeoutObsolete, "timeoutSeconds is set: the current runtime ignores it", Warning, Off, false},
	{RuleTimeoutRange, "timeoutSeconds outside 5-600 (older runtimes skip the file)", Warning, Error, false},
	{RulePrefillTimeoutRange, "prefillTimeoutSeconds outside 5-3600", Error, Error, true},
	{RuleDuplicateName, "a later file declares a name already taken", Error, Error, true},
	{RuleDuplicateKey, "a frontmatter key appears twice: the last one wins", Warning, Warning, false},
	{RuleUnknownField, "a key the runtime ignores", Warning, Warning, false},
	{RuleDescriptionLong, "description over 1024 characters: it is sent on every turn", Warning, Warning, false},
	{RuleBodyLarge, "body over 16,000 tokens: the system prompt of every spawn", Warning, Warning, false},
	{RuleEncoding, "not valid UTF-8: the model gets U+FFFD where the bad bytes were", Error, Error, false},
	{RuleVersion, "version or metadata.version is not 1-64 of A-Za-z0-9.+-", Off, Error, false},
	{RuleRoutingTarget, "a skill's metadata.subagent is malformed, unknown or internal", Error, Error, false},
	{RuleFeedModified, "a feed file no longer matches its sync state: the next sync overwrites it", Warning, Off, false},
	{RuleConfig, "netclaw.json or secrets.json does not parse, or holds a bad value", Error, Error, false},
	{RuleUnreadable, "a file that cannot be read", Error, Error, true},
	{RuleEnumLoose, "modelRole or visibility loads only because .NET's enum parser is lenient (a number, a comma list, stray '-')", Warning, Warning, false},
	{RuleFeedNotLoaded, "a feed folder no enabled SkillFeeds entry names: the runtime never reads it", Info, Info, false},
	{RuleAgentsFolder, "the agents folder does not exist or holds no agent file", Info, Info, false},
	{RuleSkill, "a skill the runtime's skill scanner refuses (no description, name mismatch, duplicate, symbolic link ...)", Warning, Warning, false},
	{RuleMcpServer, "an McpServers entry netclaw doctor refuses (bad transport, no Command or Url), whose command is missing, or that keeps a credential in netclaw.json", Error, Error, false},
}

var rulesByID = func() map[string]Rule {
	m := make(map[string]Rule, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// RuleByID returns the rule with that id.
func RuleByID(id string) (Rule, bool) {
	r, ok := rulesByID[id]
	return r, ok
}
