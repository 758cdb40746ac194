package preview

import "github.com/agentdesk/agentdesk/lint"

// SkillRoute is what activating one routed skill does: either the routed
// sub-agent starts with a composed system prompt, or activation fails with
// the runtime's error (there is no inline fallback).
type SkillRoute struct {
	// Skill is the SKILL.md whose frontmatter sets metadata.subagent.
	Skill *lint.Skill
	// Agent is the loaded, user-facing definition the skill runs through;
	// nil when routing fails.
	Agent *lint.File
	// Prompt is SystemPrompt(Agent.Def, Skill), the sub-agent's system
	// prompt on a routed activation; "" when routing fails.
	Prompt string
	// Err is the runtime's activation error in its own words; "" when the
	// skill routes.
	Err string
}

// OK reports whether the skill routes to a sub-agent.
func (r SkillRoute) OK() bool { return r.Err == "" }

// SkillRoutes returns the routing outcome of every skill in the catalog that
// routes through a sub-agent, in the catalog's skill order (by path).
func SkillRoutes(c *lint.Catalog) []SkillRoute {
	if c == nil {
		return nil
	}
	var out []SkillRoute
	for _, s := range c.Skills {
		if s != nil && s.Routed() {
			out = append(out, RouteSkill(c, s))
		}
	}
	return out
}

// RouteSkill resolves one skill's routing against the catalog (REFERENCE
// section 5). lint fills Skill.RouteError during a scan; when it is set,
// that is the outcome. Otherwise lint's Catalog.Route decides: the target
// must be well formed and resolve (ignoring case) to a loaded, user-facing
// agent, whose body is then composed with the skill's body; a skill that
// does not route at all, or one whose target does not resolve in c, gets
// the runtime's error.
func RouteSkill(c *lint.Catalog, s *lint.Skill) SkillRoute {
	r := SkillRoute{Skill: s}
	if s == nil {
		r.Err = "no skill"
		return r
	}
	if s.RouteError != "" {
		r.Err = s.RouteError
		return r
	}
	agent, failure := c.Route(s)
	if failure != "" {
		r.Err = failure
		return r
	}
	r.Agent = agent
	r.Prompt = SystemPrompt(agent.Def, s)
	return r
}
