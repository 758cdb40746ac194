package suite

import (
	"bytes"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/agentdesk/agentdesk/runner/eval/evalhtml/browsertest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

const hostile = `<script>alert("x")</script><img src="http://example.com/x.png">`

// htmlResults are reportResults with a transcript whose model output and
// tool result try to inject markup.
func htmlResults() []*SuiteResult {
	rs := reportResults()
	s := rs[0].Cases[1].Samples[0]
	s.Output = "It is in server.go.\n" + hostile
	s.ToolCalls = []runfolder.ToolCall{
		{Name: "file_read", Arguments: `{"path":"main.go"}`, Complete: true, Result: &runfolder.ToolResult{Text: "// listens on 8080\n" + hostile, Label: "real"}},
		{Name: "shell", Arguments: `{"cmd":"curl x"}`, Result: &runfolder.ToolResult{Text: "refused", Error: true, Refused: true, Label: "denied"}},
		{Name: "file_list", Arguments: `{"path":"`},
	}
	rs[0].Cases[1].Case.Task = "Which file? " + hostile
	return rs
}

func TestHTMLReport(t *testing.T) {
	var out bytes.Buffer
	rs := htmlResults()
	if err := HTML(&out, rs, HTMLOptions{ReportOptions: ReportOptions{Dir: "."}, Generated: time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC), Took: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "report.html", out.String())
	doc := browsertest.CheckPage(t, out.Bytes(),
		"agentdesk test report", "Not every case passed", "finds the port", "names the file", hostile,
		"file_read", `{"path":"main.go"}`, "// listens on 8080", "not answered",
		"Judge:", "no file is named.", `contains "main.go"`, "the output does not hold it",
		"changed since the recording: system prompt changed", "Models side by side", "all cases", "Pass rate per model",
		"short summary [cheap]", "1/2 0.50s 195 tok")
	// One chart per suite that ran, a second for the matrix; a bar per
	// case (and its track).
	svgs, rects := 0, 0
	browsertest.Walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "svg" {
			svgs++
		}
		if n.Type == html.ElementNode && n.Data == "rect" {
			rects++
		}
	})
	cases := len(rs[0].Cases) + len(rs[2].Cases) + 2
	if svgs != 3 || rects != 2*cases {
		t.Errorf("%d charts with %d bars, want 3 with %d", svgs, rects/2, cases)
	}
}

// TestHTMLReportRenders renders the page in headless Chromium when there
// is one, and checks that the screenshot shows the report: the red banner
// of a run that did not pass and the bars of both colours.
func TestHTMLReportRenders(t *testing.T) {
	chromium := browsertest.Chromium(t)
	var out bytes.Buffer
	if err := HTML(&out, htmlResults(), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	img := browsertest.Screenshot(t, chromium, out.Bytes(), 1200, 1600)
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1600 {
		t.Fatalf("screenshot %v", b)
	}
	// The banner (and fail badges, bars) in --fail, the pass bars and
	// badges in --pass: the style and the chart were applied.
	red := browsertest.CountNear(img, 0xcf222e, 24)
	green := browsertest.CountNear(img, 0x1a7f37, 24)
	if red < 5000 || green < 1000 {
		t.Errorf("the rendered page shows %d red and %d green pixels: the style or the chart is missing", red, green)
	}
}
