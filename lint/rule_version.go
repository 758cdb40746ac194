package lint

// This file holds the check of the rule version (RuleVersion): version or
// metadata.version is not 1-64 of A-Za-z0-9.+-.

import (
	"fmt"
	"regexp"
	"strings"
)

// versionRE is SkillServer's version format.
var versionRE = regexp.MustCompile(`^[A-Za-z0-9.+-]{1,64}$`)

// ValidVersion reports whether v is a version SkillServer accepts: 1 to 64
// characters of A-Z, a-z, 0-9, '.', '-' and '+'.
func ValidVersion(v string) bool { return versionRE.MatchString(v) }

// checkVersion applies SkillServer's version format to version and
// metadata.version, and flags a file that sets both differently.
func (ps *parser) checkVersion(d *Definition) {
	mv, hasMeta := d.Metadata["version"]
	for _, key := range []string{"version", "metadata.version"} {
		f, ok := d.Field(key)
		if !ok {
			continue
		}
		v := d.Version
		if key == "metadata.version" {
			v = mv
		}
		if !ValidVersion(v) {
			ps.add(RuleVersion, f.ValuePos, fmt.Sprintf("%s %q is not 1–64 characters of A-Z a-z 0-9 . - +", key, v), "use a version such as 1.0.0")
		}
	}
	if d.Version == "" && hasMeta {
		d.Version = strings.TrimSpace(mv)
	} else if hasMeta && d.Version != "" && strings.TrimSpace(mv) != d.Version {
		f, _ := d.Field("metadata.version")
		ps.add(RuleVersion, f.ValuePos, fmt.Sprintf("version %q and metadata.version %q disagree", d.Version, mv), "keep one of them")
	}
}
