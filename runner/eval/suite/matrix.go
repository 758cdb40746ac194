package suite

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// Title names a case's result in reports: the case's name, and on a
// matrix the model in brackets ("finds the port [cheap]"), as JUnit
// names its test case.
func (c *CaseResult) Title() string {
	if c.Model == "" {
		return c.Case.Name
	}
	return c.Case.Name + " [" + c.Model + "]"
}

// Matrix is a suite's results on several models side by side: a row per
// case, a column per model, and a summary row.
type Matrix struct {
	// Models name the columns.
	Models []string
	// Rows are the cases in file order.
	Rows []MatrixRow
	// Summary is the summary row: a cell per model over every case.
	Summary []MatrixCell
}

// MatrixRow is one case on every model.
type MatrixRow struct {
	Case  *suitefile.Case
	Cells []MatrixCell
}

// MatrixCell is one case on one model (or, in the summary row, every
// case on one model).
type MatrixCell struct {
	// Status is the case's (the worst case's in the summary row).
	Status Status
	// Passed counts the samples that passed, of Samples.
	Passed, Samples int
	// CasesPassed counts the cases that passed, of Cases (1 in a case's
	// cell).
	CasesPassed, Cases int
	// MedianTime and MedianOutputTokens are the medians over the samples
	// that ran (zero when none did).
	MedianTime         time.Duration
	MedianOutputTokens int
	// Ran counts the samples that ran (live or replayed).
	Ran int
	// NotRun is set on a cell with no result in a run that has ended: the
	// case did not run on that model (--failed runs each case on the
	// models it failed on alone). A cell with no result and NotRun unset
	// is still running. Reports say "not run" (the NotRun constant): as
	// its text, and as its status in JSON.
	NotRun bool
}

// PassRate is the share of samples that passed (0 with no samples).
func (c MatrixCell) PassRate() float64 {
	if c.Samples == 0 {
		return 0
	}
	return float64(c.Passed) / float64(c.Samples)
}

// Matrix returns the suite's matrix of the cases that ran, or nil when its
// cases did not run on several models.
func (r *SuiteResult) Matrix() *Matrix {
	if len(r.Models) == 0 {
		return nil
	}
	var names []string
	for _, mc := range r.Models {
		names = append(names, mc.Name)
	}
	// Only the cases that ran: a case left out by --case, --shard or
	// --failed is no row of empty cells (which read as still running).
	ran := map[*suitefile.Case]bool{}
	for _, cr := range r.Cases {
		if cr != nil {
			ran[cr.Case] = true
		}
	}
	var cases []*suitefile.Case
	for _, c := range r.Suite.Cases {
		if ran[c] {
			cases = append(cases, c)
		}
	}
	m := NewMatrix(cases, names, r.Cases)
	m.EndRun()
	return m
}

// EndRun marks every cell with no result as not run (MatrixCell.NotRun): the run
// has ended, so no result is still to come. The summary row is left as
// it is.
func (m *Matrix) EndRun() {
	for i := range m.Rows {
		for j := range m.Rows[i].Cells {
			if m.Rows[i].Cells[j].Status == "" {
				m.Rows[i].Cells[j].NotRun = true
			}
		}
	}
}

// NewMatrix arranges results (in any order, some perhaps still missing:
// a browser's run under way) as a matrix of cases by models. A missing
// result is an empty cell (Status ""), still running until EndRun.
func NewMatrix(cases []*suitefile.Case, models []string, results []*CaseResult) *Matrix {
	type key struct {
		c *suitefile.Case
		m string
	}
	byKey := map[key]*CaseResult{}
	for _, cr := range results {
		if cr != nil {
			byKey[key{cr.Case, cr.Model}] = cr
		}
	}
	m := &Matrix{Models: models}
	k := len(models)
	sums := make([]ranSamples, k)
	m.Summary = make([]MatrixCell, k)
	for _, c := range cases {
		row := MatrixRow{Case: c}
		for j, model := range models {
			cr := byKey[key{c, model}]
			if cr == nil {
				row.Cells = append(row.Cells, MatrixCell{})
				continue
			}
			cell, ran := cellOf(cr)
			row.Cells = append(row.Cells, cell)
			m.Summary[j].addCell(cell)
			sums[j].times = append(sums[j].times, ran.times...)
			sums[j].tokens = append(sums[j].tokens, ran.tokens...)
		}
		m.Rows = append(m.Rows, row)
	}
	for j := range m.Summary {
		m.Summary[j].Ran = len(sums[j].times)
		m.Summary[j].MedianTime = median(sums[j].times)
		m.Summary[j].MedianOutputTokens = median(sums[j].tokens)
	}
	return m
}

// ranSamples are the durations and output token counts of the samples
// that ran without an error, for a cell's medians.
type ranSamples struct {
	times  []time.Duration
	tokens []int
}

// cellOf is the matrix cell of the case result cr, and its samples that
// ran.
func cellOf(cr *CaseResult) (MatrixCell, ranSamples) {
	var a ranSamples
	cell := MatrixCell{Status: cr.Status, Passed: cr.Passed, Samples: len(cr.Samples), Cases: 1}
	if cr.Status == Pass {
		cell.CasesPassed = 1
	}
	for _, s := range cr.Samples {
		if s != nil && s.Ran() && s.Status != Error {
			a.times = append(a.times, s.Duration)
			n, _ := s.OutputTokens()
			a.tokens = append(a.tokens, n)
		}
	}
	cell.Ran = len(a.times)
	cell.MedianTime, cell.MedianOutputTokens = median(a.times), median(a.tokens)
	return cell, a
}

// addCell counts cell in the summary cell sum: its samples and cases,
// and the worst status.
func (sum *MatrixCell) addCell(cell MatrixCell) {
	sum.Passed += cell.Passed
	sum.Samples += cell.Samples
	sum.Cases++
	sum.CasesPassed += cell.CasesPassed
	if sum.Status == "" || cell.Status.rank() > sum.Status.rank() {
		sum.Status = cell.Status
	}
}

// Table is the matrix as rows of plain cells, each with the status that
// colours it: a header row (model names), a row per case, and the
// summary row ("all cases"). Texts are escaped for a terminal.
func (m *Matrix) Table() [][]TableCell {
	head := []TableCell{{Text: "matrix"}}
	for _, name := range m.Models {
		head = append(head, TableCell{Text: termsafe.Escape(name)})
	}
	out := [][]TableCell{head}
	for _, r := range m.Rows {
		row := []TableCell{{Text: termsafe.Escape(r.Case.Name)}}
		for _, c := range r.Cells {
			row = append(row, TableCell{Text: c.CellText(), Status: c.Status})
		}
		out = append(out, row)
	}
	sum := []TableCell{{Text: "all cases"}}
	for _, c := range m.Summary {
		sum = append(sum, TableCell{Text: summaryCellText(c), Status: c.Status})
	}
	return append(out, sum)
}

// TableCell is one cell of Matrix.Table.
type TableCell struct {
	Text   string
	Status Status
}

// median is the middle value (the mean of the two middle ones for an
// even count); zero for none.
func median[T int | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// CellText is a cell as the text report prints it: "2/3 1.20s 310 tok"
// (samples passed, median time, median output tokens); a cell whose case
// did not run says its status ("stale"), or "not run" (MatrixCell.NotRun); a cell
// still running is "…".
func (c MatrixCell) CellText() string {
	if c.NotRun {
		return NotRun
	}
	if c.Status == "" {
		return "…"
	}
	if c.Ran == 0 && c.Status != Pass && c.Status != Fail && c.Status != "" {
		return fmt.Sprintf("%d/%d %s", c.Passed, c.Samples, c.Status)
	}
	return fmt.Sprintf("%d/%d %s %d tok", c.Passed, c.Samples, FormatDuration(c.MedianTime), c.MedianOutputTokens)
}

// matrixText writes the matrix as a table: a row per case, a column per
// model, and the summary row, each cell "passed/samples median-time
// median-tokens".
func (p *TextPrinter) matrixText(m *Matrix) {
	rows := m.Table()
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], len([]rune(c.Text)))
		}
	}
	widths[0] = min(widths[0], 40)
	for i, row := range rows {
		line := ""
		for j, c := range row {
			text := c.Text + strings.Repeat(" ", max(widths[j]-len([]rune(c.Text)), 0))
			switch {
			case i == 0:
				text = p.style(ansiBold, text)
			case j > 0 && c.Status != "":
				text = p.style(statusStyle(c.Status), text)
			}
			line += "  " + text
		}
		fmt.Fprintln(p.w, strings.TrimRight(line, " "))
	}
}

// summaryCellText is a summary cell: "1/2 cases 3/6 1.20s 310 tok".
func summaryCellText(c MatrixCell) string {
	return fmt.Sprintf("%d/%d cases %s", c.CasesPassed, c.Cases, c.CellText())
}
