package adapt

import "github.com/agentdesk/agentdesk/lint"

// MaxClaw (seed 004): a role is roles/<name>.md, a system prompt that
// spawn_subagent appends to the sub-agent's own, plus a model preference
// (palette:light, palette:mid, palette:frontier or a provider id). A role
// binds no tools and has no description; without a model preference the
// sub-agent runs on its parent session's model.

// maxClawModel is the model preference for a NetClaw model role:
// Compaction, NetClaw's small fast role, is palette:light; Main is the
// parent's model, which is what a role without a preference gets.
func maxClawModel(role string) string {
	if role == "Compaction" {
		return "palette:light"
	}
	return ""
}

func exportMaxClaw(x *exportCtx) (string, []byte) {
	d := x.d
	x.convertName(lint.ValidName, lint.Kebab, sameName)
	x.keepDescription()
	x.keepTools()
	if d.ModelRole == "Fallback" {
		x.carry.ModelRole = d.ModelRole
		x.warn("modelRole Fallback: MaxClaw has no fallback model, so the role runs on the parent's model; %s", x.lost())
	}
	x.keepRest(nil)
	w := newFrontmatter(x.carry.comment())
	if m := maxClawModel(d.ModelRole); m != "" {
		w.scalar("model", m)
	}
	return x.name + x.target.Ext, w.done(d.Body)
}
