package route

import (
	"io"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/eval/evalreport"
)

// Reports returns the report of results in every format (evalreport.Writers):
// Text, JSON, JUnit, GitHub and HTML. Paths are shown relative to dir;
// generated (when not zero) heads the HTML page, took closes the text and
// HTML summaries.
func Reports(results []*SuiteResult, c *lint.Catalog, dir string, generated time.Time, took time.Duration) evalreport.Writers {
	return evalreport.Writers{
		evalreport.Text:   func(w io.Writer) error { return WriteText(w, results, c, dir, took) },
		evalreport.JSON:   func(w io.Writer) error { return WriteJSON(w, results, c) },
		evalreport.JUnit:  func(w io.Writer) error { return WriteJUnit(w, results, dir) },
		evalreport.GitHub: func(w io.Writer) error { return WriteGitHub(w, results, dir) },
		evalreport.HTML:   func(w io.Writer) error { return WriteHTML(w, results, c, dir, generated, took) },
	}
}
