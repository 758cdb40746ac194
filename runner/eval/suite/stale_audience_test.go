package suite

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestStaleAudienceSaysFromWhatToWhat: a recording made for another
// audience (the suite's, a case's or test --audience) is stale with both
// values, not "the suite's or case's audience edited" when the flag
// changed it.
func TestStaleAudienceSaysFromWhatToWhat(t *testing.T) {
	f := newFixture(t)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "README.md"), "a project\n")
	path := f.suite("cases:\n  - name: one\n    task: hi\n    project: proj\n")
	f.on("hi", modeltest.Reply("Hello"))
	if got := statuses(f.run(evalrec.Record, path)); got[0] != "one: pass 1/1" {
		t.Fatalf("recorded %q", got)
	}
	f.suite("audience: team\ncases:\n  - name: one\n    task: hi\n    project: proj\n")
	c := f.run(evalrec.Offline, path)[0].Cases[0]
	if c.Status != Stale || !strings.Contains(c.Message, "audience changed: Personal → Team") {
		t.Errorf("%s %q, want stale naming both audiences", c.Status, c.Message)
	}
}
