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
	hint := FeedNotLoadedHint(feed, why, what == "skill file")
	if n != 1 {
		what += "s"
	}
	return Diagnostic{Path: dir, Rule: RuleFeedNotLoaded, Severity: sev,
		Message: fmt.Sprintf("not loaded: %s, so the runtime never reads the %d %s in this folder", why, n, what), Hint: hint}, true
}

// FeedNotLoadedHint says what makes the runtime read the folder of feed,
// which it does not read for the reason why (Config.FeedNotLoaded's
// words): add the feed to SkillFeeds, enable it, or give it a safe name.
// skills is for a folder under skills/.server-feeds, which the skill
// scanner reads whatever the feed's name; the sub-agent loader needs a
// safe one, so adding an agent feed folder of another name is no help.
func FeedNotLoadedHint(feed, why string, skills bool) string {
	rename := "rename the feed in SkillFeeds.Feeds and its folder to lowercase letters, digits and '-'"
	switch {
	case strings.Contains(why, "disabled"):
		return `set "Enabled": true on the feed in SkillFeeds.Feeds, or delete the folder`
	case strings.Contains(why, "safe"):
		return rename
	case !skills && !SafeFeedName(feed):
		return `rename the folder to lowercase letters, digits and '-' and add {"Name": that name, "Url": "<the feed's server>"} to SkillFeeds.Feeds in netclaw.json, or delete the folder`
	}
	return fmt.Sprintf(`add {"Name": "%s", "Url": "<the feed's server>"} to SkillFeeds.Feeds in netclaw.json, or delete the folder`, feed)
}
