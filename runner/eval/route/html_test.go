package route

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/agentdesk/agentdesk/runner/eval/evalhtml/browsertest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// routeHTMLPage runs the test suite (recorded, then replayed offline) and
// returns its HTML report.
func routeHTMLPage(t *testing.T) []byte {
	t.Helper()
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(chooser())
	path := f.suite(t)
	f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})
	f.srv.Close()
	res := []*SuiteResult{f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})}
	var b bytes.Buffer
	if err := WriteHTML(&b, res, f.cat, f.home.Base, time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC), 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRouteHTMLReport(t *testing.T) {
	page := routeHTMLPage(t)
	doc := browsertest.CheckPage(t, page, "agentdesk route report", "Confusion", "rows: the agent expected",
		"front.route.yaml", "spawn_agent", "Samples that picked the expected agent, per case", "Request")
	// The confusion table: a row per agent expected, a cell per pick.
	var headers []string
	browsertest.Walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" && attr(n, "class") == "confusion" {
			browsertest.Walk(n, func(c *html.Node) {
				if c.Type == html.ElementNode && c.Data == "th" && c.FirstChild != nil {
					headers = append(headers, c.FirstChild.Data)
				}
			})
		}
	})
	if len(headers) < 3 || headers[0] != "expected" || !contains(headers, "reviewer") || !contains(headers, "analyst") {
		t.Errorf("confusion headers %q", headers)
	}
	if !bytes.Contains(page, []byte("Confused: analyst and reviewer")) {
		t.Errorf("no confused pair in\n%s", page)
	}
}

func TestRouteHTMLReportRenders(t *testing.T) {
	chromium := browsertest.Chromium(t)
	img := browsertest.Screenshot(t, chromium, routeHTMLPage(t), 1200, 1400)
	if red, green := browsertest.CountNear(img, 0xcf222e, 24), browsertest.CountNear(img, 0x1a7f37, 24); red < 2000 || green < 1000 {
		t.Errorf("the rendered page shows %d red and %d green pixels: the style or the chart is missing", red, green)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}
