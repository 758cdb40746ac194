package preview

import (
	"testing"
	"unicode"

	"github.com/agentdesk/agentdesk/lint"
)

func TestSystemPrompt(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		want      string
		nilAgent  bool
		skillBody string
	}{
		{name: "no skill: body verbatim", body: "You are a reviewer.\n\n", want: "You are a reviewer.\n\n"},
		{name: "no skill: CRLF body verbatim", body: "You are a reviewer.\r\n\r\n## Rules\r\n- be brief\r\n", want: "You are a reviewer.\r\n\r\n## Rules\r\n- be brief\r\n"},
		{name: "no skill: trailing spaces kept", body: "Body.  \t", want: "Body.  \t"},
		{
			name: "overlay", body: "You are a reviewer.", skillBody: "Review the release.",
			want: "You are a reviewer.\n\n[Skill Overlay]\nReview the release.",
		},
		{
			name: "overlay: trailing white space of the body trimmed",
			body: "You are a reviewer.\n\n  \t\n", skillBody: "Review the release.",
			want: "You are a reviewer.\n\n[Skill Overlay]\nReview the release.",
		},
		{
			name: "overlay: leading and trailing white space of the skill trimmed",
			body: "You are a reviewer.\n", skillBody: "\n\n   Review the release.\n\nThen stop.\n\n",
			want: "You are a reviewer.\n\n[Skill Overlay]\nReview the release.\n\nThen stop.",
		},
		{
			name: "overlay: leading white space of the body kept",
			body: "  You are a reviewer.", skillBody: "Go.",
			want: "  You are a reviewer.\n\n[Skill Overlay]\nGo.",
		},
		{
			name: "overlay: CRLF bodies keep their inner line endings",
			body: "You are a reviewer.\r\n## Rules\r\n- be brief\r\n\r\n", skillBody: "\r\nStep one.\r\nStep two.\r\n",
			want: "You are a reviewer.\r\n## Rules\r\n- be brief\n\n[Skill Overlay]\nStep one.\r\nStep two.",
		},
		{
			name: "overlay: Unicode white space is trimmed as .NET does",
			body: "Body.\u00a0\u3000\u2028", skillBody: "\u2003\u0085Skill.\u205f\u202f",
			want: "Body.\n\n[Skill Overlay]\nSkill.",
		},
		{
			name: "overlay: zero-width space and BOM are not white space",
			body: "Body.\u200b", skillBody: "\ufeffSkill.",
			want: "Body.\u200b\n\n[Skill Overlay]\n\ufeffSkill.",
		},
		{
			name: "overlay: empty skill body",
			body: "Body.", skillBody: " \n ",
			want: "Body.\n\n[Skill Overlay]\n",
		},
		{
			name: "nil agent with a skill", nilAgent: true, skillBody: "Skill.",
			want: "\n\n[Skill Overlay]\nSkill.",
		},
		{name: "nil agent", nilAgent: true, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var agent *lint.Definition
			if !tt.nilAgent {
				agent = &lint.Definition{Name: "reviewer", Body: tt.body}
			}
			var skill *lint.Skill
			if tt.skillBody != "" { // every overlay case has a skill body
				skill = &lint.Skill{Name: "release", Subagent: "reviewer", Body: tt.skillBody}
			}
			if got := SystemPrompt(agent, skill); got != tt.want {
				t.Errorf("SystemPrompt = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFirstMessage(t *testing.T) {
	tests := []struct {
		name, task, context, want string
	}{
		{"task only", "Summarise the logs.", "", "Summarise the logs."},
		{"task kept verbatim", "  Summarise\r\nthe logs.\n", "", "  Summarise\r\nthe logs.\n"},
		{"with context", "Summarise the logs.", "The service is api.", "Context:\nThe service is api.\n\nTask:\nSummarise the logs."},
		{"context kept verbatim", "T", "\n  indented\n", "Context:\n\n  indented\n\n\nTask:\nT"},
		{"blank context counts as none", "T", " \t\r\n", "T"},
		{"Unicode-blank context counts as none", "T", "\u00a0\u3000", "T"},
		{"empty task with context", "", "C", "Context:\nC\n\nTask:\n"},
		{"both empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FirstMessage(tt.task, tt.context); got != tt.want {
				t.Errorf("FirstMessage(%q, %q) = %q, want %q", tt.task, tt.context, got, tt.want)
			}
		})
	}
}

// TestDotNetWhiteSpace checks the white-space set against Go's unicode
// tables: .NET's char.IsWhiteSpace is the Unicode White_Space property.
func TestDotNetWhiteSpace(t *testing.T) {
	for r := rune(0); r <= 0xFFFF; r++ {
		if got, want := IsDotNetSpace(r), unicode.Is(unicode.White_Space, r); got != want {
			t.Errorf("IsDotNetSpace(%U) = %v, want %v", r, got, want)
		}
	}
}

func FuzzSystemPrompt(f *testing.F) {
	f.Add("You are a reviewer.\r\n", "\n Skill.\n")
	f.Add("", "")
	f.Add("\u3000", "\u0085")
	f.Fuzz(func(t *testing.T, body, skillBody string) {
		agent := &lint.Definition{Body: body}
		if got := SystemPrompt(agent, nil); got != body {
			t.Fatalf("without a skill the body must be verbatim: %q", got)
		}
		got := SystemPrompt(agent, &lint.Skill{Body: skillBody})
		head, overlay := dotNetTrimEnd(body), dotNetTrim(skillBody)
		if got != head+"\n\n[Skill Overlay]\n"+overlay {
			t.Fatalf("composed %q", got)
		}
		if len(overlay) > 0 && (IsDotNetSpace(firstRune(overlay)) || IsDotNetSpace(lastRune(overlay))) {
			t.Fatalf("overlay %q not trimmed", overlay)
		}
	})
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	rs := []rune(s)
	return rs[len(rs)-1]
}
