package demo

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// demoMatrixSuite is the demo's suite on two models (models:).
const demoMatrixSuite = "deep-thinker.test.yaml"

// matrixNames are the names of MatrixModels.
func matrixNames() []string {
	var out []string
	for _, m := range MatrixModels {
		out = append(out, m.Name)
	}
	return out
}

// matrixLines are a matrix run's results, one "case [model]: status
// message" line each, sorted.
func matrixLines(r *suite.SuiteResult) []string {
	var out []string
	for _, c := range r.Cases {
		out = append(out, c.Case.Name+" ["+c.Model+"]: "+string(c.Status)+" "+c.Message)
	}
	sort.Strings(out)
	return out
}

// wantMatrix is what each demo suite gives on the two matrix models.
func wantMatrix(cases ...string) []string {
	var out []string
	for _, c := range cases {
		for _, m := range matrixNames() {
			out = append(out, c+" ["+m+"]: pass ")
		}
	}
	sort.Strings(out)
	return out
}

var (
	wantThinkerMatrix = wantMatrix("recommends one option", "names the trade-off")
	wantAnalystMatrix = wantMatrix("explains the watcher", "answers in one sentence", "long summary is cut")
)

// thinkerReplies are deep-thinker's answers, by model and by question:
// the two models say the same in their own words and at their own length.
var thinkerReplies = map[string]map[string]string{
	"qwen3:30b": {
		"debounce": "I recommend debouncing in the watcher: the model then sees one event per save. The trade-off is a clock in the watcher, which a test must drive.",
		"memory":   "Keep them in memory and parse only the saved file. The trade-off is memory for speed, a few kilobytes per agent.",
	},
	"llama3.1:8b": {
		"debounce": "My recommendation is the watcher, because a burst of events from one save then reaches the model as a single rescan, " +
			"though the watcher needs its own clock and tests must control it.",
		"memory": "Parsing again on every save is simpler, but keeping the parsed agents in memory is faster; the trade-off is that " +
			"memory use grows with the number of agents, which stays small in practice.",
	},
}

// matrixChooser answers the demo's suites on the matrix models:
// deep-thinker's questions by model, and code-analyst's cases as
// analystChooser does.
func matrixChooser() func(modeltest.Request) (modeltest.Script, bool) {
	analyst := analystChooser()
	return func(r modeltest.Request) (modeltest.Script, bool) {
		user := r.FirstUser()
		if !strings.Contains(user, "Answer in two sentences") || r.System == suite.JudgePrompt {
			return analyst(r)
		}
		model := strings.TrimSuffix(r.Model, " (recorded)")
		question := "memory"
		if strings.Contains(user, "debounce") {
			question = "debounce"
		}
		text := thinkerReplies[model][question]
		if text == "" {
			return modeltest.Reply("no script for model " + r.Model), true
		}
		gap := 20 * time.Millisecond
		if model == "llama3.1:8b" {
			gap = 35 * time.Millisecond
		}
		steps := append(words(modeltest.Thinking, "Weigh both sides first. "), words(modeltest.Text, text)...)
		return modeltest.Script{Gap: gap, Steps: append(steps, modeltest.Stop()),
			Usage: &modeltest.Usage{InputTokens: 380, OutputTokens: len(strings.Fields(text)) * 4 / 3}}, true
	}
}

// TestGenerateDemoMatrixRecordings records the demo's suites on both
// MatrixModels from the test server: deep-thinker's (whose models: are
// those) and code-analyst's under --models, so `agentdesk test --demo
// --models qwen3-30b,llama3-8b` replays every suite. It runs only with
// -generate; review the diff of home/agents/*.test.recordings.
func TestGenerateDemoMatrixRecordings(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to record the demo's model matrix again")
	}
	srv := modeltest.NewServer()
	defer srv.Close()
	srv.SetChooser(matrixChooser())
	tmp := t.TempDir()
	h := setupAgainst(t, filepath.Join(tmp, "demo"), srv)
	runs := filepath.Join(tmp, "runs")
	if got := matrixLines(runDemoSuiteOn(t, h, demoMatrixSuite, runs, evalrec.Record, nil)); !slices.Equal(got, wantThinkerMatrix) {
		t.Fatalf("deep-thinker recorded %q", got)
	}
	if got := matrixLines(runDemoSuiteOn(t, h, demoSuite, runs, evalrec.Record, matrixNames())); !slices.Equal(got, wantAnalystMatrix) {
		t.Fatalf("code-analyst recorded %q", got)
	}
	keepRecordings(t, h, srv, demoMatrixSuite, true)
	keepRecordings(t, h, srv, demoSuite, true)
}

// TestDemoMatrixOffline replays the demo's model matrix as `agentdesk test
// --demo --offline` does: deep-thinker's suite runs on both of its
// models:, and code-analyst's on both under --models, every cell from its
// recordings; the two models' samples differ, as two models' answers do.
func TestDemoMatrixOffline(t *testing.T) {
	tmp := t.TempDir()
	h, err := Setup(filepath.Join(tmp, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(tmp, "runs")
	r := runDemoSuiteOn(t, h, demoMatrixSuite, runs, evalrec.Offline, nil)
	if got := matrixLines(r); !slices.Equal(got, wantThinkerMatrix) {
		t.Fatalf("deep-thinker offline %q, want %q", got, wantThinkerMatrix)
	}
	outputs := map[string]bool{}
	for _, c := range r.Cases {
		for _, s := range c.Samples {
			if s.How != "replay" {
				t.Errorf("%s [%s] sample %d ran %q, not from its recording", c.Case.Name, c.Model, s.N, s.How)
			}
			outputs[s.Output] = true
		}
	}
	if len(outputs) != 4 {
		t.Errorf("the two models' answers are not their own: %d different outputs of 4", len(outputs))
	}
	if got := matrixLines(runDemoSuiteOn(t, h, demoSuite, runs, evalrec.Offline, matrixNames())); !slices.Equal(got, wantAnalystMatrix) {
		t.Fatalf("code-analyst --models offline %q, want %q", got, wantAnalystMatrix)
	}
}
