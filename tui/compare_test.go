package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestCompareScreens runs the selected agent twice with different
// answers, then compares the second run with the first, side by side.
func TestCompareScreens(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 35}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			rh := newRunHome(t, sz.w, sz.h)
			rh.srv.Enqueue(modeltest.Reply("The server listens on port 8080.\nSee main.go."),
				modeltest.Reply("The server listens on port 9090.\nSee config/server.yaml and main.go."))
			first := rh.startRun("Which port?", "")
			rh.pumpUntil("the first run ends", first.ended)
			second := rh.startRun("Which port?", "")
			rh.pumpUntil("the second run ends", second.ended)

			rh.keys("c")
			cv := &rh.runs.compare
			if !cv.on || cv.loading || cv.err != nil || cv.c == nil {
				t.Fatalf("compare: on %v loading %v err %v:\n%s", cv.on, cv.loading, cv.err, rh.screen())
			}
			if cv.c.Before.RunID != first.id || cv.c.After.RunID != second.id {
				t.Fatalf("compared %s → %s, want %s → %s", cv.c.Before.RunID, cv.c.After.RunID, first.id, second.id)
			}
			if cv.c.Output.Removed != 1 || cv.c.Output.Added != 3 {
				t.Errorf("output diff %+v", cv.c.Output)
			}
			// The clocks differ from run to run: fix them for the golden.
			for i := range cv.c.Metrics {
				v := int64(100 * (i + 1))
				cv.c.Metrics[i].Before, cv.c.Metrics[i].After, cv.c.Metrics[i].Delta = &v, &v, new(int64)
			}
			cv.c.Before.StartedAt, cv.c.After.StartedAt = time.Time{}, time.Time{}
			cv.rows = nil
			rh.send(nil)
			frame := rh.View().Content
			checkFrame(t, frame, sz.w, sz.h)
			scr := rh.screen()
			for _, rv := range []*runView{first, second} {
				scr = strings.ReplaceAll(scr, shortID(rv.id), strings.Repeat(map[bool]string{true: "a", false: "b"}[rv == first], 8))
			}
			matchGolden(t, fmt.Sprintf("compare-%dx%d", sz.w, sz.h), scr)

			// c again goes back to the run; [ with one earlier run stays on it.
			rh.keys("c")
			if cv.on || !strings.Contains(rh.screen(), "9090") {
				t.Errorf("c did not go back to the run:\n%s", rh.screen())
			}
		})
	}
}

// TestCompareWithoutAnEarlierRun says there is nothing to compare.
func TestCompareWithoutAnEarlierRun(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Reply("Only one."))
	rv := rh.startRun("Which port?", "")
	rh.pumpUntil("the run ends", rv.ended)
	rh.keys("c")
	if scr := rh.screen(); !strings.Contains(scr, "no earlier run to compare with") {
		t.Errorf("screen:\n%s", scr)
	}
}
