package suite

import (
	"io"

	"github.com/agentdesk/agentdesk/runner/eval/report"
)

// Reports returns the report of results in every format (report.Writers):
// Text, JSON, JUnit, GitHub and HTML. o.Generated and o.Took are shown by
// the text summary and the HTML page.
func Reports(rs []*SuiteResult, o HTMLOptions) report.Writers {
	return report.Writers{
		report.Text:   func(w io.Writer) error { return Text(w, rs, o.Took, o.ReportOptions) },
		report.JSON:   func(w io.Writer) error { return JSON(w, rs, o.ReportOptions) },
		report.JUnit:  func(w io.Writer) error { return JUnit(w, rs, o.ReportOptions) },
		report.GitHub: func(w io.Writer) error { return GitHub(w, rs, o.ReportOptions) },
		report.HTML:   func(w io.Writer) error { return HTML(w, rs, o) },
	}
}
