package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

const cmdSuite = `cases:
  - name: answers
    task: say hi
    expect:
      contains: hello
  - name: judged
    task: say hi
    repeat: 2
    expect:
      judge: greets the user
`

// suiteHome is trialHome with a suite for code-analyst whose model answers
// "Hello" and whose judge says PASS.
func suiteHome(t *testing.T) (*modeltest.Server, []string, string, string) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		if strings.Contains(r.System, "test judge") {
			return modeltest.Reply("PASS: it greets."), true
		}
		return modeltest.Reply("Hello there."), true
	})
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	suite := filepath.Join(home, "agents", "code-analyst.test.yaml")
	hometest.WriteFile(t, suite, cmdSuite)
	return srv, env, runs, suite
}

func TestTestCommandRecordOfflineStale(t *testing.T) {
	srv, env, runs, suite := suiteHome(t)
	code, stdout, stderr := runTrialCmd(t, env, "", "test", "--record")
	if code != 0 || !strings.Contains(stdout, "pass   answers  1/1") || !strings.Contains(stdout, "pass   judged   2/2") ||
		!strings.Contains(stdout, "2 cases: 2 passed (3 samples)") {
		t.Fatalf("record: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "cases done") {
		t.Errorf("a progress line on a pipe: %q", stderr)
	}
	recs, _ := filepath.Glob(filepath.Join(filepath.Dir(suite), "code-analyst.test.recordings", "*.recording"))
	if len(recs) != 3 {
		t.Errorf("%d recordings", len(recs))
	}
	n := len(srv.Requests())
	srv.Close()
	code, stdout, stderr = runTrialCmd(t, env, "", "test", "--offline", suite)
	if code != 0 || !strings.Contains(stdout, "2 cases: 2 passed") {
		t.Fatalf("offline: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if len(srv.Requests()) != n {
		t.Error("offline called the model")
	}
	// The runs list says which suite and case each run belongs to.
	_, list, _ := runTrialCmd(t, env, "", "runs")
	if !strings.Contains(list, "SUITE") || !strings.Contains(list, "code-analyst.test.yaml › judged #2 (judge)") || !strings.Contains(list, "code-analyst.test.yaml › answers #1") {
		t.Errorf("runs list:\n%s", list)
	}
	all, _ := runfolder.ListRuns(runs, runfolder.Filter{})
	if len(all) != 5 { // 3 samples + 2 judges recorded; the replays passed and left no folder
		t.Errorf("%d runs", len(all))
	}
	// --keep-runs keeps the replays' folders (a replayed verdict is read
	// from its tape: no judge run).
	if code, _, stderr := runTrialCmd(t, env, "", "test", "--offline", "--keep-runs", suite); code != 0 {
		t.Fatalf("offline --keep-runs: exit %d\n%s", code, stderr)
	}
	if all, _ = runfolder.ListRuns(runs, runfolder.Filter{}); len(all) != 8 {
		t.Errorf("%d runs after --keep-runs", len(all))
	}

	// An edit of the definition makes every recording stale: exit 1.
	def := filepath.Join(filepath.Dir(suite), "code-analyst.md")
	data, _ := os.ReadFile(def)
	os.WriteFile(def, []byte(strings.Replace(string(data), "You read code.", "You read code carefully.", 1)), 0o644)
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--offline")
	if code != 1 || !strings.Contains(stdout, "stale  answers") || !strings.Contains(stdout, "system prompt: body changed: ") || !strings.Contains(stdout, "code-analyst.md edited") {
		t.Errorf("stale: exit %d\n%s", code, stdout)
	}
	// JUnit parses, with a failure of type stale per case.
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--offline", "--format", "junit")
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Line    int    `xml:"line,attr"`
				Failure struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(stdout), &doc); err != nil || code != 1 || doc.Tests != 2 || doc.Failures != 2 || doc.Suites[0].Cases[1].Failure.Type != "stale" || doc.Suites[0].Cases[1].Line != 6 {
		t.Errorf("junit: exit %d %v %+v\n%s", code, err, doc, stdout)
	}
	// GitHub annotations at the case's line.
	_, stdout, _ = runTrialCmd(t, env, "", "test", "--offline", "--format", "github")
	if !strings.Contains(stdout, "::error file=") || !strings.Contains(stdout, "code-analyst.test.yaml,line=2,title=stale%3A answers::") {
		t.Errorf("github:\n%s", stdout)
	}
	// JSON.
	_, stdout, _ = runTrialCmd(t, env, "", "test", "--offline", "--format", "json")
	var js struct {
		Suites []struct {
			Cases []struct {
				Status  string `json:"status"`
				Samples []struct {
					Changes []string `json:"stale_because"`
				} `json:"samples"`
			} `json:"cases"`
		} `json:"suites"`
		Summary struct {
			Stale int  `json:"stale"`
			OK    bool `json:"ok"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &js); err != nil || js.Summary.Stale != 2 || js.Summary.OK || len(js.Suites[0].Cases[0].Samples[0].Changes) == 0 {
		t.Errorf("json: %v %+v", err, js)
	}
}

func TestTestCommandFailuresAndUsage(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	os.WriteFile(suite, []byte("cases:\n  - name: wants bye\n    task: say hi\n    expect: {contains: goodbye}\n"), 0o644)
	code, stdout, _ := runTrialCmd(t, env, "", "test")
	if code != 1 || !strings.Contains(stdout, "fail   wants bye  0/1") || !strings.Contains(stdout, `sample 1: contains "goodbye": the output does not hold it`) ||
		!strings.Contains(stdout, "1: Hello there.") || !strings.Contains(stdout, "run: ") {
		t.Errorf("failure: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--offline")
	if code != 1 || !strings.Contains(stdout, "not recorded") || !strings.Contains(stdout, "--record") {
		t.Errorf("offline, not recorded: exit %d\n%s", code, stdout)
	}
	for _, bad := range []struct {
		args []string
		has  string
	}{
		{[]string{"test", "--record", "--offline"}, "give one of them"},
		{[]string{"test", "--jobs", "0"}, "--jobs is 0"},
		{[]string{"test", "--format", "xml"}, "use text, json, junit, github or html"},
		{[]string{"test", "--judge-role", "Boss"}, "--judge-role"},
		{[]string{"test", "nowhere.test.yaml"}, "no such suite"},
		{[]string{"test", filepath.Join(filepath.Dir(suite), "code-analyst.md")}, "is not a test suite"},
	} {
		code, _, stderr := runTrialCmd(t, env, "", bad.args...)
		if code != 2 || !strings.Contains(stderr, bad.has) {
			t.Errorf("%v: exit %d %q", bad.args, code, stderr)
		}
	}
	os.Remove(suite)
	if code, _, stderr := runTrialCmd(t, env, "", "test"); code != 2 || !strings.Contains(stderr, "no test suites in") {
		t.Errorf("no suites: exit %d %q", code, stderr)
	}
}

func TestLintChecksSuites(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	os.WriteFile(suite, []byte("cases:\n  - name: a\n    task: b\n    expect:\n      contians: x\n      matches: '('\n"), 0o644)
	code, stdout, _ := runTrialCmd(t, env, "", "lint")
	if code != 1 || !strings.Contains(stdout, "code-analyst.test.yaml:5:7: error: unknown key \"contians\"") || !strings.Contains(stdout, "did you mean 'contains'?") ||
		!strings.Contains(stdout, "[suite-unknown-key]") || !strings.Contains(stdout, "code-analyst.test.yaml:6:16: error: matches \"(\" is not a valid RE2 expression") {
		t.Errorf("lint: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runTrialCmd(t, env, "", "lint", "--format", "sarif", suite)
	if code != 1 || !strings.Contains(stdout, `"ruleId": "suite-regexp"`) || !strings.Contains(stdout, `"id": "suite-regexp"`) {
		t.Errorf("sarif of a suite path: exit %d\n%s", code, stdout)
	}
}

func TestTestDemoOfflineBinary(t *testing.T) {
	code, stdout, stderr := runBinary(t, nil, "test", "--demo", "--offline", "--keep-runs")
	if code != 0 || !strings.Contains(stdout, "agents/code-analyst.test.yaml") || !strings.Contains(stdout, "7 cases: 7 passed (8 samples)") {
		t.Errorf("demo: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The run folders the report names are in the demo's temporary home.
	if !strings.Contains(stderr, "the demo's run folders were temporary") || !strings.Contains(stderr, "--runs-dir") {
		t.Errorf("demo: no word that its run folders are gone:\n%s", stderr)
	}
	if code, _, stderr := runBinary(t, nil, "test", "--demo", "--offline", "--runs-dir", t.TempDir()); code != 0 || strings.Contains(stderr, "temporary") {
		t.Errorf("demo with --runs-dir: exit %d\n%s", code, stderr)
	}
	// On a terminal a progress line goes to stderr as cases finish.
	out := runOnTerminal(t, nil, "test", "--demo", "--offline")
	// deep-thinker's cases run on both models of its models: (7 in all).
	if !strings.Contains(out, "7/7 cases done") || strings.Contains(out, "8/7") || !strings.Contains(out, "7 passed") {
		t.Errorf("terminal:\n%q", out)
	}
}

// TestTestDemoModelMatrix: the demo carries recordings of every suite on
// two models, so --models naming them replays a matrix with no model: a
// column per model, each case passed on each.
func TestTestDemoModelMatrix(t *testing.T) {
	code, stdout, stderr := runBinary(t, nil, "test", "--demo", "--offline", "--models", "qwen3-30b,llama3-8b")
	if code != 0 || strings.Count(stdout, "matrix ") != 2 || !strings.Contains(stdout, "10 cases: 10 passed (12 samples)") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"pass   explains the watcher [llama3-8b]", "pass   names the trade-off [qwen3-30b]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "matrix ") && (!strings.Contains(l, "qwen3-30b") || !strings.Contains(l, "llama3-8b")) {
			t.Errorf("a matrix without both models' columns: %q", l)
		}
	}
}

func TestTestCommandModelsMatrix(t *testing.T) {
	srv, env, _, suite := suiteHome(t)
	// Definition m is Main's; Compaction falls back to Main: the same
	// model twice, recorded apart. Main is the agent's own role, so its
	// samples are the plain ones and share the plain recordings.
	code, stdout, stderr := runTrialCmd(t, env, "", "test", "--record", "--models", "main,m", suite)
	if code != 0 || !strings.Contains(stdout, "pass   answers [Main]") || !strings.Contains(stdout, "pass   judged [m]") ||
		!strings.Contains(stdout, "matrix") || !strings.Contains(stdout, "all cases") {
		t.Fatalf("record: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, m := range []string{"", "model-m"} { // "": the plain recordings, Main's
		recs, _ := filepath.Glob(filepath.Join(filepath.Dir(suite), "code-analyst.test.recordings", m, "*.recording"))
		if len(recs) != 3 {
			t.Errorf("%q: %d recordings", m, len(recs))
		}
	}
	if dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(suite), "code-analyst.test.recordings", "model-main*")); len(dirs) != 0 {
		t.Errorf("Main, the agent's own role, got a model folder of its own: %q", dirs)
	}
	srv.Close()
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--offline", "--models", "Main,m", "--format", "junit", suite)
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 4 ||
		doc.Suites[0].Cases[0].Name != "answers [Main]" || doc.Suites[0].Cases[3].Name != "judged [m]" {
		t.Errorf("junit: exit %d %v %+v\n%s", code, err, doc, stdout)
	}
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--offline", "--models", "Main,m", "--format", "json", suite)
	var js struct {
		Suites []struct {
			Matrix struct {
				Models  []string `json:"models"`
				Summary []struct {
					CasesPassed int `json:"cases_passed"`
				} `json:"summary"`
			} `json:"matrix"`
		} `json:"suites"`
	}
	if err := json.Unmarshal([]byte(stdout), &js); err != nil || code != 0 || len(js.Suites[0].Matrix.Models) != 2 || js.Suites[0].Matrix.Summary[1].CasesPassed != 2 {
		t.Errorf("json: exit %d %v %+v", code, err, js)
	}
}

func TestTestCommandModelsBadUsage(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	tests := []struct {
		models, want string
	}{
		{"Main,mm", `--models: model "mm" is neither a role (Main, Compaction, Fallback) nor a model definition (Models.Definitions of netclaw.json); did you mean 'm'?`},
		{"Mian", "did you mean 'Main'?"},
		{"m,M", "model m is named twice"},
		{",", "--models names no model"},
	}
	for _, tt := range tests {
		code, _, stderr := runTrialCmd(t, env, "", "test", "--offline", "--models", tt.models, suite)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("--models %s: exit %d, want 2 and %q:\n%s", tt.models, code, tt.want, stderr)
		}
	}
}

// TestShardsSplitTheDemoSuites: the N shards of test and route --suite
// run every case exactly once between them, each report standing alone.
func TestShardsSplitTheDemoSuites(t *testing.T) {
	for _, cmd := range [][]string{{"test", "--demo", "--offline"}, {"route", "--demo", "--suite", "--offline"}} {
		t.Run(cmd[0], func(t *testing.T) {
			whole := junitCases(t, append(cmd, "--format", "junit"))
			if len(whole) < 3 {
				t.Fatalf("the demo has %d cases", len(whole))
			}
			seen := map[string]int{}
			for k := 1; k <= 3; k++ {
				shard := fmt.Sprintf("%d/3", k)
				for _, name := range junitCases(t, append(cmd, "--format", "junit", "--shard", shard)) {
					seen[name]++
				}
			}
			for _, name := range whole {
				if seen[name] != 1 {
					t.Errorf("%s ran in %d shards", name, seen[name])
				}
			}
			if len(seen) != len(whole) {
				t.Errorf("the shards ran %d cases, the whole %d", len(seen), len(whole))
			}
		})
	}
	for _, bad := range []string{"0/3", "4/3", "x", "1/0"} {
		code, _, stderr := runTrialCmd(t, nil, "", "test", "--demo", "--offline", "--shard", bad)
		if code != 2 || !strings.Contains(stderr, "--shard") {
			t.Errorf("--shard %s: exit %d\n%s", bad, code, stderr)
		}
	}
}

// junitCases runs agentdesk with args (a JUnit report) and returns its
// test cases' names; a shard with no case of a suite leaves it out.
func junitCases(t *testing.T, args []string) []string {
	t.Helper()
	code, stdout, stderr := runTrialCmd(t, nil, "", args...)
	if code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, stderr)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stdout)
	}
	var out []string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			out = append(out, c.Name)
		}
	}
	return out
}

func TestTestCommandFailedRunsAgainWhatFailed(t *testing.T) {
	srv, env, _, suite := suiteHome(t)
	if err := os.WriteFile(suite, []byte("cases:\n  - name: answers\n    task: say hi\n    expect: {contains: hello}\n  - name: says bye\n    task: say bye\n    expect: {contains: goodbye}\n  - name: also answers\n    task: say hi again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Before any run: nothing is known, nothing runs.
	code, stdout, stderr := runTrialCmd(t, env, "", "test", "--failed", suite)
	if code != 0 || !strings.Contains(stderr, "has no last run recorded") || !strings.Contains(stdout, "0 cases") {
		t.Fatalf("--failed before a run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, _ = runTrialCmd(t, env, "", "test", suite); code != 1 || !strings.Contains(stdout, "3 cases: 2 passed, 1 failed") {
		t.Fatalf("first run: exit %d\n%s", code, stdout)
	}
	state := filepath.Join(strings.TrimPrefix(env[1], "XDG_STATE_HOME="), "agentdesk", "last-runs")
	if entries, err := os.ReadDir(state); err != nil || len(entries) != 1 {
		t.Fatalf("state folder %s: %v %v", state, entries, err)
	}
	n := len(srv.Requests())
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--failed", suite)
	if code != 1 || !strings.Contains(stdout, "says bye") || strings.Contains(stdout, "answers") || !strings.Contains(stdout, "1 case: 0 passed, 1 failed") {
		t.Errorf("--failed: exit %d\n%s", code, stdout)
	}
	if got := len(srv.Requests()) - n; got != 1 {
		t.Errorf("--failed made %d model calls, want 1", got)
	}
	// The model learns to say goodbye: --failed runs it, it passes, and
	// then nothing is left to run again.
	srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) { return modeltest.Reply("Hello and goodbye."), true })
	if code, stdout, _ = runTrialCmd(t, env, "", "test", "--failed", suite); code != 0 || !strings.Contains(stdout, "1 case: 1 passed") {
		t.Errorf("--failed after the fix: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runTrialCmd(t, env, "", "test", "--failed", suite)
	if code != 0 || !strings.Contains(stderr, "no case failed in the last run") {
		t.Errorf("--failed with nothing failed: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runTrialCmd(t, nil, "", "test", "--demo", "--failed"); code != 2 || !strings.Contains(stderr, "the demo keeps none") {
		t.Errorf("--demo --failed: exit %d\n%s", code, stderr)
	}
}

// TestTestCommandFailedRunsEachCaseOnTheModelsItFailedOn: after a run
// on models Main and m where a case failed on m alone, --failed runs it
// again on m alone, and --failed --models Main has nothing to run.
func TestTestCommandFailedRunsEachCaseOnTheModelsItFailedOn(t *testing.T) {
	srv, env, _, suite := suiteHome(t)
	if err := os.WriteFile(suite, []byte("cases:\n  - name: answers\n    task: say hi\n    expect: {contains: hello}\n  - name: says bye\n    task: say bye\n    expect: {contains: goodbye}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(strings.TrimPrefix(env[1], "XDG_STATE_HOME="), "agentdesk", "last-runs")
	// The last run, as `agentdesk test --models Main,m` leaves it when
	// "says bye" fails on m alone.
	if err := evalrec.SaveLastRunByModel(state, suite, map[evalrec.CaseModel]string{
		{Case: "answers", Model: "Main"}: "pass", {Case: "answers", Model: "m"}: "pass",
		{Case: "says bye", Model: "Main"}: "pass", {Case: "says bye", Model: "m"}: "fail",
	}, time.Now()); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runTrialCmd(t, env, "", "test", "--failed", "--models", "Main", suite)
	if code != 0 || !strings.Contains(stderr, "no case failed on these models") {
		t.Errorf("--failed --models Main: exit %d\n%s", code, stderr)
	}
	n := len(srv.Requests())
	code, stdout, stderr := runTrialCmd(t, env, "", "test", "--failed", suite)
	if code != 1 || !strings.Contains(stdout, "says bye [m]") || strings.Contains(stdout, "[Main]") || strings.Contains(stdout, "answers") {
		t.Errorf("--failed: exit %d, want \"says bye\" on m alone\n%s\n%s", code, stdout, stderr)
	}
	if got := len(srv.Requests()) - n; got != 1 {
		t.Errorf("--failed made %d model calls, want 1", got)
	}
	// The model learns to say goodbye: --failed --models Main,m runs the
	// failed cell alone, it passes, and the failure on m is cleared.
	srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) { return modeltest.Reply("Hello and goodbye."), true })
	code, stdout, _ = runTrialCmd(t, env, "", "test", "--failed", "--models", "Main,m", suite)
	if code != 0 || !strings.Contains(stdout, "says bye [m]") || strings.Contains(stdout, "[Main]") || !strings.Contains(stdout, "1 case: 1 passed") {
		t.Errorf("--failed --models Main,m: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runTrialCmd(t, env, "", "test", "--failed", suite)
	if code != 0 || !strings.Contains(stderr, "no case failed in the last run") {
		t.Errorf("--failed once m passed: exit %d\n%s", code, stderr)
	}
	// The cases failed on different models: each runs on its own, and the
	// matrix says which cells did not run (not "…", still running).
	if err := evalrec.SaveLastRunByModel(state, suite, map[evalrec.CaseModel]string{
		{Case: "answers", Model: "Main"}: "fail", {Case: "answers", Model: "m"}: "pass",
		{Case: "says bye", Model: "Main"}: "pass", {Case: "says bye", Model: "m"}: "fail",
	}, time.Now()); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runTrialCmd(t, env, "", "test", "--failed", "--format", "json", suite)
	var doc struct {
		Suites []struct {
			Matrix struct {
				Models []string `json:"models"`
				Rows   []struct {
					Case  string `json:"case"`
					Cells []struct {
						Status string `json:"status"`
					} `json:"cells"`
				} `json:"rows"`
			} `json:"matrix"`
		} `json:"suites"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 || len(doc.Suites) != 1 {
		t.Fatalf("--failed --format json: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	var cells []string
	for _, r := range doc.Suites[0].Matrix.Rows {
		for _, c := range r.Cells {
			cells = append(cells, r.Case+" "+c.Status)
		}
	}
	if want := []string{"answers pass", "answers not run", "says bye not run", "says bye pass"}; !slices.Equal(doc.Suites[0].Matrix.Models, []string{"Main", "m"}) || !slices.Equal(cells, want) {
		t.Errorf("--failed matrix %v %q, want [Main m] %q\n%s", doc.Suites[0].Matrix.Models, cells, want, stdout)
	}
}
