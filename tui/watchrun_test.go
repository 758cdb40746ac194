package tui

import (
	"time"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/lint/watch"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestWatchReRunsOnSave: with the watch on, one save re-runs the task
// once, however many events the editor's save produces; a save that
// breaks the file shows its verdict and runs nothing; the fix runs again.
func TestWatchReRunsOnSave(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Reply("First."), modeltest.Reply("Second."), modeltest.Reply("Third."))
	first := rh.startRun("Which port?", "The user asks.")
	rh.pumpUntil("the first run ends", first.ended)

	rh.keys("W")
	if rh.runs.watch == nil {
		t.Fatalf("the watch is not on:\n%s", rh.screen())
	}
	agent := filepath.Join(rh.base, "agents", "code-analyst.md")
	data := readFile(t, agent)
	// A rename-save: the editor writes a temporary file and renames it;
	// the watcher reports several events, each a rescan.
	rh.writeFile("agents/code-analyst.md", strings.Replace(data, "\n---\n", "\n---\nName the file.\n", 1))
	for range 3 {
		rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	}
	if n := len(rh.runs.runs); n != 2 {
		t.Fatalf("%d runs after one save, want 2", n)
	}
	second := rh.runs.runs[1]
	if second.task != "Which port?" || second.context != "The user asks." {
		t.Errorf("the re-run's task %q, context %q", second.task, second.context)
	}
	if scr := rh.screen(); !strings.Contains(scr, "re-run on save: on") {
		t.Errorf("the pane does not say the watch is on:\n%s", scr)
	}
	rh.pumpUntil("the re-run ends", second.ended)
	if !hasText(second, "Second.") {
		t.Errorf("the re-run did not get the second reply")
	}
	// The ended re-run is compared with the run before it, naming the
	// part the save changed.
	if cv := rh.runs.compare; !cv.on || cv.c == nil || strings.Join(cv.c.Request.Changed, ",") != "body" {
		t.Errorf("after the re-run: compare on %v, %+v", cv.on, cv.c)
	}

	// A save that breaks the frontmatter: the verdict shows, nothing runs.
	rh.writeFile("agents/code-analyst.md", "---\nname: code-analyst\ndescription: [broken\n---\nbody\n")
	rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	if n := len(rh.runs.runs); n != 2 {
		t.Fatalf("a broken save started a run (%d runs)", n)
	}
	if scr := rh.screen(); !strings.Contains(scr, "not run") {
		t.Errorf("no verdict on screen:\n%s", scr)
	}
	// The fix runs again.
	rh.writeFile("agents/code-analyst.md", data)
	rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	if n := len(rh.runs.runs); n != 3 {
		t.Fatalf("the fixed save did not re-run (%d runs)", n)
	}
	rh.pumpUntil("the third run ends", rh.runs.runs[2].ended)

	rh.keys("W")
	if rh.runs.watch != nil {
		t.Error("W did not turn the watch off")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWatchSaveDuringARunCancelsIt: a save while the watched run streams
// cancels it and starts the new run.
func TestWatchSaveDuringARunCancelsIt(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Reply("First."),
		modeltest.Script{Steps: []modeltest.Step{modeltest.Text("slow "), modeltest.Pause(time.Hour)}},
		modeltest.Reply("Third."))
	first := rh.startRun("Which port?", "")
	rh.pumpUntil("the first run ends", first.ended)
	rh.keys("W")
	agent := filepath.Join(rh.base, "agents", "code-analyst.md")
	data := readFile(t, agent)
	rh.writeFile("agents/code-analyst.md", data+"\nOne.\n")
	rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	second := rh.runs.runs[1]
	rh.pumpUntil("the re-run streams", func() bool { return hasText(second, "slow") })
	rh.writeFile("agents/code-analyst.md", data+"\nTwo.\n")
	rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	rh.pumpUntil("the slow run is cancelled", second.ended)
	if second.record.Reason != vocab.ReasonCancelledByParent {
		t.Errorf("the slow run ended %s %s", second.record.Outcome, second.record.Reason)
	}
	if len(rh.runs.runs) != 3 {
		t.Fatalf("%d runs", len(rh.runs.runs))
	}
	rh.pumpUntil("the new run ends", rh.runs.runs[2].ended)
	if !hasText(rh.runs.runs[2], "Third.") {
		t.Error("the new run did not get its reply")
	}
}

// TestWatchKeepsApprovals: a call approved in the watched run runs again
// unasked in the re-run; a new kind of call still asks.
func TestWatchKeepsApprovals(t *testing.T) {
	rh, _ := approvalHome(t)
	call := func(id, cmd string) modeltest.Script {
		return modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall(id, "shell_execute", `{"Command":"`+cmd+`","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools)}}
	}
	done := modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Done."), modeltest.Stop()}}
	asks := func() bool { _, ok := rh.overlays.top().(*approvalOverlay); return ok }
	rh.srv.Enqueue(call("c1", "echo hello"), done)
	first := rh.startRun("Greet", "")
	rh.pumpUntil("the run asks", asks)
	rh.screen() // the prompt is drawn: the author has seen the whole call
	rh.keys("o")
	rh.pumpUntil("the run ends", first.ended)

	rh.keys("W")
	rh.srv.Enqueue(call("c2", "echo hello"), call("c3", "echo other"), done)
	agent := filepath.Join(rh.base, "agents", "code-analyst.md")
	rh.writeFile("agents/code-analyst.md", readFile(t, agent)+"\nGreet twice.\n")
	rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	second := rh.runs.runs[1]
	rh.pumpUntil("the re-run asks about the new call", asks)
	if o := rh.overlays.top().(*approvalOverlay); !strings.Contains(string(o.prompt.Req.Args), "echo other") {
		t.Fatalf("asked about %s, want the new call", o.prompt.Req.Args)
	}
	rh.screen()
	rh.keys("d")
	rh.pumpUntil("the re-run ends", second.ended)
	calls := second.record.ToolCalls
	if len(calls) != 2 || calls[0].Result.Label != "approved" || calls[1].Result.Label != "denied" {
		for _, c := range calls {
			t.Logf("%s %s → %+v", c.Name, c.Arguments, c.Result)
		}
		t.Fatal("the re-run did not keep the approval of echo hello, or did not ask about echo other")
	}
}
