package suitefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"

	"github.com/agentdesk/agentdesk/lint"
)

// A suite and a case may approve gated calls with the same patterns as
// --approve: the case's own, then the suite's. A pattern that cannot be
// read is an error at its line.
func TestApproveList(t *testing.T) {
	src := `approve: ["web_fetch:https://docs.test/*"]
cases:
  - name: runs tests
    task: run the tests
    project: proj
    approve:
      - "shell_execute:go test *"
      - mcp:github
  - name: plain
    task: read
`
	s := Parse("a.test.yaml", []byte(src))
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", diagLines(s.Diagnostics))
	}
	var got []string
	for _, p := range s.Cases[0].Approve {
		got = append(got, p.Text)
	}
	if strings.Join(got, "|") != "shell_execute:go test *|mcp:github|web_fetch:https://docs.test/*" || s.Cases[0].Approve[0].Pos.Line != 7 {
		t.Errorf("case approve = %q (%+v)", got, s.Cases[0].Approve)
	}
	if len(s.Cases[1].Approve) != 1 || s.Cases[1].Approve[0].Text != "web_fetch:https://docs.test/*" {
		t.Errorf("the suite's approve: is not the second case's: %+v", s.Cases[1].Approve)
	}

	bad := `cases:
  - name: one
    task: t
    approve: ["shell_execute:", "fs__", "mcp:", "no spaces allowed", ""]
`
	s = Parse("b.test.yaml", []byte(bad))
	lines := diagLines(s.Diagnostics)
	for _, want := range []string{"the glob after \"shell_execute:\" is empty", "the tool half after fs__ is empty", "mcp: is followed by one MCP server's name", "is not a tool name", "the pattern is empty"} {
		found := false
		for _, l := range lines {
			if strings.Contains(l, want) && strings.Contains(l, RuleApprove) && strings.HasPrefix(l, "4:") {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s diagnostic at line 4 saying %q in %q", RuleApprove, want, lines)
		}
	}
}

// An approve: pattern naming an MCP server the configuration does not
// have approves nothing: lint says so.
func TestApproveUnknownServer(t *testing.T) {
	dir := t.TempDir()
	h := lint.NewHome(dir, "")
	if err := os.MkdirAll(h.ConfigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hometest.WriteFile(t, h.ConfigFile(), `{"McpServers": {"github": {"Command": "/bin/true"}}}`)
	c := &lint.Catalog{Home: h, Config: lint.LoadConfig(h, nil)}
	s := Parse(filepath.Join(dir, "a.test.yaml"), []byte("cases:\n  - name: one\n    task: t\n    approve: [mcp:github, mcp:gitlab, gitlab__issue]\n"))
	Check(s, c)
	lines := strings.Join(diagLines(s.Diagnostics), "\n")
	if strings.Count(lines, "no MCP server is named gitlab") != 2 || strings.Contains(lines, "named github") {
		t.Errorf("diagnostics:\n%s", lines)
	}
}

// An approve: item the case's audience (its own, else the suite's, else
// the command's) can never use is a finding at the item, among the case's
// problems; a case whose audience is not known is not checked.
func TestApproveAudience(t *testing.T) {
	audit := func(pattern, audience string) string {
		if strings.HasPrefix(pattern, "shell_execute") && audience != "Personal" && audience != "" {
			return fmt.Sprintf("%q: the %s audience is not offered shell_execute", pattern, audience)
		}
		return ""
	}
	src := `approve: [shell_execute]
cases:
  - name: team
    task: t
    audience: team
  - name: personal
    task: t
    audience: personal
  - name: unknown
    task: t
`
	s := Parse("a.test.yaml", []byte(src))
	CheckApproveAudience(s, audit, "")
	lines := diagLines(s.Diagnostics)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "1:") || !strings.Contains(lines[0], `approve "shell_execute": the Team audience is not offered shell_execute`) || !strings.Contains(lines[0], RuleApprove) {
		t.Errorf("diagnostics = %q, want one for the Team case at line 1", lines)
	}
	if len(s.Cases[0].Problems) != 1 || len(s.Cases[1].Problems) != 0 || len(s.Cases[2].Problems) != 0 {
		t.Errorf("problems: team %v, personal %v, unknown %v", s.Cases[0].Problems, s.Cases[1].Problems, s.Cases[2].Problems)
	}

	s = Parse("a.test.yaml", []byte(src))
	CheckApproveAudience(s, audit, "Team") // --audience Team: the third case too
	if len(s.Cases[2].Problems) != 1 || len(s.Diagnostics) != 1 {
		t.Errorf("with --audience Team: problems %v, diagnostics %q (one finding, said once)", s.Cases[2].Problems, diagLines(s.Diagnostics))
	}
	CheckApproveAudience(s, nil, "Team") // no audit: nothing
}

// An approve: item that can never match whatever the audience (audit with
// no audience: a tool that needs no approval) is a finding for every case,
// those with no audience too, said once; the audience is then not asked.
func TestApproveToolChecksEveryCase(t *testing.T) {
	var asked []string
	audit := func(pattern, audience string) string {
		asked = append(asked, pattern+"/"+audience)
		if pattern == "file_read" && audience == "" {
			return `"file_read": file_read needs no approval`
		}
		return ""
	}
	src := `approve: [file_read]
cases:
  - name: team
    task: t
    audience: team
  - name: unknown
    task: t
`
	s := Parse("a.test.yaml", []byte(src))
	CheckApproveAudience(s, audit, "")
	lines := diagLines(s.Diagnostics)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "1:") || !strings.Contains(lines[0], `approve "file_read": file_read needs no approval`) {
		t.Errorf("diagnostics = %q, want one at line 1", lines)
	}
	if len(s.Cases[0].Problems) != 1 || len(s.Cases[1].Problems) != 1 {
		t.Errorf("problems: team %v, unknown %v, want one each", s.Cases[0].Problems, s.Cases[1].Problems)
	}
	for _, a := range asked {
		if strings.HasSuffix(a, "/Team") {
			t.Errorf("asked %s after the tool check refused it", a)
		}
	}
}
