package suite

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/eval/evalhtml"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// HTMLOptions say how the HTML report is made.
type HTMLOptions struct {
	ReportOptions
	// Generated is when the report was made (shown in its head; none
	// when zero).
	Generated time.Time
	// Took is the run's wall time (in the summary; none when 0).
	Took time.Duration
}

// HTML writes results as one self-contained HTML page (no script, no
// fetch: a Content-Security-Policy of default-src 'none'): the summary, a
// chart of pass rate per case (and per model for a matrix), the matrix,
// and every case with its samples, their failures, the judge's reason and
// a transcript (task, context, tool calls with results, output). Every
// text is escaped by html/template.
func HTML(w io.Writer, rs []*SuiteResult, o HTMLOptions) error {
	sum := Summarize(rs)
	page := htmlPage{Page: evalhtml.NewPage("agentdesk test report", o.Generated), OK: sum.OK(), Line: sum.line(o.Took), Summary: sum}
	for _, r := range rs {
		page.Suites = append(page.Suites, htmlSuiteOf(r, o.ReportOptions, len(page.Suites)))
	}
	return testHTML.Execute(w, page)
}

type htmlPage struct {
	evalhtml.Page
	OK      bool
	Line    string
	Summary Summary
	Suites  []htmlSuite
}

type htmlSuite struct {
	ID, Path, Agent, Status, Err string
	Findings                     []htmlFinding
	Chart, ModelChart            *evalhtml.Chart
	Matrix                       *htmlMatrix
	Cases                        []htmlCase
}

type htmlFinding struct{ Loc, Severity, Message, Hint, Rule string }

type htmlMatrix struct {
	Models  []string
	Rows    []htmlMatrixRow
	Summary []htmlCell
}

type htmlMatrixRow struct {
	Case  string
	Cells []htmlCell
}

type htmlCell struct{ Text, Class string }

type htmlCase struct {
	ID, Title, Status, Message, Duration string
	Passed, Samples                      int
	Line                                 int
	Task, Context                        string
	Vars                                 []string
	Runs                                 []htmlSample
}

type htmlSample struct {
	N                                                   int
	Status, How, Outcome, Reason, Duration, Output, Err string
	RunDir, Recording                                   string
	Failures                                            []Failure
	Verdict                                             *Verdict
	Changes                                             []string
	Tools                                               []htmlTool
}

type htmlTool struct {
	Name, Arguments, Result, Label string
	Error, Answered                bool
}

func htmlSuiteOf(r *SuiteResult, o ReportOptions, i int) htmlSuite {
	s := htmlSuite{ID: fmt.Sprintf("suite-%d", i+1), Path: o.shown(r.Suite.Path), Agent: r.Suite.Agent, Status: string(r.Status()), Err: r.Err}
	for _, d := range r.Findings {
		sev := "error"
		if d.Severity == lint.Warning {
			sev = "warning"
		}
		loc := o.shown(d.Path)
		if d.Line > 0 {
			loc += fmt.Sprintf(":%d:%d", d.Line, d.Column)
		}
		s.Findings = append(s.Findings, htmlFinding{Loc: loc, Severity: sev, Message: d.Message, Hint: d.Hint, Rule: d.Rule})
	}
	var bars []evalhtml.Bar
	for j, c := range r.Cases {
		bars = append(bars, evalhtml.Bar{Label: c.Title(), Rate: rate(c.Passed, len(c.Samples)), Text: fmt.Sprintf("%d/%d", c.Passed, len(c.Samples)), Status: string(c.Status)})
		s.Cases = append(s.Cases, htmlCaseOf(c, fmt.Sprintf("%s-case-%d", s.ID, j+1)))
	}
	s.Chart = evalhtml.NewChart("Pass rate per case", bars)
	if m := r.Matrix(); m != nil {
		hm := &htmlMatrix{Models: m.Models}
		for _, row := range m.Rows {
			hr := htmlMatrixRow{Case: row.Case.Name}
			for _, c := range row.Cells {
				class := evalhtml.StatusClass(string(c.Status))
				if c.NotRun {
					class = "not-run" // no colour: nothing ran
				}
				hr.Cells = append(hr.Cells, htmlCell{Text: c.CellText(), Class: class})
			}
			hm.Rows = append(hm.Rows, hr)
		}
		var mbars []evalhtml.Bar
		for j, c := range m.Summary {
			hm.Summary = append(hm.Summary, htmlCell{Text: summaryCellText(c), Class: evalhtml.StatusClass(string(c.Status))})
			mbars = append(mbars, evalhtml.Bar{Label: m.Models[j], Rate: c.PassRate(), Text: fmt.Sprintf("%d/%d samples, %d/%d cases", c.Passed, c.Samples, c.CasesPassed, c.Cases), Status: string(c.Status)})
		}
		s.Matrix = hm
		s.ModelChart = evalhtml.NewChart("Pass rate per model", mbars)
	}
	return s
}

func rate(passed, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(passed) / float64(of)
}

func htmlCaseOf(c *CaseResult, id string) htmlCase {
	hc := htmlCase{ID: id, Title: c.Title(), Status: string(c.Status), Message: c.Message, Passed: c.Passed, Samples: len(c.Samples),
		Line: c.Case.Pos.Line, Task: c.Case.Task, Context: c.Case.Context}
	if c.Duration > 0 {
		hc.Duration = FormatDuration(c.Duration)
	}
	if c.Case.ContextFile != "" && hc.Context == "" {
		hc.Context = "(read from " + c.Case.ContextFile + ")"
	}
	for k, v := range c.Case.Vars {
		hc.Vars = append(hc.Vars, k+" = "+v)
	}
	sort.Strings(hc.Vars)
	for _, smp := range c.Samples {
		if smp == nil {
			continue
		}
		hs := htmlSample{N: smp.N, Status: string(smp.Status), How: ranHow(smp), Outcome: smp.Outcome, Reason: smp.Reason, Output: smp.Output, Err: smp.Err,
			RunDir: smp.RunDir, Recording: smp.Recording, Failures: smp.Failures, Verdict: smp.Verdict, Changes: smp.StaleBecause, Tools: htmlTools(smp.ToolCalls)}
		if smp.Duration > 0 {
			hs.Duration = FormatDuration(smp.Duration)
		}
		hc.Runs = append(hc.Runs, hs)
	}
	return hc
}

// htmlTools are tool calls as the transcript shows them.
func htmlTools(calls []runfolder.ToolCall) []htmlTool {
	var out []htmlTool
	for _, tc := range calls {
		t := htmlTool{Name: tc.Name, Arguments: tc.Arguments}
		if tc.Result != nil {
			t.Answered, t.Result, t.Error, t.Label = true, tc.Result.Text, tc.Result.Error, tc.Result.Label
		}
		out = append(out, t)
	}
	return out
}

var testHTML = template.Must(template.New("page").Funcs(evalhtml.Funcs()).Parse(evalhtml.Base + `{{template "head" .Page}}
<main>
<div class="banner {{if .OK}}pass{{else}}fail{{end}}">{{if .OK}}Every case passed{{else}}Not every case passed{{end}}: {{.Line}}</div>
<section class="summary">
<div><b>{{.Summary.Cases}}</b>cases</div>
<div><b>{{.Summary.Passed}}</b>passed</div>
<div><b>{{.Summary.Failed}}</b>failed</div>
<div><b>{{.Summary.Stale}}</b>stale</div>
<div><b>{{.Summary.Unrecorded}}</b>not recorded</div>
<div><b>{{.Summary.Errors}}</b>errors</div>
<div><b>{{.Summary.Samples}}</b>samples</div>
<div><b>{{.Summary.Suites}}</b>suite files{{if .Summary.Broken}} ({{.Summary.Broken}} could not run){{end}}</div>
</section>
{{range .Suites}}<section class="suite" id="{{.ID}}">
<h2>{{template "badge" .Status}} {{.Path}} <span class="dim">(agent {{.Agent}})</span></h2>
{{if .Err}}<p class="failure">{{.Err}}</p>{{end}}
{{if .Findings}}<ul class="findings">{{range .Findings}}<li><code>{{.Loc}}</code> {{.Severity}}: {{.Message}} <span class="dim">[{{.Rule}}]</span>{{if .Hint}}<br><span class="dim">hint: {{.Hint}}</span>{{end}}</li>{{end}}</ul>{{end}}
{{template "chart" .Chart}}
{{if .Matrix}}<h3>Models side by side</h3>
<table class="matrix"><thead><tr><th>case</th>{{range .Matrix.Models}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Matrix.Rows}}<tr><td>{{.Case}}</td>{{range .Cells}}<td class="cell {{.Class}}">{{.Text}}</td>{{end}}</tr>{{end}}
<tr><th>all cases</th>{{range .Matrix.Summary}}<td class="cell {{.Class}}">{{.Text}}</td>{{end}}</tr></tbody></table>
{{template "chart" .ModelChart}}{{end}}
{{if .Cases}}<table class="cases"><thead><tr><th>status</th><th>case</th><th class="num">passed</th><th class="num">time</th><th>why</th></tr></thead><tbody>
{{range .Cases}}<tr><td>{{template "badge" .Status}}</td><td><a href="#{{.ID}}">{{.Title}}</a></td><td class="num">{{.Passed}}/{{.Samples}}</td><td class="num">{{.Duration}}</td><td>{{.Message}}</td></tr>
{{end}}</tbody></table>{{end}}
{{range .Cases}}<details id="{{.ID}}"{{if ne .Status "pass"}} open{{end}}>
<summary>{{template "badge" .Status}} <b>{{.Title}}</b> <span class="dim">{{.Passed}}/{{.Samples}} samples{{if .Duration}}, {{.Duration}}{{end}}{{if .Line}}, line {{.Line}}{{end}}</span></summary>
<div>
{{if .Message}}<p class="failure">{{.Message}}</p>{{end}}
{{if .Vars}}<p class="dim">from the row: {{range $i, $v := .Vars}}{{if $i}}; {{end}}{{$v}}{{end}}</p>{{end}}
<h3>Task</h3><pre>{{.Task}}</pre>
{{if .Context}}<h3>Context</h3><pre>{{.Context}}</pre>{{end}}
{{range .Runs}}<details class="sample"{{if ne .Status "pass"}} open{{end}}>
<summary>{{template "badge" .Status}} sample {{.N}} <span class="dim">{{.How}}{{if .Outcome}} · {{.Outcome}}{{if .Reason}} ({{.Reason}}){{end}}{{end}}{{if .Duration}} · {{.Duration}}{{end}}</span></summary>
<div>
{{if .Err}}<p class="failure">{{.Err}}</p>{{end}}
{{range .Changes}}<p class="failure">changed since the recording: {{.}}</p>{{end}}
{{if .Failures}}<ul>{{range .Failures}}<li class="failure"><b>{{.Expect}}</b>: {{.Message}}{{if .Lines}}<pre>{{range .Lines}}{{.}}
{{end}}</pre>{{end}}</li>{{end}}</ul>{{end}}
{{with .Verdict}}<p><b>Judge:</b> {{if .Pass}}PASS{{else}}FAIL{{end}}: {{.Reason}}</p>{{end}}
{{if .Tools}}<h3>Tool calls</h3>{{range .Tools}}<div class="tool"><span class="name">{{.Name}}</span>{{if .Label}} <span class="dim">({{.Label}})</span>{{end}}<pre>{{.Arguments}}</pre>{{if .Answered}}<pre{{if .Error}} class="failure"{{end}}>{{.Result}}</pre>{{else}}<p class="dim">not answered</p>{{end}}</div>{{end}}{{end}}
{{if .Output}}<h3>Output</h3><pre>{{.Output}}</pre>{{end}}
{{if .RunDir}}<p class="dim">run folder: <code>{{.RunDir}}</code></p>{{end}}
{{if .Recording}}<p class="dim">recording: <code>{{.Recording}}</code></p>{{end}}
</div></details>
{{end}}</div></details>
{{end}}</section>
{{end}}</main>
</body>
</html>
`))

// ranHow is how a sample that ran came, "" for one that did not.
func ranHow(s *SampleResult) string {
	if !s.Ran() {
		return ""
	}
	return s.How
}
