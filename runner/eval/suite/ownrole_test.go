package suite

import (
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// --models naming the agent's own role replays the recordings a plain
// --record made: they are the same samples.
func TestModelsOwnRoleReusesPlainRecordings(t *testing.T) {
	f := newFixture(t)
	f.on("hi", modeltest.Reply("Hello"))
	path := f.suite("cases:\n  - name: greets\n    task: hi\n    expect: {contains: Hello}\n")
	if got := statuses(f.run(evalrec.Record, path)); !slices.Equal(got, []string{"greets: pass 1/1"}) {
		t.Fatalf("recorded: %q", got)
	}
	f.models = []string{"Compaction"} // the tester's modelRole, by default
	rs := f.run(evalrec.Offline, path)
	c := rs[0].Cases[0]
	if c.Status != Pass || c.Samples[0].How != "replay" {
		t.Errorf("--models Compaction offline: %s (%s) %q", c.Status, c.Samples[0].How, c.Message)
	}
}
