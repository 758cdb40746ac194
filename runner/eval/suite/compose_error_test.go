//go:build unix

package suite

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestReplayOfARequestThatCannotBeComposed: when the request cannot be
// composed any more (here the project's instructions became a FIFO), a
// replayed or offline sample is an error that says why, as a live one is,
// not stale with "system prompt added since the recording" (the
// fingerprint's stand-in part), nor "not recorded".
func TestReplayOfARequestThatCannotBeComposed(t *testing.T) {
	f := newFixture(t)
	proj := filepath.Join(f.home.Agents, "proj")
	hometest.WriteFile(t, filepath.Join(proj, "README.md"), "a project\n")
	path := f.suite("cases:\n  - name: one\n    task: hi\n    project: proj\n  - name: two\n    task: other\n    project: proj\n")
	f.on("hi", modeltest.Reply("Hello"))
	if got := statuses(f.run(evalrec.Record, path)); got[0] != "one: pass 1/1" {
		t.Fatalf("recorded %q", got)
	}
	if err := os.Remove(evalrec.Path(path, "two", 1)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(proj, "AGENTS.md"), 0o644); err != nil {
		t.Skip(err)
	}
	for _, mode := range []evalrec.Mode{evalrec.Offline, evalrec.Default} {
		for _, c := range f.run(mode, path)[0].Cases {
			if c.Status != Error || !strings.Contains(c.Message, "the project instructions cannot be read") || !strings.Contains(c.Message, "AGENTS.md is a FIFO") {
				t.Errorf("mode %v, case %s: %s %q, want an error naming the FIFO", mode, c.Case.Name, c.Status, c.Message)
			}
		}
	}
}
