package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// demoRunHome is the browser on a demo made by demo.Setup, as `agentdesk
// --demo` opens it (trial runs on a copy of the demo project), with
// fixer selected; its run events are pumped as in newRunHome. fast plays
// the replays on a virtual clock (Options.FastReplay), as tests should.
func demoRunHome(t *testing.T, w, h int, fast bool) (*runHome, lint.Home) {
	t.Helper()
	tmp := t.TempDir()
	home, err := demo.Setup(filepath.Join(tmp, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{
		Home:       home,
		Scanner:    lint.NewScanner(home, lint.ScanOptions{Environ: []string{}}),
		Environ:    []string{"HOME=" + tmp},
		Now:        func() time.Time { return fixedNow },
		Runner:     rn,
		Demo:       true,
		Project:    demo.ProjectDir(home),
		FastReplay: fast,
	})
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	rh := &runHome{testModel: &testModel{t: t, Model: m}, tmp: tmp, base: home.Base}
	m.runs.eventWait = func(r *runner.Run, i int) tea.Cmd {
		rh.waiting = append(rh.waiting, pendingWait{r, i})
		return nil
	}
	t.Cleanup(func() { m.Close() })
	rh.send(tea.WindowSizeMsg{Width: w, Height: h})
	rh.run(m.Init())
	if !m.list.selectPath(filepath.Join(home.Agents, "fixer.md")) {
		t.Fatal("fixer is not in the list")
	}
	rh.send(nil)
	return rh, home
}

// asks pumps the run's events until an approval prompt is up, and
// returns the screen.
func (rh *runHome) asks(what string) string {
	rh.t.Helper()
	rh.pumpUntil(what, func() bool {
		_, ok := rh.overlays.top().(*approvalOverlay)
		return ok
	})
	return rh.screen()
}

// TestDemoFixerAsksAndChanges: in the demo, fixer replays its recording
// with its tool calls run for real in a copy of the demo project: the
// tracker MCP server's call and the shell command each put up the
// approval prompt; approved, they run (the command in the sandbox) and
// give the recorded results, the file edit lands in the copy, and the
// Run pane shows the change diff while the demo project stays as it was.
func TestDemoFixerAsksAndChanges(t *testing.T) {
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("no sandbox here: %s", r.Unavailable)
	}
	rh, home := demoRunHome(t, 120, 60, true)
	before, err := os.ReadFile(filepath.Join(demo.ProjectDir(home), "watch.md"))
	if err != nil {
		t.Fatal(err)
	}
	rh.keys("3")
	if intro := introText(rh.testModel); !strings.Contains(intro, "replay-fixer") || !strings.Contains(intro, "run again, for real, in a copy of") {
		t.Errorf("the intro does not say what fixer replays and where its calls run:\n%s", intro)
	}
	rv := rh.startRun("Fix issue 7 of the tracker", "")
	scr := rh.asks("the tracker's call asks")
	for _, want := range []string{"Approve a tool call?", "tracker__get_issue", "Server   tracker (MCP)", "'mcp:tracker'"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the MCP prompt lacks %q:\n%s", want, scr)
		}
	}
	rh.keys("o")
	scr = rh.asks("the shell command asks")
	for _, want := range []string{"Approve a tool call?", "shell_execute", "grep -n 'watched anew' watch.md"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the shell prompt lacks %q:\n%s", want, scr)
		}
	}
	rh.keys("o")
	rh.pumpUntil("the run ends", rv.ended)
	rec := rv.record
	if rec.Outcome != vocab.Completed || rec.Replay == nil || !rec.Replay.LiveTools || !rec.Replay.Fast {
		t.Fatalf("outcome %s/%s %q, replay %+v", rec.Outcome, rec.Reason, rec.Error, rec.Replay)
	}
	labels := map[string]string{}
	for _, tc := range rec.ToolCalls {
		labels[tc.Name] = tc.Result.Label
		if tc.Result.Differs || tc.Result.Replayed || tc.Result.Error {
			t.Errorf("%s: %+v", tc.Name, tc.Result)
		}
	}
	if labels["tracker__get_issue"] != "approved" || labels["shell_execute"] != "approved" || labels["file_edit"] != "overlay" {
		t.Errorf("labels %v", labels)
	}
	if len(rec.Changes) != 1 || rec.Changes[0].Path != "watch.md" || rec.MCP == nil || rec.MCP.Servers[0].State != "started" {
		t.Errorf("changes %+v, MCP %+v", rec.Changes, rec.MCP)
	}
	if after, _ := os.ReadFile(filepath.Join(demo.ProjectDir(home), "watch.md")); string(after) != string(before) {
		t.Errorf("the demo project changed:\n%s", after)
	}
	scr = rh.screen()
	for _, want := range []string{"Changes (changes.patch; the project itself did not change)", "+A folder deleted and created again is watched anew.", "6:A folder deleted"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the Run pane lacks %q:\n%s", want, scr)
		}
	}
}

// TestDemoFixerDenied: denying the shell command in the demo's replay
// refuses it as a live run would, and the Run pane says that the replayed
// replies after it answer the recorded result, not the denial.
func TestDemoFixerDenied(t *testing.T) {
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("no sandbox here: %s", r.Unavailable)
	}
	rh, _ := demoRunHome(t, 160, 60, true)
	rv := rh.startRun("Fix issue 7 of the tracker", "")
	rh.asks("the tracker's call asks")
	rh.keys("o")
	rh.asks("the shell command asks")
	rh.keys("d")
	rh.pumpUntil("the run ends", rv.ended)
	var shell *struct{ label string }
	for _, tc := range rv.record.ToolCalls {
		if tc.Name == "shell_execute" {
			shell = &struct{ label string }{tc.Result.Label}
			if !tc.Result.Differs || !strings.HasPrefix(tc.Result.Text, "Tool access denied") {
				t.Errorf("the denied call: %+v", tc.Result)
			}
		}
	}
	if shell == nil || shell.label != "denied" {
		t.Fatalf("no denied shell call: %+v", rv.record.ToolCalls)
	}
	if scr := rh.screen(); !strings.Contains(scr, "not the recorded result: the replayed replies answer that one") {
		t.Errorf("the Run pane does not say the replay goes on as recorded:\n%s", scr)
	}
}

// TestDemoFixerWithoutSandbox: where the machine cannot sandbox, the
// demo's replay starts no tracker and refuses the shell command, each
// saying why, and marks the results that differ from the recording.
func TestDemoFixerWithoutSandbox(t *testing.T) {
	t.Setenv(sandbox.SimulateEnv, "userns")
	rh, _ := demoRunHome(t, 160, 60, true)
	rv := rh.startRun("Fix issue 7 of the tracker", "")
	for i := 0; !rv.ended(); i++ {
		rh.pumpUntil("the next prompt or the end", func() bool {
			_, ok := rh.overlays.top().(*approvalOverlay)
			return ok || rv.ended()
		})
		if _, ok := rh.overlays.top().(*approvalOverlay); ok {
			if i == 3 {
				t.Fatalf("a fourth prompt:\n%s", rh.screen())
			}
			rh.screen() // the prompt is drawn before it is answered
			rh.keys("o")
			if _, still := rh.overlays.top().(*approvalOverlay); still {
				t.Fatalf("o did not answer the prompt:\n%s", rh.screen())
			}
		}
	}
	var shellText string
	differs := 0
	for _, tc := range rv.record.ToolCalls {
		if tc.Result.Differs {
			differs++
		}
		if tc.Name == "shell_execute" {
			shellText = tc.Result.Text
		}
	}
	if !strings.Contains(shellText, "sandbox") || differs == 0 {
		t.Errorf("shell result %q, %d differ: %+v", shellText, differs, rv.record.ToolCalls)
	}
	if m := rv.record.MCP; m == nil || len(m.Servers) != 1 || m.Servers[0].State == "started" || !strings.Contains(strings.Join(m.Notes, " ")+m.Servers[0].Detail, "sandbox") {
		t.Errorf("the tracker without a sandbox: %+v", m)
	}
}

// TestDemoReplaysAtRecordedSpeed: without Options.FastReplay (as
// `agentdesk --demo` opens) the browser's replay plays at recorded speed:
// the run's record says it is not fast.
func TestDemoReplaysAtRecordedSpeed(t *testing.T) {
	rh, _ := demoRunHome(t, 120, 40, false)
	rv := rh.startRun("Fix issue 7 of the tracker", "")
	rec := rv.run.Record()
	rv.run.Cancel()
	<-rv.run.Done()
	if rec.Replay == nil || rec.Replay.Fast || !rec.Replay.LiveTools {
		t.Errorf("the demo's replay: %+v", rec.Replay)
	}
}
