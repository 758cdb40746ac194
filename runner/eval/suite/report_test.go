package suite

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/suitefile"
)

// golden compares got with testdata/name, or writes it with -update.
func matchGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, []byte(got))
}

// reportResults are results of every status, with text from a model that
// holds control characters.
func reportResults() []*SuiteResult {
	s := suitefile.Parse("agents/code-analyst.test.yaml", []byte(`cases:
  - name: finds the port
    task: Which port?
    repeat: 3
    pass-rate: 0.6
  - name: names the file
    task: Which file?
  - name: greets
    task: hi
  - name: offline only
    task: ho
  - name: judge rambles
    task: hey
`))
	broken := suitefile.Parse("agents/broken.test.yaml", []byte("cases: [\n"))
	c := s.Cases
	return []*SuiteResult{
		{Suite: s, Duration: 2500 * time.Millisecond, Cases: []*CaseResult{
			{Case: c[0], Status: Pass, Passed: 2, Duration: 1800 * time.Millisecond, Samples: []*SampleResult{
				{N: 1, Status: Pass, How: "replay", RunID: "r1", RunDir: "/runs/r1", Duration: 600 * time.Millisecond},
				{N: 2, Status: Fail, How: "replay", RunID: "r2", RunDir: "/runs/r2", Duration: 600 * time.Millisecond,
					Failures: []Failure{{Key: "contains", Expect: `contains "8080"`, Message: "the output does not hold it", Lines: []string{"1: The port is \x1b[31mset\x1b[0m in config."}}}},
				{N: 3, Status: Pass, How: "replay", RunID: "r3", RunDir: "/runs/r3", Duration: 600 * time.Millisecond},
			}},
			{Case: c[1], Status: Fail, Passed: 0, Duration: 400 * time.Millisecond, Message: `contains "main.go": the output does not hold it`, Samples: []*SampleResult{
				{N: 1, Status: Fail, How: "live", RunID: "r4", RunDir: "/runs/r4", Duration: 400 * time.Millisecond, Outcome: "Completed",
					Failures: []Failure{{Key: "contains", Expect: `contains "main.go"`, Message: "the output does not hold it", Lines: []string{"1: It is in server.go."}},
						{Key: "judge", Expect: "judge", Message: "the judge says it fails: no file is named."}},
					Verdict: &Verdict{Pass: false, Reason: "no file is named."}},
			}},
			{Case: c[2], Status: Stale, Message: "recorded with something that has changed since: system prompt changed: agents/code-analyst.md edited", Samples: []*SampleResult{
				{N: 1, Status: Stale, How: NotRun, StaleBecause: []string{"system prompt changed: agents/code-analyst.md edited"}, Recording: "agents/code-analyst.test.recordings/greets.1.recording"}}},
			{Case: c[3], Status: Unrecorded, Message: "not recorded: no agents/code-analyst.test.recordings/offline-only-1a2b3c.1.recording; record it with --record", Samples: []*SampleResult{
				{N: 1, Status: Unrecorded, Err: "not recorded: no agents/code-analyst.test.recordings/offline-only-1a2b3c.1.recording; record it with --record"}}},
			{Case: c[4], Status: Error, Message: "the judge's reply is not a verdict (PASS: or FAIL:): Well,\nit depends.", Samples: []*SampleResult{
				{N: 1, Status: Error, How: "live", RunID: "r5", RunDir: "/runs/r5", Err: "the judge's reply is not a verdict (PASS: or FAIL:): Well,\nit depends."}}},
		}},
		{Suite: broken, Findings: broken.Diagnostics},
		matrixResult(),
	}
}

// matrixResult is a suite run on two models side by side.
func matrixResult() *SuiteResult {
	s := suitefile.Parse("agents/summarizer.test.yaml", []byte(`models: [Main, cheap]
cases:
  - name: short summary
    task: Sum it up.
    repeat: 2
  - name: keeps the numbers
    task: Sum up the figures.
`))
	c := s.Cases
	smp := func(n int, st Status, ms, tokens int) *SampleResult {
		return &SampleResult{N: n, Status: st, How: "replay", Duration: time.Duration(ms) * time.Millisecond, ReportedOutputTokens: tokens}
	}
	return &SuiteResult{Suite: s, Duration: time.Second, Models: []suitefile.ModelChoice{{Name: "Main", Role: "Main"}, {Name: "cheap", Definition: "cheap"}},
		Cases: []*CaseResult{
			{Case: c[0], Model: "Main", Status: Pass, Passed: 2, Duration: 2 * time.Second, Samples: []*SampleResult{smp(1, Pass, 900, 120), smp(2, Pass, 1100, 140)}},
			{Case: c[0], Model: "cheap", Status: Fail, Passed: 1, Duration: time.Second, Message: "contains \"brief\": the output does not hold it", Samples: []*SampleResult{
				smp(1, Pass, 400, 90), {N: 2, Status: Fail, How: "replay", RunID: "r9", RunDir: "/runs/r9", Duration: 600 * time.Millisecond, ReportedOutputTokens: 300,
					Failures: []Failure{{Key: "contains", Expect: `contains "brief"`, Message: "the output does not hold it"}}}}},
			{Case: c[1], Model: "Main", Status: Pass, Passed: 1, Duration: 1500 * time.Millisecond, Samples: []*SampleResult{smp(1, Pass, 1500, 200)}},
			{Case: c[1], Model: "cheap", Status: Stale, Message: "recorded with something that has changed since: model changed", Samples: []*SampleResult{
				{N: 1, Status: Stale, How: NotRun, StaleBecause: []string{"model changed"}}}},
		}}
}

func TestMatrix(t *testing.T) {
	m := matrixResult().Matrix()
	if m == nil || len(m.Rows) != 2 || len(m.Summary) != 2 {
		t.Fatalf("matrix %+v", m)
	}
	tests := []struct {
		name string
		got  MatrixCell
		want MatrixCell
	}{
		{"two passes on Main", m.Rows[0].Cells[0], MatrixCell{Status: Pass, Passed: 2, Samples: 2, CasesPassed: 1, Cases: 1, MedianTime: time.Second, MedianOutputTokens: 130, Ran: 2}},
		{"one of two on cheap", m.Rows[0].Cells[1], MatrixCell{Status: Fail, Passed: 1, Samples: 2, Cases: 1, MedianTime: 500 * time.Millisecond, MedianOutputTokens: 195, Ran: 2}},
		{"stale did not run", m.Rows[1].Cells[1], MatrixCell{Status: Stale, Samples: 1, Cases: 1}},
		{"Main over every case", m.Summary[0], MatrixCell{Status: Pass, Passed: 3, Samples: 3, CasesPassed: 2, Cases: 2, MedianTime: 1100 * time.Millisecond, MedianOutputTokens: 140, Ran: 3}},
		{"cheap over every case", m.Summary[1], MatrixCell{Status: Stale, Passed: 1, Samples: 3, CasesPassed: 0, Cases: 2, MedianTime: 500 * time.Millisecond, MedianOutputTokens: 195, Ran: 2}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
	if r := (&SuiteResult{}).Matrix(); r != nil {
		t.Errorf("a suite without models has a matrix: %+v", r)
	}
}

func TestReportsGolden(t *testing.T) {
	rs := reportResults()
	o := ReportOptions{Dir: "."}
	var text, color, js, junit, gh bytes.Buffer
	if err := Text(&text, rs, 3*time.Second, o); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "report.txt", text.String())
	o.Color = true
	Text(&color, rs, 3*time.Second, o)
	matchGolden(t, "report-color.txt", color.String())
	o.Color = false
	if err := JSON(&js, rs, o); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "report.json", js.String())
	var doc map[string]any
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Errorf("JSON does not parse: %v", err)
	}
	if err := JUnit(&junit, rs, o); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "report.xml", junit.String())
	if err := xml.Unmarshal(junit.Bytes(), new(struct{})); err != nil {
		t.Errorf("JUnit does not parse: %v", err)
	}
	if err := GitHub(&gh, rs, o); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "report-github.txt", gh.String())
	for name, out := range map[string][]byte{"text": text.Bytes(), "json": js.Bytes(), "junit": junit.Bytes(), "github": gh.Bytes()} {
		if bytes.ContainsRune(out, 0x1b) {
			t.Errorf("the %s report carries an ESC from a model", name)
		}
	}
	if s := Summarize(rs); s.OK() || s.Cases != 9 || s.Passed != 3 || s.Failed != 2 || s.Stale != 2 || s.Unrecorded != 1 || s.Errors != 1 || s.Broken != 1 {
		t.Errorf("summary %+v", s)
	}
}

// TestCountsString checks the summary phrase agentdesk test and agentdesk
// route --suite share: zero counts are left out, one case is singular.
func TestCountsString(t *testing.T) {
	for _, tc := range []struct {
		statuses []Status
		want     string
	}{
		{nil, "0 cases: 0 passed"},
		{[]Status{Pass}, "1 case: 1 passed"},
		{[]Status{Pass, Error}, "2 cases: 1 passed, 1 error"},
		{[]Status{Fail, Stale, Unrecorded, Error, Error}, "5 cases: 0 passed, 1 failed, 1 stale, 1 not recorded, 2 errors"},
	} {
		var c Counts
		for _, s := range tc.statuses {
			c.Add(s)
		}
		if got := c.String(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.statuses, got, tc.want)
		}
	}
}

func TestStatusJUnit(t *testing.T) {
	for st, want := range map[Status][2]string{Pass: {"", ""}, Fail: {"failure", "fail"}, Stale: {"failure", "stale"}, Unrecorded: {"failure", "not-recorded"}, Error: {"error", "error"}} {
		if s, k := st.JUnit(); s != want[0] || k != want[1] {
			t.Errorf("%s: %q %q, want %q", st, s, k, want)
		}
	}
}

// TestMatrixNotRunCells: after --failed, where the cases failed on
// different models, each report says a cell that did not run is "not
// run" (JSON: its status), not "…", the browser's mark for a cell still
// running.
func TestMatrixNotRunCells(t *testing.T) {
	r := matrixResult()
	// "short summary" ran on cheap alone, "keeps the numbers" on Main
	// alone.
	r.Cases = []*CaseResult{r.Cases[1], r.Cases[2]}
	rs := []*SuiteResult{r}
	o := ReportOptions{Dir: "."}
	var text bytes.Buffer
	if err := Text(&text, rs, time.Second, o); err != nil {
		t.Fatal(err)
	}
	var matrix []string
	for _, line := range strings.Split(text.String(), "\n") {
		if strings.HasPrefix(line, "  short summary ") || strings.HasPrefix(line, "  keeps the numbers ") {
			matrix = append(matrix, line)
		}
	}
	if len(matrix) != 2 || !strings.Contains(matrix[0], "  not run  ") || !strings.HasSuffix(matrix[1], "  not run") || strings.Contains(text.String(), "…") {
		t.Errorf("the text matrix does not say which cells did not run:\n%s", text.String())
	}
	var js bytes.Buffer
	if err := JSON(&js, rs, o); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Matrix struct {
				Rows []struct {
					Cells []struct {
						Status string `json:"status"`
					} `json:"cells"`
				} `json:"rows"`
				Summary []struct {
					Status string `json:"status"`
					Cases  int    `json:"cases"`
				} `json:"summary"`
			} `json:"matrix"`
		} `json:"suites"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range doc.Suites[0].Matrix.Rows {
		for _, c := range row.Cells {
			got = append(got, c.Status)
		}
	}
	if want := []string{"not run", "fail", "pass", "not run"}; !slices.Equal(got, want) {
		t.Errorf("JSON cell statuses %q, want %q\n%s", got, want, js.String())
	}
	if s := doc.Suites[0].Matrix.Summary; len(s) != 2 || s[0].Cases != 1 || s[1].Cases != 1 || s[0].Status != "pass" || s[1].Status != "fail" {
		t.Errorf("the summary row counts cells that did not run: %+v", s)
	}
	var page bytes.Buffer
	if err := HTML(&page, rs, HTMLOptions{ReportOptions: o}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(page.String(), `<td class="cell not-run">not run</td>`); n != 2 || strings.Contains(page.String(), "…") {
		t.Errorf("the HTML matrix has %d not-run cells, want 2", n)
	}
	// A matrix still filling (the browser's run under way) keeps "…".
	m := NewMatrix(r.Suite.Cases, []string{"Main", "cheap"}, r.Cases)
	if got := m.Rows[0].Cells[0].CellText(); got != "…" {
		t.Errorf("a cell still running reads %q, want …", got)
	}
	m.EndRun()
	if got := m.Rows[0].Cells[0].CellText(); got != "not run" {
		t.Errorf("once the run ended a cell with no result reads %q, want not run", got)
	}
}
