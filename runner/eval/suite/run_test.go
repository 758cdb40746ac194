package suite

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

func toolScript(id, path string) modeltest.Script {
	return modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall(id, "file_read", `{"path":"`+path+`"}`), modeltest.Finish(modeltest.FinishTools)}}
}

const everyKind = `cases:
  - name: all pass
    task: find the port
    project: fixture
    expect:
      contains: [8080, PORT]
      not-contains: TODO
      matches: 'port \d+'
      tools: file_read
      no-tools: file_list
      max-tool-calls: 1
      max-seconds: 60
      max-output-tokens: 50
  - name: all fail
    task: find the port
    project: fixture
    expect:
      contains: 9090
      not-contains: "8080"
      matches: '^nothing$'
      tools: file_list
      no-tools: file_read
      max-tool-calls: 0
      max-output-tokens: 3
  - name: truncated
    task: write a lot
    expect:
      outcome: Failed
      reason: output_truncated
  - name: wrong outcome
    task: write a lot
  - name: judged well
    task: say hi
    expect:
      judge: greets the user
  - name: judged badly
    task: say hi
    expect:
      judge: names the port
  - name: judge rambles
    task: say hi
    expect:
      judge: is polite
`

func everyKindFixture(t *testing.T) *fixture {
	f := newFixture(t)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "fixture", "main.go"), "// listens on 8080\n")
	reply := modeltest.Script{Steps: []modeltest.Step{modeltest.Text("The server listens on port 8080.\nSee main.go."), modeltest.Stop()}, Usage: &modeltest.Usage{InputTokens: 10, OutputTokens: 12}}
	f.conversation("find the port", toolScript("c1", "main.go"), reply)
	f.on("write a lot", modeltest.Script{Steps: []modeltest.Step{modeltest.Text("on and on"), modeltest.Length()}})
	f.on("say hi", modeltest.Reply("Hello there!"))
	f.judge["greets the user"] = "PASS: it says hello."
	f.judge["names the port"] = "**FAIL**: no port is named."
	f.judge["is polite"] = "Well, it depends on what you mean by polite."
	return f
}

func TestEveryExpectationKindLive(t *testing.T) {
	f := everyKindFixture(t)
	path := f.suite(everyKind)
	rs := f.run(evalrec.Default, path)
	want := []string{
		"all pass: pass 1/1", "all fail: fail 0/1", "truncated: pass 1/1", "wrong outcome: fail 0/1",
		"judged well: pass 1/1", "judged badly: fail 0/1", "judge rambles: error 0/1",
	}
	if got := statuses(rs); !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	cases := rs[0].Cases
	var expects []string
	for _, fl := range cases[1].Samples[0].Failures {
		expects = append(expects, fl.Expect+" | "+fl.Message)
	}
	wantFail := []string{
		`contains "9090" | the output does not hold it`,
		`not-contains "8080" | the output holds it`,
		`matches "^nothing$" | the output does not match`,
		`tools file_list | it was never called (called: file_read)`,
		`no-tools file_read | it was called 1 time`,
		`max-tool-calls 0 | the run made 1 tool calls (file_read)`,
		`max-output-tokens 3 | the reply took 12 output tokens`,
	}
	if !slices.Equal(expects, wantFail) {
		t.Errorf("failures:\n%s\nwant\n%s", strings.Join(expects, "\n"), strings.Join(wantFail, "\n"))
	}
	if l := cases[1].Samples[0].Failures[1].Lines; len(l) != 1 || l[0] != "1: The server listens on port 8080." {
		t.Errorf("relevant lines: %q", l)
	}
	if m := cases[3].Message; !strings.Contains(m, "outcome Completed: the run ended Failed (output_truncated)") {
		t.Errorf("wrong outcome message: %q", m)
	}
	if v := cases[4].Samples[0].Verdict; v == nil || !v.Pass || v.Reason != "it says hello." {
		t.Errorf("verdict %+v", v)
	}
	if m := cases[5].Message; m != "judge: the judge says it fails: no port is named." {
		t.Errorf("judge fail message %q", m)
	}
	if m := cases[6].Message; !strings.Contains(m, "not a verdict") || !strings.Contains(m, "it depends on what you mean by polite") {
		t.Errorf("non-verdict message %q", m)
	}
	// Every sample has a run folder tagged with its suite and case; a
	// judged one has a judge run too.
	s := cases[4].Samples[0]
	rec, err := runfolder.LoadRun(f.runs, s.RunID)
	if err != nil || rec.Suite == nil || rec.Suite.Case != "judged well" || rec.Suite.Kind != "test" || rec.Suite.Sample != 1 || filepath.Base(rec.Suite.Path) != "tester.test.yaml" {
		t.Errorf("run tag %+v %v", rec.Suite, err)
	}
	jrec, err := runfolder.LoadRun(f.runs, s.JudgeRunID)
	if err != nil || jrec.Suite == nil || !jrec.Suite.Judge {
		t.Errorf("judge run tag %+v %v", jrec.Suite, err)
	}
	// Default mode keeps nothing.
	if _, err := os.Stat(evalrec.Folder(path)); !os.IsNotExist(err) {
		t.Errorf("default mode wrote recordings: %v", err)
	}
}

func TestRecordThenOfflineGivesTheSameVerdicts(t *testing.T) {
	f := everyKindFixture(t)
	path := f.suite(everyKind)
	live := statuses(f.run(evalrec.Record, path))
	n := len(f.srv.Requests())
	f.srv.Close() // offline must not call the model
	before := countDirs(t, f.runs)
	rs := f.run(evalrec.Offline, path)
	notPassed := 0
	for _, c := range rs[0].Cases {
		for _, s := range c.Samples {
			if s.Status != Pass {
				notPassed++
			}
		}
	}
	if after := countDirs(t, f.runs); after-before != notPassed || notPassed == 0 {
		t.Errorf("offline replay made %d run folders; %d samples did not pass", after-before, notPassed)
	}
	if got := statuses(rs); !slices.Equal(got, live) {
		t.Fatalf("offline %q\nlive    %q", got, live)
	}
	for _, c := range rs[0].Cases {
		for _, s := range c.Samples {
			if s.How != "replay" {
				t.Errorf("%s: sample came from %q", c.Case.Name, s.How)
			}
		}
	}
	if v := rs[0].Cases[5].Samples[0].Verdict; v == nil || v.Pass || v.Reason != "no port is named." {
		t.Errorf("replayed verdict %+v", v)
	}
	if n == 0 || len(f.srv.Requests()) != n {
		t.Errorf("requests %d then %d", n, len(f.srv.Requests()))
	}
	// A replayed sample that passed leaves no run folder; one that did
	// not pass leaves its folder, tagged as a replay of its case.
	checkReplayFolders(t, f, rs, false)
	// With KeepRuns every replayed sample leaves its folder.
	f.keepRuns = true
	checkReplayFolders(t, f, f.run(evalrec.Offline, path), true)
}

func countDirs(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// checkReplayFolders checks that the replayed samples of rs that did not
// pass (all of them, with all) have a run folder of their replay, and the
// others none.
func checkReplayFolders(t *testing.T, f *fixture, rs []*SuiteResult, all bool) {
	t.Helper()
	folders := 0
	for _, c := range rs[0].Cases {
		for _, s := range c.Samples {
			if s.How != "replay" {
				continue
			}
			if s.Status == Pass && !all {
				if s.RunID != "" || s.RunDir != "" {
					t.Errorf("%s: a replay that passed has a run %q %q", c.Case.Name, s.RunID, s.RunDir)
				}
				continue
			}
			folders++
			rec, err := runfolder.LoadRun(f.runs, s.RunID)
			if err != nil || rec.Replay == nil || rec.Suite == nil || rec.Suite.Case != c.Case.Name || rec.Dir != s.RunDir {
				t.Errorf("%s (%s): replayed run: %+v %v", c.Case.Name, s.Status, rec, err)
				continue
			}
			for _, name := range []string{runfolder.ResultFile, runfolder.TranscriptFile} {
				if _, err := os.Stat(filepath.Join(s.RunDir, name)); err != nil {
					t.Errorf("%s: %v", c.Case.Name, err)
				}
			}
		}
	}
	if folders == 0 {
		t.Errorf("no replayed sample has a folder to check")
	}
	entries, err := os.ReadDir(f.runs)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range entries {
		ids[e.Name()] = true
	}
	for _, c := range rs[0].Cases {
		for _, s := range c.Samples {
			if s.RunID != "" && !ids[s.RunID] {
				t.Errorf("%s: run %s has no folder", c.Case.Name, s.RunID)
			}
		}
	}
}

func TestOfflineWithoutRecordingSaysHowToRecord(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: one\n    task: hi\n")
	rs := f.run(evalrec.Offline, path)
	c := rs[0].Cases[0]
	if c.Status != Unrecorded || !strings.Contains(c.Message, "record this case alone: agentdesk test --record --case one ") || len(f.srv.Requests()) != 0 {
		t.Errorf("%s %q, %d requests", c.Status, c.Message, len(f.srv.Requests()))
	}
}

func TestRepeatAndPassRate(t *testing.T) {
	f := newFixture(t)
	path := f.suite(`cases:
  - name: two of three
    task: flaky
    repeat: 3
    pass-rate: 0.6
    expect: {contains: good}
  - name: all three needed
    task: flaky
    repeat: 3
    expect: {contains: good}
`)
	// In turn: good, bad, good, good, bad, good.
	f.on("flaky", modeltest.Reply("good"), modeltest.Reply("bad"), modeltest.Reply("good"))
	rs := f.run(evalrec.Record, path)
	got := statuses(rs)
	// Six samples take the replies in some order: four good and two bad.
	passed := rs[0].Cases[0].Passed + rs[0].Cases[1].Passed
	if passed != 4 {
		t.Fatalf("%d samples passed of 6: %q", passed, got)
	}
	for _, c := range rs[0].Cases {
		want := Pass
		if float64(c.Passed)/3 < c.Case.PassRate {
			want = Fail
		}
		if c.Status != want {
			t.Errorf("%s: %s with %d/3 at pass-rate %v", c.Case.Name, c.Status, c.Passed, c.Case.PassRate)
		}
	}
	// Each sample has its own recording, and replays to the same verdicts.
	ents, _ := os.ReadDir(evalrec.Folder(path))
	if len(ents) != 6 {
		t.Errorf("%d recordings, want 6", len(ents))
	}
	if again := statuses(f.run(evalrec.Offline, path)); !slices.Equal(again, got) {
		t.Errorf("offline %q, recorded %q", again, got)
	}
}

func TestStaleForEachFingerprintPart(t *testing.T) {
	base := "cases:\n  - name: one\n    task: hi\n    expect: {judge: greets}\n"
	tests := []struct {
		name   string
		change func(f *fixture, suitePath string)
		want   string
	}{
		{"nothing", func(*fixture, string) {}, ""},
		{"system prompt", func(f *fixture, _ string) {
			hometest.WriteFile(f.t, filepath.Join(f.home.Agents, "tester.md"), strings.Replace(testerMD, "a tester", "a careful tester", 1))
		}, "agents/tester.md edited"},
		{"first message", func(f *fixture, p string) {
			hometest.WriteFile(f.t, p, strings.Replace(base, "task: hi", "task: hello", 1))
		}, "first message changed: the case's task or context edited"},
		{"context", func(f *fixture, p string) {
			hometest.WriteFile(f.t, p, strings.Replace(base, "task: hi", "task: hi\n    context: be brief", 1))
		}, "first message changed"},
		{"tools offered", func(f *fixture, p string) {
			os.MkdirAll(filepath.Join(filepath.Dir(p), "proj"), 0o755)
			hometest.WriteFile(f.t, p, strings.Replace(base, "task: hi", "task: hi\n    project: proj", 1))
		}, "tools offered changed: none → shell_execute, file_list, file_search, tool_output_read"},
		{"model", func(f *fixture, _ string) { f.config("other-model", 300) }, "model changed: mock/test-model → mock/other-model"},
		{"limits", func(f *fixture, _ string) { f.config("test-model", 900) }, "limits changed: prefill 5m0s"},
		{"judge rubric", func(f *fixture, p string) {
			hometest.WriteFile(f.t, p, strings.Replace(base, "judge: greets", "judge: greets warmly", 1))
		}, "judge changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			path := f.suite(base)
			f.on("hi", modeltest.Reply("Hello"))
			f.on("hello", modeltest.Reply("Hello"))
			f.judge["greets"] = "PASS: it greets."
			if got := statuses(f.run(evalrec.Record, path)); got[0] != "one: pass 1/1" {
				t.Fatalf("recorded %q", got)
			}
			tt.change(f, path)
			for _, mode := range []evalrec.Mode{evalrec.Offline, evalrec.Default} {
				n := len(f.srv.Requests())
				c := f.run(mode, path)[0].Cases[0]
				if tt.want == "" {
					if c.Status != Pass || c.Samples[0].How != "replay" {
						t.Errorf("%v: unchanged case is %s (%s) %q", mode, c.Status, c.Samples[0].How, c.Message)
					}
					continue
				}
				if c.Status != Stale || !strings.Contains(c.Message, tt.want) {
					t.Errorf("%v: %s %q, want stale with %q", mode, c.Status, c.Message, tt.want)
				}
				if len(f.srv.Requests()) != n {
					t.Errorf("%v: a stale case called the model", mode)
				}
			}
		})
	}
}

func TestRejectedAgentAndBrokenCases(t *testing.T) {
	f := newFixture(t)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "broken.md"), "---\nname: broken\n---\nno description\n")
	bad := filepath.Join(f.home.Agents, "broken.test.yaml")
	hometest.WriteFile(t, bad, "cases:\n  - name: one\n    task: hi\n    repeat: 3\n  - name: two\n    task: hi\n")
	mixed := f.suite("cases:\n  - name: fine\n    task: hi\n  - name: bad regexp\n    task: hi\n    expect: {matches: '('}\n")
	garbage := filepath.Join(f.home.Agents, "garbage.test.yaml")
	hometest.WriteFile(t, garbage, "cases: [\n")
	f.on("hi", modeltest.Reply("Hello"))
	rs := f.run(evalrec.Default, bad, mixed, garbage)
	// An agent that does not load: the suite cannot run as written, an
	// error with the loader's reason, no sample run (issue 20 item 7).
	for _, c := range rs[0].Cases {
		if c.Status != Error || !strings.Contains(c.Message, "agent broken at") || !strings.Contains(c.Message, "rejected: ") || len(c.Samples) != 0 {
			t.Errorf("rejected agent: %s %q, %d samples", c.Status, c.Message, len(c.Samples))
		}
	}
	if rs[0].Status() != Error || !strings.Contains(rs[0].Err, "rejected: ") {
		t.Errorf("rejected agent's suite: %s %q", rs[0].Status(), rs[0].Err)
	}
	var js strings.Builder
	JSON(&js, rs[:1], ReportOptions{})
	if !strings.Contains(js.String(), `"samples": 0,`) || !strings.Contains(js.String(), `"broken_suites": 1,`) || !strings.Contains(js.String(), `"errors": 2,`) {
		t.Errorf("json summary:\n%s", js.String())
	}
	if got := statuses(rs[1:2]); !slices.Equal(got, []string{"fine: pass 1/1", "bad regexp: error 0/1"}) {
		t.Errorf("mixed: %q", got)
	}
	if !strings.Contains(rs[1].Cases[1].Message, "suite-regexp") {
		t.Errorf("bad regexp message %q", rs[1].Cases[1].Message)
	}
	if rs[2].Status() != Error || len(rs[2].Cases) != 0 || len(rs[2].Findings) == 0 {
		t.Errorf("garbage suite: %+v", rs[2])
	}
}

// countingTransport counts the model calls under way, per host.
type countingTransport struct {
	mu        sync.Mutex
	now, peak int
	// gate holds each call until limit calls are under way at once (or
	// the last one has started), so the peak reaches the limit when the
	// limit lets it.
	limit, left int
	gate        chan struct{}
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.now++
	c.left--
	c.peak = max(c.peak, c.now)
	if c.now >= c.limit || c.left == 0 {
		select {
		case <-c.gate:
		default:
			close(c.gate)
		}
	}
	c.mu.Unlock()
	<-c.gate
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		c.done()
		return nil, err
	}
	resp.Body = &countedBody{ReadCloser: resp.Body, c: c}
	return resp, nil
}

func (c *countingTransport) done() {
	c.mu.Lock()
	c.now--
	c.mu.Unlock()
}

type countedBody struct {
	io.ReadCloser
	c    *countingTransport
	once sync.Once
}

func (b *countedBody) Close() error {
	b.once.Do(b.c.done)
	return b.ReadCloser.Close()
}

func TestJobsLimitCallsPerProvider(t *testing.T) {
	f := newFixture(t)
	ct := &countingTransport{limit: 2, left: 8, gate: make(chan struct{})}
	f.client = &http.Client{Transport: ct}
	path := f.suite("cases:\n  - name: many\n    task: hi\n    repeat: 8\n")
	f.on("hi", modeltest.Reply("Hello"))
	rs := f.run(evalrec.Default, path) // Jobs: 2
	if c := rs[0].Cases[0]; c.Status != Pass || c.Passed != 8 {
		t.Fatalf("%s %d/8 %q", c.Status, c.Passed, c.Message)
	}
	if ct.peak != 2 {
		t.Errorf("peak of %d calls at once, want 2", ct.peak)
	}
}

func TestCheckTable(t *testing.T) {
	rec := &runfolder.Record{Outcome: vocab.Completed, Output: "line one\nthe port is 80\nTODO: more", Usage: runfolder.Usage{OutputTokens: 40},
		Timings: runfolder.Timings{TotalMS: 2500}, ToolCalls: []runfolder.ToolCall{{Name: "file_read"}, {Name: "file_read"}}}
	tests := []struct {
		name string
		e    suitefile.Expect
		want []string
	}{
		{"nothing", suitefile.Expect{Outcome: "Completed", MaxToolCalls: -1, MaxOutputTokens: -1}, nil},
		{"case-insensitive", suitefile.Expect{Contains: []string{"PORT IS"}, MaxToolCalls: -1, MaxOutputTokens: -1}, nil},
		{"not-contains shows the lines", suitefile.Expect{NotContains: []string{"todo"}, MaxToolCalls: -1, MaxOutputTokens: -1}, []string{`not-contains "todo": 3: TODO: more`}},
		{"matches", suitefile.Expect{Matches: []*regexp.Regexp{regexp.MustCompile(`port is \d{4}`)}, MaxToolCalls: -1, MaxOutputTokens: -1}, []string{`matches "port is \\d{4}": 1: line one`}},
		{"max-seconds", suitefile.Expect{MaxSeconds: 2, MaxToolCalls: -1, MaxOutputTokens: -1}, []string{"max-seconds 2: "}},
		{"reason", suitefile.Expect{Reason: "output_truncated", MaxToolCalls: -1, MaxOutputTokens: -1}, []string{"reason output_truncated: "}},
		{"outcome", suitefile.Expect{Outcome: "Failed", MaxToolCalls: -1, MaxOutputTokens: -1}, []string{"outcome Failed: "}},
		{"max-tool-calls 2 holds", suitefile.Expect{MaxToolCalls: 2, MaxOutputTokens: 40}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Check(tt.e, rec) {
				s := f.Expect + ": "
				if len(f.Lines) > 0 {
					s += f.Lines[0]
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		reply  string
		pass   bool
		reason string
		err    string
	}{
		{"PASS: fine", true, "fine", ""},
		{"\n  fail - missing the port\nmore", false, "missing the port", ""},
		{"**Pass**: ok", true, "ok", ""},
		{"Verdict: PASS", false, "", "not a verdict (PASS: or FAIL:): Verdict: PASS"},
		{"Passing is hard", false, "", "not a verdict"},
		{"", false, "", "empty"},
	}
	for _, tt := range tests {
		v, err := ParseVerdict(tt.reply)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.reply, err, tt.err)
			}
			continue
		}
		if err != nil || v.Pass != tt.pass || v.Reason != tt.reason {
			t.Errorf("%q: %+v %v", tt.reply, v, err)
		}
	}
}

var _ = lint.Error

func TestRecordings(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: one\n    task: hi\n    repeat: 2\n  - name: two\n    task: ho\n")
	f.on("hi", modeltest.Reply("Hello"))
	f.on("ho", modeltest.Reply("Hello"))
	cat := func() Options {
		c, _ := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
		return Options{Catalog: c}
	}
	s := suitefile.Load(path)
	if got := Recordings(s, cat()); got[0].Recorded != 0 || got[0].Stale != 0 || got[1].Recorded != 0 {
		t.Fatalf("before recording: %+v", got)
	}
	f.run(evalrec.Record, path)
	if got := Recordings(s, cat()); got[0].Recorded != 2 || got[1].Recorded != 1 {
		t.Fatalf("recorded: %+v", got)
	}
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "tester.md"), strings.Replace(testerMD, "a tester", "another tester", 1))
	got := Recordings(s, cat())
	if got[0].Stale != 2 || got[0].Recorded != 0 || len(got[0].Changes) != 1 || !strings.Contains(got[0].Changes[0], "system prompt: body changed") {
		t.Fatalf("after an edit: %+v", got)
	}
}

func TestJudgeCutOffIsAnErrorLiveAndReplayed(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: one\n    task: hi\n    expect: {judge: is cut}\n")
	f.on("hi", modeltest.Reply("Hello"))
	f.judgeScripts["is cut"] = modeltest.Script{Steps: []modeltest.Step{modeltest.Text("PASS: it gree"), modeltest.Length()}}
	live := f.run(evalrec.Record, path)[0].Cases[0]
	if live.Status != Error || !strings.Contains(live.Message, "output_truncated") {
		t.Fatalf("live: %s %q", live.Status, live.Message)
	}
	replayed := f.run(evalrec.Offline, path)[0].Cases[0]
	if replayed.Status != Error || !strings.Contains(replayed.Message, "cut off at the output limit") {
		t.Fatalf("replayed: %s %q", replayed.Status, replayed.Message)
	}
}

func TestNoJudgeForARunThatEndedOtherwise(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: cut\n    task: write a lot\n    expect: {judge: greets}\n")
	f.on("write a lot", modeltest.Script{Steps: []modeltest.Step{modeltest.Text("on and on"), modeltest.Length()}})
	f.judge["greets"] = "PASS: fine."
	for _, mode := range []evalrec.Mode{evalrec.Record, evalrec.Offline} {
		c := f.run(mode, path)[0].Cases[0]
		s := c.Samples[0]
		if c.Status != Fail || s.Verdict != nil || s.JudgeRunID != "" || !strings.HasPrefix(c.Message, "outcome Completed: the run ended Failed (output_truncated)") {
			t.Errorf("%v: %s %q verdict %+v", mode, c.Status, c.Message, s.Verdict)
		}
	}
	for _, r := range f.srv.Requests() {
		if r.System == JudgePrompt {
			t.Error("the judge was asked")
		}
	}
}
