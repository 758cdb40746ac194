package lint

// This file holds the check of the rule description-missing
// (RuleDescriptionMissing): no description, or a blank one.

// checkDescriptionMissing rejects a definition without a description, or
// a blank one.
func (ps *parser) checkDescriptionMissing(d *Definition, label string) {
	if d.Description != "" {
		return
	}
	msg := "no 'description' in the frontmatter: the runtime skips the file"
	if d.Set("description") {
		msg = "'description' is blank: the runtime skips the file"
	}
	ps.add(RuleDescriptionMissing, d.keyAt("description"), msg, "add 'description:' with one line telling the frontline model when to delegate to this agent")
	ps.reject(ps.agentReason(label, "has no 'description' in frontmatter"))
}
