package request

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// BenchmarkCompose composes one agent's request with a 30 KB core (read
// once, as a process does), a playbook and project instructions on disk,
// and the git state given.
func BenchmarkCompose(b *testing.B) {
	home, project := b.TempDir(), b.TempDir()
	f := fixture{home: home, project: project}
	t := &testing.T{}
	f.write(t, home, "identity/AGENTS.md", strings.Repeat("Review every customer email before it goes out.\n", 40))
	f.write(t, project, "CLAUDE.md", strings.Repeat("Prefer small functions; test behaviour.\n", 40))
	core := &Core{Text: strings.Repeat("## Rule\nNever invent runtime facts; cite the tool result you used.\n\n", 450), Source: "bench"}
	in := Input{
		Agent:    &lint.Definition{Name: "bench", Body: strings.Repeat("You review Go code for races.\n", 60)},
		Paths:    Paths{Base: home},
		Audience: preview.Personal,
		Core:     core,
		Project:  project,
		Task:     "Review the diff.",
		Git:      &GitState{Kind: GitNotRepository},
		Offer:    &Offer{Index: strings.Repeat("file_read — read a file\n", 40)},
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compose(in); err != nil {
			b.Fatal(err)
		}
	}
}
