package lint

// This file holds the check of the rule name-format (RuleNameFormat): name
// is not lowercase kebab-case of at most 64 characters.

import (
	"fmt"
	"regexp"
	"unicode/utf8"
)

// nameRE is SkillServer's name format: lowercase alphanumeric and
// hyphens, no leading, trailing or consecutive hyphens.
var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidName reports whether name is a valid SkillServer sub-agent name, the
// only form a skill can route to.
func ValidName(name string) bool { return len(name) <= 64 && nameRE.MatchString(name) }

// checkNameFormat warns about a name that is not SkillServer's
// lowercase kebab-case of at most 64 characters.
func (ps *parser) checkNameFormat(d *Definition) {
	if d.Name == "" || ValidName(d.Name) {
		return
	}
	msg := fmt.Sprintf("name %q is not lowercase kebab-case (a-z, 0-9, single hyphens): the runtime loads it, but skills cannot route to it and SkillServer refuses it", d.Name)
	if n := utf8.RuneCountInString(d.Name); n > 64 {
		msg = fmt.Sprintf("name is %d characters long (at most 64): the runtime loads it, but skills cannot route to it and SkillServer refuses it", n)
	}
	hint := ""
	if s := Kebab(d.Name); s != "" && s != d.Name && len(s) <= 64 {
		hint = fmt.Sprintf("did you mean '%s'?", s)
	}
	ps.add(RuleNameFormat, d.valueAt("name"), msg, hint)
}
