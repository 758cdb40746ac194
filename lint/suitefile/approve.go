package suitefile

import (
	"cmp"
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/approvepattern"
)

// ApprovePattern is one item of approve: (a suite's or a case's), the same
// pattern as --approve takes: TOOL, TOOL:GLOB or mcp:SERVER.
type ApprovePattern struct {
	Text string
	Pos  lint.Pos
}

// approveList reads approve: a pattern or a list of patterns, each
// checked with the grammar --approve is read with (lint/approvepattern).
func (r *reader) approveList(v *yaml.Node) []ApprovePattern {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	var out []ApprovePattern
	for _, e := range items {
		s, ok := r.scalar(e, "approve item")
		if !ok {
			continue
		}
		if why := approveProblem(s); why != "" {
			r.add(RuleApprove, posOf(e), fmt.Sprintf("approve %q: %s", s, why), "write TOOL, TOOL:GLOB or mcp:SERVER, as --approve takes them (e.g. \"shell_execute:go test *\")")
			continue
		}
		out = append(out, ApprovePattern{Text: s, Pos: posOf(e)})
	}
	return out
}

// approveProblem says why s is not an approval pattern, or "": the
// Problem of lint/approvepattern.Parse's error, the one grammar --approve
// is read with too (a suite's finding gives the hint --approve's message
// ends with).
func approveProblem(s string) string {
	var pe *approvepattern.PatternError
	if _, err := approvepattern.Parse(s); errors.As(err, &pe) {
		return pe.Problem
	}
	return ""
}

// ApproveAudit says why a session of audience (Personal, Team or Public)
// can never use the approval pattern, or "" when it can: the tool is not
// offered to the audience, or the MCP server is not one it may use. Which
// tools an audience is offered is the tool catalogue's knowledge, above
// lint: the caller hands the check in (runner/approve.AudienceCheck.Audit).
type ApproveAudit func(pattern, audience string) string

// CheckApproveAudience adds a finding (suite-approve) for each approve:
// item of a case (its own, or the suite's) that the case's audience can
// never use, as audit says, and keeps it among the case's problems, so
// the case does not run. The case's audience is its own, else the
// suite's, else fallback: the command's --audience, or "" where it is
// not known (agentdesk lint), and a case without one is not checked. A
// nil audit checks nothing.
func CheckApproveAudience(s *Suite, audit ApproveAudit, fallback string) {
	if audit == nil {
		return
	}
	r := &reader{path: s.Path}
	for _, cs := range s.Cases {
		audience := cmp.Or(cs.Audience, s.Audience, fallback)
		if audience == "" {
			continue
		}
		before := len(r.diags)
		for _, p := range cs.Approve {
			if why := audit(p.Text, audience); why != "" {
				r.add(RuleApprove, p.Pos, "approve "+why, "leave it out, or give the case an audience that can use it (audience:)")
			}
		}
		cs.Problems = append(cs.Problems, r.diags[before:]...)
	}
	s.Diagnostics = appendNew(s.Diagnostics, r.diags)
	lint.SortDiagnostics(s.Diagnostics)
}
