package lint

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// routeTargetRE is the runtime's pattern for metadata.subagent.
var routeTargetRE = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`)

// frontmatterState says whether a SKILL.md's frontmatter binds.
type frontmatterState int

const (
	frontmatterOK      frontmatterState = iota
	frontmatterMissing                  // the text does not start with "---"
	frontmatterInvalid                  // unclosed, empty, or YAML that does not bind
)

// ParseSkill reads a SKILL.md (or a flat skills/<name>.md) as NetClaw's
// skill scanner binds it: name (trimmed and lower-cased; the folder's, or
// for a flat file its name's, when the frontmatter has none),
// description, metadata.subagent with its position, and the body. Which
// skills exist, and which the runtime refuses, is the scan's business
// (Scanner); ParseSkill only reads the one file and never fails.
func ParseSkill(path string, data []byte) *Skill {
	fallback := filepath.Base(filepath.Dir(path))
	if base := filepath.Base(path); base != "SKILL.md" {
		fallback = strings.TrimSuffix(base, filepath.Ext(base))
	}
	sk := &Skill{Name: normalizeSkillName(fallback), Path: path}
	text := strings.TrimLeft(DecodeText(data), "\uFEFF")
	if !strings.HasPrefix(text, "---") {
		sk.fm = frontmatterMissing
		sk.Body = strings.TrimLeftFunc(text, unicode.IsSpace)
		return sk
	}
	fm, closeAt, body, ok := splitFrontmatter(text)
	sk.Body = body
	switch {
	case !ok:
		sk.fm, sk.fmErr, sk.Body = frontmatterInvalid, "the frontmatter opened on line 1 is never closed", text
		return sk
	case strings.IndexByte(text, '\n') >= closeAt:
		sk.fm, sk.fmErr = frontmatterInvalid, "the frontmatter is empty"
		return sk
	}
	ps := parser{fmLine: 2, fmText: fm, f: &File{}}
	var doc yaml.Node
	if err := safeUnmarshal(fm, &doc); err != nil {
		pos, msg := ps.yamlErrorPos(err)
		sk.fm, sk.fmErr, sk.fmPos = frontmatterInvalid, "YAML syntax error: "+msg, pos
		return sk
	}
	if len(doc.Content) == 0 || isNull(resolve(doc.Content[0])) {
		sk.fm, sk.fmErr = frontmatterInvalid, "the frontmatter holds no keys"
		return sk
	}
	root := resolve(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		sk.fm, sk.fmErr, sk.fmPos = frontmatterInvalid, "the frontmatter is "+kindName(root)+", not a mapping of keys", ps.nodePos(doc.Content[0])
		return sk
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := resolve(root.Content[i]), resolve(root.Content[i+1])
		if k == nil || v == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		pos := ps.nodePos(root.Content[i+1])
		fail := func(why string) {
			if sk.fm == frontmatterOK {
				sk.fm, sk.fmErr, sk.fmPos = frontmatterInvalid, fmt.Sprintf("'%s' %s", k.Value, why), pos
			}
		}
		switch k.Value {
		case "name", "description", "license", "compatibility", "allowed-tools", "argument-hint":
			s, err := scalarString(v)
			if err != "" {
				fail(err)
				continue
			}
			switch k.Value {
			case "name":
				sk.frontName, sk.namePos = s, pos
			case "description":
				sk.hasDesc, sk.descPos = strings.TrimSpace(s) != "", ps.nodePos(root.Content[i])
			}
		case "disable-model-invocation", "invocable":
			if _, err := scalarBool(v); err != "" {
				fail(err)
			}
		case "metadata":
			if isNull(v) {
				continue
			}
			if v.Kind != yaml.MappingNode {
				fail("must be a mapping, not " + kindName(v))
				continue
			}
			sk.readMetadata(v, &ps)
		}
	}
	if strings.TrimSpace(sk.frontName) != "" {
		sk.Name = normalizeSkillName(sk.frontName)
	}
	return sk
}

// readMetadata reads metadata.subagent as the runtime's scanner does: the
// key's presence makes the skill routed; a value that is not a string (a
// list, a map, null) or is blank or not a valid name is an error the
// runtime reports when the skill is activated.
func (sk *Skill) readMetadata(m *yaml.Node, ps *parser) {
	for j := 0; j+1 < len(m.Content); j += 2 {
		mk, mv := resolve(m.Content[j]), resolve(m.Content[j+1])
		if mk == nil || mk.Kind != yaml.ScalarNode || mk.Value != "subagent" {
			continue
		}
		sk.RoutingKey = true
		sk.SubagentPos = ps.nodePos(m.Content[j+1])
		if mv == nil || mv.Line == 0 {
			sk.SubagentPos = ps.nodePos(m.Content[j])
		}
		sk.Subagent, sk.SubagentError = "", ""
		switch typ := yamlDotNetType(mv); {
		case typ != "String":
			sk.SubagentError = fmt.Sprintf("expected string value but found %s.", typ)
		case strings.TrimSpace(mv.Value) == "":
			sk.SubagentError = "value must not be empty."
		default:
			sk.Subagent = strings.TrimSpace(mv.Value)
			if !ValidRouteTarget(sk.Subagent) {
				sk.SubagentError = fmt.Sprintf("'%s' is not a valid subagent name (expected lowercase kebab-case).", sk.Subagent)
			}
		}
	}
}

// yamlDotNetType is the .NET type name YamlDotNet gives a value bound to
// object: every untagged scalar is a String (numbers and booleans too),
// a null one (empty, ~ or null) is "null", a list is a List`1 and a map a
// Dictionary`2; an explicit !!int, !!bool or !!float tag makes an Int32,
// Boolean or Double.
func yamlDotNetType(n *yaml.Node) string {
	switch {
	case n == nil:
		return "null"
	case n.Kind == yaml.SequenceNode:
		return "List`1"
	case n.Kind == yaml.MappingNode:
		return "Dictionary`2"
	}
	explicit := n.Style&yaml.TaggedStyle != 0
	switch {
	case explicit && n.Tag == "!!int":
		return "Int32"
	case explicit && n.Tag == "!!bool":
		return "Boolean"
	case explicit && n.Tag == "!!float":
		return "Double"
	case explicit && n.Tag == "!!null", !explicit && n.Style == 0 && (n.Value == "" || n.Value == "~" || n.Value == "null" || n.Value == "Null" || n.Value == "NULL"):
		return "null"
	}
	return "String"
}

// normalizeSkillName is the runtime's skill name: trimmed, lower-cased.
func normalizeSkillName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// splitFrontmatter splits text the way the runtime's loader does: the
// frontmatter runs from the end of the first line to the first "\n---" after
// offset 3 (closeAt is the offset of that newline), and the body is what
// follows the newline ending the closing line, leading whitespace trimmed.
// ok is false when there is no closed frontmatter at byte 0.
func splitFrontmatter(text string) (fm string, closeAt int, body string, ok bool) {
	if !strings.HasPrefix(text, "---") {
		return "", 0, "", false
	}
	closeAt = strings.Index(text[3:], "\n---")
	if closeAt < 0 {
		return "", 0, "", false
	}
	closeAt += 3
	if start := strings.IndexByte(text, '\n') + 1; start <= closeAt {
		fm = text[start:closeAt]
	}
	if nl := strings.IndexByte(text[closeAt+1:], '\n'); nl >= 0 {
		body = strings.TrimLeftFunc(text[closeAt+1+nl+1:], unicode.IsSpace)
	}
	return fm, closeAt, body, true
}

// ValidRouteTarget reports whether target is a metadata.subagent value the
// runtime accepts: lowercase kebab-case of 1 to 64 characters, starting and
// ending with a letter or digit.
func ValidRouteTarget(target string) bool { return routeTargetRE.MatchString(target) }

// Route resolves a routed skill's metadata.subagent against the catalog as
// the runtime does when the skill is activated (REFERENCE section 5): the
// skill must be one the runtime lists, its metadata.subagent must be a
// well-formed name, and that name must (ignoring case) be a loaded,
// user-facing agent, which Route returns. Otherwise agent is nil and failure
// is the runtime's activation error in its own words (agentdesk's words for
// a skill that does not route or is not listed). A nil catalog registers no
// agent.
func (c *Catalog) Route(sk *Skill) (agent *File, failure string) {
	target := sk.Subagent
	var found *File
	if c != nil {
		found = c.Agent(target)
	}
	switch {
	case sk.Status == NotLoaded:
		return nil, fmt.Sprintf("Skill '/%s' is not available: %s, so the runtime does not read %s.", sk.Name, sk.Reason, sk.Path)
	case sk.Status != Loaded:
		return nil, fmt.Sprintf("Skill '/%s' is not available: the runtime's skill scanner refuses %s: %s", sk.Name, sk.Path, sk.Reason)
	case !sk.Routed():
		return nil, fmt.Sprintf("Skill '/%s' does not route to a subagent: it sets no metadata.subagent in %s.", sk.Name, sk.Path)
	case sk.SubagentError != "":
		return nil, fmt.Sprintf("Skill '/%s' has invalid metadata.subagent: %s Fix or remove metadata.subagent in %s.", sk.Name, sk.SubagentError, sk.Path)
	case !ValidRouteTarget(target):
		return nil, fmt.Sprintf("Skill '/%s' has invalid metadata.subagent '%s': expected lowercase kebab-case name. Fix or remove metadata.subagent in %s.", sk.Name, target, sk.Path)
	case found == nil:
		return nil, fmt.Sprintf("Skill '/%s' routes to subagent '%s', but that subagent is not registered. Add the missing subagent definition or fix metadata.subagent on the skill.", sk.Name, target)
	case !found.Def.UserFacing():
		return nil, fmt.Sprintf("Skill '/%s' routes to subagent '%s', but that subagent is internal-only and not user-invocable. Use a user-facing subagent or fix metadata.subagent on the skill.", sk.Name, target)
	}
	return found, ""
}

// resolveRoute sets RouteError and a routing-target diagnostic, with a hint
// where one helps, when a listed routed skill's target is malformed, not
// registered, or internal.
func resolveRoute(sk *Skill, c *Catalog, p Profile) {
	sk.RouteError = ""
	if !sk.Routed() || sk.Status != Loaded {
		return
	}
	_, msg := c.Route(sk)
	if msg == "" {
		return
	}
	var hint string
	target := sk.Subagent
	switch agent := c.Agent(target); {
	case sk.SubagentError != "" && target == "":
		hint = "write one agent name: 'metadata: {subagent: my-agent}'"
	case !ValidRouteTarget(target):
		if k := Kebab(target); k != "" && c.Agent(k) != nil {
			hint = fmt.Sprintf("did you mean '%s'?", k)
		}
	case agent == nil:
		if near := Suggest(target, c.loadedNames(), 1); len(near) > 0 {
			hint = fmt.Sprintf("did you mean '%s'?", near[0])
		} else if rejected := c.RejectedAgent(target); rejected != nil {
			hint = fmt.Sprintf("%s declares it but is rejected: %s", rejected.Path, rejected.Reason)
		}
	default:
		hint = fmt.Sprintf("set 'visibility: user-facing' in %s, or route to another agent", agent.Path)
	}
	sk.RouteError = msg
	r, _ := RuleByID(RuleRoutingTarget)
	if sev := r.Severity(p); sev != Off {
		sk.Diagnostics = append(sk.Diagnostics, Diagnostic{Path: sk.Path, Pos: sk.SubagentPos, Rule: RuleRoutingTarget, Severity: sev, Message: msg, Hint: hint})
	}
}
