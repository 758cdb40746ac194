package adapt

import (
	"bytes"
	"encoding/json"

	"github.com/agentdesk/agentdesk/lint"
)

// The JIT sub-agent tools (seed 003): subagent_generate takes a JSON config
// with role (who the agent is and what it does), roster, shared_task,
// protocol, constraints and name. A NetClaw body becomes the role; the
// protocol tells the agent how to hand its result back, since a JIT
// sub-agent reports to its parent by writing a STATUS block instead of
// returning a final answer. JSON has no comments, so fields the config has
// no place for are lost (and named in warnings).

// jitProtocol is the protocol every exported JIT config carries: the
// result format of seed 003.
const jitProtocol = "When you are done, write your result to s/{parent_session_id}/prompt in this form:\n" +
	"[from={session_id}]\n" +
	"STATUS: done|blocked|partial\n" +
	"SUMMARY: <what was accomplished>\n" +
	"ARTIFACTS: <paths written, omit if none>\n" +
	"OPEN: <unresolved items, omit if none>"

// jitConfig is the subagent_generate input.
type jitConfig struct {
	Name     string `json:"name"`
	Role     string `json:"role"`
	Protocol string `json:"protocol"`
}

func exportJIT(x *exportCtx) (string, []byte) {
	d := x.d
	x.noComments = true
	x.convertName(lint.ValidName, lint.Kebab, sameName)
	x.keepDescription()
	x.keepTools()
	if d.Set("modelRole") {
		x.warn("modelRole %s: a JIT config has no model; pass -model to subagent_spawn; %s", d.ModelRole, x.lost())
	}
	x.keepRest(nil)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// Strings only: encoding cannot fail.
	_ = enc.Encode(jitConfig{Name: x.name, Role: d.Body, Protocol: jitProtocol})
	return x.name + x.target.Ext, buf.Bytes()
}
