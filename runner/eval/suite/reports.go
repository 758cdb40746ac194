package suite

import (
	"io"

	"github.com/agentdesk/agentdesk/runner/eval/evalreport"
)

// Reports returns the report of results in every format (evalreport.Writers):
// Text, JSON, JUnit, GitHub and HTML. o.Generated and o.Took are shown by
// the text summary and the HTML page.
func Reports(rs []*SuiteResult, o HTMLOptions) evalreport.Writers {
	return evalreport.Writers{
		evalreport.Text:   func(w io.Writer) error { return Text(w, rs, o.Took, o.ReportOptions) },
		evalreport.JSON:   func(w io.Writer) error { return JSON(w, rs, o.ReportOptions) },
		evalreport.JUnit:  func(w io.Writer) error { return JUnit(w, rs, o.ReportOptions) },
		evalreport.GitHub: func(w io.Writer) error { return GitHub(w, rs, o.ReportOptions) },
		evalreport.HTML:   func(w io.Writer) error { return HTML(w, rs, o) },
	}
}
