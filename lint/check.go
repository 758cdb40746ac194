package lint

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

var (
	// nameRE is SkillServer's name format: lowercase alphanumeric and
	// hyphens, no leading, trailing or consecutive hyphens.
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// versionRE is SkillServer's version format.
	versionRE = regexp.MustCompile(`^[A-Za-z0-9.+-]{1,64}$`)
)

// ValidVersion reports whether v is a version SkillServer accepts: 1 to 64
// characters of A-Z, a-z, 0-9, '.', '-' and '+'.
func ValidVersion(v string) bool { return versionRE.MatchString(v) }

// ValidName reports whether name is a valid SkillServer sub-agent name, the
// only form a skill can route to.
func ValidName(name string) bool { return len(name) <= 64 && nameRE.MatchString(name) }

// check applies the per-file rules to a bound definition, in the order the
// runtime checks them (its first complaint is the file's Reason).
func (ps *parser) check(d *Definition) {
	path := ps.f.Path
	at := func(key string) Pos {
		if f, ok := d.Field(key); ok {
			return f.ValuePos
		}
		return Pos{1, 1}
	}
	keyAt := func(key string) Pos {
		if f, ok := d.Field(key); ok {
			return f.KeyPos
		}
		return Pos{1, 1}
	}

	if d.Name == "" {
		msg := "no 'name' in the frontmatter: the runtime skips the file"
		if d.Set("name") {
			msg = "'name' is blank: the runtime skips the file"
		}
		ps.add(RuleNameMissing, keyAt("name"), msg, "add a line such as 'name: my-agent' (lowercase kebab-case)")
		ps.reject(fmt.Sprintf("Agent definition at %s has no 'name' in frontmatter — skipping", path))
	}
	label := d.Name
	if label == "" {
		label = "(unnamed)"
	}
	if d.Description == "" {
		msg := "no 'description' in the frontmatter: the runtime skips the file"
		if d.Set("description") {
			msg = "'description' is blank: the runtime skips the file"
		}
		ps.add(RuleDescriptionMissing, keyAt("description"), msg, "add 'description:' with one line telling the frontline model when to delegate to this agent")
		ps.reject(ps.agentReason(label, "has no 'description' in frontmatter"))
	}
	if strings.TrimSpace(d.Body) == "" {
		ps.add(RuleBodyEmpty, Pos{d.BodyLine, 1}, "the system prompt body after the closing '---' is empty: the runtime skips the file",
			"write the agent's instructions below the closing '---'")
		ps.reject(ps.agentReason(label, "has an empty system prompt body"))
	}

	if d.Name != "" && !ValidName(d.Name) {
		msg := fmt.Sprintf("name %q is not lowercase kebab-case (a-z, 0-9, single hyphens): the runtime loads it, but skills cannot route to it and SkillServer refuses it", d.Name)
		if n := utf8.RuneCountInString(d.Name); n > 64 {
			msg = fmt.Sprintf("name is %d characters long (at most 64): the runtime loads it, but skills cannot route to it and SkillServer refuses it", n)
		}
		hint := ""
		if s := Kebab(d.Name); s != "" && s != d.Name && len(s) <= 64 {
			hint = fmt.Sprintf("did you mean '%s'?", s)
		}
		ps.add(RuleNameFormat, at("name"), msg, hint)
	}

	if d.Set("modelRole") {
		ps.checkModelRole(d, label, at("modelRole"))
	}
	if d.Set("visibility") {
		ps.checkVisibility(d, label, at("visibility"))
	}

	if d.Set("timeoutSeconds") {
		ps.add(RuleTimeoutObsolete, keyAt("timeoutSeconds"), "timeoutSeconds is obsolete: the current runtime ignores it and uses Session.FirstTokenTimeoutSeconds from netclaw.json",
			"delete the line")
		if d.TimeoutSeconds < 5 || d.TimeoutSeconds > 600 {
			ps.add(RuleTimeoutRange, at("timeoutSeconds"), fmt.Sprintf("invalid timeoutSeconds %d (expected 5–600): older runtimes skip the file", d.TimeoutSeconds),
				"delete the line, or use a value from 5 to 600")
		}
	}
	if d.Set("prefillTimeoutSeconds") && (d.PrefillTimeoutSeconds < 5 || d.PrefillTimeoutSeconds > 3600) {
		ps.add(RulePrefillTimeoutRange, at("prefillTimeoutSeconds"), fmt.Sprintf("invalid prefillTimeoutSeconds %d (expected 5–3600): the runtime skips the file", d.PrefillTimeoutSeconds),
			"use a value from 5 to 3600, or delete the line to use SubAgents.PrefillTimeoutSeconds")
		ps.reject(ps.agentReason(label, fmt.Sprintf("has invalid prefillTimeoutSeconds %d (expected 5–3600)", d.PrefillTimeoutSeconds)))
	}

	if n := utf8.RuneCountInString(d.Description); n > MaxDescription {
		ps.add(RuleDescriptionLong, at("description"), fmt.Sprintf("description is %d characters (over %d): it is sent to the frontline model on every turn", n, MaxDescription),
			"keep it to one or two sentences about when to delegate; move details into the body")
	}

	ps.checkBodySize(d)
	ps.checkVersion(d)
}

// checkBodySize warns about a body over MaxBodyTokens. A token is at least
// one byte, so a body of MaxBodyTokens bytes or fewer is never counted.
func (ps *parser) checkBodySize(d *Definition) {
	if len(d.Body) <= MaxBodyTokens {
		return
	}
	if n := CountTokens(d.Body); n > MaxBodyTokens {
		ps.add(RuleBodyLarge, Pos{d.BodyLine, 1},
			fmt.Sprintf("the body is %d tokens (%s, over %d): it is the system prompt of every spawn of this agent, paid before the task is read", n, TokenEncoding, MaxBodyTokens),
			"keep the instructions the agent needs; move reference material into files its tools can read")
	}
}

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

// checkModelRole sets d.ModelRole to the role the runtime uses, rejecting
// what .NET's Enum.TryParse refuses and warning (enum-loose) about what it
// only accepts by leniency.
func (ps *parser) checkModelRole(d *Definition, label string, pos Pos) {
	raw := d.ModelRole
	plain := strings.TrimSpace(raw)
	switch {
	case plain == "":
		d.ModelRole = DefaultModelRole
		return
	case strings.EqualFold(plain, "Main"), strings.EqualFold(plain, "Compaction"):
		d.ModelRole = modelRoleEnum[modelRoleEnum.member(plain)]
		return
	}
	v, form, ok := modelRoleEnum.parse(raw)
	if !ok {
		ps.add(RuleModelRole, pos, fmt.Sprintf("invalid modelRole '%s' (expected Main or Compaction): the runtime skips the file", raw),
			"write 'modelRole: Main' or 'modelRole: Compaction'")
		ps.reject(ps.agentReason(label, fmt.Sprintf("has invalid modelRole '%s' (expected Main or Compaction)", raw)))
		return
	}
	d.ModelRole = modelRoleEnum.format(v)
	if form == enumName && v == 1 {
		ps.addSeverity(RuleModelRole, Warning, pos, "modelRole 'Fallback' is accepted by the runtime but not documented: it may stop working",
			"use Main or Compaction")
		return
	}
	hint := fmt.Sprintf("write 'modelRole: %s'", d.ModelRole)
	if !modelRoleEnum.defined(v) || v == 1 {
		hint = "write 'modelRole: Main' or 'modelRole: Compaction'"
	}
	ps.add(RuleEnumLoose, pos, looseEnumMessage("modelRole", raw, form, d.ModelRole, modelRoleEnum.defined(v),
		"Main = 0, Fallback = 1, Compaction = 2", "a role"), hint)
}

// checkVisibility sets d.Visibility to what the runtime uses: it removes
// every '-' and then parses as checkModelRole does.
func (ps *parser) checkVisibility(d *Definition, label string, pos Pos) {
	raw := d.Visibility
	plain := strings.TrimSpace(raw)
	switch {
	case plain == "":
		d.Visibility = DefaultVisibility
		return
	case strings.EqualFold(plain, "user-facing"), strings.EqualFold(plain, "UserFacing"):
		d.Visibility = DefaultVisibility
		return
	case strings.EqualFold(plain, "internal"):
		d.Visibility = "internal"
		return
	}
	v, form, ok := visibilityEnum.parse(strings.ReplaceAll(raw, "-", ""))
	if !ok {
		ps.add(RuleVisibility, pos, fmt.Sprintf("invalid visibility '%s' (expected user-facing or internal): the runtime skips the file", raw),
			"write 'visibility: user-facing' or 'visibility: internal'")
		ps.reject(ps.agentReason(label, fmt.Sprintf("has invalid visibility '%s' (expected user-facing or internal)", raw)))
		return
	}
	switch v {
	case 0:
		d.Visibility = DefaultVisibility
	case 1:
		d.Visibility = "internal"
	default:
		d.Visibility = visibilityEnum.format(v)
	}
	hint := fmt.Sprintf("write 'visibility: %s'", d.Visibility)
	if !visibilityEnum.defined(v) {
		hint = "write 'visibility: user-facing' or 'visibility: internal'"
	}
	msg := looseEnumMessage("visibility", raw, form, d.Visibility, visibilityEnum.defined(v),
		"UserFacing = 0, Internal = 1", "a visibility")
	if !visibilityEnum.defined(v) {
		msg += "; only user-facing agents are offered to the frontline model, so this one is hidden like an internal one"
	}
	if strings.Contains(raw, "-") && form == enumName && !strings.EqualFold(plain, "user-facing") {
		msg = fmt.Sprintf("visibility '%s' loads only because the runtime removes every '-' before parsing it: it reads %s", raw, d.Visibility)
	}
	ps.add(RuleEnumLoose, pos, msg, hint)
}

// looseEnumMessage says what the runtime makes of an enum value that loads
// only because .NET's Enum.TryParse is lenient.
func looseEnumMessage(key, raw string, form enumForm, effective string, defined bool, numbering, what string) string {
	result := effective
	if !defined {
		result = effective + ", which is not " + what + " (" + numbering + "), and loads the file with it"
	}
	switch form {
	case enumNumber:
		return fmt.Sprintf("%s '%s' is a number: the runtime's enum parser (.NET Enum.TryParse) accepts any number and reads %s", key, raw, result)
	case enumList:
		return fmt.Sprintf("%s '%s' is a comma list: the runtime's enum parser (.NET Enum.TryParse) combines the members' numbers (%s) and reads %s", key, raw, numbering, result)
	}
	return fmt.Sprintf("%s '%s' is not written plainly: the runtime's enum parser (.NET Enum.TryParse) reads %s", key, raw, result)
}
