package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// demoModel is a browser over the demo home (with its code-analyst suite
// and recordings) at w×h, with a runner.
func demoModel(t *testing.T, w, h int) *testModel {
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
	opts := homeOptions(tmp, home)
	opts.Runner, opts.Demo = rn, true
	tm := openModel(t, opts, w, h)
	if !tm.list.selectPath(filepath.Join(home.Agents, "code-analyst.md")) {
		t.Fatal("code-analyst is not in the list")
	}
	tm.send(nil)
	return tm
}

func TestTestsPaneScreens(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := demoModel(t, sz[0], sz[1])
			tm.keys("5")
			checkFrame(t, tm.View().Content, sz[0], sz[1])
			matchGolden(t, fmt.Sprintf("tests-%dx%d", sz[0], sz[1]), tm.screen())
			tm.keys("T")
			checkFrame(t, tm.View().Content, sz[0], sz[1])
			matchGolden(t, fmt.Sprintf("tests-run-%dx%d", sz[0], sz[1]), tm.screen())
		})
	}
}

func TestTestsPaneRunsOpensAndGoesStale(t *testing.T) {
	tm := demoModel(t, 120, 40)
	tm.keys("5")
	scr := tm.screen()
	for _, want := range []string{"Tests of code-analyst", "code-analyst.test.yaml", "explains the watcher", "recorded", "replays without a model"} {
		if !strings.Contains(scr, want) {
			t.Errorf("before a run, the pane lacks %q:\n%s", want, scr)
		}
	}
	// T from another pane runs the suite and brings the Tests pane up.
	tm.keys("1", "T")
	scr = tm.screen()
	if tm.tab != tabTests || strings.Count(scr, "pass ") < 3 || !strings.Contains(scr, "sample 1: pass (replay)") || !strings.Contains(scr, "judge: it says events settle") {
		t.Fatalf("after T:\n%s", scr)
	}
	recs, _ := runfolder.ListRuns(tm.opts.Runner.Dir(), runfolder.Filter{})
	if len(recs) != 4 { // four samples (a replayed verdict is read from its tape)
		t.Errorf("%d runs", len(recs))
	}
	// Into the pane, enter opens the chosen case's run in the viewer.
	tm.keys("enter", "enter")
	if _, ok := tm.overlays.top().(*viewer); !ok || !strings.Contains(tm.screen(), "result.md") {
		t.Fatalf("enter did not open the run:\n%s", tm.screen())
	}
	tm.keys("esc")
	// An edit of the definition marks the results stale at once.
	path := filepath.Join(tm.opts.Home.Agents, "code-analyst.md")
	data, _ := os.ReadFile(path)
	tm.writeFile("agents/code-analyst.md", strings.Replace(string(data), "never invent an API", "never guess", 1))
	tm.keys("ctrl+r")
	scr = tm.screen()
	if strings.Count(scr, "stale") < 3 || !strings.Contains(scr, "system prompt: body changed") {
		t.Errorf("after an edit:\n%s", scr)
	}
}

func TestTestsPaneWithoutSuite(t *testing.T) {
	tm := demoModel(t, 80, 24)
	tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, "summarizer.md"))
	tm.keys("5")
	if scr := tm.screen(); !strings.Contains(scr, "No suite yet") || !strings.Contains(scr, "summarizer.test.yaml") {
		t.Errorf("without a suite:\n%s", scr)
	}
	tm.keys("T")
	if !strings.Contains(tm.screen(), "no suite to run") {
		t.Errorf("T without a suite:\n%s", tm.screen())
	}
}

// TestDemoTestsPaneWithoutSuite: in the demo, an agent with no suite
// points at the agent whose suite the demo carries, not at --record
// (which the demo refuses) for a suite its temporary home would lose.
func TestDemoTestsPaneWithoutSuite(t *testing.T) {
	tm := demoModel(t, 80, 24)
	tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, "summarizer.md"))
	tm.keys("5")
	scr := tm.screen()
	var pane []string // the pane's side of the screen, its words
	for _, l := range strings.Split(scr, "\n") {
		if _, right, ok := strings.Cut(l, "│"); ok {
			pane = append(pane, strings.Fields(right)...)
		}
	}
	if !strings.Contains(scr, "No suite yet") || strings.Contains(scr, "--record") ||
		!strings.Contains(strings.Join(pane, " "), "Then T runs it here. In the demo, code-analyst and deep-thinker have suites with recordings: select one and press T") {
		t.Errorf("without a suite, in the demo:\n%s", scr)
	}
	tm.keys("T")
	if scr := tm.screen(); !strings.Contains(strings.Join(strings.Fields(scr), " "), "no suite to run: write summarizer.test.yaml beside the agent; in the demo, code-analyst and deep-thinker have suites with recordings: select one and press T") {
		t.Errorf("T without a suite, in the demo:\n%s", scr)
	}
}

// TestTestsPaneBrokenSuite: T on a suite that cannot run says that it is
// broken and where, not that there is none; a suite file that is a FIFO
// or a dangling link is shown as unreadable (never read blocking, never
// taken for no suite).
func TestTestsPaneBrokenSuite(t *testing.T) {
	tests := []struct {
		name string
		make func(path string) error
		pane []string // in the pane
		note string   // in the notice after T
	}{
		{"yaml error", func(p string) error { return os.WriteFile(p, []byte("cases:\n  - name: a\n    task: 'b\n"), 0o644) },
			[]string{"3:5: the suite is not valid YAML"}, "summarizer.test.yaml is broken (3:5: the suite is not valid YAML"},
		{"no cases", func(p string) error { return os.WriteFile(p, []byte("agent: summarizer\n"), 0o644) },
			[]string{"1:1: the suite has no cases"}, "summarizer.test.yaml is broken (1:1: the suite has no cases"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) },
			[]string{"not a regular file but a named pipe", "[suite-unreadable]"}, "summarizer.test.yaml is broken (1:1: not a regular file"},
		{"dangling link", func(p string) error { return os.Symlink(p+".gone", p) },
			[]string{"a symbolic link to a file that does", "broken"}, "summarizer.test.yaml is broken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := demoModel(t, 100, 30)
			path := filepath.Join(tm.opts.Home.Agents, "summarizer.test.yaml")
			if err := tt.make(path); err != nil {
				t.Fatal(err)
			}
			tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, "summarizer.md"))
			done := make(chan struct{})
			go func() {
				defer close(done)
				tm.keys("5")
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatal("reading the suite did not end (a FIFO opened for reading blocks)")
			}
			scr := tm.screen()
			for _, want := range tt.pane {
				if !strings.Contains(scr, want) || strings.Contains(scr, "No suite yet") {
					t.Errorf("the pane lacks %q:\n%s", want, scr)
				}
			}
			tm.keys("T")
			if scr := tm.screen(); !strings.Contains(scr, tt.note) || strings.Contains(scr, "no suite to run") {
				t.Errorf("T on a broken suite, want %q:\n%s", tt.note, scr)
			}
		})
	}
}

func TestTestsPaneShowsTheMatrix(t *testing.T) {
	tm := demoModel(t, 120, 40)
	tm.keys("5")
	p := &tm.tests
	if p.suite == nil || len(p.suite.Cases) < 2 {
		t.Fatalf("the demo suite is not read: %+v", p.suite)
	}
	// A run on two models side by side, its results coming in as the
	// runner sends them (any order).
	p.suite.Models = []string{"main", "compaction"}
	p.running, p.results, p.matrix = true, map[string]*suite.CaseResult{}, nil
	c := p.suite.Cases
	res := func(i int, model string, st suite.Status, tokens int) *suite.CaseResult {
		passed := 0
		if st == suite.Pass {
			passed = 1
		}
		return &suite.CaseResult{Case: c[i], Model: model, Status: st, Passed: passed,
			Samples: []*suite.SampleResult{{N: 1, Status: st, How: "replay", Duration: time.Second, ReportedOutputTokens: tokens}}}
	}
	for _, r := range []*suite.CaseResult{res(0, "Compaction", suite.Fail, 40), res(0, "Main", suite.Pass, 120), res(1, "Main", suite.Pass, 80)} {
		tm.Update(testsCaseMsg{runGen: p.runGen, result: r}) // its next wait is the run's, not needed here
	}
	// Still running: the second case on Compaction is to come ("…").
	scr := tm.screen()
	for _, want := range []string{"matrix", "Main", "Compaction", "1/1 1.00s 120 tok", "0/1 1.00s 40 tok", "…", "all cases", "2/2 cases"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the matrix lacks %q:\n%s", want, scr)
		}
	}
	if m := strings.Join(p.matrixLines(200), "\n"); strings.Contains(m, "not run") || !strings.Contains(m, "…") {
		t.Errorf("a cell still running does not read …:\n%s", m)
	}
	// The run ends without it: the cell did not run.
	_, cmd := tm.Update(testsCaseMsg{runGen: p.runGen, done: true})
	tm.run(cmd)
	// (The screen cuts the matrix at the pane's edge with "…": look at
	// it whole.)
	if m := strings.Join(p.matrixLines(200), "\n"); !strings.Contains(m, "not run") || strings.Contains(m, "…") {
		t.Errorf("once the run ended, the cell with no result does not read not run:\n%s", m)
	}
	if scr = tm.screen(); !strings.Contains(scr, "not run") {
		t.Errorf("the pane does not say which cells did not run:\n%s", scr)
	}
	// The case's line shows its worst model.
	if r := p.results[c[0].Name]; r == nil || r.Status != suite.Fail {
		t.Errorf("case line result %+v", r)
	}
}

// TestQuitDuringTestsCancelsTheLiveSample: quitting the browser while T
// runs a live sample ends that sample as r then q ends a run: Cancelled ·
// cancelled_by_parent, its folder written before Close returns (never
// left Running, to be shown Lost later).
func TestQuitDuringTestsCancelsTheLiveSample(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.SetDefault(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("working on it"), modeltest.Pause(time.Hour)}})
	rh.writeFile("agents/code-analyst.test.yaml", "cases:\n  - name: answers\n    task: say hi\n")
	rh.keys("ctrl+r")
	if !rh.list.selectPath(filepath.Join(rh.base, "agents", "code-analyst.md")) {
		t.Fatal("code-analyst is not in the list")
	}
	rh.keys("5")
	if !strings.Contains(rh.screen(), "answers") {
		t.Fatalf("the suite is not read:\n%s", rh.screen())
	}
	// T, without waiting on its results: the sample stays live.
	_ = rh.tests.start()
	if !rh.tests.running {
		t.Fatalf("T did not start the suite:\n%s", rh.screen())
	}
	if got := rh.srv.WaitRequests(1, time.Minute); len(got) < 1 {
		t.Fatal("the live sample never reached the model")
	}
	// q: the program returns, then Close.
	if err := rh.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := runfolder.ListRuns(filepath.Join(rh.tmp, "runs"), runfolder.Filter{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("runs: %d %v", len(recs), err)
	}
	if r := recs[0]; r.State != "Cancelled" || r.Reason != vocab.ReasonCancelledByParent {
		t.Errorf("the live sample after quitting: %s · %s, want Cancelled · cancelled_by_parent", r.State, r.Reason)
	}
}

// TestTestsPaneShowsASuiteUnderTheAgentItTests: a suite whose agent: names
// another agent is that agent's, not the file name's.
func TestTestsPaneShowsASuiteUnderTheAgentItTests(t *testing.T) {
	tm := demoModel(t, 100, 30)
	agents := tm.opts.Home.Agents
	if err := os.WriteFile(filepath.Join(agents, "short-answers.test.yaml"), []byte("agent: summarizer\ncases:\n  - name: keeps it short\n    task: sum up main.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agents, "deep-thinker.test.yaml"), []byte("agent: code-analyst\ncases:\n  - name: thinks for the analyst\n    task: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.list.selectPath(filepath.Join(agents, "summarizer.md"))
	tm.keys("5")
	if scr := tm.screen(); !strings.Contains(scr, "keeps it short") || !strings.Contains(scr, "short-answers.test.yaml") || strings.Contains(scr, "No suite yet") {
		t.Errorf("summarizer's suite in another file is not shown:\n%s", scr)
	}
	tm.list.selectPath(filepath.Join(agents, "deep-thinker.md"))
	tm.send(nil)
	scr := tm.screen()
	if strings.Contains(scr, "thinks for the analyst") || !strings.Contains(scr, "No suite yet") || !strings.Contains(scr, "deep-thinker.test.yaml tests code-analyst") {
		t.Errorf("a suite testing another agent is shown under its file name's agent:\n%s", scr)
	}
}

// TestTestsPaneWording: the Tests pane's words match its state (issue 20
// item 24): a stale case's samples do not read as passes, a revert to the
// recorded bytes is no longer stale without T, the first enter shows the
// pane took the keys, the help has a Tests section, and a time is never
// cut at 60 columns.
func TestTestsPaneWording(t *testing.T) {
	t.Run("stale samples", func(t *testing.T) {
		tm := demoModel(t, 120, 40)
		tm.keys("5", "T")
		path := filepath.Join(tm.opts.Home.Agents, "code-analyst.md")
		data, _ := os.ReadFile(path)
		tm.writeFile("agents/code-analyst.md", strings.Replace(string(data), "never invent an API", "never guess", 1))
		tm.keys("ctrl+r")
		scr := tm.screen()
		if !strings.Contains(scr, "stale") || strings.Contains(scr, "sample 1: pass (replay)") || !strings.Contains(scr, "sample 1: stale (was pass, replay)") {
			t.Errorf("a stale case's sample reads as a pass:\n%s", scr)
		}
	})
	t.Run("revert", func(t *testing.T) {
		tm := demoModel(t, 120, 40)
		path := filepath.Join(tm.opts.Home.Agents, "code-analyst.md")
		data, _ := os.ReadFile(path)
		tm.writeFile("agents/code-analyst.md", strings.Replace(string(data), "never invent an API", "never guess", 1))
		tm.keys("ctrl+r", "5", "T")
		if scr := tm.screen(); strings.Count(scr, "stale ") < 3 {
			t.Fatalf("T after an edit:\n%s", scr)
		}
		tm.writeFile("agents/code-analyst.md", string(data))
		tm.keys("ctrl+r")
		if scr := tm.screen(); strings.Contains(scr, "stale") || strings.Count(scr, "recorded ") < 3 {
			t.Errorf("after a revert to the recorded bytes:\n%s", scr)
		}
	})
	t.Run("first enter", func(t *testing.T) {
		tm := demoModel(t, 100, 20)
		tm.keys("5")
		before := tm.screen()
		tm.keys("enter")
		if after := tm.screen(); after == before || !strings.Contains(after, "esc") {
			t.Errorf("the first enter changes nothing visible:\n%s", after)
		}
	})
	t.Run("help", func(t *testing.T) {
		tm := demoModel(t, 100, 60) // tall enough for the help's Tests section
		tm.keys("?")
		scr := tm.screen()
		if !strings.Contains(scr, "Tests") || !strings.Contains(scr, "open the case's run") {
			t.Errorf("the help has no Tests section:\n%s", scr)
		}
	})
	t.Run("time at 60 columns", func(t *testing.T) {
		tm := demoModel(t, 60, 20)
		tm.keys("5", "T")
		scr := tm.screen()
		for _, c := range tm.tests.suite.Cases {
			d := dur(tm.tests.results[c.Name].Duration)
			if !strings.Contains(scr, d) || strings.Contains(scr, d+"…") {
				t.Errorf("the time %s is cut:\n%s", d, scr)
			}
		}
	})
}

// TestDemoTestsPaneShowsTheModelMatrix: in the demo, T on deep-thinker
// replays its suite on the two models its models: names, from the
// recordings the demo carries, and shows the matrix: a column per model.
func TestDemoTestsPaneShowsTheModelMatrix(t *testing.T) {
	tm := demoModel(t, 120, 40)
	if !tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, "deep-thinker.md")) {
		t.Fatal("deep-thinker is not in the list")
	}
	tm.send(nil)
	tm.keys("5", "T")
	scr := tm.screen()
	for _, want := range []string{"Tests of deep-thinker", "matrix", "qwen3-30b", "llama3-8b", "recommends one option", "names the trade-off", "2/2 cases"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the Tests pane lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "not recorded") || strings.Contains(scr, "stale") {
		t.Errorf("a cell did not replay:\n%s", scr)
	}
}

// A case's approve: its audience can never use (Team gets no shell) is a
// problem the Tests pane shows, as agentdesk lint and test say it.
func TestTestsPaneApproveForAnAudience(t *testing.T) {
	tm := demoModel(t, 140, 30)
	path := filepath.Join(tm.opts.Home.Agents, "summarizer.test.yaml")
	if err := os.WriteFile(path, []byte("agent: summarizer\naudience: team\ncases:\n  - name: a\n    task: b\n    approve: [shell_execute]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, "summarizer.md"))
	tm.keys("5")
	if scr := tm.screen(); !strings.Contains(scr, "the Team audience is not offered") {
		t.Errorf("the pane does not say Team gets no shell:\n%s", scr)
	}
}
