package lint

// This file holds the check of the rule name-missing (RuleNameMissing): no
// name, or a blank one.

import "fmt"

// checkNameMissing rejects a definition without a name, or a blank one.
func (ps *parser) checkNameMissing(d *Definition) {
	if d.Name != "" {
		return
	}
	msg := "no 'name' in the frontmatter: the runtime skips the file"
	if d.Set("name") {
		msg = "'name' is blank: the runtime skips the file"
	}
	ps.add(RuleNameMissing, d.keyAt("name"), msg, "add a line such as 'name: my-agent' (lowercase kebab-case)")
	ps.reject(fmt.Sprintf("Agent definition at %s has no 'name' in frontmatter — skipping", ps.f.Path))
}
