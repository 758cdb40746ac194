package suite

import (
	"context"

	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// twoModels configures Main (model big) and a definition cheap (model
// small) on the test server: big answers with the port, small without.
func twoModels(f *fixture) {
	hometest.WriteFile(f.t, f.home.ConfigFile(), fmt.Sprintf(`{
  "Models": {"Roles": {"Main": "big"}, "Definitions": {
    "big": {"Provider": "mock", "ModelId": "big-model"},
    "cheap": {"Provider": "mock", "ModelId": "small-model"}}},
  "Providers": {"mock": {"Type": "openai-compatible", "Endpoint": %q}}
}`, f.srv.Endpoint(wire.OpenAI)))
	f.srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		if r.Model == "small-model" {
			return modeltest.Script{Steps: []modeltest.Step{modeltest.Text("It listens somewhere."), modeltest.Stop()}, Usage: &modeltest.Usage{InputTokens: 10, OutputTokens: 4}}, true
		}
		return modeltest.Script{Steps: []modeltest.Step{modeltest.Text("It listens on port 8080, as set in main.go."), modeltest.Stop()}, Usage: &modeltest.Usage{InputTokens: 10, OutputTokens: 11}}, true
	})
}

// matrixRunner writes matrixSuite under twoModels and returns a runner
// for f, the suite loaded and checked, and its catalog.
func matrixRunner(f *fixture) (*runner.Runner, *suitefile.Suite, *lint.Catalog) {
	f.t.Helper()
	twoModels(f)
	path := f.suite(matrixSuite)
	cat := f.catalog()
	rn, err := runner.New(runner.Options{RunsDir: f.runs, Client: f.client})
	if err != nil {
		f.t.Fatal(err)
	}
	s := suitefile.Load(path)
	suitefile.Check(s, cat)
	return rn, s, cat
}

const matrixSuite = `cases:
  - name: names the port
    task: which port?
    repeat: 2
    expect: {contains: '8080'}
  - name: answers
    task: which port?
`

func TestModelsSideBySideRecordAndReplay(t *testing.T) {
	f := newFixture(t)
	twoModels(f)
	path := f.suite(matrixSuite)
	models, err := suitefile.LookupModels(nil, []string{"Main"})
	if err != nil {
		t.Fatal(err)
	}
	f.models = []string{"main", "CHEAP"} // any case, as a flag gives them
	rs := f.run(evalrec.Record, path)
	want := []string{"names the port [Main]: pass 2/2", "names the port [cheap]: fail 0/2", "answers [Main]: pass 1/1", "answers [cheap]: pass 1/1"}
	if got := titles(rs); !slices.Equal(got, want) {
		t.Fatalf("recorded %q, want %q", got, want)
	}
	// Each model keeps its recordings in a folder of its own.
	for _, m := range []string{"Main", "cheap"} {
		for n := 1; n <= 2; n++ {
			if _, err := os.Stat(evalrec.ModelPath(path, m, "names the port", n)); err != nil {
				t.Errorf("recording of %s sample %d: %v", m, n, err)
			}
		}
	}
	if _, err := os.Stat(evalrec.Path(path, "answers", 1)); !os.IsNotExist(err) {
		t.Errorf("a matrix wrote a recording outside the models' folders: %v", err)
	}
	n := len(f.srv.Requests())
	f.srv.Close()
	rs = f.run(evalrec.Offline, path)
	if got := titles(rs); !slices.Equal(got, want) {
		t.Fatalf("replayed %q, want %q", got, want)
	}
	if len(f.srv.Requests()) != n {
		t.Error("offline called the model")
	}
	m := rs[0].Matrix()
	if m == nil || !slices.Equal(m.Models, []string{"Main", "cheap"}) {
		t.Fatalf("matrix %+v", m)
	}
	if c := m.Rows[0].Cells[1]; c.Passed != 0 || c.Samples != 2 || c.MedianOutputTokens != 4 || c.Ran != 2 {
		t.Errorf("cheap's cell %+v", c)
	}
	if c := m.Summary[0]; c.CasesPassed != 2 || c.Passed != 3 || c.MedianOutputTokens != 11 {
		t.Errorf("Main's summary %+v", c)
	}
	// Without the models, the case runs on its own role: not recorded.
	f.models = nil
	if got := statuses(f.run(evalrec.Offline, path)); got[0] != "names the port: not recorded 0/2" {
		t.Errorf("without models: %q", got)
	}
	// A suite's models: is the default; the recordings are the same.
	path = f.suite("models: [Main, cheap]\n" + matrixSuite)
	if got := titles(f.run(evalrec.Offline, path)); !slices.Equal(got, want) {
		t.Errorf("with models: in the suite %q", got)
	}
	// Options.Models wins over models:.
	f.models = []string{models[0].Name}
	if got := titles(f.run(evalrec.Offline, path)); !slices.Equal(got, []string{"names the port [Main]: pass 2/2", "answers [Main]: pass 1/1"}) {
		t.Errorf("Options.Models over models: %q", got)
	}
}

// TestModelsNotRecordedHint: the hint of a sample not recorded under
// --models names the model, so that pasting it records into that model's
// folder; under a suite's models: it needs no flag.
func TestModelsNotRecordedHint(t *testing.T) {
	f := newFixture(t)
	twoModels(f)
	path := f.suite(matrixSuite)
	f.models = []string{"Main", "cheap"}
	rs := f.run(evalrec.Offline, path)
	for i, want := range []string{"agentdesk test --models Main --record --case 'names the port' ", "agentdesk test --models cheap --record --case 'names the port' "} {
		if c := rs[0].Cases[i]; c.Status != Unrecorded || !strings.Contains(c.Message, "record this case alone: "+want) {
			t.Errorf("case %d: %s %q, want the hint %q", i, c.Status, c.Message, want)
		}
	}
	f.models = nil
	path = f.suite("models: [Main, cheap]\n" + matrixSuite)
	rs = f.run(evalrec.Offline, path)
	if c := rs[0].Cases[1]; c.Status != Unrecorded || !strings.Contains(c.Message, "record this case alone: agentdesk test --record --case 'names the port' ") {
		t.Errorf("with models: in the suite: %s %q", c.Status, c.Message)
	}
}

func TestSuiteModelUndefined(t *testing.T) {
	f := newFixture(t)
	twoModels(f)
	path := f.suite("models: [Main, chaep]\n" + matrixSuite)
	rs := f.run(evalrec.Offline, path)
	found := false
	for _, d := range rs[0].Findings {
		if d.Rule == suitefile.RuleModel && d.Line == 1 && strings.Contains(d.Message, `model "chaep" is neither a role`) && d.Hint == "did you mean 'cheap'?" {
			found = true
		}
	}
	if !found {
		t.Errorf("no suite-model finding: %+v", rs[0].Findings)
	}
	for _, c := range rs[0].Cases {
		if c.Status != Error || !strings.Contains(c.Message, "did you mean 'cheap'?") {
			t.Errorf("%s: %s %q", c.Title(), c.Status, c.Message)
		}
	}
}

// titles lists "title: status passed/total" for each case result.
func titles(rs []*SuiteResult) []string {
	var out []string
	for _, s := range rs {
		for _, c := range s.Cases {
			out = append(out, fmt.Sprintf("%s: %s %d/%d", c.Title(), c.Status, c.Passed, len(c.Samples)))
		}
	}
	return out
}

func TestLookupModels(t *testing.T) {
	f := newFixture(t)
	twoModels(f)
	cat := f.catalog()
	tests := []struct {
		in         []string
		want, fail string
	}{
		{[]string{"Main,Compaction"}, "Main Compaction", ""},
		{[]string{"cheap", "fallback"}, "cheap Fallback", ""},
		{[]string{"BIG"}, "big", ""},
		{[]string{"cheep"}, "", `model "cheep" is neither a role (Main, Compaction, Fallback) nor a model definition (Models.Definitions of netclaw.json); did you mean 'cheap'?`},
		{[]string{"Main", "main"}, "", "model Main is named twice; name each model once"},
		{[]string{"zzzzzzzz"}, "", "the definitions are big, cheap"},
	}
	for _, tt := range tests {
		ms, err := suitefile.LookupModels(cat.Config, tt.in)
		var names []string
		for _, m := range ms {
			names = append(names, m.Name)
		}
		if got := strings.Join(names, " "); got != tt.want || (err == nil) != (tt.fail == "") || (err != nil && !strings.Contains(err.Error(), tt.fail)) {
			t.Errorf("LookupModels(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.fail)
		}
	}
}

// TestMatrixOnlyCasesThatRan: with --case (or --shard, --failed) the
// matrix holds the cases that ran, not a row of empty cells ("…", as a
// case still running shows in the browser) for each case left out.
func TestMatrixOnlyCasesThatRan(t *testing.T) {
	f := newFixture(t)
	rn, s, cat := matrixRunner(f)
	models, err := suitefile.LookupModels(cat.Config, []string{"Main", "cheap"})
	if err != nil {
		t.Fatal(err)
	}
	rs := Run(context.Background(), []*suitefile.Suite{s}, Options{Runner: rn, Catalog: cat, Mode: evalrec.Record, Jobs: 2, Models: models, Cases: evalrec.NewCaseFilter([]string{"answers"})})
	m := rs[0].Matrix()
	if m == nil || len(m.Rows) != 1 || m.Rows[0].Case.Name != "answers" {
		t.Fatalf("matrix rows %+v", m)
	}
	for _, c := range m.Rows[0].Cells {
		if c.Status != Pass {
			t.Errorf("cell %+v", c)
		}
	}
	if m.Summary[0].Cases != 1 {
		t.Errorf("summary %+v", m.Summary[0])
	}
}

// TestFailedRunsEachCaseOnItsFailedModels: with SelectModels (--failed)
// each case runs on the models it failed on alone, among Models when
// given (in Models' order); a suite none of whose cases failed on them
// ends with no case.
func TestFailedRunsEachCaseOnItsFailedModels(t *testing.T) {
	f := newFixture(t)
	rn, s, cat := matrixRunner(f)
	failed := map[string][]string{"names the port": {"cheap"}, "answers": {"", "Main"}}
	titles := func(rs []*SuiteResult) []string {
		var out []string
		for _, cr := range rs[0].Cases {
			out = append(out, cr.Title())
		}
		slices.Sort(out)
		return out
	}
	o := Options{Runner: rn, Catalog: cat, Mode: evalrec.Record, Jobs: 2,
		Select:       func(_, c string) bool { return len(failed[c]) > 0 },
		SelectModels: func(_, c string) []string { return failed[c] }}
	rs := Run(context.Background(), []*suitefile.Suite{s}, o)
	if got, want := titles(rs), []string{"answers", "answers [Main]", "names the port [cheap]"}; !slices.Equal(got, want) {
		t.Errorf("--failed ran %q, want %q", got, want)
	}
	if got := rs[0].Models; len(got) != 2 || got[0].Name != "cheap" || got[1].Name != "Main" {
		t.Errorf("models %+v, want cheap then Main, as first met", got)
	}
	models, err := suitefile.LookupModels(cat.Config, []string{"Main", "cheap"})
	if err != nil {
		t.Fatal(err)
	}
	o.Models = models
	rs = Run(context.Background(), []*suitefile.Suite{s}, o)
	if got, want := titles(rs), []string{"answers [Main]", "names the port [cheap]"}; !slices.Equal(got, want) {
		t.Errorf("--failed --models Main,cheap ran %q, want %q", got, want)
	}
	if got := rs[0].Models; len(got) != 2 || got[0].Name != "Main" || got[1].Name != "cheap" {
		t.Errorf("models %+v, want Main then cheap, as --models gives them", got)
	}
	o.Models = models[1:] // cheap alone: "answers" failed on Main and its own role
	ended := 0
	o.OnSuite = func(*SuiteResult) { ended++ }
	o.Select = func(string, string) bool { return true }
	failed["names the port"] = nil
	rs = Run(context.Background(), []*suitefile.Suite{s}, o)
	if len(rs[0].Cases) != 0 || ended != 1 {
		t.Errorf("--failed --models cheap ran %q (suite ended %d times), want nothing", titles(rs), ended)
	}
}
