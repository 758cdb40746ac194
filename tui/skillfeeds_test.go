package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/watch"
)

// TestSkillFeedsChangeIsPickedUpLive: a save of netclaw.json that drops a
// feed from SkillFeeds moves its agents to their own "Not loaded" section
// and header count at once, and enabling it again brings them back, as the
// watcher reports the config file like any other save.
func TestSkillFeedsChangeIsPickedUpLive(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 100, 30)
	if s := tm.screen(); strings.Contains(s, "not loaded") || strings.Contains(s, "Not loaded") {
		t.Fatalf("community is enabled, nothing is 'not loaded':\n%s", s)
	}
	cfg := filepath.Join(base, "config", "netclaw.json")
	orig, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	save := func(text string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		tm.send(homeChangedMsg{change: watch.Change{Paths: []string{cfg}}})
	}

	save(`{"SkillFeeds": {"Feeds": [{"Name": "community", "Enabled": false}]}}`)
	s := tm.screen()
	for _, want := range []string{"1 not loaded", "Not loaded (1)", "○ release-notes", "release-notes: not loaded — feed 'community' is disabled in SkillFeeds"} {
		if !strings.Contains(s, want) {
			t.Errorf("after disabling the feed, the screen lacks %q:\n%s", want, s)
		}
	}
	// Select it: the Definition pane says why, and so does the Layer pane.
	tm.keys("end")
	if s := tm.screen(); !strings.Contains(s, "not loaded") || !strings.Contains(s, "Not loaded: feed 'community' is disabled in SkillFeeds.") {
		t.Errorf("the definition of a not-loaded file says why:\n%s", s)
	} else if strings.Contains(s, "the next sync overwrites") {
		t.Errorf("a folder the runtime does not read is synced by nothing, yet the pane warns of the next sync:\n%s", s)
	}
	tm.keys("2")
	if s := tm.screen(); !strings.Contains(s, "release-notes is not in the layer: the runtime does not read it") || !strings.Contains(s, "(feed 'community' is disabled in SkillFeeds)") {
		t.Errorf("the layer pane says why a not-loaded file is not in the layer:\n%s", s)
	}
	tm.keys("1")

	save(string(orig))
	if s := tm.screen(); strings.Contains(s, "not loaded") || strings.Contains(s, "Not loaded") {
		t.Errorf("enabled again, the feed is read:\n%s", s)
	}
}

// TestDefinitionShowsTheRuntimesEnumValue: a modelRole .NET's enum parser
// accepts only by leniency loads, and the Definition pane shows the value
// the runtime carries (an undefined number as that number) with the
// enum-loose warning.
func TestDefinitionShowsTheRuntimesEnumValue(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 110, 40)
	tm.writeFile("agents/aaa-loose.md", "---\nname: aaa-loose\ndescription: Loose enum values.\nmodelRole: 42\nvisibility: in-ternal\n---\n\nBody.\n")
	tm.keys("ctrl+r", "home")
	s := tm.screen()
	for _, want := range []string{"aaa-loose", "[enum-loose]", "modelRole               42", "visibility              internal"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// TestNotLoadedFeedSaysWhatWouldLoadIt: the Definition pane of a file in a
// feed folder the runtime does not read says what would make it read it,
// for each reason: a feed not configured is added, a disabled one
// enabled, one without a safe name renamed (enabling it changes nothing).
func TestNotLoadedFeedSaysWhatWouldLoadIt(t *testing.T) {
	tests := []struct {
		config, feed, want, not string
	}{
		{`{"SkillFeeds": {"Feeds": []}}`, "community", `add {"Name": "community"`, `"Enabled": true`},
		{`{"SkillFeeds": {"Feeds": [{"Name": "community", "Enabled": false}]}}`, "community", `set "Enabled": true on the feed`, "rename"},
		{`{"SkillFeeds": {"Feeds": [{"Name": "community"}, {"Name": "Team"}]}}`, "Team", "rename the feed in", "enable the feed"},
	}
	for _, tt := range tests {
		t.Run(tt.feed+" "+tt.want[:4], func(t *testing.T) {
			tmp, base := copyHome(t, "home")
			tm := newTestModel(t, tmp, base, 200, 50)
			tm.writeFile("agents/.server-feeds/Team/team-helper.md", "---\nname: team-helper\ndescription: Helps the team.\n---\n\nBody.\n")
			tm.writeFile("config/netclaw.json", tt.config)
			tm.keys("ctrl+r", "end")
			s := tm.screen()
			if !strings.Contains(s, "feed:"+tt.feed) || !strings.Contains(s, "Not loaded:") {
				t.Fatalf("no not-loaded file of feed %s selected:\n%s", tt.feed, s)
			}
			if !strings.Contains(s, tt.want) || strings.Contains(s, tt.not) {
				t.Errorf("the Definition pane should say %q, not %q:\n%s", tt.want, tt.not, s)
			}
		})
	}
}

// TestHeaderKeepsNotLoadedCountWhenNarrow: on a narrow screen the header
// drops the reload time and the title before the counts, so a feed the
// runtime does not read is still counted at 40 and 60 columns.
func TestHeaderKeepsNotLoadedCountWhenNarrow(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {60, 20}, {80, 24}} {
		tmp, base := copyHome(t, "home")
		tm := newTestModel(t, tmp, base, size[0], size[1])
		tm.writeFile("config/netclaw.json", `{"SkillFeeds": {"Feeds": [{"Name": "community", "Enabled": false}]}}`)
		tm.keys("ctrl+r")
		s := tm.screen()
		header, _, _ := strings.Cut(s, "\n")
		if !strings.Contains(header, "1 not loaded") {
			t.Errorf("%dx%d: the header lacks the not-loaded count: %q", size[0], size[1], header)
		}
		checkFrame(t, tm.View().Content, size[0], size[1])
		matchGolden(t, fmt.Sprintf("feed-not-loaded-%dx%d", size[0], size[1]), s)
	}
}
