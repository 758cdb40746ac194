package tools

import (
	"context"
	"encoding/json"
	"fmt"
)

// StubNote starts every stubbed result, so the model and the author both
// see that nothing ran.
const StubNote = "[agentdesk trial: not run]"

// stubbed says, per tool that touches NetClaw's own state or other
// systems, what the runtime would have done. The memory tools are stubbed
// even where they only read: NetClaw keeps memory in its daemon's SQLite
// database (NetclawPaths.MemorySqliteDbPath), which a trial does not open:
// opening a live SQLite database may create or change its -wal and -shm
// files, and its schema is the daemon's, not a file format agentdesk reads.
var stubbed = map[string]string{
	"set_reminder":          "scheduled a reminder in NetClaw's scheduler",
	"list_reminders":        "listed the reminders in NetClaw's scheduler",
	"cancel_reminder":       "cancelled a reminder in NetClaw's scheduler",
	"get_reminder_history":  "listed recent runs of a reminder from NetClaw's reminder history",
	"run_reminder":          "run the reminder now, delivered to its real target and recorded in its history as a manual run",
	"find_memories":         "searched the user's cross-session memory in NetClaw's memory store",
	"get_memories":          "loaded memories by id from the user's cross-session memory in NetClaw's memory store",
	"store_memory":          "saved a memory to the user's cross-session memory in NetClaw's memory store",
	"update_memory":         "edited or deleted a memory in the user's cross-session memory in NetClaw's memory store",
	"set_webhook":           "created or changed an inbound webhook route in NetClaw",
	"delete_webhook":        "deleted an inbound webhook route in NetClaw",
	"list_webhooks":         "listed NetClaw's inbound webhook routes",
	"skill_manage":          "created, changed or deleted a skill in NetClaw's skills folder",
	"check_background_job":  "reported the state of a background job of the session",
	"check_agent_run":       "reported the state of a child run of the session, or asked to cancel it",
	"set_working_directory": "changed the session's project folder",
	"attach_file":           "attached a file to the reply to the user",
}

// Stub returns a tool offered with spec that never runs: each call gets a
// labelled result naming what the runtime would have done (what; "" uses
// the built-in table, else a generic line).
func Stub(spec Spec, what string) Tool {
	if what == "" {
		what = stubbed[spec.Name]
	}
	if what == "" {
		what = "changed NetClaw's state or another system"
	}
	return &stub{spec: spec, what: what}
}

type stub struct {
	spec Spec
	what string
}

func (s *stub) Spec() Spec { return s.spec }

func (s *stub) Call(_ context.Context, args json.RawMessage) Result {
	_, clean, err := SplitMeta(args)
	if err != nil {
		clean = args
	}
	return Result{
		Text: fmt.Sprintf("%s %s touches NetClaw's own state or another system, so this trial did not run it. "+
			"In NetClaw it would have %s, with the arguments %s. Carry on as if it succeeded, or say what you needed it for.",
			StubNote, s.spec.Name, s.what, safe(string(clean))),
		Label: LabelStubbed,
	}
}
