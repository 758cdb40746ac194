package route

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
)

// Summary counts the cases of routing suites by status.
type Summary struct {
	suite.Counts
	// Broken counts suites that could not run at all.
	Broken int `json:"broken_suites"`
	// Samples counts the samples asked or replayed (agentdesk test's
	// "samples"); Replayed and Live count them by where they came from.
	Samples  int `json:"samples"`
	Replayed int `json:"replayed"`
	Live     int `json:"live"`
	// Recordings counts what --record did with the recordings.
	Recordings evalrec.Tally `json:"-"`
}

// OK reports whether everything passed.
func (s Summary) OK() bool { return s.Passed == s.Cases && s.Broken == 0 }

// summaryJSON is the summary in --format json: agentdesk test's keys
// (cases, passed, failed, stale, not_recorded, errors, broken_suites, ok)
// and where the samples came from.
type summaryJSON struct {
	Summary
	OK bool `json:"ok"`
	// Recordings is what --record did (absent otherwise).
	Recordings *recordingsJSON `json:"recordings,omitempty"`
}

// recordingsJSON counts the recordings --record replaced and kept.
type recordingsJSON struct {
	Replaced int `json:"replaced"`
	Kept     int `json:"kept"`
}

// Summarize counts results.
func Summarize(results []*SuiteResult) Summary {
	var s Summary
	for _, sr := range results {
		if firstError(sr.Findings) != "" {
			s.Broken++
		}
		for _, r := range sr.Cases {
			s.Add(r.Status)
			s.Replayed += r.Replayed
			s.Recordings.Merge(r.Recordings)
			for _, smp := range r.Samples {
				if smp.Run.RunID != "" && smp.Run.Replay == nil {
					s.Live++
				}
			}
		}
	}
	s.Samples = s.Replayed + s.Live
	return s
}

// shown is a path as the report prints it: relative to dir when inside it.
func shown(path, dir string) string {
	if dir != "" {
		if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// WriteText writes the text report: per suite, a line per case with its
// distribution and why it did not pass; then the confusion table and, for
// each pair of agents confused, both descriptions side by side with the
// requests that went wrong; then a summary. dir is the folder paths are
// shown relative to ("" keeps them as they are).
func WriteText(w io.Writer, results []*SuiteResult, c *lint.Catalog, dir string, took time.Duration) error {
	var b strings.Builder
	static := false
	for _, sr := range results {
		static = static || sr.Static
		writeSuiteText(&b, sr, dir)
	}
	if static {
		b.WriteString("Static: " + staticNote + "\n")
		// Every suite ranks against the same layer: its pairs once.
		for _, p := range results[0].Similar {
			fmt.Fprintf(&b, "warning: %s and %s are %s alike in words (%s): a request may not tell them apart\n",
				termsafe.Escape(p.A), termsafe.Escape(p.B), percent(p.Similarity), termsafe.Escape(strings.Join(p.Shared[:min(5, len(p.Shared))], ", ")))
		}
	} else {
		table, pairs := Confusions(results, c)
		writeConfusion(&b, table)
		for _, p := range pairs {
			writeConfused(&b, p)
		}
	}
	s := Summarize(results)
	fmt.Fprintf(&b, "\n%s", s.Counts)
	if !static {
		n := s.Samples
		fmt.Fprintf(&b, " (%d sample%s: %d replayed, %d live)", n, map[bool]string{true: "s"}[n != 1], s.Replayed, s.Live)
	}
	fmt.Fprintf(&b, " in %s", suite.FormatDuration(took))
	if s.Broken > 0 {
		fmt.Fprintf(&b, "; %d suite file%s broken: %s cannot run as written", s.Broken, map[bool]string{true: "s"}[s.Broken != 1], map[bool]string{true: "it", false: "they"}[s.Broken == 1])
	}
	b.WriteString("\n")
	if t := s.Recordings.String(); t != "" {
		fmt.Fprintf(&b, "%s\n", termsafe.Escape(t))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// staticNote labels every static result.
const staticNote = "a heuristic: shared words (BM25 over the agents' names and descriptions), no model was asked; a model reads meaning, not words"

// writeSuiteText writes one suite's text report: its header line, its
// findings, and a line per case.
func writeSuiteText(b *strings.Builder, sr *SuiteResult, dir string) {
	s := sr.Suite
	fmt.Fprintf(b, "%s  (audience %s, %d case%s)\n", termsafe.Escape(shown(s.Path, dir)), termsafe.Escape(audienceShown(sr)), len(s.Cases), map[bool]string{true: "s"}[len(s.Cases) != 1])
	for _, d := range allFindings(sr) {
		fmt.Fprintf(b, "  %s:%d:%d: %s: %s [%s]\n", termsafe.Escape(shown(d.Path, dir)), d.Pos.Line, d.Pos.Column, d.Severity, termsafe.Escape(d.Message), d.Rule)
		if d.Hint != "" {
			fmt.Fprintf(b, "    hint: %s\n", termsafe.Escape(d.Hint))
		}
	}
	width := 0
	for _, r := range sr.Cases {
		width = max(width, ansi.StringWidth(termsafe.Escape(r.Case.Name)))
	}
	for _, r := range sr.Cases {
		writeCaseText(b, sr, r, width)
	}
	b.WriteString("\n")
}

// writeCaseText writes a case's line of the text report, its name padded
// to width, then its message and failure under it.
func writeCaseText(b *strings.Builder, sr *SuiteResult, r *CaseResult, width int) {
	name := termsafe.Escape(r.Case.Name)
	pad := strings.Repeat(" ", width-ansi.StringWidth(name))
	fmt.Fprintf(b, "  %-12s %s%s  ", r.Status, name, pad)
	switch {
	case sr.Static && len(r.Static) > 0:
		top := r.Static[0]
		fmt.Fprintf(b, "expects %s; top static match %s (%.2f)", termsafe.Escape(r.Case.Expect), termsafe.Escape(top.Agent), top.Score)
	case len(r.Samples) > 0 && (r.Status == Pass || r.Status == Fail):
		writeSampledText(b, r)
	default:
		fmt.Fprintf(b, "expects %s", termsafe.Escape(r.Case.Expect))
	}
	b.WriteString("\n")
	if r.Message != "" {
		fmt.Fprintf(b, "  %12s %s\n", "", termsafe.Escape(r.Message))
	}
	if r.Failure != "" && r.Status != Error {
		fmt.Fprintf(b, "  %12s %s\n", "", termsafe.Escape(r.Failure))
	}
}

// writeSampledText writes what a judged case's samples picked: how many
// agreed with the expected agent, the other picks, the minimum rate when
// below 1, and "replayed" when every sample came from a recording.
func writeSampledText(b *strings.Builder, r *CaseResult) {
	fmt.Fprintf(b, "%d/%d %s", r.Agreed, len(r.Samples), termsafe.Escape(r.Case.Expect))
	var others []string
	for _, sh := range Distribution(r.Samples) {
		if !strings.EqualFold(sh.Label, r.Case.Expect) {
			others = append(others, fmt.Sprintf("%s %d", termsafe.Escape(sh.Label), sh.Count))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(b, "  (%s)", strings.Join(others, ", "))
	}
	if r.Case.MinRate < 1 {
		fmt.Fprintf(b, "  min-rate %s", percent(r.Case.MinRate))
	}
	if r.Replayed == len(r.Samples) {
		b.WriteString("  replayed")
	}
}

// writeConfusion writes the confusion table: expected (rows) × picked
// (columns), in samples.
func writeConfusion(b *strings.Builder, t *Confusion) {
	if len(t.Expected) == 0 {
		return
	}
	b.WriteString("Confusion (rows: expected, columns: picked; samples)\n")
	first := len("expected")
	for _, e := range t.Expected {
		first = max(first, ansi.StringWidth(termsafe.Escape(e)))
	}
	widths := make([]int, len(t.Picked))
	for j, p := range t.Picked {
		widths[j] = max(ansi.StringWidth(termsafe.Escape(p)), 3)
	}
	cell := func(s string, w int, right bool) string {
		pad := strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
		if right {
			return pad + s
		}
		return s + pad
	}
	b.WriteString("  " + cell("", first, false))
	for j, p := range t.Picked {
		b.WriteString("  " + cell(termsafe.Escape(p), widths[j], true))
	}
	b.WriteString("\n")
	for i, e := range t.Expected {
		b.WriteString("  " + cell(termsafe.Escape(e), first, false))
		for j := range t.Picked {
			v := "."
			if n := t.Counts[i][j]; n > 0 {
				v = fmt.Sprint(n)
			}
			b.WriteString("  " + cell(v, widths[j], true))
		}
		b.WriteString("\n")
	}
}

// colWidth is the width of each description column of a confused pair.
const colWidth = 38

// writeConfused writes a confused pair: both descriptions side by side,
// then the requests that went wrong, and what to do.
func writeConfused(b *strings.Builder, p Confused) {
	fmt.Fprintf(b, "\nConfused: %s and %s: sharpen these descriptions so each says what the other does not\n", termsafe.Escape(p.A), termsafe.Escape(p.B))
	left := append([]string{termsafe.Escape(p.A)}, wrap(termsafe.Escape(p.DescriptionA), colWidth)...)
	right := append([]string{termsafe.Escape(p.B)}, wrap(termsafe.Escape(p.DescriptionB), colWidth)...)
	for i := 0; i < max(len(left), len(right)); i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		fmt.Fprintf(b, "  %s%s │ %s\n", l, strings.Repeat(" ", max(colWidth-ansi.StringWidth(l), 0)), r)
	}
	b.WriteString("  Requests that went to the other one:\n")
	for _, rq := range p.Requests {
		fmt.Fprintf(b, "    %s: %q expected %s, picked %s in %d of %d\n", termsafe.Escape(rq.Case), termsafe.Escape(rq.Request), termsafe.Escape(rq.Expected), termsafe.Escape(rq.Picked), rq.Count, rq.Samples)
	}
}

// wrap breaks text into lines of at most width columns, at spaces (a word
// wider than that is cut).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		for ansi.StringWidth(w) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			lines = append(lines, ansi.Truncate(w, width, ""))
			w = ansi.Cut(w, width, ansi.StringWidth(w))
		}
		switch {
		case line == "":
			line = w
		case ansi.StringWidth(line)+1+ansi.StringWidth(w) <= width:
			line += " " + w
		default:
			lines, line = append(lines, line), w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// reportJSON is the --format json document of routing suites.
type reportJSON struct {
	Suites    []suiteJSON `json:"suites"`
	Confusion *Confusion  `json:"confusion,omitempty"`
	Confused  []Confused  `json:"confused,omitempty"`
	Summary   summaryJSON `json:"summary"`
	Static    string      `json:"static,omitempty"`
}

type suiteJSON struct {
	Path     string        `json:"path"`
	Audience string        `json:"audience"`
	Status   Status        `json:"status"`
	Findings []findingJSON `json:"findings"`
	Cases    []caseJSON    `json:"cases"`
	Similar  []Pair        `json:"similar,omitempty"`
}

// findingJSON is a finding in agentdesk test's and lint's lower-case
// schema.
type findingJSON struct {
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

type caseJSON struct {
	Name    string  `json:"name"`
	Line    int     `json:"line"`
	Request string  `json:"request"`
	Expect  string  `json:"expect"`
	MinRate float64 `json:"min_rate"`
	*CaseResult
	Distribution []Share      `json:"distribution"`
	Samples      []sampleJSON `json:"samples"`
}

type sampleJSON struct {
	N      int    `json:"n"`
	Pick   Pick   `json:"pick"`
	Label  string `json:"label"`
	RunID  string `json:"run_id,omitempty"`
	RunDir string `json:"run_dir,omitempty"`
	// Error says why the sample got no answer (it is not a pick).
	Error string `json:"error,omitempty"`
}

// WriteJSON writes the report as one JSON document: per suite its cases
// (status, samples that agreed, distribution, each sample's pick and run),
// the confusion table, the pairs confused, and the summary.
func WriteJSON(w io.Writer, results []*SuiteResult, c *lint.Catalog) error {
	doc := reportJSON{Suites: []suiteJSON{}, Summary: summaryJSON{Summary: Summarize(results)}}
	doc.Summary.OK = doc.Summary.Summary.OK()
	if r := doc.Summary.Summary.Recordings; r.Replaced+r.Kept > 0 {
		doc.Summary.Recordings = &recordingsJSON{r.Replaced, r.Kept}
	}
	static := false
	for _, sr := range results {
		static = static || sr.Static
		doc.Suites = append(doc.Suites, suiteDoc(sr))
	}
	if static {
		doc.Static = staticNote
	} else {
		doc.Confusion, doc.Confused = Confusions(results, c)
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the report: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// suiteDoc is a suite's entry in the JSON report: its findings and its
// cases.
func suiteDoc(sr *SuiteResult) suiteJSON {
	sj := suiteJSON{Path: sr.Suite.Path, Audience: audienceShown(sr), Status: sr.Status(), Findings: []findingJSON{}, Cases: []caseJSON{}, Similar: sr.Similar}
	for _, d := range allFindings(sr) {
		sj.Findings = append(sj.Findings, findingJSON{d.Line, d.Column, d.Rule, d.Severity.String(), d.Message, d.Hint})
	}
	for _, r := range sr.Cases {
		sj.Cases = append(sj.Cases, caseDoc(r))
	}
	return sj
}

// caseDoc is a case's entry in the JSON report: the case, its result,
// the distribution of its picks and each sample.
func caseDoc(r *CaseResult) caseJSON {
	cj := caseJSON{Name: r.Case.Name, Line: r.Case.Pos.Line, Request: r.Case.Request, Expect: r.Case.Expect, MinRate: r.Case.MinRate,
		CaseResult: r, Distribution: Distribution(r.Samples), Samples: []sampleJSON{}}
	if cj.Distribution == nil {
		cj.Distribution = []Share{}
	}
	for _, smp := range r.Samples {
		cj.Samples = append(cj.Samples, sampleJSON{N: smp.N, Pick: smp.Pick, Label: smp.Label(), RunID: smp.Run.RunID, RunDir: smp.Run.Dir, Error: smp.NoAnswer()})
	}
	return cj
}

// WriteJUnit writes a JUnit XML report: a testsuite per suite file, a
// testcase per case; fail, stale and not recorded are failures of those
// types, error an error.
func WriteJUnit(w io.Writer, results []*SuiteResult, dir string) error {
	var suites []evalrec.JUnitSuite
	for _, sr := range results {
		js := evalrec.JUnitSuite{Name: shown(sr.Suite.Path, dir), File: shown(sr.Suite.Path, dir), Time: sr.Duration}
		for _, r := range sr.Cases {
			js.Cases = append(js.Cases, junitCase(r))
		}
		suites = append(suites, js)
	}
	return evalrec.WriteJUnit(w, "agentdesk route", suites)
}

// junitCase is a case's testcase in the JUnit report: the request, what
// was expected and picked in its detail, the run folders of its samples
// as its output.
func junitCase(r *CaseResult) evalrec.JUnitCase {
	jc := evalrec.JUnitCase{Name: r.Case.Name, Line: r.Case.Pos.Line, Time: r.Duration, Message: r.Message}
	var detail strings.Builder
	for _, sh := range Distribution(r.Samples) {
		fmt.Fprintf(&detail, "%s: %d of %d\n", sh.Label, sh.Count, len(r.Samples))
	}
	if r.Failure != "" {
		fmt.Fprintf(&detail, "%s\n", r.Failure)
	}
	jc.Detail = fmt.Sprintf("request: %s\nexpected: %s\n%s", r.Case.Request, r.Case.Expect, detail.String())
	jc.Status, jc.Type = r.Status.JUnit()
	var runs []string
	for _, smp := range r.Samples {
		if smp.Run.Dir != "" {
			runs = append(runs, smp.Run.Dir)
		}
	}
	jc.Output = strings.Join(runs, "\n")
	return jc
}

// WriteGitHub writes GitHub Actions annotations: an error at the line of
// every case that did not pass and of every suite finding, a warning for
// descriptions too alike (static).
func WriteGitHub(w io.Writer, results []*SuiteResult, dir string) error {
	for _, sr := range results {
		file := termsafe.Escape(shown(sr.Suite.Path, dir))
		if err := annotateFindings(w, sr, file); err != nil {
			return err
		}
		if err := annotateCases(w, sr, file); err != nil {
			return err
		}
		for _, p := range sr.Similar {
			msg := fmt.Sprintf("%s and %s are %s alike in words: a request may not tell them apart", p.A, p.B, percent(p.Similarity))
			if err := evalrec.GitHubAnnotation(w, "warning", file, 0, "similar descriptions", termsafe.Escape(msg)); err != nil {
				return err
			}
		}
	}
	return nil
}

// annotateFindings writes an annotation for each finding of the suite sr,
// at its line and column of file, at its finding's level.
func annotateFindings(w io.Writer, sr *SuiteResult, file string) error {
	for _, d := range allFindings(sr) {
		if err := evalrec.GitHubAnnotationAt(w, evalrec.GitHubLevel(d), file, d.Pos.Line, d.Pos.Column, d.Rule, termsafe.EscapeLines(findingMessage(d))); err != nil {
			return err
		}
	}
	return nil
}

// annotateCases writes an error annotation for each case of the suite sr
// that did not pass, at its line of file.
func annotateCases(w io.Writer, sr *SuiteResult, file string) error {
	for _, r := range sr.Cases {
		if r.Status == Pass {
			continue
		}
		if err := evalrec.GitHubAnnotation(w, "error", file, r.Case.Pos.Line, termsafe.Escape(r.Case.Name), termsafe.EscapeLines(caseMessage(r))); err != nil {
			return err
		}
	}
	return nil
}

// findingMessage is a finding's annotation text: its message, then its
// hint.
func findingMessage(d lint.Diagnostic) string {
	if d.Hint == "" {
		return d.Message
	}
	return d.Message + "\nhint: " + d.Hint
}

// caseMessage is the annotation text of a case that did not pass: its
// status and message, then its failure (an error's message says it all).
func caseMessage(r *CaseResult) string {
	msg := fmt.Sprintf("%s: %s", r.Status, r.Message)
	if r.Failure != "" && r.Status != Error {
		msg += "\n" + r.Failure
	}
	return msg
}

// allFindings are every diagnostic of the suite file, its cases' as well
// as its own, in line order.
func allFindings(sr *SuiteResult) []lint.Diagnostic {
	ds := append([]lint.Diagnostic(nil), sr.Suite.Diagnostics...)
	lint.SortDiagnostics(ds)
	return ds
}

// audienceShown is the suite's audience as the report names it: the one
// it runs under, or the one written with "not usable" when the suite
// names an audience it cannot run under (Public, a misspelling), which
// its findings explain.
func audienceShown(sr *SuiteResult) string {
	s := sr.Suite
	if s.AudiencePos.Line == 0 {
		return s.Audience
	}
	for _, d := range s.Diagnostics {
		if d.Severity == lint.Error && d.Pos == s.AudiencePos {
			return writtenAt(s.Text, s.AudiencePos) + " (not usable)"
		}
	}
	return s.Audience
}

// writtenAt is the scalar written at pos in text: to the end of its line,
// less a comment and quotes.
func writtenAt(text string, pos lint.Pos) string {
	lines := strings.Split(text, "\n")
	if pos.Line < 1 || pos.Line > len(lines) {
		return "?"
	}
	r := []rune(lines[pos.Line-1])
	if pos.Column < 1 || pos.Column > len(r) {
		return "?"
	}
	v := string(r[pos.Column-1:])
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.Trim(strings.TrimSpace(v), `"'`)
}
