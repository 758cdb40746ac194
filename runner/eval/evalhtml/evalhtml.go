package evalhtml

import (
	"fmt"
	"html/template"
	"strings"
	"time"
	"unicode/utf8"
)

// Base defines the templates every report uses: "head" (the document's
// head, given a Page), "chart" (an SVG bar chart, given a *Chart) and
// "badge" (a status, given its text). A report parses it with its own
// body.
const Base = `{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{{.Title}}</title>
<style>{{css}}</style>
</head>
<body>
<header><h1>{{.Title}}</h1>{{if .Generated}}<p class="dim">generated {{.Generated}} by agentdesk</p>{{end}}</header>
{{end -}}
{{define "badge"}}<span class="badge {{statusClass .}}">{{.}}</span>{{end -}}
{{define "chart"}}{{if .Bars}}<figure class="chart"><figcaption>{{.Title}}</figcaption>
<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
<title>{{.Title}}</title>
{{range .Bars}}<g>
<title>{{.Label}}: {{.Text}}</title>
<text x="{{.LabelX}}" y="{{.TextY}}" text-anchor="end" class="label">{{.Short}}</text>
<rect x="{{.BarX}}" y="{{.Y}}" width="{{.Full}}" height="{{.H}}" class="track"/>
<rect x="{{.BarX}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" class="bar {{.Class}}"/>
<text x="{{.ValueX}}" y="{{.TextY}}" class="value">{{.Text}}</text>
</g>
{{end}}</svg></figure>{{end}}{{end -}}
`

// css is the page's style: plain, readable, printable, light and dark.
const css = `
:root { --fg:#1d2430; --dim:#667085; --bg:#ffffff; --panel:#f5f7fa; --line:#d6dbe3;
  --pass:#1a7f37; --fail:#cf222e; --stale:#9a6700; --error:#8250df; --track:#e8ebf0; --link:#0969da; }
@media (prefers-color-scheme: dark) { :root { --fg:#e6edf3; --dim:#8b949e; --bg:#0d1117; --panel:#161b22; --line:#30363d;
  --pass:#3fb950; --fail:#f85149; --stale:#d29922; --error:#a371f7; --track:#21262d; --link:#58a6ff; } }
* { box-sizing: border-box; }
a { color: var(--link); } a:visited { color: var(--link); }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; padding: 1.5rem; max-width: 72rem; }
h1 { font-size: 1.5rem; margin: 0; } h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
.dim { color: var(--dim); margin: .25rem 0; }
table { border-collapse: collapse; margin: .5rem 0; width: 100%; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--panel); } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; min-width: 4.5rem; text-align: center; border-radius: .25rem; padding: 0 .4rem; color: #fff; font-weight: 600; font-size: .85em; }
.pass { background: var(--pass); } .fail { background: var(--fail); } .stale, .not-recorded { background: var(--stale); } .error { background: var(--error); }
.summary { display: flex; flex-wrap: wrap; gap: .75rem; margin: 1rem 0; }
.summary div { background: var(--panel); border: 1px solid var(--line); border-radius: .4rem; padding: .5rem .9rem; }
.summary b { display: block; font-size: 1.4rem; }
.banner { padding: .6rem 1rem; border-radius: .4rem; color: #fff; font-weight: 600; margin: 1rem 0; }
details { border: 1px solid var(--line); border-radius: .4rem; margin: .4rem 0; background: var(--panel); }
details > summary { cursor: pointer; padding: .4rem .6rem; }
details > div { padding: .2rem .8rem .6rem; background: var(--bg); border-top: 1px solid var(--line); }
pre { white-space: pre-wrap; word-break: break-word; background: var(--panel); border: 1px solid var(--line); border-radius: .3rem; padding: .5rem; margin: .25rem 0; font: 12.5px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; max-height: 30rem; overflow: auto; }
.failure { color: var(--fail); } .tool { margin: .4rem 0; } .tool .name { font-weight: 600; font-family: ui-monospace, monospace; }
figure.chart { margin: 1rem 0; overflow-x: auto; } figcaption { font-weight: 600; margin-bottom: .25rem; }
svg text { font: 12px system-ui, sans-serif; fill: var(--fg); } svg .value { fill: var(--dim); }
svg .track { fill: var(--track); } svg .bar.pass { fill: var(--pass); } svg .bar.fail { fill: var(--fail); }
svg .bar.stale, svg .bar.not-recorded { fill: var(--stale); } svg .bar.error { fill: var(--error); }
td.cell.pass { background: color-mix(in srgb, var(--pass) 18%, transparent); } td.cell.fail { background: color-mix(in srgb, var(--fail) 18%, transparent); }
td.cell.stale, td.cell.not-recorded { background: color-mix(in srgb, var(--stale) 18%, transparent); } td.cell.error { background: color-mix(in srgb, var(--error) 18%, transparent); }
td.zero { color: var(--dim); }
`

// Funcs are the functions Base uses; a report adds them to its template.
func Funcs() template.FuncMap {
	return template.FuncMap{
		"css":         func() template.CSS { return template.CSS(css) },
		"statusClass": StatusClass,
		"percent":     Percent,
	}
}

// StatusClass is the CSS class of a status: pass, fail, stale,
// not-recorded or error.
func StatusClass(status string) string {
	switch status {
	case "pass", "fail", "stale", "error":
		return status
	case "not recorded":
		return "not-recorded"
	}
	return "error"
}

// Percent is a rate as a whole percentage: "67%".
func Percent(rate float64) string { return fmt.Sprintf("%d%%", int(rate*100+0.5)) }

// Page is what the head shows.
type Page struct {
	Title string
	// Generated is when the report was made, shown when set.
	Generated string
}

// NewPage is a page titled title, generated at t (none when zero).
func NewPage(title string, t time.Time) Page {
	p := Page{Title: title}
	if !t.IsZero() {
		p.Generated = t.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return p
}

// Chart is a horizontal bar chart of rates, a bar a row.
type Chart struct {
	Title         string
	Bars          []Bar
	Width, Height int
}

// Bar is one bar of a Chart; NewChart lays it out.
type Bar struct {
	// Label names the bar (cut in the chart, whole in its tooltip);
	// Rate is from 0 to 1; Text is shown after the bar ("2/3"); Status
	// colours it.
	Label, Text, Status string
	Rate                float64
	// The layout, in pixels.
	Short                                      string
	Class                                      string
	LabelX, BarX, ValueX, Y, TextY, H, W, Full int
}

// Chart geometry.
const (
	labelWidth = 300
	barWidth   = 420
	rowHeight  = 22
	barHeight  = 14
	labelRunes = 44
)

// NewChart lays bars out as a chart titled title.
func NewChart(title string, bars []Bar) *Chart {
	// Wide enough for the longest value text after the bars (12px
	// system-ui: at most about 7.5px a character).
	valueWidth := 122
	for _, b := range bars {
		valueWidth = max(valueWidth, (utf8.RuneCountInString(b.Text)*15+1)/2)
	}
	c := &Chart{Title: title, Width: labelWidth + barWidth + 8 + valueWidth, Height: len(bars)*rowHeight + 8}
	for i, b := range bars {
		rate := min(max(b.Rate, 0), 1)
		b.Short = cut(b.Label, labelRunes)
		b.Class = StatusClass(b.Status)
		b.LabelX = labelWidth - 8
		b.BarX = labelWidth
		b.Full = barWidth
		b.W = max(int(rate*barWidth+0.5), 3) // a rate of 0 still shows its status colour
		b.ValueX = labelWidth + barWidth + 8
		b.Y = 4 + i*rowHeight
		b.H = barHeight
		b.TextY = b.Y + barHeight - 2
		c.Bars = append(c.Bars, b)
	}
	return c
}

// cut cuts s to n runes with an ellipsis.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
