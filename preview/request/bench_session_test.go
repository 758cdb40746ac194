package request

import (
	"fmt"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// BenchmarkFrontlineRequest composes the frontline's whole request as
// route sends it with a NetClaw install: the main session's prompt (SOUL,
// core and playbook, TOOLING, project instructions), its context layers
// (tool index, skill index of 20 skills, memory, 12 agents' layer,
// attachments, time, working context) and its tools. The home is scanned
// once, as a route question does; the git state is fixed.
func BenchmarkFrontlineRequest(b *testing.B) {
	f := fixture{home: b.TempDir(), project: b.TempDir()}
	w := func(root, rel, text string) { f.write(b, root, rel, text) }
	w(f.home, "identity/SOUL.md", "I am Claw.\n")
	w(f.home, "identity/AGENTS.md", "Review customer email. Identity: {{IDENTITY_DIR}}\n")
	w(f.home, "identity/TOOLING.md", "Prefer structured tools.\n")
	w(f.project, "AGENTS.md", "Project rules.\n")
	for i := range 12 {
		w(f.home, fmt.Sprintf("agents/agent-%02d.md", i), fmt.Sprintf("---\nname: agent-%02d\ndescription: Handles task family %d end to end.\n---\nYou do %d.\n", i, i, i))
	}
	for i := range 20 {
		w(f.home, fmt.Sprintf("skills/cat-%d/skill-%02d/SKILL.md", i%3, i), fmt.Sprintf("---\nname: skill-%02d\ndescription: Guidance for workflow %d, with its steps and checks.\n---\nBody.\n", i, i))
	}
	c, err := lint.Scan(lint.NewHome(f.home, ""), lint.ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	core := &Core{Text: "# Operating Rules\nBe grounded.\n"}
	git := &GitState{Kind: GitNotRepository}
	now := time.Date(2026, 12, 2, 5, 48, 54, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := SessionPrompt(SessionInput{Paths: Paths{Base: f.home}, Audience: preview.Personal, Core: core, Project: f.project}); err != nil {
			b.Fatal(err)
		}
		pol, err := PolicyFromConfig(c.Config)
		if err != nil {
			b.Fatal(err)
		}
		_ = ComposeSessionContext(SessionContextInput{Catalog: c, Audience: preview.Personal, Policy: pol, Tools: NetClaw().Tools(),
			Project: f.project, Now: now, ZoneID: "UTC", Git: git})
		_ = SessionTools(preview.Personal, pol)
	}
}
