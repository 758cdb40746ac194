package lint

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// This file binds the merged flat configuration to Config's typed fields,
// as .NET's ConfigurationBinder would, and checks what it binds. A value
// that does not bind keeps the default and gets a diagnostic.

// cfgBinder binds one store into one Config.
type cfgBinder struct {
	c  *Config
	st *cfgStore
	// scrub replaces secrets in every value a message quotes.
	scrub *SecretMasker
	// suggestions counts the did-you-mean searches made, each costing up
	// to cfgMaxOptions edit distances; past cfgMaxSuggestions a hint lists
	// the options instead, so a huge file of bad references stays linear.
	suggestions int
}

// Bounds on did-you-mean work.
const (
	cfgMaxSuggestions = 256
	cfgMaxOptions     = 64
)

func (b *cfgBinder) bind() {
	b.scrub = cfgScrubber(b.c.Secrets())
	c := b.c

	b.section("subagents", "{Enabled, PrefillTimeoutSeconds, NoProgressTimeoutSeconds}")
	b.boolean("subagents:enabled", &c.SubAgents.Enabled)
	b.positive("subagents:prefilltimeoutseconds", &c.SubAgents.PrefillTimeoutSeconds, "seconds", true)
	b.positive("subagents:noprogresstimeoutseconds", &c.SubAgents.NoProgressTimeoutSeconds, "seconds", true)
	// NetClaw removed the per-call cap (review of #1243; SubAgentActor
	// reads no such setting): a run's call ends on the prefill,
	// inter-delta and no-progress budgets.
	b.obsolete("subagents:maxllmcallseconds",
		"is obsolete: NetClaw no longer caps the length of a model call, and ignores it; a call ends on the prefill, inter-delta and no-progress budgets",
		"remove the key")

	b.section("session", "{FirstTokenTimeoutSeconds}")
	b.positive("session:firsttokentimeoutseconds", &c.Session.FirstTokenTimeoutSeconds, "seconds", true)
	// NetClaw removed the static tool-round budget (TurnStateTracker
	// a36cc1ee has none); its tool-cycle design removes the key from the
	// schema, so a netclaw.json that still sets it fails validation, and
	// "the existing doctor correction removes that deprecated key and
	// preserves unrelated configuration".
	b.obsolete("session:maxtooliterationsperturn",
		"is obsolete: NetClaw has no cap on tool rounds (a run ends on its deadlines, on cancellation and by the cycle guard), and its configuration schema no longer accepts the key",
		"remove the key; netclaw doctor removes it and keeps the rest of the file")

	b.providers()
	b.skillFeeds()
	b.models()
	b.checkModels()
	b.mcpServers()
	b.mcpProfiles()
}

// obsolete warns about a key NetClaw no longer reads, wherever it is set
// (a file or the environment), at its value; a key set as an object is
// reported at the first key below it.
func (b *cfgBinder) obsolete(lower, what, hint string) {
	e := b.st.get(lower)
	if e == nil {
		e = b.st.below(lower)
	}
	if e == nil {
		return
	}
	name := cfgShowKey(b.st.spell[lower])
	if e.file == "" {
		name = cfgShowKey(e.envVar) + " (" + name + ")"
	}
	b.c.Diagnostics = append(b.c.Diagnostics, Diagnostic{
		Path: e.path(), Pos: e.pos, Rule: RuleConfig, Severity: Warning, Message: name + " " + what, Hint: hint,
	})
}

// report adds a config diagnostic at an entry's value.
func (b *cfgBinder) report(e *cfgEntry, msg, hint string) {
	b.c.Diagnostics = append(b.c.Diagnostics, Diagnostic{
		Path: e.path(), Pos: e.pos, Rule: RuleConfig, Severity: Error, Message: msg, Hint: hint,
	})
}

// subject names an entry in a message: its key path for a file, the
// variable for the environment.
func (b *cfgBinder) subject(e *cfgEntry) string {
	if e.file == "" {
		return cfgShowKey(e.envVar)
	}
	return cfgShowKey(e.key)
}

// quote shows a value in a message: secrets scrubbed first, then cut to 60
// characters and quoted with Go escapes, so no control character passes.
func (b *cfgBinder) quote(v string) string {
	return strconv.Quote(cfgCut(b.scrub.Replace(v), 60))
}

// section reports a key that should hold an object but holds a value. The
// value is not quoted: it may be a key pasted in the wrong place.
func (b *cfgBinder) section(lower, expect string) {
	e := b.st.get(lower)
	if e == nil || strings.TrimSpace(e.value) == "" {
		return
	}
	b.report(e, fmt.Sprintf("%s is a value, not an object: NetClaw expects %s here and ignores the value", b.subject(e), expect),
		"write it as an object, or remove it")
}

// scalar returns the entry of a key that should hold a value, or nil when
// the key is unset or empty (the default then stands). When only keys below
// it are set (an object where a value belongs) it reports that and returns
// nil.
func (b *cfgBinder) scalar(lower, expect string) *cfgEntry {
	e := b.st.get(lower)
	if e != nil && strings.TrimSpace(e.value) != "" {
		return e
	}
	if len(b.st.children(lower)) == 0 {
		return nil
	}
	child := b.st.below(lower)
	if child == nil {
		return nil
	}
	key := cfgShowKey(b.st.spell[lower])
	if child.file == "" {
		b.report(child, fmt.Sprintf("%s sets a key below %s, which must be %s", cfgShowKey(child.envVar), key, expect),
			"remove the variable")
	} else {
		b.report(child, fmt.Sprintf("%s is an object: expected %s", key, expect),
			"write a plain value instead of an object")
	}
	return nil
}

// str returns a string key's value, "" when unset.
func (b *cfgBinder) str(lower string) string {
	if e := b.scalar(lower, "a string"); e != nil {
		return e.value
	}
	return ""
}

// boolean binds a true/false key, as bool.Parse reads it (any case,
// surrounding spaces ignored).
func (b *cfgBinder) boolean(lower string, dst *bool) {
	e := b.scalar(lower, "true or false")
	if e == nil {
		return
	}
	switch strings.ToLower(strings.TrimSpace(e.value)) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		b.report(e, fmt.Sprintf("%s is %s: expected true or false; agentdesk uses the default, %t", b.subject(e), b.quote(e.value), *dst),
			"write true or false")
	}
}

// positive binds a whole number that must be above zero, as int.Parse reads
// it (32-bit, optional sign, surrounding spaces ignored). hasDefault says
// whether *dst is a default worth naming.
func (b *cfgBinder) positive(lower string, dst *int, unit string, hasDefault bool) {
	e := b.scalar(lower, "a whole number of "+unit)
	if e == nil {
		return
	}
	keeps := "the key is ignored"
	if hasDefault {
		keeps = fmt.Sprintf("agentdesk uses the default, %d", *dst)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(e.value), 10, 32)
	switch {
	case errors.Is(err, strconv.ErrRange):
		b.report(e, fmt.Sprintf("%s is %s: too large for a whole number of %s (at most 2147483647); %s", b.subject(e), b.quote(e.value), unit, keeps),
			"write a smaller whole number")
	case err != nil:
		b.report(e, fmt.Sprintf("%s is %s: expected a whole number of %s; %s", b.subject(e), b.quote(e.value), unit, keeps),
			"write a whole number in digits: no units, decimals or words")
	case v <= 0:
		b.report(e, fmt.Sprintf("%s is %d: it must be a positive number of %s; %s", b.subject(e), v, unit, keeps),
			"write a whole number above 0")
	default:
		*dst = int(v)
	}
}

// cfgProviderType returns the canonical spelling of a known provider type.
func cfgProviderType(t string) (string, bool) {
	for _, known := range cfgProviderTypes {
		if strings.EqualFold(t, known) {
			return known, true
		}
	}
	return "", false
}

// providers binds Providers.<name> = {Type, Endpoint, ApiKey}.
func (b *cfgBinder) providers() {
	b.section("providers", "{<name>: {Type, Endpoint, ApiKey}, ...}")
	for _, lower := range b.st.children("providers") {
		b.section(lower, "{Type, Endpoint, ApiKey}")
		p := Provider{
			Name:     b.st.name(lower),
			Type:     "ollama",
			Endpoint: b.str(lower + ":endpoint"),
			APIKey:   b.str(lower + ":apikey"),
		}
		te := b.scalar(lower+":type", "a provider type")
		if te != nil {
			p.Type = b.providerType(te)
		}
		if p.Type == "replay" && strings.TrimSpace(p.Endpoint) == "" {
			b.replayWithoutEndpoint(p, te, lower)
		}
		b.c.Providers[p.Name] = p
	}
}

// providerType returns a provider's Type, te, in its canonical
// spelling; one that is not a known type is kept as written, and
// reported.
func (b *cfgBinder) providerType(te *cfgEntry) string {
	if known, ok := cfgProviderType(te.value); ok {
		return known
	}
	b.report(te, fmt.Sprintf("%s is %s: not a provider type (known: %s)", b.subject(te), b.quote(te.value), strings.Join(cfgProviderTypes, ", ")),
		b.hint(te.value, cfgProviderTypes, "use one of the known types; replay is agentdesk's, for recorded runs"))
	return te.value
}

// replayWithoutEndpoint reports replay provider p, at key lower, that has
// no Endpoint, at its Type (te) or else at the provider's entry.
func (b *cfgBinder) replayWithoutEndpoint(p Provider, te *cfgEntry, lower string) {
	at := te
	if at == nil {
		at = b.st.under(lower)
	}
	if at != nil {
		b.report(at, fmt.Sprintf("%s makes provider %s of type replay, but it has no Endpoint: a replay provider's Endpoint is the path of a recorded cassette", b.subject(at), cfgShowKey(p.Name)),
			"set Endpoint to the cassette's path")
	}
}

// cfgLegacyRoles are the roles the older Models.<Role> shape uses.
var cfgLegacyRoles = []string{"Main", "Compaction", "Fallback"}

// models binds Models.Roles, Models.Definitions and the legacy
// Models.<Role> = {Provider, ModelId} shape.
func (b *cfgBinder) models() {
	m := &b.c.Models
	b.section("models", "{Roles, Definitions}")
	b.section("models:roles", "{<role>: <definition name>, ...}")
	for _, lower := range b.st.children("models:roles") {
		if e := b.scalar(lower, "a definition name"); e != nil {
			m.Roles[b.st.name(lower)] = e.value
		}
	}
	b.section("models:definitions", "{<name>: {Provider, ModelId, ContextWindow}, ...}")
	for _, lower := range b.st.children("models:definitions") {
		m.Definitions[b.st.name(lower)] = b.definition(lower)
	}
	for _, lower := range b.st.children("models") {
		if lower == "models:roles" || lower == "models:definitions" {
			continue
		}
		_, provider := b.st.spell[lower+":provider"]
		_, model := b.st.spell[lower+":modelid"]
		if provider || model {
			m.Legacy[cfgLegacyRole(b.st.name(lower))] = b.definition(lower)
		}
	}
}

// cfgLegacyRole is role spelled as the legacy role it names, ignoring
// case, or as written.
func cfgLegacyRole(role string) string {
	for _, known := range cfgLegacyRoles {
		if strings.EqualFold(role, known) {
			role = known
		}
	}
	return role
}

// definition binds {Provider, ModelId, ContextWindow} under a key.
func (b *cfgBinder) definition(lower string) ModelDefinition {
	b.section(lower, "{Provider, ModelId, ContextWindow}")
	d := ModelDefinition{
		Provider: b.str(lower + ":provider"),
		ModelID:  b.str(lower + ":modelid"),
	}
	b.positive(lower+":contextwindow", &d.ContextWindow, "tokens", false)
	return d
}

// checkModels reports roles naming no definition and definitions naming no
// provider. Names match ignoring case, as Config.Definition and
// Config.Provider do, but not spaces: " sonnet" names no definition.
func (b *cfgBinder) checkModels() {
	m := b.c.Models
	defNames := slices.Sorted(maps.Keys(m.Definitions))
	defs := cfgLowerSet(defNames)
	for _, lower := range b.st.children("models:roles") {
		e := b.st.get(lower)
		if e == nil || strings.TrimSpace(e.value) == "" || defs[strings.ToLower(e.value)] {
			continue
		}
		b.report(e, fmt.Sprintf("%s names the model definition %s, which is not under Models:Definitions", b.subject(e), b.quote(e.value)),
			b.hint(e.value, defNames, "add Models:Definitions:<name> = {Provider, ModelId}"))
	}
	provNames := slices.Sorted(maps.Keys(b.c.Providers))
	provs := cfgLowerSet(provNames)
	check := func(lower string) {
		e := b.st.get(lower + ":provider")
		if e == nil || strings.TrimSpace(e.value) == "" || provs[strings.ToLower(e.value)] {
			return
		}
		b.report(e, fmt.Sprintf("%s names the provider %s, which is not under Providers", b.subject(e), b.quote(e.value)),
			b.hint(e.value, provNames, "add Providers:<name> = {Type, Endpoint, ApiKey}"))
	}
	for _, lower := range b.st.children("models:definitions") {
		check(lower)
	}
	for _, lower := range b.st.children("models") {
		if lower != "models:roles" && lower != "models:definitions" {
			check(lower)
		}
	}
}

// cfgLowerSet returns the lowercased names as a set.
func cfgLowerSet(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[strings.ToLower(n)] = true
	}
	return set
}

// hint suggests the option closest to v ("did you mean ...?"), else lists
// the options, else falls back to add. The search is skipped past the
// binder's budget or when there are too many options.
func (b *cfgBinder) hint(v string, options []string, add string) string {
	if len(options) <= cfgMaxOptions && b.suggestions < cfgMaxSuggestions {
		b.suggestions++
		if s := Suggest(v, options, 1); len(s) > 0 {
			return fmt.Sprintf("did you mean %s?", strconv.Quote(s[0]))
		}
	}
	if len(options) == 0 {
		return add
	}
	shown := options
	if len(shown) > 8 {
		shown = shown[:8]
	}
	list := make([]string, len(shown))
	for i, o := range shown {
		list[i] = cfgShowKey(o)
	}
	more := ""
	if len(options) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(options)-len(shown))
	}
	return fmt.Sprintf("known: %s%s; or %s", strings.Join(list, ", "), more, add)
}
