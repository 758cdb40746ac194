package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// pendingWait is a run's event read that the test performs itself.
type pendingWait struct {
	r *runner.Run
	i int
}

// runHome is a copy of the test home whose config points every role at a
// modeltest server, with a runner on <tmp>/runs.
type runHome struct {
	*testModel
	srv     *modeltest.Server
	tmp     string
	base    string
	waiting []pendingWait
}

func newRunHome(t testing.TB, w, h int) *runHome {
	t.Helper()
	srv := modeltest.NewServer()
	t.Cleanup(srv.Close)
	tmp, base := copyHome(t, "home")
	model := trialtest.Model{Endpoint: srv.Endpoint(wire.OpenAI), Provider: "scripted", Roles: []string{"Compaction"}}
	cfg := model.Config(`"SkillFeeds": {"Feeds": [{"Name": "community", "Url": "https://skills.example.com"}]}`)
	hometest.WriteFile(t, filepath.Join(base, "config", "netclaw.json"), cfg)
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	opts := homeOptions(tmp, lint.NewHome(base, ""))
	opts.Runner = rn
	tm := newModel(t, opts)
	m := tm.Model
	rh := &runHome{testModel: tm, srv: srv, tmp: tmp, base: base}
	m.runs.eventWait = func(r *runner.Run, i int) tea.Cmd {
		rh.waiting = append(rh.waiting, pendingWait{r, i})
		return nil
	}
	t.Cleanup(func() { m.Close() })
	rh.send(tea.WindowSizeMsg{Width: w, Height: h})
	rh.run(m.Init())
	return rh
}

// startRun runs the selected agent with task through the form.
func (rh *runHome) startRun(task, context string) *runView {
	rh.t.Helper()
	rh.keys("r")
	rh.typeText(task)
	if context != "" {
		rh.keys("tab")
		rh.typeText(context)
	}
	rh.keys("enter")
	if len(rh.runs.runs) == 0 {
		rh.t.Fatalf("no run started:\n%s", rh.screen())
	}
	return rh.runs.runs[len(rh.runs.runs)-1]
}

// pumpUntil reads run events, as the program's Cmds would (each wait in
// its own goroutine, so one silent run does not hold up another), until
// cond holds. The deadline only turns a hang into a failure.
func (rh *runHome) pumpUntil(what string, cond func() bool) {
	rh.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	msgs := make(chan tea.Msg, 64)
	inFlight := 0
	spawn := func() {
		for _, w := range rh.waiting {
			inFlight++
			go func(w pendingWait) {
				msgs <- waitEventsCmd(ctx, w.r, w.i)() // buffered: never blocks
			}(w)
		}
		rh.waiting = nil
	}
	for !cond() {
		spawn()
		if inFlight == 0 {
			rh.t.Fatalf("%s: nothing left to wait for:\n%s", what, rh.screen())
		}
		select {
		case msg := <-msgs:
			inFlight--
			rh.send(msg)
		case <-ctx.Done():
			rh.t.Fatalf("%s: timed out:\n%s", what, rh.screen())
		}
	}
	// Waits still out are taken up again by the next pump.
	cancel()
	for ; inFlight > 0; inFlight-- {
		msg := (<-msgs).(runEventsMsg)
		if len(msg.events) > 0 || msg.end {
			rh.send(msg)
		} else {
			rh.waiting = append(rh.waiting, pendingWait{rh.runs.byID(msg.id).run, msg.from})
		}
	}
}

// freeze fixes what differs between runs (ids, clocks) so screens can be
// compared with golden files.
func (rh *runHome) freeze(rv *runView) string {
	rv.status = runner.Status{State: vocab.StateRunning, Elapsed: 3200 * time.Millisecond, HasCall: true,
		Call: runner.WatchStatus{
			Limits:  rv.run.Limits(),
			Elapsed: 3100 * time.Millisecond, FirstDelta: 900 * time.Millisecond, HasFirstDelta: true,
			SinceWire: 100 * time.Millisecond, SinceProgress: 400 * time.Millisecond,
			Next: runner.Trip{Reason: vocab.ReasonNoSubstantiveOutput}, NextIn: 19*time.Minute + 59*time.Second, HasNext: true,
		}}
	if rv.hasFirstAt {
		rv.firstAt = 900 * time.Millisecond
	}
	if rv.record != nil {
		first := int64(900)
		rv.record.Timings = runfolder.Timings{FirstDeltaMS: &first, TotalMS: 1250}
	}
	scr := strings.ReplaceAll(rh.screen(), rv.id, strings.Repeat("0", len(rv.id)))
	return strings.ReplaceAll(scr, shortID(rv.id), strings.Repeat("0", len(shortID(rv.id))))
}

func hasText(rv *runView, s string) bool {
	for _, sg := range rv.segs {
		if strings.Contains(sg.stream.text(), s) {
			return true
		}
	}
	return false
}

func TestRunScreens(t *testing.T) {
	sizes := []struct{ w, h int }{{80, 24}, {120, 40}}
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("streaming-%dx%d", sz.w, sz.h), func(t *testing.T) {
			rh := newRunHome(t, sz.w, sz.h)
			rh.srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{
				modeltest.Thinking("The task names README.md; read it first."),
				modeltest.Text("agentdesk is a terminal desk "),
				modeltest.Text("for people who write NetClaw sub-agents."),
				modeltest.Pause(time.Hour),
			}})
			rv := rh.startRun("Summarise README.md", "The user is new to the project.")
			rh.pumpUntil("the text streams", func() bool { return hasText(rv, "NetClaw") })
			frame := rh.View().Content
			checkFrame(t, frame, sz.w, sz.h)
			matchGolden(t, fmt.Sprintf("run-streaming-%dx%d", sz.w, sz.h), rh.freeze(rv))
			rh.keys("t") // fold the thinking
			matchGolden(t, fmt.Sprintf("run-streaming-folded-%dx%d", sz.w, sz.h), rh.freeze(rv))
			rh.keys("x")
			rh.pumpUntil("the run is cancelled", rv.ended)
			if rv.record.Outcome != vocab.Failed || rv.record.Reason != vocab.ReasonCancelledByParent {
				t.Errorf("cancelled run: %s %s", rv.record.Outcome, rv.record.Reason)
			}
		})
		t.Run(fmt.Sprintf("output-truncated-%dx%d", sz.w, sz.h), func(t *testing.T) {
			rh := newRunHome(t, sz.w, sz.h)
			rh.srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{
				modeltest.Text("Here is a long answer that keeps going and going until the model"),
				modeltest.Length(),
			}})
			rv := rh.startRun("Explain everything", "")
			rh.pumpUntil("the run ends", rv.ended)
			if rv.record.Outcome != vocab.Failed || rv.record.Reason != vocab.ReasonOutputTruncated {
				t.Fatalf("outcome %s %s", rv.record.Outcome, rv.record.Reason)
			}
			frame := rh.View().Content
			checkFrame(t, frame, sz.w, sz.h)
			scr := rh.freeze(rv)
			for _, want := range []string{"output_truncated", "truncated-output.md", "(partial)"} {
				if !strings.Contains(scr, want) {
					t.Errorf("screen lacks %q", want)
				}
			}
			matchGolden(t, fmt.Sprintf("run-output-truncated-%dx%d", sz.w, sz.h), scr)
		})
	}
}

func TestRunNoticeWhenLookingElsewhere(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	// The two requests may arrive in either order: pick each run's script
	// by its system prompt (each agent's body).
	rh.srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		if strings.Contains(r.System, "code analyst") {
			return modeltest.Script{Steps: []modeltest.Step{modeltest.Pause(50 * time.Millisecond), modeltest.Text("done"), modeltest.Stop()}}, true
		}
		return modeltest.Script{Steps: []modeltest.Step{modeltest.Pause(time.Hour)}}, true
	})
	first := rh.startRun("First task", "")
	rh.keys("down") // summarizer
	second := rh.startRun("Second task", "")
	if first.agentPath == second.agentPath || rh.runs.active() != 2 {
		t.Fatalf("two runs of two agents should go at once; %d active", rh.runs.active())
	}
	rh.pumpUntil("the first run ends", first.ended)
	if first.record.Outcome != vocab.Completed {
		t.Fatalf("first run: %s %s %s", first.record.Outcome, first.record.Reason, first.record.Error)
	}
	if !strings.Contains(rh.flash.text, "code-analyst: run finished — Completed") {
		t.Errorf("no notice for the run that ended elsewhere: %q", rh.flash.text)
	}
	if second.ended() {
		t.Error("the second run should still be going")
	}
	rh.keys("x")
	rh.pumpUntil("the second run is cancelled", second.ended)
	if second.record.Reason != vocab.ReasonCancelledByParent {
		t.Errorf("second run reason %q", second.record.Reason)
	}
}

func TestArtifactsAfterARun(t *testing.T) {
	rh := newRunHome(t, 120, 40)
	rh.srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("A short summary."), modeltest.Stop()}})
	rv := rh.startRun("Summarise", "")
	rh.pumpUntil("the run ends", rv.ended)
	rh.keys("4")
	scr := rh.screen()
	for _, want := range []string{"Runs of code-analyst (1)", "Completed", "result.md", "transcript.jsonl"} {
		if !strings.Contains(scr, want) {
			t.Errorf("Artifacts pane lacks %q:\n%s", want, scr)
		}
	}
	rh.keys("o")
	scr = rh.screen()
	if !strings.Contains(scr, "A short summary.") || !strings.Contains(scr, "result.md") {
		t.Fatalf("the viewer does not show result.md:\n%s", scr)
	}
	checkFrame(t, rh.View().Content, 120, 40)
	rh.keys("tab") // transcript.jsonl comes after result.md
	scr = rh.screen()
	if !strings.Contains(scr, "request") || !strings.Contains(scr, "outcome") {
		t.Errorf("the transcript is not shown as a log:\n%s", scr)
	}
	rh.keys("esc")
	if len(rh.overlays) != 0 {
		t.Error("esc did not close the viewer")
	}
}

func TestRunWithToolCallScreens(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			rh := newRunHome(t, sz[0], sz[1])
			project := filepath.Join(rh.tmp, "project")
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(project, "notes.md"), []byte("# Notes\n\nThe watcher debounces events.\n\x1b[31mred\x1b[0m\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rh.opts.Project = project
			rh.srv.Enqueue(
				modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("call_1", "file_read", `{"path":"notes.md", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools)}},
				modeltest.Script{Steps: []modeltest.Step{modeltest.Text("The notes say the watcher debounces events. "), modeltest.Stop()}},
			)
			rv := rh.startRun("What do the notes say?", "")
			rh.pumpUntil("the run ends", rv.ended)
			if rv.record.Outcome != vocab.Completed || len(rv.record.ToolCalls) != 1 {
				t.Fatalf("outcome %s %s, %d tool calls", rv.record.Outcome, rv.record.Reason, len(rv.record.ToolCalls))
			}
			rh.keys("g") // from the top: the follow mode shows the end
			rh.runs.scroll.top()
			frame := rh.View().Content
			checkFrame(t, frame, sz[0], sz[1])
			checkNoRawControls(t, frame)
			scr := rh.freeze(rv)
			for _, want := range []string{"⚙ file_read", "↳ file_read:", "The watcher debounces events.", `\x1b[31mred`, "s: show"} {
				if !strings.Contains(scr, want) {
					t.Errorf("screen lacks %q:\n%s", want, scr)
				}
			}
			// The footer names the request key too, even at 80 columns.
			if footer := scr[strings.LastIndex(scr, "\n")+1:]; !strings.Contains(footer, "s request") {
				t.Errorf("footer %q lacks the request key", footer)
			}
			matchGolden(t, fmt.Sprintf("run-tool-call-%dx%d", sz[0], sz[1]), scr)
		})
	}
}

// TestRunFolderWriteFailureShows: when the run folder cannot be written at
// the end (here it was replaced by a file), the banner and a notice say so
// instead of pointing at artifacts that are not there.
func TestRunFolderWriteFailureShows(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("working on it"), modeltest.Pause(time.Hour)}})
	rv := rh.startRun("Summarise", "")
	rh.pumpUntil("the text streams", func() bool { return hasText(rv, "working") })
	dir := rv.run.Dir()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	rh.keys("x")
	rh.pumpUntil("the run is cancelled", rv.ended)
	if rv.writeErr == nil {
		t.Fatal("the write error was not kept")
	}
	scr := rh.screen()
	for _, want := range []string{"the run folder could not be written", shortID(rv.id)} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	if !strings.Contains(rh.flash.text, "code-analyst: the run folder could not be written") {
		t.Errorf("notice %q", rh.flash.text)
	}
	checkNoRawControls(t, rh.View().Content)
}

// TestRunAgainWithoutTools (issue 13 item 12): a model that refuses the
// tools (Ollama: 400 "does not support tools") ends the run with an offer
// to run it again without them, and the key does so.
func TestRunAgainWithoutTools(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			rh := newRunHome(t, sz[0], sz[1])
			rh.opts.Project = rh.tmp
			rh.srv.Enqueue(
				modeltest.Script{Status: 400, ErrorMessage: "registry.ollama.ai/library/gemma:2b does not support tools"},
				modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Done without tools."), modeltest.Stop()}},
			)
			rv := rh.startRun("Summarise", "")
			rh.pumpUntil("the run fails", rv.ended)
			if rv.record.Reason != vocab.ReasonLLMCallFailed {
				t.Fatalf("reason %q", rv.record.Reason)
			}
			rh.keys("enter", "G") // the end of the Run pane
			text := strings.Join(strings.Fields(screenText(rh.screen())), " ")
			if !strings.Contains(text, "This model does not take tools: press w to run the same task again without them") {
				t.Errorf("no offer to run without tools:\n%s", rh.screen())
			}
			checkFrame(t, rh.View().Content, sz[0], sz[1])
			rh.keys("w")
			if len(rh.runs.runs) != 2 {
				t.Fatalf("w did not start a run: %d runs", len(rh.runs.runs))
			}
			again := rh.runs.runs[1]
			rh.pumpUntil("the run without tools ends", again.ended)
			if again.tools || again.record.Outcome != vocab.Completed || again.task != "Summarise" {
				t.Errorf("again: tools %v, %s %s, task %q", again.tools, again.record.Outcome, again.record.Reason, again.task)
			}
			reqs := rh.srv.Requests()
			if len(reqs) != 2 || strings.Contains(string(reqs[1].Body), `"tools"`) {
				t.Errorf("the second request still offers tools: %d requests", len(reqs))
			}
		})
	}
}
