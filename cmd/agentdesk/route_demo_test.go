package main

import (
	"strings"
	"testing"

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
	code, _, stderr = runTrialCmd(t, nil, "", "route", "--demo", "write me a poem")
	if code != 2 || !strings.Contains(stderr, "ask one of these") || !strings.Contains(stderr, req) {
		t.Errorf("route --demo with a request it has not recorded: exit %d\n%s", code, stderr)
	}
}
