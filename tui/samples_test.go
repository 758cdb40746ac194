package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/watch"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestRunSamples: the run form's samples field runs the task that many
// times, one after the other, then shows the spread; the watch re-runs
// the same number of samples on save.
func TestRunSamples(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Reply("Port 8080."), modeltest.Reply("Port 8080, in main.go."),
		modeltest.Script{Steps: []modeltest.Step{modeltest.Text("cut "), modeltest.Length()}})
	rh.keys("r")
	rh.typeText("Which port?")
	rh.keys("tab", "tab", "backspace")
	rh.typeText("3")
	rh.keys("enter")
	for i := range 3 {
		if len(rh.runs.runs) != i+1 {
			t.Fatalf("sample %d did not start (%d runs):\n%s", i+1, len(rh.runs.runs), rh.screen())
		}
		rh.pumpUntil("the sample ends", rh.runs.runs[i].ended)
	}
	if len(rh.runs.runs) != 3 || rh.runs.batch != nil {
		t.Fatalf("%d runs, batch %v", len(rh.runs.runs), rh.runs.batch)
	}
	scr := rh.screen()
	for _, want := range []string{"spread of 3 samples: 2 completed", "tool sequences: 1 distinct", "output words: min 1, median 2, max 4"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}

	// The watch repeats three samples on a save.
	rh.keys("W")
	rh.srv.Enqueue(modeltest.Reply("a"), modeltest.Reply("b"), modeltest.Reply("c"))
	agent := filepath.Join(rh.base, "agents", "code-analyst.md")
	rh.writeFile("agents/code-analyst.md", readFile(t, agent)+"\nBe brief.\n")
	rh.send(homeChangedMsg{change: watch.Change{Paths: []string{agent}}})
	for i := 3; i < 6; i++ {
		if len(rh.runs.runs) != i+1 {
			t.Fatalf("re-run sample %d did not start (%d runs)", i-2, len(rh.runs.runs))
		}
		rh.pumpUntil("the re-run sample ends", rh.runs.runs[i].ended)
	}
	if n := len(rh.runs.runs); n != 6 {
		t.Errorf("%d runs after the save, want 6", n)
	}
}

// TestRunFormRefusesBadSamples keeps the form open with a message.
func TestRunFormRefusesBadSamples(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.keys("r")
	rh.typeText("Which port?")
	rh.keys("tab", "tab", "backspace")
	rh.typeText("0")
	rh.keys("enter")
	if len(rh.runs.runs) != 0 || !strings.Contains(rh.screen(), "samples: give a number from 1 to 100") {
		t.Errorf("bad samples:\n%s", rh.screen())
	}
}
