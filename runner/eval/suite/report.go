package suite

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/report"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// ReportOptions say how results are printed.
type ReportOptions struct {
	// Color adds ANSI colours to the text format.
	Color bool
	// Dir is the folder paths are shown relative to ("" : the working
	// directory).
	Dir string
}

// shown returns path relative to o.Dir (or the working directory) when
// that is shorter.
func (o ReportOptions) shown(path string) string {
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(d, abs); err == nil && len(rel) < len(path) && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// Counts counts cases by status: agentdesk test's and agentdesk route's
// summaries both start from it.
type Counts struct {
	Cases      int `json:"cases"`
	Passed     int `json:"passed"`
	Failed     int `json:"failed"`
	Stale      int `json:"stale"`
	Unrecorded int `json:"not_recorded"`
	Errors     int `json:"errors"`
}

// Add counts one case of status st.
func (c *Counts) Add(st Status) {
	c.Cases++
	switch st {
	case Pass:
		c.Passed++
	case Fail:
		c.Failed++
	case Stale:
		c.Stale++
	case Unrecorded:
		c.Unrecorded++
	default:
		c.Errors++
	}
}

// JUnit is how a case of status s stands in a JUnit report: its status
// there (evalrec.JUnitPass, JUnitFailure or JUnitError) and the kind of
// failure ("fail", "stale", "not-recorded", "error"; "" for a pass).
// agentdesk test and agentdesk route --suite write the same.
func (s Status) JUnit() (status, kind string) {
	switch s {
	case Pass:
		return evalrec.JUnitPass, ""
	case Fail:
		return evalrec.JUnitFailure, "fail"
	case Stale:
		return evalrec.JUnitFailure, "stale"
	case Unrecorded:
		return evalrec.JUnitFailure, "not-recorded"
	}
	return evalrec.JUnitError, "error"
}

// Summary counts cases by status.
type Summary struct {
	Counts
	// Samples counts every sample; Suites the suite files; Broken those
	// that could not run at all.
	Samples, Suites, Broken int
	// Findings counts the suite files' error diagnostics.
	Findings int
	// Recordings counts what --record did with the recording files.
	Recordings evalrec.Tally
}

// OK reports whether everything passed: every case of every suite, and no
// suite file with an error.
func (s Summary) OK() bool {
	return s.Passed == s.Cases && s.Broken == 0 && s.Findings == 0
}

// Summarize counts results.
func Summarize(rs []*SuiteResult) Summary {
	var s Summary
	for _, r := range rs {
		s.Suites++
		if len(r.Cases) == 0 || r.Err != "" {
			s.Broken++
		}
		for _, d := range r.Findings {
			if d.Severity == lint.Error {
				s.Findings++
			}
		}
		for _, c := range r.Cases {
			s.addCase(c)
		}
	}
	return s
}

// addCase counts the case c: its status, its samples, and what --record
// did with each sample's recording.
func (s *Summary) addCase(c *CaseResult) {
	s.Add(c.Status)
	s.Samples += len(c.Samples)
	for _, smp := range c.Samples {
		if smp != nil {
			s.Recordings.Add(smp.Recorded, smp.KeptWhy)
		}
	}
}

// String is the summary line: "7 cases: 3 passed, 2 failed, 1 stale,
// 1 error (12 samples)".
func (s Summary) String() string { return s.line(0) }

// line is the summary line with the run's wall time, when took is not 0
// and a sample ran, said of the cases that ran (not of the suite files
// that could not).
func (s Summary) line(took time.Duration) string {
	out := fmt.Sprintf("%s (%d sample%s)", s.Counts, s.Samples, plural(s.Samples))
	if took > 0 && s.Samples > 0 {
		out += " in " + FormatDuration(took) + " wall time"
	}
	if s.Broken > 0 {
		out += fmt.Sprintf("; %d suite file%s broken: %s cannot run as written", s.Broken, plural(s.Broken), map[bool]string{true: "it", false: "they"}[s.Broken == 1])
	}
	return out
}

// String says how many cases there are and how many have each status,
// leaving out the statuses no case has: "3 cases: 2 passed, 1 error".
// agentdesk test and agentdesk route --suite both end on it.
func (c Counts) String() string {
	parts := []string{fmt.Sprintf("%d passed", c.Passed)}
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(c.Failed, "failed")
	add(c.Stale, "stale")
	add(c.Unrecorded, "not recorded")
	if c.Errors == 1 {
		parts = append(parts, "1 error")
	} else {
		add(c.Errors, "errors")
	}
	return fmt.Sprintf("%d case%s: %s", c.Cases, plural(c.Cases), strings.Join(parts, ", "))
}

// ANSI styles of the text report.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiGreen  = "\x1b[1;32m"
)

func statusStyle(s Status) string {
	switch s {
	case Pass:
		return ansiGreen
	case Stale, Unrecorded:
		return ansiYellow
	}
	return ansiRed
}

// TextPrinter prints results as text, a suite at a time, so that a
// command can print each suite as soon as its cases are done.
type TextPrinter struct {
	w *bufio.Writer
	o ReportOptions
}

// NewTextPrinter returns a printer to w.
func NewTextPrinter(w io.Writer, o ReportOptions) *TextPrinter {
	return &TextPrinter{w: bufio.NewWriter(w), o: o}
}

func (p *TextPrinter) style(code, s string) string {
	if !p.o.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

// Suite prints one suite: its findings, then a line per case:
//
//	agents/tester.test.yaml (agent tester)
//	  pass   finds the port        3/3  1.20s
//	  fail   names the file        0/1  0.40s
//	         sample 1: contains "main.go": the output does not hold it
//	           1: The server listens on port 8080.
//	         run 3f9a…: /home/me/.local/state/agentdesk/runs/3f9a…
//	  stale  greets               0/1   system prompt changed: agents/tester.md edited
func (p *TextPrinter) Suite(r *SuiteResult) error {
	w := p.w
	s := r.Suite
	fmt.Fprintf(w, "%s %s\n", p.style(ansiBold, termsafe.Escape(p.o.shown(s.Path))), p.style(ansiDim, "(agent "+termsafe.Escape(s.Agent)+")"))
	for _, d := range r.Findings {
		p.finding(d)
	}
	width, sw := 0, 6
	for _, c := range r.Cases {
		width = max(width, len([]rune(termsafe.Escape(c.Title()))))
		sw = max(sw, len(c.Status))
	}
	width = min(width, 40)
	for _, c := range r.Cases {
		name := termsafe.Escape(c.Title())
		pad := width - len([]rune(name))
		status := fmt.Sprintf("%-*s", sw, c.Status)
		line := fmt.Sprintf("  %s %s%s  %d/%d", p.style(statusStyle(c.Status), status), name, strings.Repeat(" ", max(pad, 0)), c.Passed, len(c.Samples))
		line += caseTimes(c)
		if c.Status != Pass && c.Status != Fail && c.Message != "" {
			line += "  " + termsafe.Escape(c.Message)
		}
		fmt.Fprintln(w, line)
		for _, l := range caseMCP(c) {
			fmt.Fprintf(w, "%s%s %s\n", strings.Repeat(" ", 2+sw+1), p.style(ansiYellow, "mcp:"), termsafe.Escape(l))
		}
		if c.Status == Fail {
			p.failures(c, strings.Repeat(" ", 2+sw+1))
		}
	}
	if m := r.Matrix(); m != nil {
		p.matrixText(m)
	}
	return w.Flush()
}

// finding prints a suite file's finding: where, how bad, what and its
// rule, then its hint.
func (p *TextPrinter) finding(d lint.Diagnostic) {
	sev := "error"
	if d.Severity == lint.Warning {
		sev = "warning"
	}
	loc := termsafe.Escape(p.o.shown(d.Path))
	if d.Line > 0 {
		loc += fmt.Sprintf(":%d:%d", d.Line, d.Column)
	}
	fmt.Fprintf(p.w, "  %s: %s: %s %s\n", loc, p.style(ansiRed, sev), termsafe.Escape(d.Message), p.style(ansiDim, "["+d.Rule+"]"))
	if d.Hint != "" {
		fmt.Fprintf(p.w, "    hint: %s\n", termsafe.Escape(d.Hint))
	}
}

// failures prints a failed case's failed samples, indented under the
// case's name: each failed expectation with the output's relevant lines,
// and the run folder.
func (p *TextPrinter) failures(c *CaseResult, indent string) {
	w := p.w
	for _, s := range c.Samples {
		if s.Status != Fail {
			continue
		}
		for _, f := range s.Failures {
			fmt.Fprintf(w, "%ssample %d: %s: %s\n", indent, s.N, p.style(ansiBold, termsafe.Escape(f.Expect)), termsafe.Escape(f.Message))
			for _, l := range f.Lines {
				fmt.Fprintf(w, "%s  %s\n", indent, p.style(ansiDim, termsafe.Escape(l)))
			}
		}
		if s.Note != "" {
			fmt.Fprintf(w, "%snote: %s\n", indent, termsafe.Escape(s.Note))
		}
		if s.RunDir != "" {
			fmt.Fprintf(w, "%srun: %s\n", indent, termsafe.Escape(s.RunDir))
		}
	}
}

// Summary prints the last line.
func (p *TextPrinter) Summary(rs []*SuiteResult, took time.Duration) error {
	s := Summarize(rs)
	line := s.line(took)
	style := ansiGreen
	if !s.OK() {
		style = ansiRed
	}
	fmt.Fprintln(p.w, p.style(style, line))
	if r := s.Recordings.String(); r != "" {
		fmt.Fprintln(p.w, termsafe.Escape(r))
	}
	return p.w.Flush()
}

// Text prints every suite's results and the summary line.
func Text(w io.Writer, rs []*SuiteResult, took time.Duration, o ReportOptions) error {
	p := NewTextPrinter(w, o)
	for _, r := range rs {
		if err := p.Suite(r); err != nil {
			return fmt.Errorf("write the test report: %w", err)
		}
	}
	if err := p.Summary(rs, took); err != nil {
		return fmt.Errorf("write the test report: %w", err)
	}
	return nil
}

// caseTimes labels a case's two times: the wall time its samples took,
// and the sum of their run times (the recorded ones for a replay), which
// is more when samples run in parallel and less when they are replayed.
func caseTimes(c *CaseResult) string {
	switch {
	case c.Wall > 0:
		return fmt.Sprintf("  %s wall, %s in runs", FormatDuration(c.Wall), FormatDuration(c.Duration))
	case c.Duration > 0:
		return fmt.Sprintf("  %s in runs", FormatDuration(c.Duration))
	}
	return ""
}

// FormatDuration is a time as the reports print it: 1.25s, or 2m5s from
// a minute on.
func FormatDuration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// JSON document of a test report.
type (
	jsonReport struct {
		Suites  []jsonSuite `json:"suites"`
		Summary jsonSummary `json:"summary"`
	}
	jsonSuite struct {
		Path     string        `json:"path"`
		Agent    string        `json:"agent"`
		Status   Status        `json:"status"`
		Findings []jsonFinding `json:"findings"`
		Cases    []jsonCase    `json:"cases"`
		// Matrix is set when the cases ran on several models.
		Matrix *jsonMatrix `json:"matrix,omitempty"`
	}
	jsonMatrix struct {
		Models  []string        `json:"models"`
		Rows    []jsonMatrixRow `json:"rows"`
		Summary []jsonCell      `json:"summary"`
	}
	jsonMatrixRow struct {
		Case  string     `json:"case"`
		Cells []jsonCell `json:"cells"`
	}
	jsonCell struct {
		Status             Status  `json:"status"`
		Passed             int     `json:"passed"`
		Samples            int     `json:"samples"`
		PassRate           float64 `json:"pass_rate"`
		CasesPassed        int     `json:"cases_passed"`
		Cases              int     `json:"cases"`
		MedianMS           int64   `json:"median_ms"`
		MedianOutputTokens int     `json:"median_output_tokens"`
	}
	jsonFinding struct {
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Hint     string `json:"hint"`
	}
	jsonCase struct {
		Name     string       `json:"name"`
		Model    string       `json:"model,omitempty"`
		Line     int          `json:"line"`
		Status   Status       `json:"status"`
		Passed   int          `json:"passed"`
		Samples  []jsonSample `json:"samples"`
		PassRate float64      `json:"pass_rate"`
		Message  string       `json:"message"`
		MS       int64        `json:"duration_ms"`
		WallMS   int64        `json:"wall_ms"`
	}
	jsonSample struct {
		N          int           `json:"sample"`
		Status     Status        `json:"status"`
		How        string        `json:"how"`
		RunID      string        `json:"run_id"`
		RunDir     string        `json:"run_dir"`
		JudgeRunID string        `json:"judge_run_id,omitempty"`
		Outcome    string        `json:"outcome"`
		Reason     string        `json:"reason"`
		Failures   []jsonFailure `json:"failures"`
		Verdict    *jsonVerdict  `json:"verdict,omitempty"`
		// StaleBecause says what changed since the recording of a stale
		// sample.
		StaleBecause []string `json:"stale_because,omitempty"`
		// ChangedFiles are the files the sample's run changed in its
		// overlay of the project.
		ChangedFiles []runfolder.ChangeRecord `json:"changed_files,omitempty"`
		Error        string                   `json:"error"`
		Note         string                   `json:"note,omitempty"`
		// MCP says what went wrong with the run's MCP servers.
		MCP    []string `json:"mcp,omitempty"`
		MS     int64    `json:"duration_ms"`
		Tokens int      `json:"output_tokens"`
		// Counted says that output_tokens was counted by agentdesk, the
		// provider having reported none.
		Counted   bool   `json:"output_tokens_counted,omitempty"`
		Recording string `json:"recording"`
		Recorded  string `json:"recorded,omitempty"`
		KeptWhy   string `json:"kept_why,omitempty"`
	}
	jsonFailure struct {
		Expect  string   `json:"expect"`
		Message string   `json:"message"`
		Lines   []string `json:"lines"`
	}
	jsonVerdict struct {
		Pass   bool   `json:"pass"`
		Reason string `json:"reason"`
	}
	jsonSummary struct {
		Cases      int  `json:"cases"`
		Passed     int  `json:"passed"`
		Failed     int  `json:"failed"`
		Stale      int  `json:"stale"`
		Unrecorded int  `json:"not_recorded"`
		Errors     int  `json:"errors"`
		Samples    int  `json:"samples"`
		Broken     int  `json:"broken_suites"`
		OK         bool `json:"ok"`
		// Recordings is what --record did (absent otherwise).
		Recordings *jsonRecordings `json:"recordings,omitempty"`
	}
	jsonRecordings struct {
		Replaced int `json:"replaced"`
		Kept     int `json:"kept"`
	}
)

// JSON prints the results as one JSON document (the schema is in
// docs/test.md): {"suites":[{"path","agent","status","findings":[…],
// "cases":[{"name","line","status","passed","pass_rate","message",
// "duration_ms","samples":[{"sample","status","how","run_id","run_dir",
// "outcome","reason","failures":[{"expect","message","lines"}],
// "verdict":{"pass","reason"},"stale_because","changed_files":[{"path","kind"}],"error","duration_ms",
// "recording"}]}]}],"summary":{…,"ok"}}. Arrays are never null.
func JSON(w io.Writer, rs []*SuiteResult, o ReportOptions) error {
	doc := jsonReport{Suites: []jsonSuite{}}
	for _, r := range rs {
		doc.Suites = append(doc.Suites, suiteJSON(r, o))
	}
	s := Summarize(rs)
	doc.Summary = jsonSummary{Cases: s.Cases, Passed: s.Passed, Failed: s.Failed, Stale: s.Stale, Unrecorded: s.Unrecorded, Errors: s.Errors, Samples: s.Samples, Broken: s.Broken, OK: s.OK()}
	if t := s.Recordings; t.Replaced+t.Kept > 0 {
		doc.Summary.Recordings = &jsonRecordings{t.Replaced, t.Kept}
	}
	return report.WriteJSON(w, doc)
}

// suiteJSON is a suite's entry in the JSON report: its findings, its
// cases and, with more than one model, its matrix.
func suiteJSON(r *SuiteResult, o ReportOptions) jsonSuite {
	js := jsonSuite{Path: o.shown(r.Suite.Path), Agent: r.Suite.Agent, Status: r.Status(), Findings: []jsonFinding{}, Cases: []jsonCase{}}
	for _, d := range r.Findings {
		js.Findings = append(js.Findings, jsonFinding{d.Line, d.Column, d.Rule, d.Severity.String(), d.Message, d.Hint})
	}
	for _, c := range r.Cases {
		jc := jsonCase{Name: c.Case.Name, Model: c.Model, Line: c.Case.Pos.Line, Status: c.Status, Passed: c.Passed, PassRate: c.Case.PassRate, Message: c.Message, MS: c.Duration.Milliseconds(), WallMS: c.Wall.Milliseconds(), Samples: []jsonSample{}}
		for _, s := range c.Samples {
			jc.Samples = append(jc.Samples, sampleJSON(s))
		}
		js.Cases = append(js.Cases, jc)
	}
	if m := r.Matrix(); m != nil {
		js.Matrix = matrixJSON(m)
	}
	return js
}

// sampleJSON is a sample's entry in the JSON report.
func sampleJSON(s *SampleResult) jsonSample {
	sj := jsonSample{N: s.N, Status: s.Status, How: s.How, RunID: s.RunID, RunDir: s.RunDir, JudgeRunID: s.JudgeRunID, Outcome: s.Outcome, Reason: s.Reason,
		Failures: []jsonFailure{}, StaleBecause: s.StaleBecause, ChangedFiles: s.ChangedFiles, Error: s.Err, Note: s.Note, MCP: s.MCP, MS: s.Duration.Milliseconds(), Recording: s.Recording,
		Recorded: string(s.Recorded), KeptWhy: s.KeptWhy}
	sj.Tokens, sj.Counted = s.OutputTokens()
	for _, f := range s.Failures {
		sj.Failures = append(sj.Failures, jsonFailure{f.Expect, f.Message, append([]string{}, f.Lines...)})
	}
	if s.Verdict != nil {
		sj.Verdict = &jsonVerdict{s.Verdict.Pass, s.Verdict.Reason}
	}
	return sj
}

// JUnit prints the results as JUnit XML: a testsuite per suite file, a
// testcase per case; a failed case is a failure (type "fail"), a stale or
// unrecorded one a failure of type "stale" or "not-recorded", an error an
// error; a broken suite file is one testcase in error with its findings.
func JUnit(w io.Writer, rs []*SuiteResult, o ReportOptions) error {
	var suites []evalrec.JUnitSuite
	for _, r := range rs {
		shown := o.shown(r.Suite.Path)
		js := evalrec.JUnitSuite{Name: shown, File: shown, Time: r.Duration}
		if len(r.Cases) == 0 {
			js.Cases = append(js.Cases, evalrec.JUnitCase{Name: "(suite file)", Status: evalrec.JUnitError, Type: "suite", Message: "the suite file could not run", Detail: findingsText(r.Findings)})
		}
		for _, c := range r.Cases {
			jc := evalrec.JUnitCase{Name: c.Title(), Line: c.Case.Pos.Line, Time: c.Duration, Message: c.Message}
			jc.Status, jc.Type = c.Status.JUnit()
			jc.Detail = caseDetail(c)
			var runs []string
			for _, s := range c.Samples {
				if s.RunDir != "" {
					runs = append(runs, fmt.Sprintf("sample %d: %s run %s", s.N, s.How, s.RunDir))
				}
			}
			jc.Output = strings.Join(runs, "\n")
			js.Cases = append(js.Cases, jc)
		}
		suites = append(suites, js)
	}
	return evalrec.WriteJUnit(w, "agentdesk test", suites)
}

// caseDetail is the text of a case that did not pass: per sample, its
// failures with their lines, what changed, or its error.
func caseDetail(c *CaseResult) string {
	if c.Status == Pass {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d %s passed (pass-rate %v)\n", c.Passed, len(c.Samples), "sample"+plural(len(c.Samples)), c.Case.PassRate)
	for _, s := range c.Samples {
		switch {
		case s.Err != "":
			fmt.Fprintf(&b, "sample %d: %s\n", s.N, s.Err)
		case len(s.StaleBecause) > 0:
			fmt.Fprintf(&b, "sample %d: stale: %s\n", s.N, strings.Join(s.StaleBecause, "; "))
		}
		for _, f := range s.Failures {
			fmt.Fprintf(&b, "sample %d: %s: %s\n", s.N, f.Expect, f.Message)
			for _, l := range f.Lines {
				fmt.Fprintf(&b, "  %s\n", l)
			}
		}
		if s.Note != "" {
			fmt.Fprintf(&b, "sample %d: note: %s\n", s.N, s.Note)
		}
	}
	for _, l := range caseMCP(c) {
		fmt.Fprintf(&b, "mcp: %s\n", l)
	}
	return b.String()
}

// caseMCP says what went wrong with MCP servers in a case's samples, one
// line per distinct thing, naming the samples it concerns ("samples 1,
// 2: MCP server 'slow' did not start ...").
func caseMCP(c *CaseResult) []string {
	var order []string
	concerns := map[string][]string{}
	for _, s := range c.Samples {
		for _, n := range s.MCP {
			if _, seen := concerns[n]; !seen {
				order = append(order, n)
			}
			concerns[n] = append(concerns[n], strconv.Itoa(s.N))
		}
	}
	out := make([]string, 0, len(order))
	for _, n := range order {
		out = append(out, fmt.Sprintf("sample%s %s: %s", plural(len(concerns[n])), strings.Join(concerns[n], ", "), n))
	}
	return out
}

func findingsText(ds []lint.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%d:%d: %s [%s]\n", d.Line, d.Column, d.Message, d.Rule)
	}
	return b.String()
}

// GitHub prints a workflow command per case that did not pass, and per
// finding, at its line in the suite file, which GitHub shows on the pull
// request; then a notice with the summary.
func GitHub(w io.Writer, rs []*SuiteResult, o ReportOptions) error {
	bw := bufio.NewWriter(w)
	for _, r := range rs {
		file := termsafe.Escape(o.shown(r.Suite.Path))
		for _, d := range r.Findings {
			msg := d.Message
			if d.Hint != "" {
				msg += "\nhint: " + d.Hint
			}
			evalrec.GitHubAnnotationAt(bw, evalrec.GitHubLevel(d), file, d.Line, d.Column, d.Rule, termsafe.EscapeLines(msg))
		}
		for _, c := range r.Cases {
			if c.Status == Pass {
				continue
			}
			title := fmt.Sprintf("%s: %s", c.Status, c.Title())
			evalrec.GitHubAnnotation(bw, "error", file, c.Case.Pos.Line, termsafe.Escape(title), termsafe.EscapeLines(caseAnnotation(c)))
		}
	}
	sum := Summarize(rs)
	notice := sum.String()
	if r := sum.Recordings.String(); r != "" {
		notice += "\n" + r
	}
	evalrec.GitHubAnnotation(bw, "notice", "", 0, "agentdesk test", termsafe.EscapeLines(notice))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the GitHub annotations: %w", err)
	}
	return nil
}

// caseAnnotation is the annotation text of a case that did not pass: its
// detail (caseDetail), else its message.
func caseAnnotation(c *CaseResult) string {
	if d := caseDetail(c); d != "" {
		return strings.TrimRight(d, "\n")
	}
	return c.Message
}

// matrixJSON is the matrix in the JSON report.
func matrixJSON(m *Matrix) *jsonMatrix {
	cell := func(c MatrixCell) jsonCell {
		status := c.Status
		if c.NotRun {
			status = NotRun
		}
		return jsonCell{Status: status, Passed: c.Passed, Samples: c.Samples, PassRate: c.PassRate(), CasesPassed: c.CasesPassed, Cases: c.Cases,
			MedianMS: c.MedianTime.Milliseconds(), MedianOutputTokens: c.MedianOutputTokens}
	}
	jm := &jsonMatrix{Models: m.Models, Rows: []jsonMatrixRow{}, Summary: []jsonCell{}}
	for _, r := range m.Rows {
		jr := jsonMatrixRow{Case: r.Case.Name, Cells: []jsonCell{}}
		for _, c := range r.Cells {
			jr.Cells = append(jr.Cells, cell(c))
		}
		jm.Rows = append(jm.Rows, jr)
	}
	for _, c := range m.Summary {
		jm.Summary = append(jm.Summary, cell(c))
	}
	return jm
}
