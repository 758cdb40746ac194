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

// BenchmarkForTask makes one run's first message from a composed request,
// as every trial and suite sample does once its run id is known: the
// spawn's task and context, the working context with git state, and the
// [session] block of the run's storage.
func BenchmarkForTask(b *testing.B) {
	in := Input{
		Agent:       &lint.Definition{Name: "bench", Body: "You review Go code for races."},
		Audience:    preview.Personal,
		Project:     "/work/project",
		RecentFiles: []string{"internal/watch/watch.go", "internal/watch/debounce.go", "cmd/serve/main.go"},
		Git:         &GitState{Kind: GitAvailable, Worktree: "/work/project", CommonDir: "/work/project/.git", Branch: "main", Head: "0123456789abcdef", Upstream: "origin/main", Ahead: 2, Modified: 3, Untracked: 1},
		Shell:       &Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"},
		Offer:       &Offer{},
	}
	r, err := Compose(in)
	if err != nil {
		b.Fatal(err)
	}
	st := ChildStorage("/home/user/.local/state/agentdesk/runs/0123456789abcdef/session", "0123456789abcdef")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := r.ForTask("Review the diff.", "The service listens on 8080.", &st); got.FirstMessage == "" {
			b.Fatal("no first message")
		}
	}
}
