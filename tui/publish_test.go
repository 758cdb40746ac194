package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishStateOnlyWhereItHelps (issue 13 item 22): a local agent with
// no version shows no "not publishable: no version"; a feed file without
// a version of its own is shown with the version its feed synced.
func TestPublishStateOnlyWhereItHelps(t *testing.T) {
	tmp, base := copyHome(t, "home")
	feed := filepath.Join(base, "agents", ".server-feeds", "community", "release-notes.md")
	data, err := os.ReadFile(feed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(feed, []byte(strings.Replace(string(data), "version: 1.4.0\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := newTestModel(t, tmp, base, 120, 40)
	if scr := tm.screen(); strings.Contains(scr, "no version") || strings.Contains(scr, "not publishable") {
		t.Errorf("a local agent without a version says it cannot be published:\n%s", scr)
	}
	tm.keys("down", "down") // release-notes, from the feed
	scr := tm.screen()
	if !strings.Contains(scr, "release-notes 1.4.0 ·") || strings.Contains(scr, "no version") {
		t.Errorf("the feed file is not shown with its synced version:\n%s", scr)
	}
}

// TestArtifactsOfARejectedAgent (issue 13 item 22): the Artifacts pane of
// a rejected agent says to fix the definition, not to start a run.
func TestArtifactsOfARejectedAgent(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
		rh := newRunHome(t, sz[0], sz[1])
		rh.keys("G", "4") // empty-body, rejected
		scr := rh.screen()
		text := strings.Join(strings.Fields(screenText(scr)), " ")
		if !strings.Contains(text, "Fix the definition first") || strings.Contains(text, "Start one in the Run pane") {
			t.Errorf("%dx%d: the Artifacts pane of a rejected agent:\n%s", sz[0], sz[1], scr)
		}
		checkFrame(t, rh.View().Content, sz[0], sz[1])
	}
}
