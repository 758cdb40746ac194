package lint

// This file holds the check of the rule feed-not-loaded
// (RuleFeedNotLoaded): a feed folder no enabled SkillFeeds entry names: the
// runtime never reads it.

import (
	"fmt"
	"strings"
)

// feedNotLoadedDiag is the feed-not-loaded note about a feed folder the
// runtime does not read (why says why) holding n files of the kind what
// ("agent file", "skill file"); ok is false when the rule is off.
func feedNotLoadedDiag(dir, feed, why string, n int, what string, p Profile) (d Diagnostic, ok bool) {
	r, _ := RuleByID(RuleFeedNotLoaded)
	sev := r.Severity(p)
	if sev == Off {
		return Diagnostic{}, false
	}
	hint := FeedNotLoadedHint(feed, why)
	if n != 1 {
		what += "s"
	}
	return Diagnostic{Path: dir, Rule: RuleFeedNotLoaded, Severity: sev,
		Message: fmt.Sprintf("not loaded: %s, so the runtime never reads the %d %s in this folder", why, n, what), Hint: hint}, true
}

// FeedNotLoadedHint says what makes the runtime read the folder of feed,
// which it does not read for the reason why (Config.FeedNotLoaded's
// words): add the feed to SkillFeeds, enable it, or give it a safe name.
func FeedNotLoadedHint(feed, why string) string {
	switch {
	case strings.Contains(why, "disabled"):
		return `set "Enabled": true on the feed in SkillFeeds.Feeds, or delete the folder`
	case strings.Contains(why, "safe"):
		return "rename the feed in SkillFeeds.Feeds and its folder to lowercase letters, digits and '-'"
	}
	return fmt.Sprintf(`add {"Name": "%s", "Url": "<the feed's server>"} to SkillFeeds.Feeds in netclaw.json, or delete the folder`, feed)
}
