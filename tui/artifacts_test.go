package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// pastRunsModel is a browser on the test home whose runs folder holds the
// recorded runs of testdata/runs.
func pastRunsModel(t *testing.T, w, h int) *testModel {
	t.Helper()
	tmp, base := copyHome(t, "home")
	runs := filepath.Join(tmp, "runs")
	hometest.Copy(t, filepath.Join("testdata", "runs"), runs)
	rn, err := runner.New(runner.Options{RunsDir: runs})
	if err != nil {
		t.Fatal(err)
	}
	opts := homeOptions(tmp, lint.NewHome(base, ""))
	opts.Environ = append(opts.Environ, "PAGER=true")
	opts.Runner = rn
	return openModel(t, opts, w, h)
}

func TestArtifactsScreens(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tm := pastRunsModel(t, sz[0], sz[1])
			tm.keys("4")
			checkFrame(t, tm.View().Content, sz[0], sz[1])
			matchGolden(t, fmt.Sprintf("artifacts-%dx%d", sz[0], sz[1]), tm.screen())
			scr := tm.screen()
			// Newest first: the truncated run (13:55) above the completed one (13:40).
			if i, j := strings.Index(scr, "output_truncated"), strings.Index(scr, "Completed"); i < 0 || j < 0 || i > j {
				t.Errorf("runs not newest first:\n%s", scr)
			}
			if strings.Contains(scr, "Explain how the watcher") && !strings.Contains(scr, "Explain every package") {
				t.Error("the selected run should be the newest")
			}
			// Into the list, down to the older run, open it.
			tm.keys("enter", "down", "o")
			scr = tm.screen()
			if !strings.Contains(scr, "The watcher waits 100 ms") {
				t.Errorf("the viewer should show the older run's result.md:\n%s", scr)
			}
			checkFrame(t, tm.View().Content, sz[0], sz[1])
			matchGolden(t, fmt.Sprintf("artifacts-viewer-%dx%d", sz[0], sz[1]), tm.screen())
		})
	}
}

func TestArtifactsOfAnotherAgent(t *testing.T) {
	tm := pastRunsModel(t, 100, 30)
	tm.keys("4", "down") // summarizer has one run
	if scr := tm.screen(); !strings.Contains(scr, "Runs of summarizer (1)") {
		t.Errorf("summarizer's runs:\n%s", scr)
	}
	tm.keys("down") // release-notes has none
	if scr := tm.screen(); !strings.Contains(scr, "No runs yet") {
		t.Errorf("release-notes has no runs:\n%s", scr)
	}
}

// TestReloadRereadsTheRuns: ctrl+r lists the runs folder again, so a run
// made elsewhere (agentdesk run in another terminal) shows.
func TestReloadRereadsTheRuns(t *testing.T) {
	tm := pastRunsModel(t, 100, 30)
	tm.keys("4")
	if scr := tm.screen(); !strings.Contains(scr, "Runs of code-analyst (2)") {
		t.Fatalf("code-analyst's runs:\n%s", scr)
	}
	const id = "abcdabcdabcdabcdabcdabcdabcdabcd"
	src := filepath.Join("testdata", "runs", "1111aaaa2222bbbb3333cccc4444dddd")
	dst := filepath.Join(tm.opts.Runner.Dir(), id)
	hometest.Copy(t, src, dst)
	data, err := os.ReadFile(filepath.Join(dst, runfolder.RunFile))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "1111aaaa2222bbbb3333cccc4444dddd", id, 1))
	if err := os.WriteFile(filepath.Join(dst, runfolder.RunFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	tm.keys("ctrl+r")
	if scr := tm.screen(); !strings.Contains(scr, "Runs of code-analyst (3)") {
		t.Errorf("after ctrl+r the new run should be listed:\n%s", scr)
	}
}

// TestArtifactsLongReasonWrapped: a reason the table's column cuts is
// shown whole, wrapped, in a detail line under its row, selected or not
// (issue 20 item 32).
func TestArtifactsLongReasonWrapped(t *testing.T) {
	tm := pastRunsModel(t, 60, 20)
	tm.keys("4", "enter", "down") // the older, completed run is chosen
	scr := tm.screen()
	checkFrame(t, tm.View().Content, 60, 20)
	if !strings.Contains(scr, "output_truncated") {
		t.Errorf("the cut reason of a row is not shown whole:\n%s", scr)
	}
	if i, j := strings.Index(scr, "output_truncated"), strings.Index(scr, "Completed"); i < 0 || j < 0 || i > j {
		t.Errorf("the reason is not under its row:\n%s", scr)
	}
}

// TestArtifactsOfAgentsThatDoNotRun: the Artifacts pane of an agent the
// runtime does not run says why as the Run pane does: a feed agent whose
// feed is not configured is not loaded (not "rejected", with a fix in
// the definition), a broken definition is rejected.
func TestArtifactsOfAgentsThatDoNotRun(t *testing.T) {
	tm := demoModel(t, 100, 30)
	tests := []struct {
		path       string
		want, dont string
	}{
		{".server-feeds/retired/changelog-bot.md", "changelog-bot is not loaded: feed 'retired' is not configured in SkillFeeds", "rejected"},
		{"draft.md", "draft is rejected: the runtime would not run it", "not loaded"},
	}
	for _, tt := range tests {
		if !tm.list.selectPath(filepath.Join(tm.opts.Home.Agents, tt.path)) {
			t.Fatalf("%s is not in the list", tt.path)
		}
		tm.keys("4")
		var pane []string // the pane's side of the screen, its words
		for _, l := range strings.Split(tm.screen(), "\n") {
			if _, right, ok := strings.Cut(l, "│"); ok {
				pane = append(pane, strings.Fields(right)...)
			}
		}
		text := strings.Join(pane, " ")
		if !strings.Contains(text, tt.want) || strings.Contains(text, tt.dont) {
			t.Errorf("%s: the pane says %q, want %q", tt.path, text, tt.want)
		}
	}
}
