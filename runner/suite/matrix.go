package suite

import (
	"fmt"
	"slices"
	"strings"
	"time"

	lintsuite "github.com/agentdesk/agentdesk/lint/suite"
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
	Case  *lintsuite.Case
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
}

// PassRate is the share of samples that passed (0 with no samples).
func (c MatrixCell) PassRate() float64 {
	if c.Samples == 0 {
		return 0
	}
	return float64(c.Passed) / float64(c.Samples)
}

// Matrix returns the suite's matrix, or nil when its cases did not run on
// several models.
func (r *SuiteResult) Matrix() *Matrix {
	if len(r.Models) == 0 {
		return nil
	}
	m := &Matrix{}
	for _, mc := range r.Models {
		m.Models = append(m.Models, mc.Name)
	}
	k := len(m.Models)
	type acc struct {
		times  []time.Duration
		tokens []int
	}
	sums := make([]acc, k)
	m.Summary = make([]MatrixCell, k)
	for i := 0; i+k <= len(r.Cases); i += k {
		row := MatrixRow{Case: r.Cases[i].Case}
		for j := 0; j < k; j++ {
			cr := r.Cases[i+j]
			var a acc
			cell := MatrixCell{Status: cr.Status, Passed: cr.Passed, Samples: len(cr.Samples), Cases: 1}
			if cr.Status == Pass {
				cell.CasesPassed = 1
			}
			for _, s := range cr.Samples {
				if s != nil && s.How != "" && s.Status != Error {
					a.times = append(a.times, s.Duration)
					a.tokens = append(a.tokens, s.OutputTokens)
				}
			}
			cell.Ran = len(a.times)
			cell.MedianTime, cell.MedianOutputTokens = median(a.times), median(a.tokens)
			row.Cells = append(row.Cells, cell)
			sum := &m.Summary[j]
			sum.Passed += cell.Passed
			sum.Samples += cell.Samples
			sum.Cases++
			sum.CasesPassed += cell.CasesPassed
			if sum.Status == "" || cell.Status.rank() > sum.Status.rank() {
				sum.Status = cell.Status
			}
			sums[j].times = append(sums[j].times, a.times...)
			sums[j].tokens = append(sums[j].tokens, a.tokens...)
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
// did not run says its status ("stale").
func (c MatrixCell) CellText() string {
	if c.Ran == 0 && c.Status != Pass && c.Status != Fail && c.Status != "" {
		return fmt.Sprintf("%d/%d %s", c.Passed, c.Samples, c.Status)
	}
	return fmt.Sprintf("%d/%d %s %d tok", c.Passed, c.Samples, FormatDuration(c.MedianTime), c.MedianOutputTokens)
}

// matrixText writes the matrix as a table: a row per case, a column per
// model, and the summary row, each cell "passed/samples median-time
// median-tokens".
func (p *TextPrinter) matrixText(m *Matrix) {
	w := p.w
	nameW := len("all cases")
	for _, r := range m.Rows {
		nameW = max(nameW, len([]rune(termsafe.Escape(r.Case.Name))))
	}
	nameW = min(nameW, 40)
	colW := make([]int, len(m.Models))
	for j, name := range m.Models {
		colW[j] = len([]rune(termsafe.Escape(name)))
		for _, r := range m.Rows {
			colW[j] = max(colW[j], len(r.Cells[j].CellText()))
		}
		colW[j] = max(colW[j], len(summaryCellText(m.Summary[j])))
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", max(n-len([]rune(s)), 0)) }
	head := "  " + pad("matrix", nameW)
	for j, name := range m.Models {
		head += "  " + pad(termsafe.Escape(name), colW[j])
	}
	fmt.Fprintln(w, p.style(ansiBold, strings.TrimRight(head, " ")))
	for _, r := range m.Rows {
		line := "  " + pad(termsafe.Escape(r.Case.Name), nameW)
		for j, c := range r.Cells {
			line += "  " + p.style(statusStyle(c.Status), pad(c.CellText(), colW[j]))
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	line := "  " + pad("all cases", nameW)
	for j, c := range m.Summary {
		line += "  " + p.style(statusStyle(c.Status), pad(summaryCellText(c), colW[j]))
	}
	fmt.Fprintln(w, strings.TrimRight(line, " "))
}

// summaryCellText is a summary cell: "1/2 cases 3/6 1.20s 310 tok".
func summaryCellText(c MatrixCell) string {
	return fmt.Sprintf("%d/%d cases %s", c.CasesPassed, c.Cases, c.CellText())
}
