package preview

import (
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// OverlayMarker is the line the runtime puts between an agent's body and a
// routed skill's body in the composed system prompt.
const OverlayMarker = "[Skill Overlay]"

// SystemPrompt returns the system prompt a spawn of agent receives
// (REFERENCE sections 5 and 6). Without a skill it is the agent's body
// verbatim, trailing white space and CRLF line endings included. For a skill
// that routes through the agent it is
//
//	TrimEnd(agent body) + "\n\n[Skill Overlay]\n" + Trim(skill body)
//
// where Trim and TrimEnd are .NET's: they remove Unicode white space
// (U+0085, U+00A0, U+2000–U+200A, U+3000 and the like, as well as ASCII
// white space), not zero-width spaces or byte-order marks. Line endings
// inside either body are kept as they are. A nil agent has an empty body.
func SystemPrompt(agent *lint.Definition, skill *lint.Skill) string {
	var body string
	if agent != nil {
		body = agent.Body
	}
	if skill == nil {
		return body
	}
	head, overlay := dotNetTrimEnd(body), dotNetTrim(skill.Body)
	var b strings.Builder
	b.Grow(len(head) + len(overlay) + len(OverlayMarker) + 3)
	b.WriteString(head)
	b.WriteString("\n\n")
	b.WriteString(OverlayMarker)
	b.WriteString("\n")
	b.WriteString(overlay)
	return b.String()
}

// FirstMessage returns the first user message of a spawn (REFERENCE section
// 6): the task as given when there is no context, else
//
//	"Context:\n" + context + "\n\nTask:\n" + task
//
// A context that is empty or only white space counts as none, as .NET's
// string.IsNullOrWhiteSpace would have it: a Context block with nothing in it
// tells the sub-agent nothing. A context with text in it is kept verbatim,
// surrounding white space included, and so is the task.
func FirstMessage(task, context string) string {
	if dotNetTrim(context) == "" {
		return task
	}
	return "Context:\n" + context + "\n\nTask:\n" + task
}
