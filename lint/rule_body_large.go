package lint

// This file holds the check of the rule body-large (RuleBodyLarge): body
// over 16,000 tokens: the system prompt of every spawn.

import "fmt"

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
