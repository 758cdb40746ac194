package tui

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/tui/demo"
)

var screenshot = flag.Bool("screenshot", false, "rewrite docs/images/browser.ansi, the demo screen the README's picture is made from")

// TestDemoScreenshot renders a real screen of agentdesk --demo in colour
// and, with -screenshot, writes it to docs/images/browser.ansi, from which
// docs/images/browser.svg is rendered (docs/development.md gives the
// command). Without the flag it checks that the screen renders at its size.
func TestDemoScreenshot(t *testing.T) {
	const w, h = 100, 30
	tmp := t.TempDir()
	home, err := demo.Setup(filepath.Join(tmp, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	opts := homeOptions(tmp, home)
	opts.Runner, opts.Demo, opts.Color = rn, true, true
	tm := openModel(t, opts, w, h)
	m := tm.Model
	if !m.list.selectPath(filepath.Join(home.Agents, "code-analyst.md")) {
		t.Fatal("code-analyst is not in the list")
	}
	tm.send(nil)
	tm.keys("2")
	frame := tm.View().Content
	checkFrame(t, frame, w, h)
	if *screenshot {
		path := filepath.Join("..", "docs", "images", "browser.ansi")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(frame+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
