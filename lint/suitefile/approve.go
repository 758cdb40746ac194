package suitefile

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// ApprovePattern is one item of approve: (a suite's or a case's), the same
// pattern as --approve takes: TOOL, TOOL:GLOB or mcp:SERVER.
type ApprovePattern struct {
	Text string
	Pos  lint.Pos
}

// approveList reads approve: a pattern or a list of patterns, each
// checked as runner/approve.Parse reads --approve.
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
		if why := ApproveProblem(s); why != "" {
			r.add(RuleApprove, posOf(e), fmt.Sprintf("approve %q: %s", s, why), "write TOOL, TOOL:GLOB or mcp:SERVER, as --approve takes them (e.g. \"shell_execute:go test *\")")
			continue
		}
		out = append(out, ApprovePattern{Text: s, Pos: posOf(e)})
	}
	return out
}

// ApproveProblem says why s is not an approval pattern, or "": the checks
// of runner/approve.Parse, in its words (which agentdesk's tests keep
// equal).
func ApproveProblem(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "the pattern is empty: give TOOL, TOOL:GLOB or mcp:SERVER"
	case !utf8.ValidString(s):
		return "the pattern is not UTF-8 text"
	}
	if rest, ok := strings.CutPrefix(s, "mcp:"); ok {
		if rest == "" || strings.ContainsAny(rest, ": \t") {
			return "mcp: is followed by one MCP server's name as netclaw.json's McpServers names it (e.g. mcp:github)"
		}
		return ""
	}
	tool, glob, has := strings.Cut(s, ":")
	if !approveToolName(tool) {
		return fmt.Sprintf("%q is not a tool name (letters, digits, _ and -, as the model sees it: shell_execute, web_fetch, github__create_issue)", tool)
	}
	if server, own, mcp := strings.Cut(tool, "__"); mcp {
		switch {
		case server == "":
			return fmt.Sprintf("the server half before __%s is empty: give SERVER__TOOL", own)
		case own == "":
			return fmt.Sprintf("the tool half after %s__ is empty: give SERVER__TOOL, or mcp:%s for every tool of the server", server, server)
		}
	}
	if has && glob == "" {
		return fmt.Sprintf("the glob after %q is empty: leave the colon out to approve every call of %s", tool+":", tool)
	}
	if strings.HasSuffix(glob, `\`) && (len(glob)-len(strings.TrimRight(glob, `\`)))%2 == 1 {
		return `the glob ends in a lone \: write \\ for a backslash`
	}
	return ""
}

// approveToolName reports whether s can be a model-facing tool name.
func approveToolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
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
