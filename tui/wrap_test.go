package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapBreaksOnlyAtSpaces (issue 13 item 15): a flag, a path or a key
// moves to the next line whole; only a word longer than the line is cut.
func TestWrapBreaksOnlyAtSpaces(t *testing.T) {
	cases := []struct {
		text string
		w    int
		want []string
	}{
		{"no version: pass --version or set metadata.version", 20, []string{"no version: pass", "--version or set", "metadata.version"}},
		{"read agents/code-analyst.md first", 24, []string{"read", "agents/code-analyst.md", "first"}},
		{"keys are case-sensitive camelCase", 20, []string{"keys are", "case-sensitive", "camelCase"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		// A path longer than the line breaks after a separator, never
		// inside a name (issue 20 item 28).
		{"~/projects/agentdesk/testdata/homes/feeds/agents/code-analyst.md", 30, []string{"~/projects/agentdesk/testdata/", "homes/feeds/agents/", "code-analyst.md"}},
		{"Artifacts ~/.local/state/agentdesk/runs/5555eeee6666ffff7777aaaa8888bbbb/", 40, []string{"Artifacts", "~/.local/state/agentdesk/runs/", "5555eeee6666ffff7777aaaa8888bbbb/"}},
		{"/a/averyveryverylongname", 10, []string{"/a/", "averyveryv", "erylongnam", "e"}},
		{"日本語テキスト", 5, []string{"日本", "語テ", "キス", "ト"}},
		{"a  b", 10, []string{"a  b"}},
		{"", 10, []string{""}},
	}
	for _, c := range cases {
		if got := wrap(c.text, c.w); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.text, c.w, got, c.want)
		}
	}
}

// screenText is the screen's right pane as one string of words: each
// line's part after the list's separator, so that wrapped text reads
// whole.
func screenText(scr string) string {
	var b strings.Builder
	for _, l := range strings.Split(scr, "\n") {
		if _, right, ok := strings.Cut(l, "│"); ok {
			l = right
		}
		b.WriteString(l + " ")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// listText is the list column as one string of words.
func listText(scr string) string {
	var b strings.Builder
	for _, l := range strings.Split(scr, "\n") {
		left, _, _ := strings.Cut(l, "│")
		b.WriteString(left + " ")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestTextWrapsInsteadOfCutting (issue 13 item 15): at 40 and 60 columns
// field values, the filter's "nothing matches", notices and feed paths
// show whole, wrapped at spaces.
func TestTextWrapsInsteadOfCutting(t *testing.T) {
	cases := []struct {
		name  string
		w, h  int
		setup func(tm *testModel)
		want  string
		where string // "pane" (default), "list", "screen", or "chars" (the pane, spaces ignored: a path longer than a line)
	}{
		{"field value", 60, 40, nil, "description Reads source files and explains how a piece of code works, with file and line references.", ""},
		{"feed path", 60, 30, func(tm *testModel) { tm.keys("down", "down") }, "agents/.server-feeds/community/release-notes.md", "chars"},
		{"list name", 80, 24, nil, "release-notes", "list"},
		{"nothing matches", 40, 12, func(tm *testModel) { tm.keys("/"); tm.typeText("zzz") }, "Nothing matches the filter.", "list"},
		{"notice", 40, 12, func(tm *testModel) {
			tm.setFlash("summarizer: now rejected — body-empty (the system prompt body after the closing '---' is empty)", true)
		}, "summarizer: now rejected — body-empty (the system prompt body after the closing '---' is empty)", "screen"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp, base := copyHome(t, "home")
			tm := newTestModel(t, tmp, base, c.w, c.h)
			if c.setup != nil {
				c.setup(tm)
			}
			checkFrame(t, tm.View().Content, c.w, c.h)
			scr := tm.screen()
			got := screenText(scr)
			switch c.where {
			case "screen":
				got = strings.Join(strings.Fields(scr), " ")
			case "list":
				got = listText(scr)
			case "chars":
				got = strings.ReplaceAll(got, " ", "")
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("%q is not whole on screen:\n%s", c.want, scr)
			}
		})
	}
}

// TestRunBannerWraps (issue 13 item 15): an outcome banner wider than the
// pane wraps onto more banner lines.
func TestRunBannerWraps(t *testing.T) {
	st := NewStyles(true, false)
	lines := bannerText(st.BannerBad, "✗ Failed · thinking_only_timeout · the model thought for 20 minutes", 30)
	if len(lines) < 2 {
		t.Fatalf("banner not wrapped: %q", lines)
	}
	if got := strings.Join(strings.Fields(ansi.Strip(strings.Join(lines, " "))), " "); got != "✗ Failed · thinking_only_timeout · the model thought for 20 minutes" {
		t.Errorf("banner text %q", got)
	}
}

// TestEmptyLayerBannerWraps (issue 13 item 15): the banner of a layer
// that is empty for a whole audience wraps at spaces, at 40 columns too
// ("sub-agent" is not split at its hyphen).
func TestEmptyLayerBannerWraps(t *testing.T) {
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 40, 20)
	tm.keys("2", "a", "a") // Public
	if text := screenText(tm.screen()); !strings.Contains(text, "hidden for Public: sessions with the Public audience get no sub-agent layer") {
		t.Errorf("the banner is cut or split:\n%s", tm.screen())
	}
	checkFrame(t, tm.View().Content, 40, 20)
}

// BenchmarkWrapLongPath wraps a paragraph with paths longer than the line
// (cut after a separator), as a narrow Run pane does on every frame.
func BenchmarkWrapLongPath(b *testing.B) {
	text := strings.Repeat("the full text is in ~/.local/state/agentdesk/runs/5555eeee6666ffff7777aaaa8888bbbb/truncated-output.md and ", 20)
	b.ReportAllocs()
	for b.Loop() {
		wrap(text, 33)
	}
}
