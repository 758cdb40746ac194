package lint

// This file holds the check of the rule unknown-field (RuleUnknownField): a
// key the runtime ignores.

import "fmt"

// foreignKeys are keys other agent tools use, with what to write instead.
var foreignKeys = map[string]string{
	"model":        "NetClaw picks the model through 'modelRole' (Main or Compaction); 'model' is a Claude Code/OpenCode key",
	"color":        "'color' is a Claude Code key; NetClaw has no place for it",
	"mode":         "'mode' is an OpenCode key; every NetClaw agent file is a sub-agent",
	"temperature":  "NetClaw has no per-agent temperature; the model definition decides",
	"max_turns":    "NetClaw has no per-agent turn limit, nor any cap on tool rounds: a run ends on its deadlines, on cancellation and by the cycle guard",
	"timeout_mins": "NetClaw has no per-agent run limit; see SubAgents.NoProgressTimeoutSeconds in netclaw.json",
}

// unknownKey warns about a key the runtime silently ignores, suggesting the
// known key it most resembles.
func (ps *parser) unknownKey(f Field) {
	msg := fmt.Sprintf("unknown key '%s': the runtime ignores it", f.Key)
	hint := ""
	if h, ok := foreignKeys[f.Key]; ok {
		hint = h
	} else if s := Suggest(f.Key, frontmatterKeys, 1); len(s) > 0 {
		hint = fmt.Sprintf("did you mean '%s'? keys are case-sensitive camelCase", s[0])
	}
	ps.add(RuleUnknownField, f.KeyPos, msg, hint)
}
