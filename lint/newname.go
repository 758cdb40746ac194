package lint

import (
	"errors"
	"fmt"
	"strings"
)

// CheckNewAgentName says why name cannot be a new agent's name in c, or
// returns nil. A valid name is one SkillServer accepts and skills can route
// to (ValidName) that no file in c uses yet.
func CheckNewAgentName(c *Catalog, name string) error {
	switch {
	case name == "":
		return errors.New("type a name: lowercase letters, digits and single hyphens, like code-reviewer")
	case len(name) > 64:
		return fmt.Errorf("%d characters is too long: at most 64", len(name))
	case !ValidName(name):
		hint := ""
		if k := Kebab(name); k != "" && ValidName(k) {
			hint = fmt.Sprintf(" (did you mean %q?)", k)
		}
		return fmt.Errorf("%q is not lowercase kebab-case: use a-z, 0-9 and single hyphens inside, like code-reviewer%s", name, hint)
	}
	if c != nil {
		for _, f := range c.Files {
			if strings.EqualFold(f.Name(), name) {
				return fmt.Errorf("the name %q is taken by %s: pick another", name, c.Home.Rel(f.Path))
			}
		}
	}
	return nil
}

// CopyName proposes the name of a copy of the agent name in c:
// "<name>-copy", "<name>-copy-2", … the first not yet taken, the name first
// made kebab-case (Release_Notes → release-notes); "" when none is free.
func CopyName(c *Catalog, name string) string {
	base := Kebab(name)
	if !ValidName(base) {
		base = "agent"
	}
	for i := 1; i < 1000; i++ {
		s := base + "-copy"
		if i > 1 {
			s += fmt.Sprintf("-%d", i)
		}
		if len(s) <= 64 && CheckNewAgentName(c, s) == nil {
			return s
		}
	}
	return ""
}
