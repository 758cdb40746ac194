package main

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/eval/evalhtml/browsertest"
)

// TestHTMLFormat: test and route --suite write one self-contained page
// on stdout with --format html; route without --suite refuses it.
func TestHTMLFormat(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"test", "--demo", "--offline", "--format", "html"}, []string{"agentdesk test report", "Every case passed", "agents/code-analyst.test.yaml", "Pass rate per case", "explains the watcher"}},
		{[]string{"route", "--demo", "--suite", "--format", "html"}, []string{"agentdesk route report", "Confusion", "frontline.route.yaml"}},
	} {
		code, stdout, stderr := runTrialCmd(t, nil, "", tt.args...)
		if code != 0 || !strings.HasPrefix(stdout, "<!DOCTYPE html>") {
			t.Fatalf("%q: exit %d\n%s\n%s", tt.args, code, stdout, stderr)
		}
		browsertest.CheckPage(t, []byte(stdout), tt.texts...)
	}
	code, _, stderr := runTrialCmd(t, nil, "", "route", "--demo", "--format", "html", "hello")
	if code != 2 || !strings.Contains(stderr, "--format html reports suites: use it with --suite") {
		t.Errorf("route html without --suite: exit %d\n%s", code, stderr)
	}
}
