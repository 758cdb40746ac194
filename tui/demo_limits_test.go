package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// TestDemoShowsTheRecordedLimits (issue 13 item 7): in the demo, where
// every model is a recording replayed, the Run pane shows the limits the
// replay applies (the recording's), not the configured ones.
func TestDemoShowsTheRecordedLimits(t *testing.T) {
	dir := t.TempDir()
	h, err := demo.Setup(dir)
	if err != nil {
		t.Fatal(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(dir, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
		opts := homeOptions(dir, h)
		opts.Runner = rn
		tm := openModel(t, opts, sz[0], 60)
		tm.keys("3")
		st := NewStyles(true, false)
		flat := func(ls []string) string { return strings.Join(strings.Fields(ansi.Strip(strings.Join(ls, " "))), " ") }
		found := false
		for i := 0; i < tm.list.visLoad && !found; i, _ = i+1, func() bool { tm.keys("down"); return true }() {
			sel := tm.list.selected()
			model, err := runner.ResolveModel(tm.cat.Config, sel.Def.ModelRole)
			if err != nil || model.Type != runner.ReplayProviderType {
				continue
			}
			tape, err := runner.LoadCassette(model.Endpoint)
			if err != nil {
				t.Fatal(err)
			}
			ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
			l := tape.Header.Limits
			recorded := runner.Limits{Prefill: ms(l.PrefillMS), InterDelta: ms(l.InterDeltaMS), NoProgress: ms(l.NoProgressMS), ThinkingOnly: ms(l.ThinkingOnlyMS)}
			want := flat(limitLines(&st, recorded, 1000))
			if flat(limitLines(&st, runner.LimitsFor(tm.cat.Config, sel.Def), 1000)) == want {
				continue // this recording kept the configured limits
			}
			found = true
			want = strings.TrimPrefix(want, "Limits ")
			if text := screenText(tm.screen()); !strings.Contains(text, want) || !strings.Contains(text, "recorded") {
				t.Errorf("%d wide, %s: the Run pane does not show the recorded limits (%s):\n%s", sz[0], sel.Name(), want, tm.screen())
			}
		}
		if !found {
			t.Fatal("no demo agent replays a recording with limits of its own: the test shows nothing")
		}
		checkFrame(t, tm.View().Content, sz[0], 60)
	}
}

// TestLiveFirstDeltaIsTheRecordOne (issue 13 item 7): the live clock's
// first delta is counted from the start of the run, as run.json counts
// it, not from the start of the current model call.
func TestLiveFirstDeltaIsTheRecordOne(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Pause(time.Hour)}})
	rv := rh.startRun("Summarise", "")
	rh.waiting = nil
	rh.send(runEventsMsg{id: rv.id, from: 0, events: []runner.Event{
		{Kind: runner.EventThinking, Call: 2, At: 1850 * time.Millisecond, Text: "hmm"},
		{Kind: runner.EventText, Call: 2, At: 2100 * time.Millisecond, Text: "answer"},
	}})
	rv.status = runner.Status{State: vocab.StateRunning, Elapsed: 3 * time.Second, HasCall: true,
		Call: runner.WatchStatus{FirstDelta: 250 * time.Millisecond, HasFirstDelta: true, Elapsed: time.Second}}
	if scr := rh.screen(); !strings.Contains(scr, "first delta 1.9s") {
		t.Errorf("the live first delta is not the run's (1.9s):\n%s", scr)
	}
	rv.run.Cancel()
}
