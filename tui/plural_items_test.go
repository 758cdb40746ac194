package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestsPaneSaysOneCase: a suite of one case says "1 case" (issue 20
// item 26).
func TestTestsPaneSaysOneCase(t *testing.T) {
	tm := demoModel(t, 100, 30)
	path := filepath.Join(tm.opts.Home.Agents, "summarizer.test.yaml")
	if err := os.WriteFile(path, []byte("cases:\n  - name: only\n    task: sum it up\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, "summarizer.md"))
	tm.keys("5")
	if scr := tm.screen(); !strings.Contains(scr, "1 case") || strings.Contains(scr, "1 cases") {
		t.Errorf("the pane:\n%s", scr)
	}
}
