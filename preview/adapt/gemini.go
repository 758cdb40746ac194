package adapt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Gemini CLI: .gemini/agents/<name>.md, YAML frontmatter with name (a slug
// of lowercase letters, digits, '-' and '_'), description, kind (local),
// tools (a list; absent means every tool), model (absent means the main
// session's), temperature, max_turns, timeout_mins; the body is the system
// prompt.

func exportGemini(x *exportCtx) (string, []byte) {
	d := x.d
	x.convertName(slugValid, lint.Kebab, sameName)
	tools, ws := geminiTools.export(d.Tools, x.target.Title)
	x.warnings = append(x.warnings, ws...)
	x.keepRole("Gemini CLI has no model roles: a sub-agent runs on the main session's model unless its own model is set")
	rest := x.keepRest(geminiKeys)
	w := newFrontmatter(x.carry.comment())
	w.scalar("name", x.name)
	w.scalar("description", d.Description)
	w.scalar("kind", "local")
	if len(tools) > 0 {
		w.list("tools", tools)
	}
	w.restored(rest)
	return x.name + x.target.Ext, w.done(d.Body)
}

func parseGemini(x *importCtx, data []byte) error {
	return x.importFrontmatter(data, "", func(f yamlField) error { return geminiField(x, f) })
}

// geminiField reads one frontmatter field of a Gemini CLI agent: kind,
// the tools list and the model; any other is kept.
func geminiField(x *importCtx, f yamlField) error {
	switch f.key {
	case "kind":
		return geminiKind(f)
	case "tools":
		list, err := yamlStrings(f)
		if err != nil {
			return err
		}
		x.agent.Tools = geminiTools.imported(x, list)
	case "model":
		model, err := yamlString(f)
		if err != nil {
			return err
		}
		if model != "" && !strings.EqualFold(model, "inherit") {
			x.keepField(f.key, sourceValue{text: model, scalar: true}, geminiKeys, f.line)
		}
	default:
		x.keepField(f.key, yamlValue(f.value), geminiKeys, f.line)
	}
	return nil
}

// geminiKind checks a Gemini agent's kind: local (or none) imports; a
// remote agent has no system prompt, and anything else is unknown.
func geminiKind(f yamlField) error {
	kind, err := yamlString(f)
	if err != nil {
		return err
	}
	if strings.EqualFold(kind, "remote") {
		return errors.New("a remote (Agent-to-Agent) agent has no system prompt: NetClaw cannot run it")
	}
	if kind != "" && !strings.EqualFold(kind, "local") {
		return fmt.Errorf("line %d: kind %q is neither local nor remote", f.line, kind)
	}
	return nil
}
