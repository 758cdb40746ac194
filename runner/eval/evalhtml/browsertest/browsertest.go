// Package browsertest renders an HTML report in a real browser for the
// reports' tests: headless Chromium (Debian's chromium package) takes a
// screenshot, which the tests then look at. Only tests import it.
package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// Chromium returns the path of a Chromium on PATH, or skips the test
// saying how to get one.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on PATH: the page is parsed but not rendered (apt-get install chromium to render it)")
	return ""
}

// Screenshot renders the page in headless Chromium at width×height,
// offline (every host unresolvable), and returns the screenshot. The
// browser runs in a process group of its own, killed when it is done or
// after a minute.
func Screenshot(t testing.TB, chromium string, page []byte, width, height int) image.Image {
	t.Helper()
	dir := t.TempDir()
	htmlPath := filepath.Join(dir, "report.html")
	pngPath := filepath.Join(dir, "shot.png")
	if err := os.WriteFile(htmlPath, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--force-color-profile=srgb", "--force-device-scale-factor=1",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"),
		fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+pngPath, "file://"+htmlPath)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	inGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if cmd.Process != nil {
		_ = killGroup(cmd) // its helpers too
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v\n%s", err, out)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if keep := os.Getenv("AGENTDESK_KEEP_SCREENSHOT"); keep != "" {
		data, _ := os.ReadFile(pngPath)
		_ = os.WriteFile(keep, data, 0o644)
	}
	return img
}

// CountNear counts the pixels of img within tolerance (per channel, of
// 255) of the colour #rrggbb.
func CountNear(img image.Image, rgb uint32, tolerance int) int {
	want := [3]int{int(rgb >> 16 & 0xff), int(rgb >> 8 & 0xff), int(rgb & 0xff)}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			got := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
			ok := true
			for i := range got {
				if d := got[i] - want[i]; d > tolerance || d < -tolerance {
					ok = false
				}
			}
			if ok {
				n++
			}
		}
	}
	return n
}

// Walk calls visit for every node under n.
func Walk(n *html.Node, visit func(*html.Node)) {
	visit(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		Walk(c, visit)
	}
}

// checkElement reports an element of a report page that runs or fetches
// something, or leads out of the page; it returns whether the element
// sets the Content-Security-Policy.
func checkElement(t *testing.T, n *html.Node) (csp bool) {
	t.Helper()
	switch n.Data {
	case "script", "link", "img", "iframe", "object", "embed", "base", "form", "image", "use":
		t.Errorf("the page has a <%s> element", n.Data)
	}
	for _, a := range n.Attr {
		switch {
		case a.Key == "href" && !strings.HasPrefix(a.Val, "#"):
			t.Errorf("<%s href=%q> leaves the page", n.Data, a.Val)
		case a.Key == "src" || a.Key == "srcset" || a.Key == "action" || strings.HasPrefix(a.Key, "on"):
			t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
		case a.Key == "http-equiv" && a.Val == "Content-Security-Policy":
			csp = true
		case a.Key == "style" && strings.Contains(a.Val, "url("):
			t.Errorf("<%s style=%q> fetches", n.Data, a.Val)
		}
	}
	return csp
}

// CheckPage parses a report page and checks what every report must be:
// self-contained (no script, no fetched resource, links only inside the
// page) with a CSP, and the texts given present as text, never as markup.
func CheckPage(t *testing.T, page []byte, texts ...string) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	var text strings.Builder
	csp := false
	Walk(doc, func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			text.WriteString(n.Data)
		case html.ElementNode:
			if checkElement(t, n) {
				csp = true
			}
		}
	})
	if !csp {
		t.Error("the page has no Content-Security-Policy")
	}
	if bytes.Contains(page, []byte("url(")) || bytes.Contains(page, []byte("@import")) {
		t.Error("the style fetches something")
	}
	for _, want := range texts {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the page's text does not hold %q", want)
		}
	}
	return doc
}
