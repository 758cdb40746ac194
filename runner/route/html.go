package route

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	rsuite "github.com/agentdesk/agentdesk/runner/suite"
)

type htmlRoutePage struct {
	Style     template.CSS
	Summary   string
	OK        bool
	At        string
	Suites    []htmlRouteSuite
	Confusion *Confusion
	Confused  []Confused
	Static    string
}

type htmlRouteSuite struct {
	Path, Audience string
	Findings       []string
	Chart          template.HTML
	Cases          []htmlRouteCase
}

type htmlRouteCase struct {
	Name, Request, Expect, Status, Class, Message, Time string
	Agreed, Total                                       int
	Samples                                             []htmlRouteSample
}

type htmlRouteSample struct {
	N                          int
	Pick, Text, RunDir, Failed string
}

var routeHTML = template.Must(template.New("route").Funcs(template.FuncMap{"clean": termsafe.EscapeLines}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentdesk route report</title><style>{{.Style}}</style></head>
<body>
<h1>agentdesk route</h1>
<p class="summary {{if .OK}}ok{{else}}bad{{end}}">{{.Summary}}</p>
{{if .Static}}<p class="dim">Static: {{.Static}}</p>{{end}}
{{range .Suites}}<section class="suite">
<h2>{{clean .Path}} <small>audience {{clean .Audience}}</small></h2>
{{range .Findings}}<p class="error">{{.}}</p>{{end}}
{{if .Chart}}<h3>Samples that picked the expected agent, per case</h3>{{.Chart}}{{end}}
<h3>Cases</h3>
<table class="cases"><thead><tr><th>status</th><th>case</th><th>expect</th><th class="num">agreed</th><th class="num">time</th><th>why</th></tr></thead><tbody>
{{range .Cases}}<tr><td class="badge {{.Class}}">{{.Status}}</td><td>{{clean .Name}}</td><td>{{clean .Expect}}</td><td class="num">{{.Agreed}}/{{.Total}}</td><td class="num">{{.Time}}</td><td>{{clean .Message}}</td></tr>
{{end}}</tbody></table>
{{range .Cases}}<details{{if ne .Status "pass"}} open{{end}}><summary><span class="badge {{.Class}}">{{.Status}}</span> {{clean .Name}} <small>expects {{clean .Expect}}</small></summary>
<p class="dim">request</p><pre>{{clean .Request}}</pre>
{{range .Samples}}<div class="sample"><b>sample {{.N}}</b>: {{clean .Pick}}{{if .Failed}} <span class="error">{{clean .Failed}}</span>{{end}}
{{if .Text}}<pre>{{clean .Text}}</pre>{{end}}{{if .RunDir}}<p class="dim">run folder: {{clean .RunDir}}</p>{{end}}</div>
{{end}}</details>{{end}}
</section>{{end}}
{{with .Confusion}}{{if .Expected}}<h2>Confusion</h2><p class="dim">Rows: the agent expected; columns: the one picked; cells: samples.</p>
<table class="confusion"><thead><tr><th>expected \ picked</th>{{range .Picked}}<th class="num">{{clean .}}</th>{{end}}</tr></thead><tbody>
{{range $i, $e := .Expected}}<tr><th>{{clean $e}}</th>{{range index $.Confusion.Counts $i}}<td class="num">{{if .}}{{.}}{{else}}·{{end}}</td>{{end}}</tr>{{end}}
</tbody></table>{{end}}{{end}}
{{range .Confused}}<h3>Confused: {{clean .A}} and {{clean .B}}</h3><p class="dim">Sharpen these descriptions so each says what the other does not.</p>
<table><thead><tr><th>{{clean .A}}</th><th>{{clean .B}}</th></tr></thead><tbody><tr><td>{{clean .DescriptionA}}</td><td>{{clean .DescriptionB}}</td></tr></tbody></table>{{end}}
<p class="dim">Made by agentdesk at {{.At}}.</p>
</body></html>
`))

// WriteHTML writes routing results as one self-contained HTML page: the
// summary, per suite a chart of the samples that picked the expected
// agent per case, the cases with each sample's pick, the confusion table
// and the confused pairs. Everything from a file or a model is escaped;
// the page fetches nothing. dir is the folder paths are shown relative to.
func WriteHTML(w io.Writer, results []*SuiteResult, c *lint.Catalog, dir string, took time.Duration) error {
	s := Summarize(results)
	page := htmlRoutePage{Style: template.CSS(rsuite.HTMLStyle), Summary: fmt.Sprintf("%s in %s", s.Counts, rsuite.FormatDuration(took)), OK: s.OK(),
		At: time.Now().UTC().Format(time.RFC3339)}
	static := false
	for _, sr := range results {
		static = static || sr.Static
		hs := htmlRouteSuite{Path: shown(sr.Suite.Path, dir), Audience: audienceShown(sr)}
		for _, d := range allFindings(sr) {
			hs.Findings = append(hs.Findings, termsafe.EscapeLines(fmt.Sprintf("%d:%d: %s [%s]", d.Pos.Line, d.Pos.Column, d.Message, d.Rule)))
		}
		var bars []rsuite.Bar
		for _, r := range sr.Cases {
			class := strings.ReplaceAll(string(r.Status), " ", "-")
			hc := htmlRouteCase{Name: r.Case.Name, Request: r.Case.Request, Expect: r.Case.Expect, Status: string(r.Status), Class: class,
				Message: r.Message, Agreed: r.Agreed, Total: len(r.Samples)}
			if r.Duration > 0 {
				hc.Time = rsuite.FormatDuration(r.Duration)
			}
			for _, smp := range r.Samples {
				hsmp := htmlRouteSample{N: smp.N, Pick: smp.Pick.Label(), Text: smp.Pick.Text, RunDir: smp.Run.Dir}
				if smp.Pick.Error != "" {
					hsmp.Failed = smp.Pick.Error
				}
				hc.Samples = append(hc.Samples, hsmp)
			}
			hs.Cases = append(hs.Cases, hc)
			if len(r.Samples) > 0 {
				bars = append(bars, rsuite.Bar{Label: r.Case.Name, Rate: r.Rate(), Class: class})
			}
		}
		hs.Chart = rsuite.BarChart("samples that picked the expected agent, per case of "+hs.Path, bars)
		page.Suites = append(page.Suites, hs)
	}
	if static {
		page.Static = staticNote
	} else {
		page.Confusion, page.Confused = Confusions(results, c)
	}
	bw := bufio.NewWriter(w)
	if err := routeHTML.Execute(bw, page); err != nil {
		return fmt.Errorf("write the HTML report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the HTML report: %w", err)
	}
	return nil
}
