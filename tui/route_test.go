package tui

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

func spawn(agent string) modeltest.Script {
	return modeltest.Script{Steps: []modeltest.Step{
		modeltest.ToolCall("c1", "spawn_agent", `{"agent":"`+agent+`","task":"Summarise NOTES.md","_rationale":"r"}`),
		modeltest.Finish(modeltest.FinishTools),
	}}
}

func TestLayerRoute(t *testing.T) {
	rh := newRunHome(t, 100, 40)
	rh.srv.Enqueue(spawn("summarizer"), spawn("summarizer"), spawn("summarizer"), spawn("code-analyst"), modeltest.Reply("Sure, here it is."))
	rh.keys("2", "R")
	if !strings.Contains(rh.screen(), "Which agent does the frontline pick? (Personal)") {
		t.Fatalf("no prompt:\n%s", rh.screen())
	}
	rh.keys("enter")
	if !strings.Contains(rh.screen(), "type the user's request") {
		t.Errorf("an empty request was taken:\n%s", rh.screen())
	}
	rh.typeText("Summarise my notes")
	rh.keys("enter")
	screen := rh.screen()
	checkFrame(t, screen, 100, 40)
	for _, want := range []string{
		"Frontline pick", "R: ask again", "Request  Summarise my notes (Personal)",
		"summarizer              3/5", "code-analyst            1/5", "none (answered itself)  1/5",
		`. spawn_agent summarizer, task "Summarise NOTES.md"`, `. answered itself: "Sure, here it is."`,
		"frontline picked summarizer in 3 of 5",
		"Layer text",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	reqs := rh.srv.Requests()
	if len(reqs) != 5 || strings.Join(reqs[0].Tools, ",") != "spawn_agent" || reqs[0].FirstUser() != "Summarise my notes" {
		t.Fatalf("%d requests, tools %v", len(reqs), reqs[0].Tools)
	}
	if !strings.Contains(string(reqs[0].Body), "## summarizer") {
		t.Errorf("the layer was not sent")
	}

	// Another audience: the answer stays, marked as asked of another layer.
	rh.keys("a")
	if !strings.Contains(rh.screen(), "is not the one that was sent") {
		t.Errorf("no stale note after the audience changed:\n%s", rh.screen())
	}
	// Public cannot delegate: said at once, no call; the audience key
	// mends it in the browser, not the command line's flag.
	rh.opts.WordError = flagWorder
	rh.keys("a", "R")
	rh.keys("enter")
	if s := rh.screen(); !strings.Contains(s, "Public audience has no") || len(rh.srv.Requests()) != 5 {
		t.Errorf("public:\n%s", s)
	}
	if want := "the frontline cannot delegate; a switches to the Personal or Team audience"; !strings.Contains(rh.layer.route.err, want) {
		t.Errorf("public: %q, want %q", rh.layer.route.err, want)
	}
	if rh.layer.audience != preview.Public {
		t.Errorf("audience %s", rh.layer.audience)
	}
}

// TestDemoRouteReplaysTheRecordedFrontline: in the demo, R offers a
// request its routing suite recorded and answers it from the recorded
// frontline (not from a sub-agent's recording); another request is
// refused with the ones the demo has (issue 20 item 25).
func TestDemoRouteReplaysTheRecordedFrontline(t *testing.T) {
	tm := demoModel(t, 100, 40)
	tm.keys("2", "R")
	if !strings.Contains(tm.screen(), "How does the file watcher") {
		t.Fatalf("the prompt does not offer a recorded request:\n%s", tm.screen())
	}
	tm.keys("enter")
	screen := tm.screen()
	for _, want := range []string{"code-analyst  2/2", ". spawn_agent code-analyst", "recorded frontline", "frontline picked code-analyst in 2 of 2"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "not a frontline model's choice") {
		t.Errorf("the recorded frontline is called a sub-agent's recording:\n%s", screen)
	}
	tm.keys("R", "ctrl+u")
	tm.typeText("write me a poem")
	tm.keys("enter")
	if s := tm.screen(); !strings.Contains(s, "ask one of these") {
		t.Errorf("a request the demo has not recorded:\n%s", s)
	}
}

// TestLayerRouteNoAnswer: with the model server failing, the pane says the
// samples got no answer, as an error, and shows no "failed" pick share.
func TestLayerRouteNoAnswer(t *testing.T) {
	rh := newRunHome(t, 120, 40)
	rh.srv.SetDefault(modeltest.Script{Status: 503, ErrorMessage: "overloaded"})
	rh.keys("2", "R")
	rh.typeText("Summarise my notes")
	rh.keys("enter")
	screen := rh.screen()
	checkFrame(t, screen, 120, 40)
	for _, want := range []string{"no answer  5/5  error: not counted as picks", "1. no answer: the model call failed: ", "route: no answer: the model call failed"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "failed: llm_call_failed") {
		t.Errorf("a sample with no answer is shown as a pick:\n%s", screen)
	}
}
