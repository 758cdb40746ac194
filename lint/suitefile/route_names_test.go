package suitefile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRouteCaseNamesDefaultFromTheRequest: a routing case needs no name
// (the issue that asked for route suites listed a request, the expected
// agent and min-rate); its name is the request, shortened, unique in the
// suite (issue 20 item 13). A test case still needs one.
func TestRouteCaseNamesDefaultFromTheRequest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "front.route.yaml")
	os.WriteFile(path, []byte(`cases:
  - request: Please review my staged diff before I push it to the main branch today
    expect: reviewer
  - request: Please review my staged diff before I push it to the main branch tomorrow
    expect: reviewer
    min-rate: 0.8
  - request: "Why did\n the deploy fail?"
    expect: log-analyst
  - name: Why did the deploy fail?
    request: it broke
    expect: log-analyst
`), 0o644)
	s := LoadRoute(path)
	if len(s.Diagnostics) != 0 {
		t.Errorf("findings: %+v", s.Diagnostics)
	}
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.Name)
	}
	want := []string{"Please review my staged diff before I push it…", "Please review my staged diff before I push it… (case 2)", "Why did the deploy fail? (case 3)", "Why did the deploy fail?"}
	if !slices.Equal(names, want) {
		t.Errorf("names %q\nwant  %q", names, want)
	}
	test := filepath.Join(dir, "x.test.yaml")
	os.WriteFile(test, []byte("cases:\n  - task: hi\n"), 0o644)
	if ts := Load(test); len(ts.Diagnostics) == 0 || ts.Diagnostics[0].Rule != RuleMissing {
		t.Errorf("a test case without a name: %+v", ts.Diagnostics)
	}
}
