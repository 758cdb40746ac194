package tui

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// The Run pane says what the run sent: collapsed to one line, and with s
// the system prompt's parts and the first user message; the missing core
// is named in the run's head.
func TestRunPaneShowsTheRequestSent(t *testing.T) {
	rh := newRunHome(t, 120, 200) // tall enough for the whole request
	rh.srv.Enqueue(modeltest.Reply("done"))
	rv := rh.startRun("Summarise the notes", "")
	rh.pumpUntil("the run ends", rv.ended)
	if rv.prompt == nil || len(rv.prompt.Parts) == 0 || !strings.Contains(rv.message, "Task:\nSummarise the notes") {
		t.Fatalf("the run view holds no request: %+v %q", rv.prompt, rv.message)
	}
	scr := screenText(rh.screen())
	for _, want := range []string{"Sent without operating-rules", "Request sent (Personal): system prompt of 3 parts", "s: show"} {
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
