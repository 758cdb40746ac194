package route

import (
	"io"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/eval/report"
)

// Reports returns the report of results in every format (report.Writers):
// Text, JSON, JUnit, GitHub and HTML. Paths are shown relative to dir;
// generated (when not zero) heads the HTML page, took closes the text and
// HTML summaries.
func Reports(results []*SuiteResult, c *lint.Catalog, dir string, generated time.Time, took time.Duration) report.Writers {
	return report.Writers{
		report.Text:   func(w io.Writer) error { return WriteText(w, results, c, dir, took) },
		report.JSON:   func(w io.Writer) error { return WriteJSON(w, results, c) },
		report.JUnit:  func(w io.Writer) error { return WriteJUnit(w, results, dir) },
		report.GitHub: func(w io.Writer) error { return WriteGitHub(w, results, dir) },
		report.HTML:   func(w io.Writer) error { return WriteHTML(w, results, c, dir, generated, took) },
	}
}
