package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

// TestApproveNamesAToolThatExists: a pattern naming no tool NetClaw offers
// (a typo) could never match, and the run would then fail on the very call
// it was meant to approve; it is a usage error with the close name. MCP
// tool names (SERVER__TOOL) are checked only once servers run, so they pass.
func TestApproveNamesAToolThatExists(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		want    string // "" means accepted
	}{
		{"shel_execute", "did you mean shell_execute?"},
		{"web_fech:https://*", "did you mean web_fetch?"},
		{"nosuchtool", "no tool is named nosuchtool"},
		{"shell_execute:go test *", ""},
		{"web_fetch", ""},
		{"github__create_issue", ""},
		{"mcp:github", ""},
	} {
		_, err := parseApprove([]string{tt.pattern})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("--approve %q refused: %v", tt.pattern, err)
		case tt.want != "" && err == nil:
			t.Errorf("--approve %q accepted, want an error saying %q", tt.pattern, tt.want)
		case tt.want != "" && !strings.Contains(err.Error(), tt.want):
			t.Errorf("--approve %q: %v, want it to say %q", tt.pattern, err, tt.want)
		}
	}
	code, _, stderr := run(t, nil, "--home", "../../testdata/homes/good", "run", "code-analyst", "--task", "t", "--approve", "shel_execute")
	if code != exitUsage || !strings.Contains(stderr, "did you mean shell_execute?") {
		t.Errorf("run --approve shel_execute: exit %d, %s", code, stderr)
	}
}

// approveHome is a home with three MCP servers (files disabled, github
// and docs enabled; the Team audience may use docs only), an agent with a
// test suite and a routing suite, and a Main model nobody answers.
func approveHome(t *testing.T) (string, []string) {
	t.Helper()
	base := hometest.New(t, map[string]string{
		"config/netclaw.json": `{
  "Models": {"Roles": {"Main": "m"}, "Definitions": {"m": {"Provider": "p", "ModelId": "x"}}},
  "Providers": {"p": {"Type": "ollama", "Endpoint": "http://127.0.0.1:9"}},
  "McpServers": {
    "github": {"Command": "/bin/true"},
    "docs": {"Command": "/bin/true"},
    "files": {"Command": "/bin/true", "Enabled": false}
  },
  "Tools": {"AudienceProfiles": {"Team": {"McpServersMode": "Allowlist", "AllowedMcpServers": ["docs"]}}}
}`,
		"agents/helper.md":        "---\nname: helper\ndescription: Helps with the repository.\n---\nYou help.\n",
		"agents/helper.test.yaml": "cases:\n  - name: one\n    task: hi\n",
		"agents/front.route.yaml": "cases:\n  - {name: one, request: help me, expect: helper}\n",
	})
	return base, []string{"XDG_STATE_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "PATH=/bin:/usr/bin"}
}

// TestApproveNamesAServerThatExists: mcp:SERVER naming no configured
// server (a typo), a disabled one, or one the audience may not use could
// never match; it is a usage error (exit 2) with the close name of a
// server the audience may use, in run, test, route (one request and
// suites) and the browser. Server names match ignoring case.
func TestApproveNamesAServerThatExists(t *testing.T) {
	base, env := approveHome(t)
	cfg := lint.LoadConfig(lint.NewHome(base, ""), env)
	for _, tt := range []struct {
		pattern, audience string
		want              string // "" means accepted
	}{
		{"mcp:githb", "Personal", "no MCP server is named githb (did you mean mcp:github?)"},
		{"mcp:GitHub", "Personal", ""},
		{"mcp:github", "", ""},
		{"mcp:doc", "Team", "did you mean mcp:docs?"},
		{"mcp:docs", "Team", ""},
		{"mcp:github", "Team", "the Team audience may not use MCP server github"},
		{"mcp:files", "Personal", "MCP server files is disabled"},
		{"mcp:zzzzzz", "", "no MCP server is named zzzzzz: name one of McpServers in netclaw.json (docs, github; files is disabled)"},
		{"mcp:filez", "Personal", "no MCP server is named filez: name one of McpServers"}, // no did-you-mean of the disabled files
		{"shell_execute", "Personal", ""},
		{"github__create_issue", "Personal", ""},
		{"github__create_issue:*", "", ""},
		{"githb__create_issue", "Personal", "no MCP server is named githb (did you mean github__create_issue?)"},
		{"GitHub__create_issue", "Personal", "no MCP server is named GitHub (did you mean github__create_issue?)"},
		{"files__read", "Personal", "MCP server files is disabled"},
		{"github__create_issue", "Team", "the Team audience may not use MCP server github"},
	} {
		ps, err := parseApprove([]string{tt.pattern})
		if err == nil {
			err = checkApproveServers(ps, cfg, tt.audience)
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("--approve %q (%s) refused: %v", tt.pattern, tt.audience, err)
		case tt.want != "" && err == nil:
			t.Errorf("--approve %q (%s) accepted, want an error saying %q", tt.pattern, tt.audience, tt.want)
		case tt.want != "" && !strings.Contains(err.Error(), tt.want):
			t.Errorf("--approve %q (%s): %v, want it to say %q", tt.pattern, tt.audience, err, tt.want)
		}
	}
	if ps, _ := parseApprove([]string{"mcp:github"}); checkApproveServers(ps, lint.LoadConfig(lint.NewHome(t.TempDir(), ""), env), "") == nil {
		t.Error("mcp:github accepted with no McpServers configured")
	}

	for _, args := range [][]string{
		{"run", "helper", "--task", "t", "--approve", "mcp:githb"},
		{"test", "--approve", "mcp:githb"},
		{"route", "--approve", "mcp:githb", "help me"},
		{"route", "--suite", "--approve", "mcp:githb"},
		{"--approve", "mcp:githb"},
	} {
		code, _, stderr := run(t, env, append([]string{"--home", base}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, "did you mean mcp:github?") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestApprovePatternThatCanNeverMatch: an MCP tool name with an empty
// half, a tool that needs no approval, and a tool the audience is not
// offered are bad usage, as a misspelt tool is; the refusal of a call no
// one approved says its prefix once.
func TestApprovePatternThatCanNeverMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, want string
	}{
		{"fs__", "the tool half after fs__ is empty"},
		{"__read", "the server half before __read is empty"},
		{"file_read", "file_read needs no approval"},
		{"file_read:*.go", "file_read needs no approval"},
	} {
		if _, err := parseApprove([]string{tt.pattern}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("--approve %q: %v, want an error saying %q", tt.pattern, err, tt.want)
		}
	}
	base, env := approveHome(t)
	code, _, stderr := run(t, env, "--home", base, "run", "helper", "--task", "t", "--audience", "Team", "--approve", "shell_execute")
	if code != exitUsage || !strings.Contains(stderr, "the Team audience is not offered shell_execute") {
		t.Errorf("run --audience Team --approve shell_execute: exit %d, %s", code, stderr)
	}
}

// TestApproveAudienceEverywhere: wherever --approve meets an audience, a
// pattern that audience can never use is bad usage (exit 2), in run's
// words: test (the cases' audiences: their own, their suite's, else
// --audience), route (one request's --audience; a suite's audience), and
// the browser (--audience, and its suites' cases). A pattern one of the
// audiences can use is kept. A suite's approve: item its case's audience
// can never use is a lint finding.
func TestApproveAudienceEverywhere(t *testing.T) {
	base, env := approveHome(t)
	agents := filepath.Join(base, "agents")
	for name, text := range map[string]string{
		"team.route.yaml":   "audience: team\ncases:\n  - {name: one, request: help me, expect: helper}\n",
		"team.test.yaml":    "agent: helper\naudience: team\ncases:\n  - {name: shell, task: hi, approve: [shell_execute]}\n  - {name: own, task: hi, audience: personal, approve: [shell_execute]}\n",
		"mcpteam.test.yaml": "agent: helper\naudience: team\ncases:\n  - {name: gh, task: hi, approve: [\"mcp:github\", \"mcp:docs\"]}\n",
	} {
		if err := os.WriteFile(filepath.Join(agents, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	helper := filepath.Join(agents, "helper.test.yaml") // names no audience
	shell := "the Team audience is not offered shell_execute (the Team profile does not allow it), so the pattern approves nothing: leave it out, or run as an audience that gets it"
	github := "the Team audience may not use MCP server github"
	for _, tt := range []struct {
		args []string
		want string // "" means not refused for the audience
	}{
		{[]string{"test", "--audience", "Team", "--approve", "shell_execute", helper}, shell},
		{[]string{"test", "--audience", "team", "--approve", "mcp:github", helper}, github},
		{[]string{"test", "--approve", "shell_execute", helper}, ""},
		{[]string{"test", "--approve", "shell_execute", filepath.Join(agents, "mcpteam.test.yaml")}, shell},
		// Its case "own" runs as Personal, which gets the shell.
		{[]string{"test", "--approve", "shell_execute", filepath.Join(agents, "team.test.yaml")}, ""},
		{[]string{"route", "--audience", "Team", "--approve", "shell_execute", "help me"}, shell},
		{[]string{"route", "--audience", "Team", "--approve", "github__create_issue", "help me"}, github},
		{[]string{"route", "--approve", "shell_execute", "help me"}, ""},
		{[]string{"route", "--suite", "--approve", "shell_execute", filepath.Join(agents, "team.route.yaml")}, shell},
		{[]string{"route", "--suite", "--approve", "shell_execute"}, ""},
		{[]string{"--audience", "Team", "--approve", "shell_execute"}, ""}, // team.test.yaml's "own" case is Personal
		{[]string{"--audience", "Team", "--approve", "mcp:github"}, ""},
	} {
		code, _, stderr := run(t, env, append([]string{"--home", base}, tt.args...)...)
		refused := strings.Contains(stderr, "audience is not offered") || strings.Contains(stderr, "audience may not use")
		switch {
		case tt.want == "" && refused:
			t.Errorf("%v: refused for the audience: %s", tt.args, stderr)
		case tt.want != "" && (code != exitUsage || !strings.Contains(stderr, tt.want)):
			t.Errorf("%v: exit %d, %s\nwant exit 2 saying %q", tt.args, code, stderr, tt.want)
		case tt.want != "" && strings.Contains(stderr, "operating rules"):
			t.Errorf("%v: bad usage is not said alone (agentdesk help exit-codes: one line):\n%s", tt.args, stderr)
		}
	}

	// With no suite that runs as Personal, the browser refuses too.
	if err := os.Remove(filepath.Join(agents, "team.test.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--audience", "Team", "--approve", "shell_execute"},
		{"--audience", "Team", "--approve", "mcp:github"},
	} {
		code, _, stderr := run(t, env, append([]string{"--home", base}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, "the Team audience") {
			t.Errorf("browser %v: exit %d, %s", args, code, stderr)
		}
	}

	// lint: a suite's approve: item its case's audience can never use.
	code, stdout, _ := run(t, env, "--home", base, "lint", filepath.Join(agents, "mcpteam.test.yaml"))
	if code != exitFindings || !strings.Contains(stdout, `approve "mcp:github": the Team audience may not use MCP server github`) || strings.Contains(stdout, `approve "mcp:docs":`) {
		t.Errorf("lint mcpteam.test.yaml: exit %d\n%s", code, stdout)
	}
}

// TestSuiteApproveNamesAToolThatNeedsIt: a suite's approve: item is held
// to what --approve is held to: one naming a tool that needs no approval
// (file_read) or that NetClaw does not have is a suite-approve finding in
// lint (exit 1), and test does not run the case, whatever its audience.
func TestSuiteApproveNamesAToolThatNeedsIt(t *testing.T) {
	base, env := approveHome(t)
	suite := filepath.Join(base, "agents", "helper.test.yaml")
	text := "approve: [file_read, shell_execute]\ncases:\n  - {name: one, task: hi, approve: [shel_execute]}\n"
	if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := run(t, env, "--home", base, "lint", suite)
	for _, want := range []string{
		`1:11: error: approve "file_read": file_read needs no approval`,
		`3:37: error: approve "shel_execute": no tool is named shel_execute (did you mean shell_execute?)`,
	} {
		if code != exitFindings || !strings.Contains(stdout, want) || strings.Contains(stdout, `approve "shell_execute"`) {
			t.Errorf("lint: exit %d, want 1 and %q\n%s", code, want, stdout)
		}
	}
	code, stdout, stderr := run(t, env, "--home", base, "test", "--offline", suite)
	if code == exitOK || !strings.Contains(stdout+stderr, `approve "file_read": file_read needs no approval`) {
		t.Errorf("test: exit %d\n%s%s", code, stdout, stderr)
	}
}
