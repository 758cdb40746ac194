package request

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
)

// The port of the provider's tests: every audience gets the deployment
// playbook after the embedded core; SOUL.md first; TOOLING.md and the
// project's instructions not for Public; legacy soul/ files as fallbacks.
func TestSessionPrompt(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "identity/SOUL.md", "I am Claw.\n")
	f.write(t, f.home, "identity/AGENTS.md", "Always review customer email. Identity: {{IDENTITY_DIR}}")
	f.write(t, f.home, "soul/USER.md", "Legacy tooling.")
	f.write(t, f.project, "AGENTS.md", "Project rules.")
	core := &Core{Text: "# Operating Rules\nBe grounded.\n"}
	tests := []struct {
		audience preview.Audience
		want     string
	}{
		{preview.Personal, "I am Claw.\n\n# Operating Rules\nBe grounded.\n\n" + PlaybookHeading + "\n\nAlways review customer email. Identity: " + f.home + "/identity\n\nLegacy tooling.\n\nProject rules."},
		{preview.Public, "I am Claw.\n\n# Operating Rules\nBe grounded.\n\n" + PlaybookHeading + "\n\nAlways review customer email. Identity: " + f.home + "/identity"},
	}
	for _, tt := range tests {
		got, err := SessionPrompt(SessionInput{Paths: Paths{Base: f.home}, Audience: tt.audience, Core: core, Project: f.project})
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s:\n%q\nwant\n%q", tt.audience, got, tt.want)
		}
	}
	tools := SessionTools(preview.Personal, DefaultPolicy())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if !strings.Contains(","+strings.Join(names, ",")+",", ",spawn_agent,") {
		t.Errorf("the session's tools lack spawn_agent: %v", names)
	}
}

// An identity file of the main session that is a FIFO (or a device, or
// huge) is an error naming it, as the playbook is; NetClaw would block on
// it. It was left out silently.
func TestSessionPromptIdentityFIFO(t *testing.T) {
	for _, name := range []string{"identity/SOUL.md", "identity/TOOLING.md"} {
		f := newFixture(t)
		f.write(t, f.home, "identity/AGENTS.md", "Playbook.")
		p := f.write(t, f.home, name, "")
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		mkfifo(t, p)
		_, err := SessionPrompt(SessionInput{Paths: Paths{Base: f.home}, Audience: preview.Personal, Project: f.project})
		if err == nil || !strings.Contains(err.Error(), filepath.FromSlash(name)) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("%s as a FIFO: err %v", name, err)
		}
	}
}
