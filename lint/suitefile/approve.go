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

// ApproveAudit says why the approval pattern can never match, or "" when
// it can. With audience "" it checks the pattern alone: a tool that needs
// no approval, or that NetClaw does not have. With an audience (Personal,
// Team or Public) it checks whether a session of that audience can use
// it: the tool is offered to the audience, the MCP server is one it may
// use. The tool catalogue knows both, above lint: the caller hands the
// check in (runner/approve.AudienceCheck.Audit).
type ApproveAudit func(pattern, audience string) string

// CheckApproveAudience adds a finding (suite-approve) for each approve:
// item of a case (its own, or the suite's) that can never match, as audit
// says, and keeps it among the case's problems, so the case does not run:
// a tool that needs no approval or does not exist, for every case; one the
// case's audience can never use, where the audience is known. The case's
// audience is its own, else the suite's, else fallback: the command's
// --audience, or "" where it is not known (agentdesk lint). A nil audit
// checks nothing.
func CheckApproveAudience(s *Suite, audit ApproveAudit, fallback string) {
	if audit == nil {
		return
	}
	r := &reader{path: s.Path}
	for _, cs := range s.Cases {
		audience := cmp.Or(cs.Audience, s.Audience, fallback)
		before := len(r.diags)
		for _, p := range cs.Approve {
			if why := audit(p.Text, ""); why != "" {
				r.add(RuleApprove, p.Pos, "approve "+why, "leave it out, or name a tool that needs approval (shell_execute, web_fetch, web_search, SERVER__TOOL) or mcp:SERVER")
				continue
			}
			if audience == "" {
				continue
			}
			if why := audit(p.Text, audience); why != "" {
				r.add(RuleApprove, p.Pos, "approve "+why, "leave it out, or give the case an audience that can use it (audience:)")
			}
		}
		cs.Problems = append(cs.Problems, r.diags[before:]...)
	}
	s.Diagnostics = appendNew(s.Diagnostics, r.diags)
	lint.SortDiagnostics(s.Diagnostics)
}
