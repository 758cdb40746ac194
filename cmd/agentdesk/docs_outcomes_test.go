package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
)

// TestDocsOutcomeTable: the outcome table of docs/runs.md lists exactly the
// reasons a run ends with, each with the outcome the runner gives it and
// the source it comes from.
func TestDocsOutcomeTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(docsRoot, "runs.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| (Completed|Partial|Failed) \\| `([a-z_]+)` \\|.*\\| ([^|]+) \\|$")
	var reasons []string
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		reasons = append(reasons, m[2])
		want := vocab.Failed
		if m[2] == vocab.ReasonToolCycleStopped {
			want = vocab.Partial
		}
		if vocab.Outcome(m[1]) != want {
			t.Errorf("%s is shown %s, the runner ends it %s", m[2], m[1], want)
		}
		src := strings.TrimSpace(m[3])
		if src != "seed 002" && !strings.Contains(src, "SubAgentOutcomeReason") {
			t.Errorf("%s names no source: %q", m[2], src)
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(reasons)), slices.Sorted(slices.Values(vocab.Reasons))) {
		t.Errorf("docs/runs.md lists %v, the runner has %v", reasons, vocab.Reasons)
	}
	for old := range vocab.RenamedReasons {
		if strings.Contains(string(b), "`"+old+"`") {
			t.Errorf("docs/runs.md still names %s", old)
		}
	}
}
