package main

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// TestLintObsoleteLoopSettings: agentdesk lint on a home whose netclaw.json
// still sets the tool-round cap and the per-call cap, and whose suite
// expects a reason agentdesk renamed: warnings for the two keys, an error
// with a did-you-mean for the reason.
func TestLintObsoleteLoopSettings(t *testing.T) {
	home := hometest.New(t, map[string]string{
		"agents/reviewer.md": goodAgent,
		"config/netclaw.json": `{
  "SubAgents": { "MaxLlmCallSeconds": 3600 },
  "Session": { "MaxToolIterationsPerTurn": 60 }
}`,
		"agents/reviewer.test.yaml": "cases:\n  - name: slow start\n    task: Review the diff.\n    expect:\n      outcome: Failed\n      reason: prefill_timeout\n",
	})
	code, stdout, stderr := run(t, []string{"HOME=/nonexistent"}, "lint", "--home", home)
	if code != 1 {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	for _, want := range []string{
		"netclaw.json:2:39: warning: SubAgents:MaxLlmCallSeconds is obsolete: NetClaw no longer caps the length of a model call",
		"netclaw.json:3:44: warning: Session:MaxToolIterationsPerTurn is obsolete: NetClaw has no cap on tool rounds",
		"hint: remove the key; netclaw doctor removes it and keeps the rest of the file",
		`reviewer.test.yaml:6:15: error: reason "prefill_timeout" is not a reason a run ends with any more`,
		"did you mean 'no_activity_timeout'? NetClaw reports a prefill expiry as no_activity_timeout",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("lint output lacks %q:\n%s", want, stdout)
		}
	}
}
