package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SkillFeedsConfig is the SkillFeeds section: the private skill servers the
// daemon syncs skills and sub-agents from. Only the feeds it lists, and
// only those enabled, are read from agents/.server-feeds and
// skills/.server-feeds; with no SkillFeeds section no feed is read.
type SkillFeedsConfig struct {
	// Feeds in list order, as .NET's configuration binder builds the list:
	// every child of SkillFeeds:Feeds, array indexes in numeric order.
	Feeds []SkillFeed
}

// SkillFeed is one SkillFeeds.Feeds entry.
type SkillFeed struct {
	// Name as written (the feed's folder name); "" when unset.
	Name string
	// Enabled is true unless the entry sets Enabled to false.
	Enabled bool
	// Origin is where the entry's Name is set, else the entry itself.
	Origin ConfigOrigin
}

// SafeFeedName reports whether name is a feed name the runtime's sub-agent
// loader reads: not blank, only a-z, 0-9 and '-'.
func SafeFeedName(name string) bool {
	if strings.TrimSpace(name) == "" {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// AgentFeeds returns the feeds whose agents the runtime loads, in the
// order it reads them: the enabled SkillFeeds.Feeds entries with a safe
// name, in list order, each once.
func (c *Config) AgentFeeds() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, f := range c.SkillFeeds.Feeds {
		if f.Enabled && SafeFeedName(f.Name) && !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

// FeedNotLoaded says why the runtime does not read the feed folder named
// folder ("" when it does read it): the feed is not configured in
// SkillFeeds, it is disabled there, or its configured name is not safe.
// skills selects the skill scanner's rule, which reads every enabled
// feed's folder whatever its name; the sub-agent loader also needs a safe
// name.
func (c *Config) FeedNotLoaded(folder string, skills bool) string {
	disabled, unsafe := false, false
	if c != nil {
		for _, f := range c.SkillFeeds.Feeds {
			if f.Name != folder {
				continue
			}
			switch {
			case !f.Enabled:
				disabled = true
			case !skills && !SafeFeedName(f.Name):
				unsafe = true
			default:
				return ""
			}
		}
	}
	switch {
	case unsafe:
		return fmt.Sprintf("feed '%s' is not a safe feed name", folder)
	case disabled:
		return fmt.Sprintf("feed '%s' is disabled in SkillFeeds", folder)
	}
	return fmt.Sprintf("feed '%s' is not configured in SkillFeeds", folder)
}

// skillFeeds binds SkillFeeds.Feeds = [{Name, Url, ApiKey, Enabled,
// TimeoutSeconds}, ...] and reports what the runtime would ignore or
// trip on: a list that is not a list, an entry that is not an object, an
// enabled entry without a safe name (in the runtime's words), a feed
// listed twice.
func (b *cfgBinder) skillFeeds() {
	b.section("skillfeeds", "{Feeds: [{Name, Url, ApiKey, Enabled, TimeoutSeconds}, ...]}")
	kids := slices.Clone(b.st.children("skillfeeds:feeds"))
	slices.SortFunc(kids, cfgCompareKeys)
	b.checkFeedsList(kids)
	seen := map[string]int{}
	for i, lower := range kids {
		f, at := b.skillFeed(lower)
		b.c.SkillFeeds.Feeds = append(b.c.SkillFeeds.Feeds, f)
		if f.Enabled && at != nil {
			b.checkFeedName(f, at, i, seen)
		}
	}
}

// checkFeedsList reports SkillFeeds.Feeds written as a value, or as an
// object (kids are its members, in key order), not a list.
func (b *cfgBinder) checkFeedsList(kids []string) {
	if e := b.st.get("skillfeeds:feeds"); e != nil && strings.TrimSpace(e.value) != "" {
		b.report(e, fmt.Sprintf("%s is a value, not a list: NetClaw expects [{\"Name\": ..., \"Url\": ...}, ...] here and reads no feed from it", b.subject(e)),
			"write the feeds as a JSON list of objects")
	}
	for _, lower := range kids {
		if _, err := strconv.Atoi(b.st.name(lower)); err != nil {
			if e := b.st.under(lower); e != nil {
				b.report(e, fmt.Sprintf("%s is an object, not a list: NetClaw reads each of its members as a feed, in key order", cfgShowKey(b.st.spell["skillfeeds:feeds"])),
					"write the feeds as a JSON list: [{\"Name\": ..., \"Url\": ...}, ...]")
			}
			return
		}
	}
}

// skillFeed binds the feed entry at key lower, and returns it with the
// entry to report it at (its name, else the entry; nil when neither is
// set).
func (b *cfgBinder) skillFeed(lower string) (SkillFeed, *cfgEntry) {
	f := SkillFeed{Enabled: true}
	if e := b.st.get(lower); e != nil && strings.TrimSpace(e.value) != "" {
		b.report(e, fmt.Sprintf("%s is a value, not an object: NetClaw reads it as a feed with no name", b.subject(e)),
			"write the feed as {\"Name\": \"my-feed\", \"Url\": \"https://...\"}")
	}
	at := b.st.under(lower)
	if ne := b.scalar(lower+":name", "a feed name"); ne != nil {
		f.Name, at = ne.value, ne
	}
	b.boolean(lower+":enabled", &f.Enabled)
	b.positive(lower+":timeoutseconds", new(int), "seconds", false)
	if at != nil {
		f.Origin = at.origin()
	}
	return f, at
}

// checkFeedName warns, at at, of enabled feed entry i whose name is not a
// safe feed name or was listed before (seen holds the entry of each name
// so far).
func (b *cfgBinder) checkFeedName(f SkillFeed, at *cfgEntry, i int, seen map[string]int) {
	if !SafeFeedName(f.Name) {
		hint := "feed names are lowercase letters, digits and '-'; the feed's folders under agents/.server-feeds and skills/.server-feeds take the same name"
		if strings.TrimSpace(f.Name) == "" {
			hint = "give the feed a Name such as \"team-skills\""
		}
		b.c.Diagnostics = append(b.c.Diagnostics, Diagnostic{Path: at.path(), Pos: at.pos, Rule: RuleConfig, Severity: Warning,
			Message: fmt.Sprintf("Ignoring managed sub-agent feed '%s' because it is not a safe feed name", cfgPrintable(f.Name)), Hint: hint})
		return
	}
	if first, dup := seen[f.Name]; dup {
		b.c.Diagnostics = append(b.c.Diagnostics, Diagnostic{Path: at.path(), Pos: at.pos, Rule: RuleConfig, Severity: Warning,
			Message: fmt.Sprintf("feed '%s' is listed twice in SkillFeeds.Feeds (first as entry %d): the runtime loads its agents once, and finds each of its skills shadowed by the first copy", f.Name, first),
			Hint:    "remove one of the two entries"})
		return
	}
	seen[f.Name] = i
}

// cfgPrintable is s as written when every character prints, else with Go
// escapes (no quotes), so a message never carries a control character.
func cfgPrintable(s string) string {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			q := strconv.Quote(cfgCut(s, 60))
			return q[1 : len(q)-1]
		}
	}
	return cfgCut(s, 60)
}

// cfgCompareKeys orders configuration keys as .NET's ConfigurationKeyComparer
// orders the children of a section: by their last level, numbers first in
// numeric order, then the rest ignoring case.
func cfgCompareKeys(a, b string) int {
	a, b = a[strings.LastIndexByte(a, ':')+1:], b[strings.LastIndexByte(b, ':')+1:]
	an, aerr := strconv.Atoi(a)
	bn, berr := strconv.Atoi(b)
	switch {
	case aerr == nil && berr == nil:
		return cmp.Compare(an, bn)
	case aerr == nil:
		return -1
	case berr == nil:
		return 1
	}
	return strings.Compare(a, b)
}
