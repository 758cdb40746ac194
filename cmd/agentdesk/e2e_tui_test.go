package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/agentdesk/agentdesk/runner/sandbox"
)

// screenTerm is a running agentdesk on a pseudo-terminal whose output a
// virtual terminal turns into a screen the test can read.
type screenTerm struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	mu   sync.Mutex
	emu  *vt.Emulator
	done chan error
}

// startOnScreen runs the binary on a w×h pseudo-terminal.
func startOnScreen(t *testing.T, w, h int, env []string, args ...string) *screenTerm {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color"}, env...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	st := &screenTerm{t: t, cmd: cmd, ptmx: ptmx, emu: vt.NewEmulator(w, h), done: make(chan error, 1)}
	// The program's output feeds the emulator ...
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				st.mu.Lock()
				_, _ = st.emu.Write(buf[:n])
				st.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	// ... and the emulator's answers to the program's queries go back.
	copierDone := make(chan struct{})
	go func() {
		defer close(copierDone)
		_, _ = io.Copy(ptmx, st.emu)
	}()
	go func() { st.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		ptmx.Close()
		<-readerDone
		// End the copier through the emulator's own pipe, then close the
		// emulator: vt's Close is not safe while Read runs.
		if pw, ok := st.emu.InputPipe().(io.Closer); ok {
			pw.Close()
		}
		<-copierDone
		st.emu.Close()
	})
	return st
}

// screen returns the text on the virtual screen.
func (s *screenTerm) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}

// waitFor waits until every want is on screen. The deadline only turns a
// hang into a failure; nothing is timed.
func (s *screenTerm) waitFor(what string, want ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		scr := s.screen()
		missing := ""
		for _, w := range want {
			if !strings.Contains(scr, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: %q never showed; the screen:\n%s", what, missing, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitForLine waits until one line of the screen holds every part.
func (s *screenTerm) waitForLine(what string, parts ...string) {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		scr := s.screen()
		for _, l := range strings.Split(scr, "\n") {
			ok := true
			for _, p := range parts {
				ok = ok && strings.Contains(l, p)
			}
			if ok {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: no line holds %q; the screen:\n%s", what, parts, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// press types keys as a terminal sends them.
func (s *screenTerm) press(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if _, err := s.ptmx.WriteString(k); err != nil {
			s.t.Fatalf("typing %q: %v", k, err)
		}
		time.Sleep(30 * time.Millisecond) // let the program read keys one by one
	}
}

// TestBrowserEndToEnd drives the real binary in a real pseudo-terminal:
// it opens the test home, shows a loaded and a rejected agent with its
// reason, lists a new file as soon as it is written, moves it to rejected
// when it breaks, shows its block in the Layer pane, and quits.
func TestBrowserEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	base := filepath.Join(tmp, "netclaw")
	hometest.Copy(t, filepath.Join("..", "..", "tui", "testdata", "home"), base)
	s := startOnScreen(t, 100, 30, []string{"HOME=" + tmp, "NETCLAW_HOME=" + base, "EDITOR=true"})

	s.waitFor("the home opens", "3 loaded · 2 rejected", "code-analyst", "broken", "feed:community")

	// The rejected agent, with the runtime's reason.
	s.press("/", "broken", "\r")
	s.waitFor("the rejected agent is selected", "rejected · local", "invalid modelRole 'Boss'", "[model-role]")
	s.press("\x1b") // esc clears the filter
	s.waitFor("the filter is cleared", "3 loaded · 2 rejected", "summarizer")

	// A new valid file is listed at once.
	agent := filepath.Join(base, "agents", "e2e-helper.md")
	valid := "---\nname: e2e-helper\ndescription: Helps the end-to-end test.\n---\n\nYou help the test.\n"
	writeAtomically(t, agent, valid)
	s.waitFor("the new agent is listed", "4 loaded · 2 rejected", "e2e-helper")

	// Broken, it moves to the rejected section with the reason.
	writeAtomically(t, agent, "---\nname: e2e-helper\ndescription: Helps the end-to-end test.\n---\n")
	s.waitFor("the agent is rejected", "3 loaded · 3 rejected", "e2e-helper: now rejected — body-empty")
	s.waitForLine("the list marks it rejected", "✗", "e2e-helper")

	// Repaired, it is back, and the Layer pane shows its block.
	writeAtomically(t, agent, valid)
	s.waitFor("the agent loads again", "4 loaded · 2 rejected")
	s.press("2")
	s.waitFor("the Layer pane shows the block", "[available-subagents", "## e2e-helper", "Helps the end-to-end test.")

	// A file the runtime cannot bind is listed under the name its raw
	// frontmatter declares, not its file name.
	writeAtomically(t, filepath.Join(base, "agents", "unbound-file.md"), "---\nname: declared-name\ndescription: d\ntools: Read, Grep\n---\nBody.\n")
	s.waitForLine("the unbound file is listed by its declared name", "✗", "declared-name")

	s.press("q")
	select {
	case err := <-s.done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("agentdesk exited with %d", exit.ExitCode())
		} else if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("agentdesk did not quit; the screen:\n%s", s.screen())
	}
}

// writeAtomically saves like an editor that writes a temporary file and
// renames it over the original.
func writeAtomically(t *testing.T, path, text string) {
	t.Helper()
	tmp := path + ".tmp~"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserEditsEndToEnd opens agents in $EDITOR from the real binary:
// a local file is edited in place and the browser shows the edit; a feed
// file opens as a read-only copy, with the warning, and stays untouched.
func TestBrowserEditsEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	base := filepath.Join(tmp, "netclaw")
	hometest.Copy(t, filepath.Join("..", "..", "tui", "testdata", "home"), base)
	editor := filepath.Join(tmp, "fake-editor")
	script := "#!/bin/sh\n" +
		"for f; do :; done\n" + // the last argument is the file
		"printf -- '---\\nname: %s\\ndescription: Edited in the editor.\\n---\\n\\nEdited body.\\n' \"$(basename \"$f\" .md | sed 's/^READ-ONLY-//')\" > \"$f\" 2>/dev/null\n" +
		"exit 0\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	feed := filepath.Join(base, "agents", ".server-feeds", "community", "release-notes.md")
	before, err := os.ReadFile(feed)
	if err != nil {
		t.Fatal(err)
	}
	s := startOnScreen(t, 100, 30, []string{"HOME=" + tmp, "NETCLAW_HOME=" + base, "VISUAL=" + editor})
	s.waitFor("the home opens", "3 loaded · 2 rejected", "code-analyst")

	s.press("e") // code-analyst is selected first
	s.waitFor("the edit shows", "Edited in the editor.", "3 loaded · 2 rejected", "loaded · local")

	s.press("j", "j") // release-notes, from feed:community
	s.waitFor("the feed agent is selected", "read-only: synced from feed community")
	s.press("e")
	s.waitFor("the read-only warning", "files open read-only: the next sync overwrites any edit")
	after, err := os.ReadFile(feed)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("the feed file changed:\n%s", after)
	}
	s.press("q")
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("agentdesk did not quit; the screen:\n%s", s.screen())
	}
}

// TestDemoEndToEnd opens `agentdesk --demo` and replays a recorded run that
// ends output_truncated, with nothing but the binary.
func TestDemoEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	s2 := startOnScreen(t, 110, 32, []string{"HOME=" + tmp, "TMPDIR=" + tmp}, "--demo", "--fast-replay")
	s2.waitFor("the demo opens", "DEMO", "loaded ·", "rejected", "code-analyst", "feed:community")
	s2.press("/", "summarizer", "\r", "3")
	s2.waitFor("the Run pane", "Trial run of summarizer", "replay")
	s2.press("r")
	s2.waitFor("the run form", "Task")
	s2.press("Summarise the notes", "\r")
	s2.waitFor("the replay ends truncated", "Failed · output_truncated", "truncated-output.md", "(partial)")
	s2.press("q")
	// The demo folder is gone once the browser has quit.
	s2.endsLeavingNoDemo(tmp, "quit")
}

// endsLeavingNoDemo waits for the program to end (after how), then checks
// that no demo folder is left in tmp.
func (s *screenTerm) endsLeavingNoDemo(tmp, how string) {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.t.Fatalf("agentdesk did not end on %s; the screen:\n%s", how, s.screen())
	}
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "agentdesk-demo-") {
			s.t.Errorf("after %s, the demo folder %s was left behind", how, e.Name())
		}
	}
}

// TestDemoRemovedOnHangup: closing the terminal (SIGHUP) leaves no demo
// folder behind, as quitting does.
func TestDemoRemovedOnHangup(t *testing.T) {
	tmp := t.TempDir()
	s := startOnScreen(t, 100, 30, []string{"HOME=" + tmp, "TMPDIR=" + tmp}, "--demo")
	s.waitFor("the demo opens", "DEMO", "loaded ·")
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	s.endsLeavingNoDemo(tmp, "SIGHUP")
}

// TestBrowserWithAgentsAndNoHome: with --agents, the browser opens on that
// folder though the home does not exist, and creates no home.
func TestBrowserWithAgentsAndNoHome(t *testing.T) {
	tmp := t.TempDir()
	agents := filepath.Join(tmp, "my-agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	writeAtomically(t, filepath.Join(agents, "helper.md"), "---\nname: helper\ndescription: Helps.\n---\nYou help.\n")
	missing := filepath.Join(tmp, "no-home")
	s := startOnScreen(t, 100, 30, []string{"HOME=" + tmp}, "--home", missing, "--agents", agents)
	scr := s.waitFor("the agents folder opens", "1 loaded", "helper")
	if strings.Contains(scr, "home gone") || strings.Contains(scr, "is gone") {
		t.Errorf("a home never there is reported gone:\n%s", scr)
	}
	s.press("q")
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("agentdesk ended with %v; the screen:\n%s", err, s.screen())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("agentdesk did not quit; the screen:\n%s", s.screen())
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("the browser created the home %s", missing)
	}
}

// TestNewAgentDraftEndToEnd drives n with a real editor in a real
// pseudo-terminal (issue 13 item 4): while the editor has the draft the
// agents folder holds no new file; an editor that writes a body that loads
// moves it in; one that leaves the template untouched writes nothing.
func TestNewAgentDraftEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	base := filepath.Join(tmp, "netclaw")
	hometest.Copy(t, filepath.Join("..", "..", "tui", "testdata", "home"), base)
	editor := filepath.Join(tmp, "fake-editor")
	// The editor checks that the agents folder does not hold the file yet,
	// then (for names starting "keep") writes a body that loads.
	script := "#!/bin/sh\n" +
		"for f; do :; done\n" +
		"n=$(basename \"$f\" .md)\n" +
		"[ -e '" + filepath.Join(base, "agents") + "'/\"$n.md\" ] && echo 'ALREADY IN' > '" + filepath.Join(tmp, "early") + "'\n" +
		"case $n in keep*) printf -- '---\\nname: %s\\ndescription: Written in the editor.\\n---\\n\\nYou help.\\n' \"$n\" > \"$f\";; esac\n" +
		"exit 0\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := startOnScreen(t, 100, 30, []string{"HOME=" + tmp, "NETCLAW_HOME=" + base, "VISUAL=" + editor})
	s.waitFor("the home opens", "3 loaded · 2 rejected", "code-analyst")

	s.press("n", "untouched", "\r")
	s.waitFor("the unchanged draft writes nothing", "nothing written")
	if _, err := os.Stat(filepath.Join(base, "agents", "untouched.md")); err == nil {
		t.Error("an unchanged draft was written into the agents folder")
	}

	s.press("n", "keep-me", "\r")
	s.waitFor("the changed draft moves in", "4 loaded · 2 rejected", "keep-me")
	data, err := os.ReadFile(filepath.Join(base, "agents", "keep-me.md"))
	if err != nil || !strings.Contains(string(data), "Written in the editor.") {
		t.Errorf("agents/keep-me.md: %q, %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "early")); err == nil {
		t.Error("the file was in the agents folder while the editor had the draft")
	}
	s.press("q")
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("agentdesk did not quit; the screen:\n%s", s.screen())
	}
}

// coloured reports whether any cell of the screen has a foreground or
// background colour.
func (s *screenTerm) coloured(w, h int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for y := range h {
		for x := range w {
			if c := s.emu.CellAt(x, y); c != nil && (c.Style.Fg != nil || c.Style.Bg != nil) {
				return true
			}
		}
	}
	return false
}

// TestBrowserColorAlwaysOverridesNoColor: --color always colours the
// browser as it colours every other command, even under NO_COLOR (which
// Bubble Tea would otherwise honour on its own); without it, NO_COLOR
// leaves the browser colourless.
func TestBrowserColorAlwaysOverridesNoColor(t *testing.T) {
	tmp := t.TempDir()
	agents := filepath.Join(tmp, "my-agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	writeAtomically(t, filepath.Join(agents, "helper.md"), "---\nname: helper\ndescription: Helps.\n---\nYou help.\n")
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"--color", "always"}, true},
		{nil, false},
	} {
		env := []string{"HOME=" + tmp, "NO_COLOR=1"}
		s := startOnScreen(t, 80, 24, env, append([]string{"--agents", agents}, tt.args...)...)
		s.waitFor("the agents folder opens", "1 loaded", "helper")
		if got := s.coloured(80, 24); got != tt.want {
			t.Errorf("NO_COLOR=1 %v: coloured %v, want %v; the screen:\n%s", tt.args, got, tt.want, s.screen())
		}
		s.press("q")
		<-s.done
	}
}

// TestDemoSmallScreenEndToEnd runs the demo on a real 60×20 terminal: T
// shows each case's time uncut, and R answers a recorded request from the
// demo's recorded frontline (issue 20 items 24 and 25).
func TestDemoSmallScreenEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	s := startOnScreen(t, 60, 20, []string{"HOME=" + tmp, "TMPDIR=" + tmp}, "--demo")
	s.waitFor("the demo opens", "DEMO", "code-analyst")
	s.press("5")
	s.waitFor("the Tests pane", "Tests of code-analyst")
	s.press("T")
	scr := s.waitFor("the suite ran", "3 of 3 cases passed")
	if regexp.MustCompile(`[0-9](ms|s)…`).MatchString(scr) {
		t.Errorf("a time is cut:\n%s", scr)
	}
	s.press("2", "R")
	s.waitFor("R offers a recorded request", "How does the file watcher")
	s.press("\r")
	s.waitForLine("the recorded frontline answers", "code-analyst", "2/2")
	s.press("q")
	s.endsLeavingNoDemo(tmp, "quit")
}

// TestDemoApprovalEndToEnd opens `agentdesk --demo` and runs fixer: its
// recording's MCP call to the demo's tracker (agentdesk's own binary,
// started in the sandbox) and its shell command each put up the approval
// prompt; approved, the run ends with the change diff of watch.md.
func TestDemoApprovalEndToEnd(t *testing.T) {
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("no sandbox here: %s", r.Unavailable)
	}
	tmp := t.TempDir()
	s := startOnScreen(t, 120, 40, []string{"HOME=" + tmp, "TMPDIR=" + tmp}, "--demo", "--fast-replay")
	s.waitFor("the demo opens", "DEMO", "fixer")
	s.press("/", "fixer", "\r", "3")
	s.waitFor("the Run pane", "Trial run of fixer", "run again, for real")
	s.press("r")
	s.waitFor("the run form", "Task")
	s.press("Fix issue 7", "\r")
	s.waitFor("the MCP call asks", "Approve a tool call?", "tracker__get_issue", "tracker (MCP)")
	s.press("o")
	s.waitFor("the command asks", "Approve a tool call?", "grep -n 'watched anew' watch.md")
	s.press("o")
	s.waitFor("the run ends with the change diff", "Completed", "Changes (changes.patch", "+A folder deleted and created again is watched anew.")
	s.press("q")
	s.endsLeavingNoDemo(tmp, "quit")
}
