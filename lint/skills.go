package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// routeTargetRE is the runtime's pattern for metadata.subagent.
var routeTargetRE = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`)

// scanSkills lists <skills>/<skill>/SKILL.md, <skills>/.system/<skill>/SKILL.md
// and <skills>/.server-feeds/<feed>/<skill>/SKILL.md, parses each (cached by
// fingerprint) and resolves its routing against the catalog.
func (s *Scanner) scanSkills(c *Catalog) []*Skill {
	type found struct {
		path   string
		src    Source
		system bool
	}
	var paths []found
	add := func(dir string, src Source, system bool) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, d := range ents {
			if strings.HasPrefix(d.Name(), ".") {
				continue
			}
			paths = append(paths, found{filepath.Join(dir, d.Name(), "SKILL.md"), src, system})
		}
	}
	add(s.home.Skills, Source{}, false)
	add(s.home.SystemSkillsDir(), Source{}, true)
	if feeds, err := os.ReadDir(s.home.SkillFeedsDir()); err == nil {
		for _, d := range feeds {
			add(filepath.Join(s.home.SkillFeedsDir(), d.Name()), Source{Feed: d.Name()}, false)
		}
	}

	var out []*Skill
	live := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Stat(p.path)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileSize {
			continue
		}
		live[p.path] = true
		sk := s.skills[p.path]
		if sk == nil || sk.size != fi.Size() || !sk.modTime.Equal(fi.ModTime()) {
			data, err := readCapped(p.path, fi.Size())
			if err != nil {
				continue
			}
			sk = ParseSkill(p.path, data)
			sk.size, sk.modTime = fi.Size(), fi.ModTime()
			s.skills[p.path] = sk
		}
		routed := *sk
		routed.Source, routed.System = p.src, p.system
		resolveRoute(&routed, c, s.opts.Profile)
		out = append(out, &routed)
	}
	for p := range s.skills {
		if !live[p] {
			delete(s.skills, p)
		}
	}
	slices.SortFunc(out, func(a, b *Skill) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// ParseSkill reads a SKILL.md: its name (frontmatter name, else the folder
// name), metadata.subagent with its position, and its body. A SKILL.md whose
// frontmatter does not parse yields a skill that does not route.
func ParseSkill(path string, data []byte) *Skill {
	sk := &Skill{Name: filepath.Base(filepath.Dir(path)), Path: path}
	text := DecodeText(data)
	fm, _, body, ok := splitFrontmatter(text)
	if !ok {
		sk.Body = strings.TrimSpace(text)
		return sk
	}
	sk.Body = body
	var doc yaml.Node
	if safeUnmarshal(fm, &doc) != nil || len(doc.Content) == 0 {
		return sk
	}
	root := resolve(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		return sk
	}
	ps := parser{fmLine: 2}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := resolve(root.Content[i]), resolve(root.Content[i+1])
		if k == nil || v == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		switch {
		case k.Value == "name" && v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) != "":
			sk.Name = strings.TrimSpace(v.Value)
		case k.Value == "metadata" && v.Kind == yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				mk, mv := resolve(v.Content[j]), resolve(v.Content[j+1])
				if mk != nil && mv != nil && mk.Value == "subagent" && mv.Kind == yaml.ScalarNode && !isNull(mv) {
					sk.Subagent = strings.TrimSpace(mv.Value)
					sk.SubagentPos = ps.nodePos(v.Content[j+1])
				}
			}
		}
	}
	return sk
}

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
// target must be well formed and name (ignoring case) a loaded, user-facing
// agent, which Route returns. Otherwise agent is nil and failure is the
// runtime's activation error in its own words. A skill that does not route
// fails too, with agentdesk's words. A nil catalog registers no agent.
func (c *Catalog) Route(sk *Skill) (agent *File, failure string) {
	target := sk.Subagent
	var found *File
	if c != nil {
		found = c.Agent(target)
	}
	switch {
	case !sk.Routed():
		return nil, fmt.Sprintf("Skill '/%s' does not route to a subagent: it sets no metadata.subagent in %s.", sk.Name, sk.Path)
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
// where one helps, when a routed skill's target is malformed, not
// registered, or internal.
func resolveRoute(sk *Skill, c *Catalog, p Profile) {
	sk.RouteError, sk.Diagnostics = "", nil
	if !sk.Routed() {
		return
	}
	_, msg := c.Route(sk)
	if msg == "" {
		return
	}
	var hint string
	target := sk.Subagent
	switch agent := c.Agent(target); {
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
	sk.Diagnostics = []Diagnostic{{Path: sk.Path, Pos: sk.SubagentPos, Rule: RuleRoutingTarget, Severity: r.Severity(p), Message: msg, Hint: hint}}
}
