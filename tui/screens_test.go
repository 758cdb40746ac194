package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestScreens renders every pane and state the browser has at 40×12,
// 60×20, 80×24 and 120×40 and compares them with golden files.
func TestScreens(t *testing.T) {
	sizes := []struct{ w, h int }{{40, 12}, {60, 20}, {80, 24}, {120, 40}}
	cases := []struct {
		name  string
		home  string // testdata folder, "" for an empty home
		setup func(tm *testModel)
	}{
		{"empty-home", "", nil},
		{"loaded-selected", "home", nil},
		{"rejected-selected", "home", func(tm *testModel) { tm.keys("G") }},
		{"feed-selected", "home", func(tm *testModel) { tm.keys("down", "down") }},
		{"filter-active", "home", func(tm *testModel) { tm.keys("/"); tm.typeText("sum") }},
		{"filter-kept", "home", func(tm *testModel) { tm.keys("/"); tm.typeText("rej"); tm.keys("enter") }},
		{"filter-nothing", "home", func(tm *testModel) { tm.keys("/"); tm.typeText("zzz") }},
		{"layer", "home", func(tm *testModel) { tm.keys("2") }},
		{"layer-rejected-selected", "home", func(tm *testModel) { tm.keys("2", "G") }},
		{"layer-public", "home", func(tm *testModel) { tm.keys("2", "a", "a") }},
		{"layer-diff", "home", func(tm *testModel) {
			tm.keys("2")
			tm.writeFile("agents/code-analyst.md", "---\nname: code-analyst\ndescription: Explains code, now shorter.\n---\n\nYou explain code.\n")
			tm.keys("ctrl+r", "v")
		}},
		{"help-open", "home", func(tm *testModel) { tm.keys("?") }},
		{"new-agent-prompt", "home", func(tm *testModel) { tm.keys("n"); tm.typeText("Bad Name"); tm.keys("enter") }},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			name := fmt.Sprintf("%s-%dx%d", c.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				var tmp, base string
				if c.home == "" {
					tmp = t.TempDir()
					base = filepath.Join(tmp, "netclaw")
					if err := os.MkdirAll(filepath.Join(base, "agents"), 0o755); err != nil {
						t.Fatal(err)
					}
				} else {
					tmp, base = copyHome(t, c.home)
				}
				tm := newTestModel(t, tmp, base, sz.w, sz.h)
				if c.setup != nil {
					c.setup(tm)
				}
				frame := tm.View().Content
				checkFrame(t, frame, sz.w, sz.h)
				matchGolden(t, name, tm.screen())
			})
		}
	}
}
