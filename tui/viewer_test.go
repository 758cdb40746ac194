package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestTranscriptLines(t *testing.T) {
	st := NewStyles(true, false)
	text := `{"t_ms":0,"type":"request","url":"http://m/v1/chat/completions","protocol":"openai","model":"m1"}
{"t_ms":40,"type":"response","status":200}
{"t_ms":100,"type":"thinking","text":"hmm "}
{"t_ms":120,"type":"thinking","text":"let me see"}
{"t_ms":300,"type":"text","text":"Hello "}
{"t_ms":310,"type":"text","text":"\u001b[31mworld"}
{"t_ms":320,"type":"tool_call","tool":{"call":1,"index":0,"name":"file_read","arguments":"{\"path\":\"a.md\"}","complete":true}}
{"t_ms":330,"type":"tool_result","tool":{"call":1,"index":0,"name":"file_read","arguments":"{\"path\":\"a.md\"}","complete":true,"result":{"text":"# A\nsecond \u001b[2Jline\n","bytes":17,"guard":"allow","replayed":true}}}
{"t_ms":340,"type":"tool_result","tool":{"call":1,"index":1,"name":"file_read","arguments":"{\"path\":\"/etc\"}","complete":true,"result":{"text":"outside the project","bytes":19,"error":true,"refused":true,"guard":"allow"}}}
{"t_ms":400,"type":"finish","finish":"length"}
{"t_ms":401,"type":"outcome","outcome":"Failed","reason":"output_truncated"}
not json at all
`
	got := strings.Join(transcriptLines(&st, text, 100), "\n")
	for _, want := range []string{
		"request     openai · m1 → http://m/v1/chat/completions",
		"HTTP 200",
		"thinking    hmm let me see",
		`text        Hello \x1b[31mworld`,
		`tool_call   file_read {"path":"a.md"}`,
		"  330ms tool_result file_read: 17 bytes · recorded\n                      # A\n                      second \\x1b[2Jline\n",
		"  340ms tool_result file_read: 19 bytes · refused\n                      outside the project\n",
		"finish      length",
		"outcome     Failed output_truncated",
		"not json at all",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
	checkNoRawControls(t, got)
}

// TestOpenNetClawRunFolder is `agentdesk open` on a NetClaw run folder: the
// viewer is the whole program, tab moves between files, q quits.
func TestOpenNetClawRunFolder(t *testing.T) {
	tm := openModel(t, Options{OpenPath: filepath.Join("testdata", "netclaw-run")}, 80, 24)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		tm.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		checkFrame(t, tm.View().Content, size[0], size[1])
	}
	tm.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	scr := tm.screen()
	for _, want := range []string{"truncated-output.md (partial)", "PARTIAL", "three open questions", "run.json", "subagent.log"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	matchGolden(t, "open-netclaw-run-80x24", scr)
	tm.keys("tab")
	if scr := tm.screen(); !strings.Contains(scr, `"reason": "output_truncated"`) {
		t.Errorf("tab should show run.json:\n%s", scr)
	}
	tm.keys("tab")
	if scr := tm.screen(); !strings.Contains(scr, "finish length after 4096 tokens") {
		t.Errorf("tab should show subagent.log:\n%s", scr)
	}
	tm.keys("q")
	if !tm.quit {
		t.Error("q should quit the viewer program")
	}
}

// TestViewerTitleKeepsTheEnd: a path too long for the viewer's title loses
// its start, never its end, wide characters measured as two columns.
func TestViewerTitleKeepsTheEnd(t *testing.T) {
	st := NewStyles(true, false)
	for _, title := range []string{
		"/home/someone/.local/state/agentdesk/runs/0123456789abcdef0123456789abcdef",
		"/home/" + strings.Repeat("日本", 20) + "/runs/0123456789abcdef0123456789abcdef",
	} {
		lines := frameExact(&st, title, []string{"x"}, 40)
		got := strings.TrimSpace(strings.Trim(ansi.Strip(lines[1]), "│"))
		if !strings.HasSuffix(got, "0123456789abcdef") || !strings.HasPrefix(got, "…") {
			t.Errorf("title %q shows as %q: want its end, after an ellipsis", title, got)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w != 44 {
				t.Errorf("line %q is %d wide, want 44", ansi.Strip(l), w)
			}
		}
	}
}

// TestViewerRewrapsOnResize: the viewer keeps a file's lines between
// frames, and builds them again for a new width and for new styles.
func TestViewerRewrapsOnResize(t *testing.T) {
	dir := t.TempDir()
	words := strings.Repeat("alpha beta gamma delta ", 20) + "omega"
	if err := os.WriteFile(filepath.Join(dir, "output.log"), []byte(words+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := openModel(t, Options{OpenPath: dir}, 60, 24)
	rows := func() int {
		n := 0
		for _, l := range strings.Split(tm.screen(), "\n") {
			if strings.Contains(l, "alpha") || strings.Contains(l, "omega") {
				n++
			}
		}
		return n
	}
	narrow := rows()
	tm.send(tea.WindowSizeMsg{Width: 120, Height: 24})
	checkFrame(t, tm.View().Content, 120, 24)
	if wide := rows(); wide >= narrow {
		t.Errorf("at 120 columns the line takes %d rows, at 60 %d: the viewer did not wrap it again", wide, narrow)
	}
	tm.send(tea.BackgroundColorMsg{})
	tm.View()
	if tm.shownGen() != tm.stGen {
		t.Errorf("after a style change the viewer's lines are from style generation %d, want %d", tm.shownGen(), tm.stGen)
	}
}

// shownGen is the style generation of the viewer's kept lines.
func (tm *testModel) shownGen() int {
	v, _ := tm.overlays.top().(*viewer)
	if v == nil {
		tm.t.Fatal("no viewer open")
	}
	return v.shown.stGen
}
