package request

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// check_agent_run is CheckAgentRunTool @28ddf700 exactly: its description,
// its two parameters (RunId required, Cancel optional) and the meta
// parameters; deferred, denied to sub-agents, and named in the frontline's
// tool index beside spawn_agent.
func TestCheckAgentRunSchema(t *testing.T) {
	tl, ok := NetClaw().Tool("check_agent_run")
	if !ok {
		t.Fatal("check_agent_run is not catalogued")
	}
	want := `{"type":"object","properties":{` +
		`"RunId":{"type":"string","description":"The run_id from an accepted child start."},` +
		`"Cancel":{"type":"boolean","description":"Set true to request cancellation."},` +
		`"_rationale":{"type":"string","description":"State your intent for this tool call in one sentence — what are you trying to accomplish and why?"},` +
		`"_timeout_seconds":{"type":"integer","description":"Requested timeout in seconds. Only set when the default is insufficient."},` +
		`"_background":{"type":"boolean","description":"Set to true to run this tool in the background and receive results later."}},` +
		`"required":["RunId","_rationale"]}`
	if got := string(tl.Schema()); got != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
	if tl.Description != "Read an accepted child run and its authorized log and artifact paths, or request cancellation. Cancellation admission and dispatch closure are separate facts." {
		t.Errorf("description %q", tl.Description)
	}
	if !tl.Deferred || tl.Grant != "builtin" || AllowedForSubAgent(tl.Name) {
		t.Errorf("deferred %v, grant %q, allowed for a sub-agent %v", tl.Deferred, tl.Grant, AllowedForSubAgent(tl.Name))
	}
	for _, a := range []preview.Audience{preview.Personal, preview.Team} {
		if slices := SubAgentTools(a).Names(); strings.Contains(strings.Join(slices, ","), "check_agent_run") {
			t.Errorf("%s: a sub-agent is offered check_agent_run", a)
		}
	}
	c := &lint.Catalog{}
	c.Home.Agents = "/srv/netclaw/agents"
	compose := func(a preview.Audience, p Policy) SessionContext {
		return ComposeSessionContext(SessionContextInput{Catalog: c, Audience: a, Policy: p, Tools: NetClaw().Tools(), ZoneID: "UTC"})
	}
	hint := "check_agent_run: Read an accepted child run and its authorized log and artifact paths, or requ..."
	if sc := compose(preview.Personal, DefaultPolicy()); !strings.Contains(sc.Static, hint) {
		t.Errorf("the frontline's index lacks %q:\n%s", hint, sc.Static)
	}
	off := DefaultPolicy()
	off.SubAgents = false
	for name, sc := range map[string]SessionContext{"Public": compose(preview.Public, DefaultPolicy()), "SubAgents.Enabled off": compose(preview.Personal, off)} {
		if strings.Contains(sc.Static, "check_agent_run") {
			t.Errorf("%s: the index names check_agent_run", name)
		}
	}
}
