package adapt

import (
	"errors"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Codex CLI: .codex/agents/<name>.toml with name (hyphens and underscores
// alike), description, developer_instructions (the system prompt), and
// optionally model, model_reasoning_effort, sandbox_mode, any other config
// key (background_terminal_max_timeout) and more.

func exportCodex(x *exportCtx) (string, []byte) {
	d := x.d
	x.convertName(slugValid, lint.Kebab, sameName)
	x.keepTools()
	x.keepRole("Codex CLI has no model roles: a custom agent runs on the session's model unless its own model is set")
	rest := x.keepRest(codexKeys)
	var b strings.Builder
	if c := x.carry.comment(); c != "" {
		b.WriteString(c + "\n")
	}
	b.WriteString("name = " + tomlBasic(x.name) + "\n")
	b.WriteString("description = " + tomlBasic(d.Description) + "\n")
	for _, r := range rest {
		if r.kind == kindString {
			b.WriteString(r.key + " = " + tomlBasic(r.text) + "\n")
		} else {
			b.WriteString(r.key + " = " + r.text + "\n")
		}
	}
	b.WriteString("developer_instructions = " + tomlMultiline(d.Body) + "\n")
	return x.name + x.target.Ext, []byte(b.String())
}

func parseCodex(x *importCtx, data []byte) error {
	doc, err := parseTOML(data)
	if err != nil {
		return err
	}
	carry, ws := findCarried(doc.comments)
	x.warnings = append(x.warnings, ws...)
	x.agent.ModelRole = "Main"
	var name string
	hasInstructions := false
	for _, e := range doc.entries {
		if e.table != "" {
			continue
		}
		switch e.key {
		case "name", "description", "developer_instructions":
			if e.value.kind != tomlString {
				return &tomlError{line: e.line, col: 1, msg: e.key + " must be a string"}
			}
			switch e.key {
			case "name":
				name = e.value.str
			case "description":
				x.agent.Description = e.value.str
			default:
				x.agent.Body, hasInstructions = e.value.str, true
			}
		default:
			x.keepField(e.key, e.value.source(), codexKeys, e.line)
		}
	}
	for _, t := range doc.tables {
		x.warn("[%s] (line %d): NetClaw has no place for it; left out", t.key, t.line)
	}
	if !hasInstructions {
		return errors.New("no developer_instructions: that is the system prompt, and NetClaw needs one")
	}
	x.finishName(name, carry, sameName)
	x.agent.applyCarried(carry)
	return nil
}
