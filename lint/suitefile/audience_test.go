package suitefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Suites and cases take audience: (Personal or Team: a Public session
// cannot spawn, so Public is an error, as agentdesk run refuses it);
// expect: tools: items may require arguments.
func TestAudienceAndToolArgs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "code-analyst.test.yaml")
	src := `audience: team
cases:
  - name: reads the readme
    task: Read it.
    audience: Public
    expect:
      tools:
        - file_list
        - {name: file_read, args: {Path: README.md, StartLine: 1}}
  - name: bad
    task: x
    audience: world
    expect:
      tools:
        - {args: {Path: x}}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Load(path)
	if s.Audience != "Team" || len(s.Cases) != 2 {
		t.Fatalf("suite audience %q, %d cases", s.Audience, len(s.Cases))
	}
	c := s.Cases[0]
	if c.Audience != "" || strings.Join(c.Expect.Tools, ",") != "file_list,file_read" || len(c.Expect.ToolCalls) != 1 {
		t.Fatalf("case %+v", c)
	}
	if tc := c.Expect.ToolCalls[0]; tc.Name != "file_read" || tc.Args["Path"] != "README.md" || tc.Args["StartLine"] != 1 {
		t.Errorf("tool call %+v", tc)
	}
	var msgs []string
	for _, d := range s.Diagnostics {
		msgs = append(msgs, d.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`audience "world" is not an audience`, "a tools item has no name", "audience Public cannot spawn sub-agents"} {
		if !strings.Contains(all, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, all)
		}
	}
}

// A case that expects tool calls but has no project can never pass: a
// trial without a project offers no tools.
func TestToolsExpectedWithoutProject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "code-analyst.test.yaml")
	src := "cases:\n  - name: no project\n    task: Read it.\n    expect:\n      tools: [file_read]\n  - name: with project\n    task: Read it.\n    project: .\n    expect:\n      tools: [file_read]\n  - name: no tools wanted\n    task: Answer.\n    expect:\n      no-tools: [file_read]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Load(path)
	var got []string
	for _, d := range s.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Pos.Line, d.Pos.Column, d.Rule, d.Message))
	}
	want := `5:14 suite-value case "no project" expects tool calls (file_read) but has no project: a trial without one offers no tools, so none can be called`
	if len(got) != 1 || got[0] != want {
		t.Errorf("diagnostics %q, want only %q", got, want)
	}
}
