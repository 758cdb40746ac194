package lint

// This file holds the check of the rule body-empty (RuleBodyEmpty): no
// system prompt after the frontmatter.

import "strings"

// checkBodyEmpty rejects a definition with no system prompt.
func (ps *parser) checkBodyEmpty(d *Definition, label string) {
	if strings.TrimSpace(d.Body) != "" {
		return
	}
	ps.add(RuleBodyEmpty, Pos{d.BodyLine, 1}, "the system prompt body after the closing '---' is empty: the runtime skips the file",
		"write the agent's instructions below the closing '---'")
	ps.reject(ps.agentReason(label, "has an empty system prompt body"))
}
