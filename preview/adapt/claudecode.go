package adapt

import (
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Claude Code: .claude/agents/<name>.md, YAML frontmatter (name,
// description, tools as a comma-separated string, model, color, ...) and the
// system prompt as the body.

// claudeModel is the Claude Code model for a NetClaw model role: Main runs
// on the parent's model ("inherit"); Compaction, NetClaw's small fast role,
// on Claude Code's small fast model ("haiku"). Fallback has no equivalent.
func claudeModel(role string) string {
	if role == "Compaction" {
		return "haiku"
	}
	return "inherit"
}

// claudeRole is the NetClaw model role for a Claude Code model: exact is
// false when the model (sonnet, opus, a model id) has no NetClaw equivalent
// and import keeps it under metadata.
func claudeRole(model string) (role string, exact bool) {
	switch strings.ToLower(strings.TrimSpace(model)) {
	case "", "inherit":
		return "Main", true
	case "haiku":
		return "Compaction", true
	}
	return "Main", false
}

func exportClaudeCode(x *exportCtx) (string, []byte) {
	d := x.d
	x.convertName(lint.ValidName, lint.Kebab, sameName)
	tools, ws := claudeTools.export(d.Tools, x.target.Title)
	x.warnings = append(x.warnings, ws...)
	model := claudeModel(d.ModelRole)
	if d.ModelRole == "Fallback" {
		x.carry.ModelRole = d.ModelRole
		x.warn("modelRole Fallback: Claude Code has no fallback model, so the agent runs on the parent's model (model: inherit); %s", x.lost())
	}
	rest := x.keepRest(claudeCodeKeys)
	rest, kept := takeRestored(rest, "model")
	if kept != nil {
		if role, _ := claudeRole(kept.text); role == claudeRoleOf(d.ModelRole) {
			model = kept.text
		} else {
			x.warn("metadata claude-code.model %q does not fit modelRole %s: wrote model: %s", kept.text, d.ModelRole, model)
		}
	}
	w := newFrontmatter(x.carry.comment())
	w.scalar("name", x.name)
	w.scalar("description", d.Description)
	switch {
	case slices.ContainsFunc(tools, func(t string) bool { return strings.Contains(t, ",") }):
		// A rule such as Bash(git add:*, git commit:*) would be cut at its
		// comma in the comma-separated form; Claude Code reads a list too.
		w.list("tools", tools)
	case len(tools) > 0:
		w.scalar("tools", strings.Join(tools, ", "))
	}
	w.scalar("model", model)
	w.restored(rest)
	return x.name + x.target.Ext, w.done(d.Body)
}

// claudeRoleOf is the role claudeRole gives back for a NetClaw role's model.
func claudeRoleOf(role string) string {
	r, _ := claudeRole(claudeModel(role))
	return r
}

func parseClaudeCode(x *importCtx, data []byte) error {
	return x.importFrontmatter(data, "", func(f yamlField) error {
		switch f.key {
		case "tools":
			list, err := yamlStrings(f)
			if err != nil {
				return err
			}
			x.agent.Tools = claudeTools.imported(x, list)
		case "model":
			model, err := yamlString(f)
			if err != nil {
				return err
			}
			role, exact := claudeRole(model)
			x.agent.ModelRole = role
			if !exact {
				x.agent.setMetadata("claude-code.model", model)
				x.warn("model %q has no NetClaw equivalent (NetClaw picks the model by modelRole in netclaw.json): imported as modelRole Main, the model kept under metadata as claude-code.model", model)
			}
		default:
			x.keepField(f.key, yamlValue(f.value), claudeCodeKeys, f.line)
		}
		return nil
	})
}
