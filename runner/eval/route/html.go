package route

import (
	"fmt"
	"html/template"
	"io"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/eval/evalhtml"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
)

// WriteHTML writes routing suites' results as one self-contained HTML
// page (no script, nothing fetched): the summary, a chart of agreement per
// case, each case with its samples (what the frontline did, its reply and
// tool calls), the confusion table and the pairs of agents confused with
// both descriptions. Every text is escaped by html/template. generated,
// when not zero, is shown in the head; dir is the folder paths are shown
// relative to.
func WriteHTML(w io.Writer, results []*SuiteResult, c *lint.Catalog, dir string, generated time.Time, took time.Duration) error {
	s := Summarize(results)
	line := s.Counts.String()
	if took > 0 {
		line += " in " + suite.FormatDuration(took)
	}
	page := routePage{Page: evalhtml.NewPage("agentdesk route report", generated), OK: s.OK(), Line: line, Summary: s}
	static := false
	for i, sr := range results {
		static = static || sr.Static
		page.Suites = append(page.Suites, routeSuiteOf(sr, dir, i))
	}
	if static {
		page.Static = staticNote
	} else {
		page.Confusion, page.Confused = Confusions(results, c)
	}
	return routeHTML.Execute(w, page)
}

type routePage struct {
	evalhtml.Page
	OK        bool
	Line      string
	Summary   Summary
	Suites    []routeSuiteView
	Confusion *Confusion
	Confused  []Confused
	Static    string
}

type routeSuiteView struct {
	ID, Path, Audience, Status string
	Findings                   []string
	Chart                      *evalhtml.Chart
	Cases                      []routeCaseView
}

type routeCaseView struct {
	ID, Name, Request, Expect, Status, Message, Failure, Rate string
	Agreed, Samples                                           int
	Distribution                                              []Share
	Runs                                                      []routeSampleView
}

type routeSampleView struct {
	N                                   int
	Label, Describe, Kind, Text, RunDir string
	// Badge is pass (it picked the expected agent), fail, or error (it
	// got no answer: not a pick).
	Badge  string
	Agreed bool
	Tools  []routeToolView
}

type routeToolView struct{ Name, Arguments, Result string }

func routeSuiteOf(sr *SuiteResult, dir string, i int) routeSuiteView {
	v := routeSuiteView{ID: fmt.Sprintf("route-suite-%d", i+1), Path: shown(sr.Suite.Path, dir), Audience: audienceShown(sr), Status: string(sr.Status())}
	for _, d := range allFindings(sr) {
		v.Findings = append(v.Findings, fmt.Sprintf("%d:%d: %s: %s [%s]", d.Line, d.Column, d.Severity, d.Message, d.Rule))
	}
	var bars []evalhtml.Bar
	for j, r := range sr.Cases {
		cv := routeCaseView{ID: fmt.Sprintf("%s-case-%d", v.ID, j+1), Name: r.Case.Name, Request: r.Case.Request, Expect: r.Case.Expect, Status: string(r.Status),
			Message: r.Message, Failure: r.Failure, Agreed: r.Agreed, Samples: len(r.Samples), Rate: evalhtml.Percent(r.Rate()), Distribution: Distribution(r.Samples)}
		for _, smp := range r.Samples {
			sv := routeSampleView{N: smp.N, Label: smp.Label(), Describe: smp.Describe(), Kind: string(smp.Pick.Kind), Text: smp.Run.Output,
				RunDir: smp.Run.Dir, Agreed: smp.Pick.Matches(r.Case.Expect), Badge: string(Fail)}
			switch {
			case smp.NoAnswer() != "":
				sv.Badge = string(Error)
			case sv.Agreed:
				sv.Badge = string(Pass)
			}
			for _, tc := range smp.Run.ToolCalls {
				tv := routeToolView{Name: tc.Name, Arguments: tc.Arguments}
				if tc.Result != nil {
					tv.Result = tc.Result.Text
				}
				sv.Tools = append(sv.Tools, tv)
			}
			cv.Runs = append(cv.Runs, sv)
		}
		v.Cases = append(v.Cases, cv)
		bars = append(bars, evalhtml.Bar{Label: r.Case.Name, Rate: r.Rate(), Text: fmt.Sprintf("%d/%d picked %s", r.Agreed, len(r.Samples), r.Case.Expect), Status: string(r.Status)})
	}
	v.Chart = evalhtml.NewChart("Samples that picked the expected agent, per case", bars)
	return v
}

var routeHTML = template.Must(template.New("page").Funcs(evalhtml.Funcs()).Funcs(template.FuncMap{
	"cell": func(t *Confusion, i, j int) int { return t.Counts[i][j] },
}).Parse(evalhtml.Base + `{{template "head" .Page}}
<main>
<div class="banner {{if .OK}}pass{{else}}fail{{end}}">{{if .OK}}Every case passed{{else}}Not every case passed{{end}}: {{.Line}}</div>
<section class="summary">
<div><b>{{.Summary.Cases}}</b>cases</div>
<div><b>{{.Summary.Passed}}</b>passed</div>
<div><b>{{.Summary.Failed}}</b>failed</div>
<div><b>{{.Summary.Stale}}</b>stale</div>
<div><b>{{.Summary.Unrecorded}}</b>not recorded</div>
<div><b>{{.Summary.Errors}}</b>errors</div>
<div><b>{{.Summary.Samples}}</b>samples ({{.Summary.Replayed}} replayed, {{.Summary.Live}} live)</div>
</section>
{{if .Static}}<p class="dim">Static: {{.Static}}</p>{{end}}
{{with .Confusion}}{{if .Expected}}<h2>Confusion</h2>
<p class="dim">rows: the agent expected; columns: what the frontline picked; in samples</p>
<table class="confusion"><thead><tr><th>expected</th>{{range .Picked}}<th class="num">{{.}}</th>{{end}}</tr></thead><tbody>
{{$t := .}}{{range $i, $e := .Expected}}<tr><th>{{$e}}</th>{{range $j, $p := $t.Picked}}{{$n := cell $t $i $j}}<td class="num cell{{if $n}}{{if eq $e $p}} pass{{else}} fail{{end}}{{else}} zero{{end}}">{{if $n}}{{$n}}{{else}}·{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>{{end}}{{end}}
{{range .Confused}}<h3>Confused: {{.A}} and {{.B}}</h3>
<p class="dim">sharpen these descriptions so each says what the other does not</p>
<table><thead><tr><th>{{.A}}</th><th>{{.B}}</th></tr></thead><tbody><tr><td>{{.DescriptionA}}</td><td>{{.DescriptionB}}</td></tr></tbody></table>
<ul>{{range .Requests}}<li>{{.Case}}: “{{.Request}}” expected {{.Expected}}, picked {{.Picked}} in {{.Count}} of {{.Samples}}</li>{{end}}</ul>
{{end}}
{{range .Suites}}<section class="suite" id="{{.ID}}">
<h2>{{template "badge" .Status}} {{.Path}} <span class="dim">(audience {{.Audience}})</span></h2>
{{if .Findings}}<ul class="findings">{{range .Findings}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{template "chart" .Chart}}
{{if .Cases}}<table class="cases"><thead><tr><th>status</th><th>case</th><th>expect</th><th class="num">picked it</th><th>picks</th><th>why</th></tr></thead><tbody>
{{range .Cases}}<tr><td>{{template "badge" .Status}}</td><td><a href="#{{.ID}}">{{.Name}}</a></td><td>{{.Expect}}</td><td class="num">{{.Agreed}}/{{.Samples}} ({{.Rate}})</td><td>{{range $i, $d := .Distribution}}{{if $i}}, {{end}}{{$d.Label}} {{$d.Count}}{{end}}</td><td>{{.Message}}</td></tr>
{{end}}</tbody></table>{{end}}
{{range .Cases}}<details id="{{.ID}}"{{if ne .Status "pass"}} open{{end}}>
<summary>{{template "badge" .Status}} <b>{{.Name}}</b> <span class="dim">expects {{.Expect}}; {{.Agreed}}/{{.Samples}} picked it</span></summary>
<div>
{{if .Message}}<p class="failure">{{.Message}}</p>{{end}}{{if .Failure}}<p class="failure">{{.Failure}}</p>{{end}}
<h3>Request</h3><pre>{{.Request}}</pre>
{{range .Runs}}<details class="sample"{{if not .Agreed}} open{{end}}>
<summary>{{template "badge" .Badge}} sample {{.N}}: {{.Label}}</summary>
<div><p>{{.Describe}}</p>
{{range .Tools}}<div class="tool"><span class="name">{{.Name}}</span><pre>{{.Arguments}}</pre>{{if .Result}}<pre>{{.Result}}</pre>{{end}}</div>{{end}}
{{if .Text}}<h3>Reply</h3><pre>{{.Text}}</pre>{{end}}
{{if .RunDir}}<p class="dim">run folder: <code>{{.RunDir}}</code></p>{{end}}
</div></details>
{{end}}</div></details>
{{end}}</section>
{{end}}</main>
</body>
</html>
`))
