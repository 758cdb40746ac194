package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
)

// fixedNow is the clock of every test model.
var fixedNow = time.Date(2025, 11, 3, 14, 2, 11, 0, time.Local)

// TestMain pins the local time zone, so times on screen are the same on
// every machine.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

// copyHome copies testdata/<name> into a fresh temporary folder and
// returns the new home's base, <tmp>/netclaw; HOME for the model is <tmp>.
func copyHome(t testing.TB, name string) (tmp, base string) {
	t.Helper()
	tmp = t.TempDir()
	base = filepath.Join(tmp, "netclaw")
	hometest.Copy(t, filepath.Join("testdata", name), base)
	return tmp, base
}

// testModel is a browser over a temporary home, driven synchronously.
type testModel struct {
	t    testing.TB
	quit bool
	*Model
}

// homeOptions are the options of a browser on home, scanned with an
// empty environment, with HOME=tmp.
func homeOptions(tmp string, home lint.Home) Options {
	return Options{
		Home:    home,
		Scanner: lint.NewScanner(home, lint.ScanOptions{Environ: []string{}}),
		Environ: []string{"HOME=" + tmp},
	}
}

// newModel makes a browser with opts, driven synchronously: the clock is
// fixedNow unless opts.Now is set, and nothing ticks.
func newModel(t testing.TB, opts Options) *testModel {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	if opts.Words == (Words{}) {
		opts.Words = testWords
	}
	m := New(opts)
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	return &testModel{t: t, Model: m}
}

// openModel is newModel at w×h with its Init run (the first scan).
func openModel(t testing.TB, opts Options, w, h int) *testModel {
	t.Helper()
	tm := newModel(t, opts)
	tm.send(tea.WindowSizeMsg{Width: w, Height: h})
	tm.run(tm.Init())
	return tm
}

// newTestModel opens a browser on base at w×h and runs the first scan.
func newTestModel(t testing.TB, tmp, base string, w, h int) *testModel {
	t.Helper()
	return openModel(t, homeOptions(tmp, lint.NewHome(base, "")), w, h)
}

// send delivers msg and runs every Cmd that follows, synchronously.
func (tm *testModel) send(msg tea.Msg) {
	tm.t.Helper()
	_, cmd := tm.Update(msg)
	tm.run(cmd)
}

// run executes cmd and feeds its messages back, breadth first, until no
// Cmd is left (bounded, in case something loops).
func (tm *testModel) run(cmd tea.Cmd) {
	tm.t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 1000 {
			tm.t.Fatal("commands keep coming: a loop?")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			tm.quit = true
		default:
			if isTerminalQuery(msg) {
				continue
			}
			_, next := tm.Update(msg)
			queue = append(queue, next)
		}
	}
}

// isTerminalQuery reports Bubble Tea's own requests (background colour…),
// which only a real program answers.
func isTerminalQuery(msg tea.Msg) bool {
	name, ok := strings.CutPrefix(fmt.Sprintf("%T", msg), "tea.")
	return ok && name != "" && name[0] >= 'a' && name[0] <= 'z'
}

// writeFile writes a file under the model's home, with a modification
// time a second later than before so a rescan sees it changed.
func (tm *testModel) writeFile(rel, text string) {
	tm.t.Helper()
	path := filepath.Join(tm.opts.Home.Base, rel)
	var mod time.Time
	if info, err := os.Stat(path); err == nil {
		mod = info.ModTime()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tm.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tm.t.Fatal(err)
	}
	if !mod.IsZero() {
		if err := os.Chtimes(path, mod.Add(time.Second), mod.Add(time.Second)); err != nil {
			tm.t.Fatal(err)
		}
	}
}

// keys types each key in turn: "a", "enter", "ctrl+c", "shift+tab"…
func (tm *testModel) keys(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		tm.send(keyPress(k))
	}
}

// typeText types s one character at a time.
func (tm *testModel) typeText(s string) {
	tm.t.Helper()
	for _, r := range s {
		tm.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// keyPress builds the key press msg.String() returns k for.
func keyPress(k string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"esc":       {Code: tea.KeyEscape},
		"tab":       {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"left":      {Code: tea.KeyLeft},
		"right":     {Code: tea.KeyRight},
		"pgdown":    {Code: tea.KeyPgDown},
		"pgup":      {Code: tea.KeyPgUp},
		"backspace": {Code: tea.KeyBackspace},
		"space":     {Code: tea.KeySpace, Text: " "},
		"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+r":    {Code: 'r', Mod: tea.ModCtrl},
		"ctrl+u":    {Code: 'u', Mod: tea.ModCtrl},
	}
	if m, ok := special[k]; ok {
		return m
	}
	r := []rune(k)[0]
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r + ('a' - 'A'), ShiftedCode: r, Text: k, Mod: tea.ModShift}
	}
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screen is the current frame with styling stripped.
func (tm *testModel) screen() string {
	return ansi.Strip(tm.View().Content)
}

// checkFrame asserts the frame is exactly w×h cells.
func checkFrame(t testing.TB, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Errorf("frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d wide, want %d: %q", i+1, got, w, ansi.Strip(l))
		}
	}
}

// golden compares got with testdata/golden/name.golden, or rewrites it
// with -update.
func matchGolden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	golden.Check(t, path, []byte(got))
}

// testWords are the command line's words as cmd/agentdesk fills them
// (evalWords; its tests assert them in what the commands print).
var testWords = Words{
	Eval:    evalrec.Words{Test: "agentdesk test", Route: "agentdesk route --suite", Record: "--record", Case: "--case", Models: "--models", Demo: "--demo"},
	Approve: "--approve", Home: "--home", NetClawDir: "--netclaw-dir", Spawn: "agentdesk preview --spawn",
}
