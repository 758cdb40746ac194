package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// TestRouteDemoRequest: `route --demo REQUEST` answers a request the
// demo recorded from the recorded frontline; another request is bad usage
// that lists the ones it has (issue 20 item 25).
func TestRouteDemoRequest(t *testing.T) {
	req := demo.FrontlineRequests()[0]
	code, stdout, stderr := runTrialCmd(t, nil, "", "route", "--demo", req)
	if code != 0 || !strings.Contains(stdout, "Request: "+req) || !strings.Contains(stdout, "code-analyst  2/2  100%") ||
		!strings.Contains(stdout, "1. spawn_agent code-analyst") {
		t.Errorf("route --demo %q: exit %d\n%s\n%s", req, code, stdout, stderr)
	}
	// The header names the recordings that answered, not the demo
	// configuration's replay provider (a trial's recorded run, which no
	// sample played), as the text and the JSON.
	if want := "Frontline: qwen3:30b (recorded) (demo recording, agents/frontline.route.recordings), audience Personal"; !strings.Contains(stdout, want) || strings.Contains(stdout, "replay-") {
		t.Errorf("route --demo's header: want %q\n%s", want, stdout)
	}
	code, stdout, stderr = runTrialCmd(t, nil, "", "route", "--demo", "--format", "json", req)
	var doc struct {
		Model runfolder.Model `json:"model"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
		t.Fatalf("route --demo --format json: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if m := doc.Model; m.Provider != "demo recording" || m.Endpoint != "agents/frontline.route.recordings" || m.Type != runner.ReplayProviderType || m.ModelID != "qwen3:30b (recorded)" || m.Role != "Main" {
		t.Errorf("route --demo --format json: model %+v", m)
	}
	code, _, stderr = runTrialCmd(t, nil, "", "route", "--demo", "write me a poem")
	if code != 2 || !strings.Contains(stderr, "ask one of these") || !strings.Contains(stderr, req) {
		t.Errorf("route --demo with a request it has not recorded: exit %d\n%s", code, stderr)
	}
}
