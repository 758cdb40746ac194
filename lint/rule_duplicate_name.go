package lint

// This file holds the check of the rule duplicate-name (RuleDuplicateName):
// a later file declares a name already taken.

import "fmt"

func duplicateReason(f *File) string {
	if f.Source.IsFeed() {
		return fmt.Sprintf("Agent '%s' at %s from feed '%s' declares duplicate name '%s' — skipping; earlier definition wins", f.Def.Name, f.Path, f.Source.Feed, f.Def.Name)
	}
	return fmt.Sprintf("Agent '%s' at %s declares duplicate name '%s' — skipping", f.Def.Name, f.Path, f.Def.Name)
}

func duplicateDiag(f, winner *File, p Profile) Diagnostic {
	pos := Pos{1, 1}
	if fl, ok := f.Def.Field("name"); ok {
		pos = fl.ValuePos
	}
	r, _ := RuleByID(RuleDuplicateName)
	hint := "rename this agent, or delete one of the two files"
	if f.Source.IsFeed() && !winner.Source.IsFeed() {
		hint = "the local file shadows this synced one; rename or delete the local file to use the feed's version"
	}
	return Diagnostic{Path: f.Path, Pos: pos, Rule: RuleDuplicateName, Severity: r.Severity(p),
		Message: fmt.Sprintf("duplicate name '%s': %s (%s) declares it first and wins; the runtime skips this file", f.Def.Name, winner.Path, winner.Source),
		Hint:    hint}
}
