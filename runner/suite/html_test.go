package suite

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/agentdesk/agentdesk/runner"
)

// hostileResults are reportResults with a sample whose output, tool call
// and judge reason try markup and control characters.
func hostileResults() []*SuiteResult {
	rs := reportResults()
	s := rs[0].Cases[1].Samples[0]
	s.Output = `</pre><script>alert("out")</script><img src="http://evil.invalid/x.png">` + "\x1b[31mred\x1b[0m"
	s.ToolCalls = []runner.ToolCall{{Call: 1, Name: "file_read<b>", Arguments: `{"path":"<iframe src=//evil.invalid>"}`,
		Result: &runner.ToolResult{Text: "port = 8080 <style>body{display:none}</style>", Guard: "allow"}}}
	s.Verdict.Reason = `no file is named. <a href="http://evil.invalid">click</a>`
	return rs
}

func renderHTML(t *testing.T, rs []*SuiteResult) string {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, rs, 3*time.Second, ReportOptions{Dir: "."}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestHTMLReportIsSelfContainedAndEscaped(t *testing.T) {
	page := renderHTML(t, hostileResults())
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	var text strings.Builder
	svgRects := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			tags = append(tags, n.Data)
			switch n.Data {
			case "script", "iframe", "img", "link", "a", "object", "embed":
				t.Errorf("the page holds a <%s> element", n.Data)
			case "rect":
				svgRects++
			}
			for _, a := range n.Attr {
				if (a.Key == "src" || a.Key == "href" || strings.HasPrefix(a.Key, "on")) && a.Namespace == "" {
					t.Errorf("<%s %s=%q>: the page must fetch and run nothing", n.Data, a.Key, a.Val)
				}
			}
		}
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	styles := strings.Count(page, "<style>")
	if styles != 1 {
		t.Errorf("%d style elements, want the one of the page", styles)
	}
	got := text.String()
	for _, want := range []string{
		"9 cases: 3 passed, 2 failed, 2 stale, 1 not recorded, 1 error",
		`<script>alert("out")</script>`, // the output, as text
		"file_read<b>", "port = 8080 <style>", `<a href="http://evil.invalid">click</a>`,
		"short summary [cheap]", "Models side by side", "all cases", "2/2 cases 3/3 1.10s 140 tok",
		"Pass rate per case", "Pass rate per model", `\x1b[31mred`,
		"agents/broken.test.yaml", "did not find expected node content",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page's text lacks %q", want)
		}
	}
	if strings.ContainsRune(page, 0x1b) {
		t.Error("the page carries an ESC from a model")
	}
	// A bar per case of each suite that ran, and per model: two rects
	// each (the track and the bar).
	if want := 2 * (5 + 4 + 2); svgRects != want {
		t.Errorf("%d rects in the charts, want %d", svgRects, want)
	}
	golden(t, "report.html", regexp.MustCompile(`Made by agentdesk at [^<]*`).ReplaceAllString(page, "Made by agentdesk at TIME."))
}

// TestHTMLReportRendersInChromium opens the page in headless Chromium
// (Debian's chromium package) and checks the screenshot it takes; it is
// skipped where Chromium is not installed.
func TestHTMLReportRendersInChromium(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("no chromium on PATH (apt-get install chromium): the page is checked by parsing only")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(renderHTML(t, hostileResults())), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1200,1600", "--screenshot="+shot, "file://"+page)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its helpers die with it
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != 1200 || b.Dy() != 1600 {
		t.Errorf("screenshot %v, want 1200x1600", b)
	}
	// The page drew something: the green of a passing bar and the red of
	// a failing one are both on the screen.
	green, red := false, false
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			green = green || (r < 60 && g > 100 && g < 150 && bl < 80)
			red = red || (r > 180 && g < 60 && bl < 70)
		}
	}
	if !green || !red {
		t.Errorf("the screenshot shows no passing (green %v) or failing (red %v) bar", green, red)
	}
}
