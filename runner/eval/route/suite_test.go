package route

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

const routeSuite = `audience: personal
preamble-file: front.md
samples: 2
cases:
  - name: review
    request: Please review my diff before I push.
    expect: reviewer
  - name: logs
    request: Why did the deploy fail? Here are the logs.
    expect: analyst
  - name: chat
    request: thanks, that is all
    expect: none
    samples: 1
  - name: flaky logs
    request: The logs show the diff broke it.
    expect: analyst
    min-rate: 0.5
`

// chooser answers by the request: the review goes to the reviewer, the
// logs to the analyst except that "Why did the deploy fail" goes to the
// reviewer (a confusion), thanks are answered, the flaky one alternates.
func chooser() func(modeltest.Request) (modeltest.Script, bool) {
	flip := 0
	return func(r modeltest.Request) (modeltest.Script, bool) {
		u := r.FirstUser()
		agent := ""
		switch {
		case strings.HasPrefix(u, "Please review"):
			agent = "reviewer"
		case strings.HasPrefix(u, "Why did"):
			agent = "reviewer"
		case strings.HasPrefix(u, "The logs"):
			flip++
			agent = []string{"analyst", "reviewer"}[flip%2]
		default:
			return modeltest.Reply("You're welcome."), true
		}
		return modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", fmt.Sprintf(`{"agent":%q,"task":%q,"_rationale":"r"}`, agent, u)),
			modeltest.Finish(modeltest.FinishTools),
		}}, true
	}
}

func (f *fixture) suite(t *testing.T) string {
	t.Helper()
	path := filepath.Join(f.home.Agents, "front.route.yaml")
	hometest.WriteFile(t, path, routeSuite)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "front.md"), "You are the frontline of a test.")
	return path
}

func (f *fixture) runSuite(t *testing.T, path string, o SuiteOptions) *SuiteResult {
	t.Helper()
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	s := suitefile.LoadRoute(path)
	suitefile.CheckRoute(s, cat)
	o.Runner, o.Catalog = f.runner, cat
	if o.Words == (evalrec.Words{}) {
		o.Words = testWords
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return RunSuite(ctx, s, o)
}

func statuses(r *SuiteResult) string {
	var out []string
	for _, c := range r.Cases {
		out = append(out, fmt.Sprintf("%s=%s %d/%d", c.Case.Name, c.Status, c.Agreed, len(c.Samples)))
	}
	return strings.Join(out, ", ")
}

func TestSuiteRecordThenOffline(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p, "")
			f.srv.SetChooser(chooser())
			path := f.suite(t)
			want := "review=pass 2/2, logs=fail 0/2, chat=pass 1/1, flaky logs=pass 1/2"
			rec := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})
			if got := statuses(rec); got != want {
				t.Fatalf("recorded: %s\nwant %s", got, want)
			}
			files, _ := os.ReadDir(evalrec.Folder(path))
			if len(files) != 7 {
				t.Errorf("%d recordings, want 7", len(files))
			}
			for _, fi := range files {
				data, _ := os.ReadFile(filepath.Join(evalrec.Folder(path), fi.Name()))
				if bytes.Contains(data, []byte(plantedKey)) {
					t.Errorf("%s holds the key", fi.Name())
				}
			}
			n := len(f.srv.Requests())
			f.srv.Close()
			off := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})
			if got := statuses(off); got != want {
				t.Errorf("offline: %s\nwant %s", got, want)
			}
			if len(f.srv.Requests()) != n {
				t.Errorf("offline called the model")
			}
			for _, c := range off.Cases {
				if c.Replayed != len(c.Samples) || c.Samples[0].Run.Suite == nil || c.Samples[0].Run.Suite.Kind != "route" {
					t.Errorf("%s: replayed %d of %d, tag %+v", c.Case.Name, c.Replayed, len(c.Samples), c.Samples[0].Run.Suite)
				}
			}
			if s := Summarize([]*SuiteResult{off}); s.OK() || s.Passed != 3 || s.Failed != 1 || s.Replayed != 7 || s.Live != 0 {
				t.Errorf("summary %+v", s)
			}
			// A replay writes its run folder only when its case did not
			// pass; with KeepRuns every replay does.
			checkReplayFolders(t, off, false)
			checkReplayFolders(t, f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline, KeepRuns: true}), true)
		})
	}
}

// checkReplayFolders checks that the samples of the cases of res that did
// not pass (all, with all) have their run folder, and the others none.
func checkReplayFolders(t *testing.T, res *SuiteResult, all bool) {
	t.Helper()
	for _, c := range res.Cases {
		for _, smp := range c.Samples {
			want := all || c.Status != Pass
			if !want {
				if smp.Run.Dir != "" || smp.Run.RunID != "" {
					t.Errorf("%s sample %d: a replay of a case that passed has a run %q", c.Case.Name, smp.N, smp.Run.Dir)
				}
				continue
			}
			if smp.Run.Dir == "" {
				t.Errorf("%s (%s) sample %d: no run folder", c.Case.Name, c.Status, smp.N)
				continue
			}
			if _, err := os.Stat(filepath.Join(smp.Run.Dir, runfolder.RunFile)); err != nil {
				t.Errorf("%s sample %d: %v", c.Case.Name, smp.N, err)
			}
		}
	}
}

func TestSuiteStale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(f *fixture, path string)
		says   string
	}{
		{"layer", func(f *fixture, _ string) {
			hometest.WriteFile(t, filepath.Join(f.home.Agents, "analyst.md"), "---\nname: analyst\ndescription: Reads service logs, explains failed deploys.\n---\nYou read logs.\n")
		}, "layer changed: an agent's name, description or timeout edited"},
		{"preamble", func(f *fixture, _ string) {
			hometest.WriteFile(t, filepath.Join(f.home.Agents, "front.md"), "You are a different frontline.")
		}, "preamble changed: front.md edited"},
		{"model", func(f *fixture, _ string) {
			cfg, _ := os.ReadFile(f.home.ConfigFile())
			hometest.WriteFile(t, f.home.ConfigFile(), strings.Replace(string(cfg), "front-model", "other-model", 1))
		}, "model changed: mock/front-model → mock/other-model"},
		{"request", func(f *fixture, path string) {
			hometest.WriteFile(t, path, strings.Replace(routeSuite, "thanks, that is all", "thank you", 1))
		}, "first message changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, wire.OpenAI, "")
			f.srv.SetChooser(chooser())
			path := f.suite(t)
			f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record})
			tc.change(f, path)
			off := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})
			stale := 0
			for _, c := range off.Cases {
				if c.Status == Stale {
					stale++
					if !strings.Contains(c.Message, tc.says) || c.Agreed != 0 {
						t.Errorf("%s: %q does not say %q", c.Case.Name, c.Message, tc.says)
					}
				}
			}
			if stale == 0 || Summarize([]*SuiteResult{off}).OK() {
				t.Errorf("no stale case: %s", statuses(off))
			}
		})
	}
}

func TestSuiteModes(t *testing.T) {
	f := newFixture(t, wire.Ollama, "")
	f.srv.SetChooser(chooser())
	path := f.suite(t)
	off := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})
	for _, c := range off.Cases {
		if c.Status != Unrecorded || !strings.Contains(c.Message, "record this case alone: agentdesk route --suite --record --case "+evalrec.ShellQuote(c.Case.Name)+" ") {
			t.Errorf("offline without recordings: %s %q", c.Status, c.Message)
		}
	}
	if len(f.srv.Requests()) != 0 {
		t.Error("offline called the model")
	}
	// The demo cannot record (--demo --record is refused): its hint says
	// what it carries and how to record outside it, with the path shown
	// from ShownFrom (the demo's home is removed when the command ends).
	demo := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline, Demo: true, ShownFrom: filepath.Dir(filepath.Dir(path))})
	for _, c := range demo.Cases {
		want := "the demo has no " + filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(evalrec.Folder(path))) + "/"
		if c.Status != Unrecorded || !strings.Contains(c.Message, want) || strings.Contains(c.Message, "record this case alone") ||
			!strings.Contains(c.Message, "outside --demo (it calls your model): agentdesk route --suite --record --case "+evalrec.ShellQuote(c.Case.Name)) {
			t.Errorf("offline demo without recordings: %s %q", c.Status, c.Message)
		}
	}
	def := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Default, Samples: 1})
	if got := statuses(def); got != "review=pass 1/1, logs=fail 0/1, chat=pass 1/1, flaky logs=fail 0/1" {
		t.Errorf("default: %s", got)
	}
	if _, err := os.Stat(evalrec.Folder(path)); err == nil {
		t.Error("the default mode kept recordings")
	}
}

func TestSuiteErrors(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	path := filepath.Join(f.home.Agents, "bad.route.yaml")
	hometest.WriteFile(t, path, "cases:\n  - {name: a, request: r, expect: ghost}\n  - {name: b, request: r}\n  - {name: c, request: r, expect: ops}\n")
	r := f.runSuite(t, path, SuiteOptions{})
	if got := statuses(r); got != "a=error 0/0, b=error 0/0, c=error 0/0" {
		t.Errorf("%s", got)
	}
	if !strings.Contains(r.Cases[0].Message, `agent "ghost" is not loaded [suite-agent]`) || !strings.Contains(r.Cases[2].Message, "internal") {
		t.Errorf("messages %q / %q", r.Cases[0].Message, r.Cases[2].Message)
	}
	hometest.WriteFile(t, path, "audience: public\ncases:\n  - {name: a, request: r, expect: reviewer}\n")
	r = f.runSuite(t, path, SuiteOptions{})
	if r.Status() != Error || !strings.Contains(r.Cases[0].Message, "the suite cannot run: 1:11: audience Public") {
		t.Errorf("public suite: %s %q", r.Status(), r.Cases[0].Message)
	}
	if len(f.srv.Requests()) != 0 {
		t.Error("a broken suite called the model")
	}
}

func TestConfusionAndReports(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(chooser())
	path := f.suite(t)
	res := []*SuiteResult{f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})}
	table, pairs := Confusions(res, f.cat)
	if fmt.Sprint(table.Expected, table.Picked, table.Counts) != "[analyst reviewer none] [analyst reviewer none] [[1 3 0] [0 2 0] [0 0 1]]" {
		t.Errorf("table %v %v %v", table.Expected, table.Picked, table.Counts)
	}
	if len(pairs) != 1 || pairs[0].A != "analyst" || pairs[0].B != "reviewer" || pairs[0].DescriptionA != "Reads service logs and explains failures." || len(pairs[0].Requests) != 2 || pairs[0].Requests[0].Case != "logs" {
		t.Errorf("pairs %+v", pairs)
	}

	var text bytes.Buffer
	if err := WriteText(&text, res, f.cat, f.home.Base, time.Second); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"agents/front.route.yaml  (audience Personal, 4 cases)",
		"  fail         logs        0/2 analyst  (reviewer 2)\n",
		"0 of 2 samples picked analyst, below min-rate 100%",
		"Confusion (rows: expected, columns: picked; samples)\n            analyst  reviewer  none\n  analyst         1         3     .\n  reviewer        .         2     .\n  none            .         .     1\n",
		"Confused: analyst and reviewer",
		"  analyst                                │ reviewer\n  Reads service logs and explains        │ Reviews a git diff for bugs and\n",
		`logs: "Why did the deploy fail? Here are the logs." expected analyst, picked reviewer in 2 of 2`,
		"4 cases: 3 passed, 1 failed (7 samples: 0 replayed, 7 live)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}

	var js bytes.Buffer
	if err := WriteJSON(&js, res, f.cat); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Status string
			Cases  []struct {
				Name, Status string
				Agreed       int
				Distribution []Share
				Samples      []struct {
					RunDir string `json:"run_dir"`
				}
			}
		}
		Confusion Confusion
		Summary   Summary
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	if doc.Suites[0].Status != "fail" || doc.Suites[0].Cases[1].Status != "fail" || doc.Suites[0].Cases[0].Agreed != 2 || doc.Suites[0].Cases[0].Samples[0].RunDir == "" || doc.Summary.Failed != 1 || len(doc.Confusion.Counts) != 3 {
		t.Errorf("json %+v", doc)
	}

	// The summary counts the samples, as agentdesk test's does.
	var raw struct{ Summary map[string]any }
	if err := json.Unmarshal(js.Bytes(), &raw); err != nil || raw.Summary["samples"] != float64(7) {
		t.Errorf("json summary without samples: %v %v", raw.Summary, err)
	}

	var ju bytes.Buffer
	if err := WriteJUnit(&ju, res, f.home.Base); err != nil {
		t.Fatal(err)
	}
	var x struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(ju.Bytes(), &x); err != nil {
		t.Fatalf("junit does not parse: %v\n%s", err, ju.String())
	}
	if x.Tests != 4 || x.Failures != 1 || x.Suites[0].Name != "agents/front.route.yaml" || x.Suites[0].Cases[1].Failure == nil || x.Suites[0].Cases[1].Failure.Type != "fail" || x.Suites[0].Cases[1].Line != 8 {
		t.Errorf("junit %+v\n%s", x, ju.String())
	}

	var gh bytes.Buffer
	if err := WriteGitHub(&gh, res, f.home.Base); err != nil {
		t.Fatal(err)
	}
	if gh.String() != "::error file=agents/front.route.yaml,line=8,title=logs::fail: 0 of 2 samples picked analyst, below min-rate 100%25\n" {
		t.Errorf("github %q", gh.String())
	}
}

func TestSuiteStatic(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	path := f.suite(t)
	hometest.WriteFile(t, path, routeSuite+"  - {name: wrong, request: explain these service logs, expect: reviewer}\n  - {name: nothing, request: hello there, expect: reviewer}\n")
	r := f.runSuite(t, path, SuiteOptions{Static: true})
	if got := statuses(r); got != "review=pass 0/0, logs=pass 0/0, chat=pass 0/0, flaky logs=pass 0/0, wrong=fail 0/0, nothing=fail 0/0" {
		t.Errorf("%s", got)
	}
	if r.Cases[4].Message != "the top static match is analyst (explain, service, log), not reviewer" || !strings.Contains(r.Cases[5].Message, "no agent shares a word") {
		t.Errorf("messages %q, %q", r.Cases[4].Message, r.Cases[5].Message)
	}
	if len(f.srv.Requests()) != 0 {
		t.Error("static called the model")
	}
	var text bytes.Buffer
	WriteText(&text, []*SuiteResult{r}, f.cat, "", 0)
	if !strings.Contains(text.String(), "Static: a heuristic") {
		t.Errorf("text:\n%s", text.String())
	}
}

func TestSuiteOfflineWithoutModel(t *testing.T) {
	f := newFixture(t, wire.Anthropic, "")
	f.srv.SetChooser(chooser())
	path := f.suite(t)
	f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})
	f.srv.Close()
	hometest.WriteFile(t, f.home.ConfigFile(), `{}`) // CI: no model, no key
	off := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})
	if got := statuses(off); got != "review=pass 2/2, logs=fail 0/2, chat=pass 1/1, flaky logs=pass 1/2" {
		t.Errorf("offline without a model: %s", got)
	}
	// Live, the missing model is an error of every case.
	def := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record})
	if def.Cases[0].Status != Error || !strings.Contains(def.Cases[0].Message, "no Main model is configured") {
		t.Errorf("record without a model: %s %q", def.Cases[0].Status, def.Cases[0].Message)
	}
}

// TestSuiteTextOneCase checks the text report's wording for one case: the
// header and the summary are singular, as agentdesk test's are.
func TestSuiteTextOneCase(t *testing.T) {
	s := suitefile.ParseRoute("agents/one.route.yaml", []byte("cases:\n  - name: x\n    request: hi\n    expect: nobody\n"))
	res := []*SuiteResult{{Suite: s, Static: true, Cases: []*CaseResult{{Case: s.Cases[0], Status: Error, Message: "agent nobody is not loaded"}}}}
	var b strings.Builder
	if err := WriteText(&b, res, nil, "", 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(audience Personal, 1 case)\n", "  error        x  expects nobody\n", "\n1 case: 0 passed, 1 error in 0.00s\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// testWords are the command line's words as cmd/agentdesk fills them
// (evalWords; its tests assert them in what the commands print).
var testWords = evalrec.Words{Test: "agentdesk test", Route: "agentdesk route --suite", Record: "--record", Case: "--case", Models: "--models", Demo: "--demo"}
