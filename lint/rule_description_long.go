package lint

// This file holds the check of the rule description-long
// (RuleDescriptionLong): description over 1024 characters: it is sent on
// every turn.

import (
	"fmt"
	"unicode/utf8"
)

// checkDescriptionLong warns about a description over MaxDescription
// characters: it is sent on every turn.
func (ps *parser) checkDescriptionLong(d *Definition) {
	if n := utf8.RuneCountInString(d.Description); n > MaxDescription {
		ps.add(RuleDescriptionLong, d.valueAt("description"), fmt.Sprintf("description is %d characters (over %d): it is sent to the frontline model on every turn", n, MaxDescription),
			"keep it to one or two sentences about when to delegate; move details into the body")
	}
}
