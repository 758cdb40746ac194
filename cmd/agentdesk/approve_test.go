package main

import (
	"strings"
	"testing"
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
