package suite

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
)

// A recording made with NetClaw's operating core, replayed where the core
// is missing, is stale because the core is missing, not "edited".
func TestStaleSaysTheCoreIsMissing(t *testing.T) {
	agent := &lint.File{Path: "/h/agents/a.md", Def: &lint.Definition{Name: "a", Description: "d", Body: "You are a."}}
	spec := func(core *request.Core) runner.Spec {
		return runner.Spec{Agent: agent, Task: "t", NetClaw: runner.NetClaw{Home: "/h", Audience: preview.Personal, Core: core, CoreMissing: "NetClaw installation not found"}}
	}
	was, err := requestParts(spec(&request.Core{Text: "Operating rules.", Source: "/opt/netclaw/netclawd"}), agent.Path)
	if err != nil {
		t.Fatal(err)
	}
	now, err := requestParts(spec(nil), agent.Path)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, c := range evalrec.Compare(was, now) {
		msgs = append(msgs, c.String())
	}
	got := strings.Join(msgs, "; ")
	if !strings.Contains(got, "system prompt: operating-rules changed: the NetClaw install's operating core is missing now (NetClaw installation not found)") || strings.Contains(got, "edited") {
		t.Errorf("stale message: %s", got)
	}
}
