package suite

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner"
)

// HTMLStyle is the style sheet of agentdesk's HTML reports (test and
// route), inlined in the page: the page fetches nothing.
const HTMLStyle = `
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--dim:#57606a;--line:#d0d7de;--bg:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:24px;color:#1f2328}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}small,.dim{color:var(--dim)}
table{border-collapse:collapse;margin:8px 0;width:100%}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--bg)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:var(--pass)}.fail,.error{color:var(--fail)}.stale,.not-recorded{color:var(--warn)}
.badge{font-weight:600;text-transform:uppercase;font-size:12px}
.summary{font-size:16px;font-weight:600;margin:8px 0 16px}.summary.ok{color:var(--pass)}.summary.bad{color:var(--fail)}
pre{background:var(--bg);border:1px solid var(--line);padding:8px;white-space:pre-wrap;word-break:break-word;margin:4px 0;max-height:420px;overflow:auto}
details{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:6px 0}summary{cursor:pointer}
.sample{border-top:1px dashed var(--line);margin-top:8px;padding-top:6px}
svg text{font:12px system-ui,sans-serif;fill:#1f2328}
`

// Bar is one bar of a chart: a label and a share from 0 to 1.
type Bar struct {
	Label string
	Rate  float64
	// Class colours the bar (a status: "pass", "fail", …).
	Class string
}

// BarChart draws bars of pass rates as inline SVG, one row a bar, each
// label and figure escaped.
func BarChart(title string, bars []Bar) template.HTML {
	if len(bars) == 0 {
		return ""
	}
	const labelW, barW, rowH = 280, 520, 22
	h := rowH*len(bars) + 8
	var b strings.Builder
	fmt.Fprintf(&b, `<svg role="img" aria-label="%s" width="%d" height="%d" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg">`,
		template.HTMLEscapeString(title), labelW+barW+60, h, labelW+barW+60, h)
	fmt.Fprintf(&b, `<title>%s</title>`, template.HTMLEscapeString(title))
	colors := map[string]string{"pass": "#1a7f37", "fail": "#cf222e", "error": "#cf222e", "stale": "#bf8700", "not-recorded": "#bf8700"}
	for i, bar := range bars {
		y := 4 + i*rowH
		label := []rune(clean(bar.Label))
		if len(label) > 40 {
			label = append(label[:39], '…')
		}
		rate := min(max(bar.Rate, 0), 1)
		color := colors[bar.Class]
		if color == "" {
			color = "#57606a"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, labelW-8, y+15, template.HTMLEscapeString(string(label)))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#eaeef2"/>`, labelW, y+3, barW, rowH-6)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`, labelW, y+3, rate*barW, rowH-6, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%.0f%%</text>`, labelW+barW+6, y+15, rate*100)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text in it is escaped above
}

// clean shows a model's or a file's control characters as escapes, so a
// report carries none (html/template escapes markup, not those).
func clean(s string) string { return termsafe.EscapeLines(s) }

// statusClass is a status as a CSS class.
func statusClass(s Status) string { return strings.ReplaceAll(string(s), " ", "-") }

// htmlPage is what the test report's template reads.
type htmlPage struct {
	Style   template.CSS
	Summary string
	OK      bool
	At      string
	Suites  []htmlSuite
}

type htmlSuite struct {
	Path, Agent string
	Findings    []string
	Chart       template.HTML
	ModelChart  template.HTML
	Matrix      [][]TableCell
	Cases       []htmlCase
}

type htmlCase struct {
	Title, Status, Class, Message, Time string
	Passed, Total                       int
	Samples                             []htmlSample
}

type htmlSample struct {
	N                                            int
	Status, Class, How, Outcome, Reason, Err     string
	Time, Output, RunDir, Recording, JudgeReason string
	JudgePass                                    bool
	Judged                                       bool
	Tokens                                       int
	Failures                                     []Failure
	Tools                                        []htmlTool
	Changes                                      []string
}

type htmlTool struct {
	Name, Arguments, Result, Note string
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"clean": clean}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentdesk test report</title><style>{{.Style}}</style></head>
<body>
<h1>agentdesk test</h1>
<p class="summary {{if .OK}}ok{{else}}bad{{end}}">{{.Summary}}</p>
{{range .Suites}}<section class="suite">
<h2>{{clean .Path}} <small>agent {{clean .Agent}}</small></h2>
{{range .Findings}}<p class="error">{{.}}</p>{{end}}
{{if .Chart}}<h3>Pass rate per case</h3>{{.Chart}}{{end}}
{{if .Matrix}}<h3>Models side by side</h3>
<table class="matrix"><thead><tr>{{range index .Matrix 0}}<th>{{.Text}}</th>{{end}}</tr></thead><tbody>
{{range $i, $row := .Matrix}}{{if $i}}<tr>{{range $j, $c := $row}}{{if $j}}<td class="num {{$c.Status}}">{{$c.Text}}</td>{{else}}<th>{{$c.Text}}</th>{{end}}{{end}}</tr>{{end}}{{end}}
</tbody></table>
<p class="dim">Each cell: samples passed / samples, median time, median output tokens.</p>
{{if .ModelChart}}<h3>Pass rate per model</h3>{{.ModelChart}}{{end}}{{end}}
<h3>Cases</h3>
<table class="cases"><thead><tr><th>status</th><th>case</th><th class="num">passed</th><th class="num">time</th><th>why</th></tr></thead><tbody>
{{range .Cases}}<tr><td class="badge {{.Class}}">{{.Status}}</td><td>{{clean .Title}}</td><td class="num">{{.Passed}}/{{.Total}}</td><td class="num">{{.Time}}</td><td>{{clean .Message}}</td></tr>
{{end}}</tbody></table>
{{range .Cases}}<details{{if ne .Status "pass"}} open{{end}}><summary><span class="badge {{.Class}}">{{.Status}}</span> {{clean .Title}} <small>{{.Passed}}/{{.Total}}</small></summary>
{{range .Samples}}<div class="sample"><b>sample {{.N}}</b> <span class="badge {{.Class}}">{{.Status}}</span>
<small>{{.How}}{{if .Outcome}} · {{.Outcome}}{{end}}{{if .Reason}} · {{.Reason}}{{end}}{{if .Time}} · {{.Time}}{{end}}{{if .Tokens}} · {{.Tokens}} output tokens{{end}}</small>
{{if .Err}}<p class="error">{{clean .Err}}</p>{{end}}
{{range .Changes}}<p class="stale">changed since the recording: {{clean .}}</p>{{end}}
{{range .Failures}}<p class="fail">{{clean .Expect}}: {{clean .Message}}</p>{{range .Lines}}<pre>{{clean .}}</pre>{{end}}{{end}}
{{if .Judged}}<p class="{{if .JudgePass}}pass{{else}}fail{{end}}">judge: {{if .JudgePass}}PASS{{else}}FAIL{{end}}: {{clean .JudgeReason}}</p>{{end}}
{{if .Tools}}<table class="tools"><thead><tr><th>tool call</th><th>arguments</th><th>result</th></tr></thead><tbody>
{{range .Tools}}<tr><td>{{clean .Name}}{{if .Note}} <small>{{.Note}}</small>{{end}}</td><td><pre>{{clean .Arguments}}</pre></td><td><pre>{{clean .Result}}</pre></td></tr>{{end}}
</tbody></table>{{end}}
{{if .Output}}<p class="dim">output</p><pre>{{clean .Output}}</pre>{{end}}
{{if .RunDir}}<p class="dim">run folder: {{clean .RunDir}}</p>{{end}}{{if .Recording}}<p class="dim">recording: {{clean .Recording}}</p>{{end}}
</div>{{end}}
</details>{{end}}
</section>{{end}}
<p class="dim">Made by agentdesk at {{.At}}.</p>
</body></html>
`))

// HTML writes the results as one self-contained HTML page: the summary,
// per suite a chart of pass rate per case, the matrix of a run on
// several models (and a chart per model), the cases, and each case's
// samples with their output, tool calls, failures and judge reason.
// Everything from a file or a model is escaped; the page fetches nothing.
func HTML(w io.Writer, rs []*SuiteResult, took time.Duration, o ReportOptions) error {
	sum := Summarize(rs)
	line := sum.String()
	if took > 0 {
		line += " in " + FormatDuration(took)
	}
	page := htmlPage{Style: template.CSS(HTMLStyle), Summary: line, OK: sum.OK(), At: time.Now().UTC().Format(time.RFC3339)}
	for _, r := range rs {
		hs := htmlSuite{Path: o.shown(r.Suite.Path), Agent: r.Suite.Agent}
		for _, d := range r.Findings {
			hs.Findings = append(hs.Findings, clean(fmt.Sprintf("%d:%d: %s [%s]", d.Line, d.Column, d.Message, d.Rule)))
		}
		var bars []Bar
		for _, c := range r.Cases {
			rate := 0.0
			if len(c.Samples) > 0 {
				rate = float64(c.Passed) / float64(len(c.Samples))
			}
			bars = append(bars, Bar{Label: c.Title(), Rate: rate, Class: statusClass(c.Status)})
			hs.Cases = append(hs.Cases, htmlCaseOf(c))
		}
		hs.Chart = BarChart("pass rate per case of "+hs.Path, bars)
		if m := r.Matrix(); m != nil {
			hs.Matrix = m.Table()
			for i := range hs.Matrix {
				for j := range hs.Matrix[i] {
					hs.Matrix[i][j].Status = Status(statusClass(hs.Matrix[i][j].Status))
				}
			}
			var mbars []Bar
			for j, name := range m.Models {
				mbars = append(mbars, Bar{Label: name, Rate: m.Summary[j].PassRate(), Class: statusClass(m.Summary[j].Status)})
			}
			hs.ModelChart = BarChart("pass rate per model of "+hs.Path, mbars)
		}
		page.Suites = append(page.Suites, hs)
	}
	bw := bufio.NewWriter(w)
	if err := htmlTemplate.Execute(bw, page); err != nil {
		return fmt.Errorf("write the HTML report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the HTML report: %w", err)
	}
	return nil
}

// htmlCaseOf is a case as the page shows it.
func htmlCaseOf(c *CaseResult) htmlCase {
	hc := htmlCase{Title: c.Title(), Status: string(c.Status), Class: statusClass(c.Status), Message: c.Message, Passed: c.Passed, Total: len(c.Samples)}
	if c.Duration > 0 {
		hc.Time = FormatDuration(c.Duration)
	}
	for _, s := range c.Samples {
		if s == nil {
			continue
		}
		hs := htmlSample{N: s.N, Status: string(s.Status), Class: statusClass(s.Status), How: s.How, Outcome: s.Outcome, Reason: s.Reason, Err: s.Err,
			Output: s.Output, RunDir: s.RunDir, Recording: s.Recording, Tokens: s.OutputTokens, Failures: s.Failures, Changes: s.Changes}
		if s.Duration > 0 {
			hs.Time = FormatDuration(s.Duration)
		}
		if s.Verdict != nil {
			hs.Judged, hs.JudgePass, hs.JudgeReason = true, s.Verdict.Pass, s.Verdict.Reason
		}
		for _, tc := range s.ToolCalls {
			hs.Tools = append(hs.Tools, htmlToolOf(tc))
		}
		hc.Samples = append(hc.Samples, hs)
	}
	return hc
}

// htmlToolOf is a tool call as the page shows it.
func htmlToolOf(tc runner.ToolCall) htmlTool {
	t := htmlTool{Name: tc.Name, Arguments: tc.Arguments}
	switch r := tc.Result; {
	case r == nil:
		t.Note = "never answered"
	default:
		t.Result = r.Text
		switch {
		case r.Refused:
			t.Note = "refused"
		case r.Error:
			t.Note = "error"
		case r.Cut:
			t.Note = "cut"
		}
	}
	return t
}
