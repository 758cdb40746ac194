package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// The Run pane says what the run sent: collapsed to one line, and with s
// the system prompt's parts and the first user message; the missing core
// is named in the run's head. A run without a project offers no tools,
// so its prompt has no tool-index part.
func TestRunPaneShowsTheRequestSent(t *testing.T) {
	rh := newRunHome(t, 120, 200) // tall enough for the whole request
	rh.srv.Enqueue(modeltest.Reply("done"))
	rv := rh.startRun("Summarise the notes", "")
	rh.pumpUntil("the run ends", rv.ended)
	if rv.prompt == nil || len(rv.prompt.Parts) == 0 || !strings.Contains(rv.message, "Task:\nSummarise the notes") {
		t.Fatalf("the run view holds no request: %+v %q", rv.prompt, rv.message)
	}
	scr := screenText(rh.screen())
	for _, want := range []string{"Sent without operating-rules", "Request sent (Personal): system prompt of 2 parts", "s: show"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "First user message") {
		t.Error("the request is shown before it is asked for")
	}
	rh.keys("s")
	scr = screenText(rh.screen())
	for _, want := range []string{"execution-contract", "body", "First user message", "[working-context]", "s: hide"} {
		if !strings.Contains(scr, want) {
			t.Errorf("expanded screen lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, request.PartToolIndex) {
		t.Errorf("a run without tools lists a tool index:\n%s", scr)
	}
}

// The Definition pane lists the parts of a spawn's system prompt, composed
// by a Cmd, never in Update.
func TestDefinitionPaneShowsPromptParts(t *testing.T) {
	rh := newRunHome(t, 120, 60)
	scr := screenText(rh.screen())
	for _, want := range []string{"System prompt of a spawn (Personal)", "execution-contract", "operating-rules missing"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
}

// The Definition pane's missing line names --netclaw-dir once when the
// reason names it already, and a folder of the home where agentdesk looked
// keeps a path that says where it is ("looked in bin" said nothing).
func TestPromptLinesMissingCore(t *testing.T) {
	st := NewStyles(true, false)
	c := &lint.Catalog{Home: lint.NewHome("/h", "")}
	tests := []struct {
		reason, want, lacks string
		flags               int
	}{
		{"NetClaw installation not found (looked in /h/bin, netclawd and netclaw on PATH): install NetClaw, or name the folder holding netclawd with --netclaw-dir DIR or AGENTDESK_NETCLAW_DIR",
			"looked in <home>/bin,", "looked in bin", 1},
		{"/h/bin/netclawd: corrupt or truncated", "<home>/bin/netclawd: corrupt", "", 1},
	}
	for _, tt := range tests {
		r := promptResult{parts: []request.Part{{Part: request.PartBody, Source: "/h/agents/a.md", Tokens: 3}},
			missing: []request.Missing{{Part: request.PartOperatingRules, Reason: tt.reason}}}
		text := strings.Join(promptLines(&st, c, r, "Personal", testWords, 400), "\n")
		if n := strings.Count(text, "--netclaw-dir"); n != tt.flags {
			t.Errorf("--netclaw-dir %d times, want %d:\n%s", n, tt.flags, text)
		}
		if !strings.Contains(text, tt.want) || tt.lacks != "" && strings.Contains(text, tt.lacks) {
			t.Errorf("want %q, not %q:\n%s", tt.want, tt.lacks, text)
		}
		if !strings.Contains(text, "agents/a.md") {
			t.Errorf("the part's source is not home-relative:\n%s", text)
		}
	}
}

// The Definition pane never starts MCP servers (the Cmd that composes
// the prompt starts none): it names the configured ones the audience may
// use and says their section and tools are left out, with an estimate.
func TestDefinitionPaneNamesMCPServersLeftOut(t *testing.T) {
	home := lint.NewHome(t.TempDir(), "")
	hometest.WriteFile(t, home.ConfigFile(), `{"McpServers": {"fs": {"Command": "agentdesk-never-started"}, "off": {"Command": "x", "Enabled": false}}}`)
	cfg := lint.LoadConfig(home, nil)
	f := &lint.File{Path: home.Agents + "/a.md", Def: &lint.Definition{Name: "a", Description: "d", Body: "You are a."}}
	r := composeParts(f, cfg, runner.NetClaw{Home: home.Base, Audience: preview.Personal}, t.TempDir())
	if r.err != nil {
		t.Fatal(r.err)
	}
	st := NewStyles(true, false)
	text := strings.Join(promptLines(&st, &lint.Catalog{Home: home}, r, "Personal", testWords, 400), "\n")
	if !regexp.MustCompile(`MCP server fs: not started here, so the tool index's MCP section and its server__tool tools are left out \(at least \d+ tokens more; agentdesk preview --spawn starts them\)`).MatchString(text) {
		t.Errorf("the pane does not name the MCP server left out:\n%s", text)
	}
	if strings.Contains(text, "off") {
		t.Errorf("a disabled server is named:\n%s", text)
	}
}
