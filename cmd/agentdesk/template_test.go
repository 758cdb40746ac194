package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTemplateSuites: lint reports a template's findings at line:col, in
// the suite or in its vars-file (with the source line); test runs each
// row as a case.
func TestTemplateSuites(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	dir := filepath.Dir(suite)
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("rows.csv", "greeting,who\nhello,you\nhi\n")
	write("code-analyst.test.yaml", "template:\n  task: say {{greeting}}\nvars-file: rows.csv\n")
	code, stdout, _ := runTrialCmd(t, env, "", "lint")
	if code != 1 || !strings.Contains(stdout, "rows.csv:3:1: error: row 3 of the vars-file is ragged") || !strings.Contains(stdout, "   3 | hi") {
		t.Errorf("ragged: exit %d\n%s", code, stdout)
	}
	write("rows.csv", "greeting,who\nhello,you\n")
	write("code-analyst.test.yaml", "template:\n  task: say {{greting}}\nvars-file: rows.csv\n")
	code, stdout, _ = runTrialCmd(t, env, "", "lint")
	if code != 1 || !strings.Contains(stdout, "code-analyst.test.yaml:2:13: error: the template uses {{greting}}, which no row defines [suite-template]") ||
		!strings.Contains(stdout, "did you mean 'greeting'?") {
		t.Errorf("undefined: exit %d\n%s", code, stdout)
	}
	write("rows.csv", "greeting,who\nhello,you\nhowdy,them\n")
	write("code-analyst.test.yaml", "template:\n  task: say {{greeting}}\n  expect:\n    contains: '{{greeting}}'\nvars-file: rows.csv\n")
	code, stdout, stderr := runTrialCmd(t, env, "", "test")
	if code != 1 || !strings.Contains(stdout, "pass   hello, you") || !strings.Contains(stdout, "fail   howdy, them") || !strings.Contains(stdout, `contains "howdy": the output does not hold it`) {
		t.Errorf("test: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
