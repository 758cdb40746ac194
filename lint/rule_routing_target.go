package lint

// This file holds the check of the rule routing-target (RuleRoutingTarget):
// a skill's metadata.subagent is malformed, unknown or internal.

import (
	"fmt"
	"regexp"
)

// routeTargetRE is the runtime's pattern for metadata.subagent.
var routeTargetRE = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`)

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
