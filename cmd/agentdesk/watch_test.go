package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// watchRounds runs agentdesk with args (a --watch) in the background and
// delivers the suite files of each round, by base name and sorted; stop
// ends the watch like Ctrl-C and returns its exit code and output.
func watchRounds(t *testing.T, env []string, args ...string) (rounds <-chan []string, stop func() (int, string, string)) {
	t.Helper()
	ch := make(chan []string, 16)
	watchHook = func(files []string) {
		var names []string
		for _, f := range files {
			names = append(names, filepath.Base(f))
		}
		slices.Sort(names)
		ch <- names
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- executeContext(ctx, args, strings.NewReader(""), &out, &errOut, env) }()
	var once bool
	stop = func() (int, string, string) {
		if once {
			t.Fatal("stopped twice")
		}
		once = true
		cancel()
		select {
		case code := <-done:
			watchHook = nil
			return code, out.String(), errOut.String()
		case <-time.After(20 * time.Second):
			t.Fatal("the watch did not stop")
		}
		return 0, "", ""
	}
	t.Cleanup(func() {
		if !once {
			cancel()
			<-done
			watchHook = nil
		}
	})
	return ch, stop
}

// nextRound waits for the watch's next round; the deadline only turns a
// hang into a failure.
func nextRound(t *testing.T, rounds <-chan []string, what string) []string {
	t.Helper()
	select {
	case r := <-rounds:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no round ran", what)
	}
	return nil
}

func TestTestWatchRunsWhatChanged(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	agents := filepath.Dir(suite)
	home := filepath.Dir(agents)
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(agents, "other.md")
	write(other, "---\nname: other\ndescription: Other things.\n---\nYou do other things.\n")
	write(filepath.Join(agents, "other.test.yaml"), "cases: [{name: a, task: say hi, expect: {contains: hello}}]\n")
	config, err := os.ReadFile(filepath.Join(home, "config", "netclaw.json"))
	if err != nil {
		t.Fatal(err)
	}
	saved := map[string][]byte{}
	for _, name := range []string{"code-analyst.md", "code-analyst.test.yaml", "other.md", "other.test.yaml"} {
		saved[name], _ = os.ReadFile(filepath.Join(agents, name))
	}

	rounds, stop := watchRounds(t, env, "test", "--watch")
	both := []string{"code-analyst.test.yaml", "other.test.yaml"}
	if r := nextRound(t, rounds, "first"); !slices.Equal(r, both) {
		t.Fatalf("first round %q", r)
	}
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"an agent edited", func() { write(other, string(saved["other.md"])+"More.\n") }, []string{"other.test.yaml"}},
		{"the config saved", func() { write(filepath.Join(home, "config", "netclaw.json"), string(config)) }, both},
		{"a suite edited", func() { write(suite, cmdSuite+"  - name: more\n    task: say hi\n") }, []string{"code-analyst.test.yaml"}},
		{"an unrelated file, then an agent", func() {
			write(filepath.Join(agents, "notes.txt"), "x")
			write(other, string(saved["other.md"]))
		}, []string{"other.test.yaml"}},
		{"the agents folder deleted and made again", func() {
			if err := os.RemoveAll(agents); err != nil {
				t.Fatal(err)
			}
			for name, data := range saved {
				write(filepath.Join(agents, name), string(data))
			}
		}, both},
	}
	for _, st := range steps {
		st.do()
		if r := nextRound(t, rounds, st.name); !slices.Equal(r, st.want) {
			// A folder made again may come in two rounds (the folder,
			// then its files): what ran in all must be what is wanted.
			got := r
			for !slices.Equal(got, st.want) && len(got) < len(st.want) {
				got = append(got, nextRound(t, rounds, st.name+" (more)")...)
				slices.Sort(got)
				got = slices.Compact(got)
			}
			if !slices.Equal(got, st.want) {
				t.Fatalf("%s: ran %q, want %q", st.name, got, st.want)
			}
		}
	}
	code, stdout, stderr := stop()
	if code != 0 || !strings.Contains(stderr, "agentdesk: stopped watching") || !strings.Contains(stderr, "for changes (offline); Ctrl-C to stop") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "agentdesk test --watch · ") || !strings.Contains(stdout, "1 suite to run again after a change to agents/other.md") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if strings.Contains(stdout, "\x1b[2J") {
		t.Errorf("the screen was cleared on a pipe")
	}
}

func TestTestWatchLive(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	if err := os.WriteFile(suite, []byte("cases: [{name: answers, task: say hi, expect: {contains: hello}}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rounds, stop := watchRounds(t, env, "test", "--watch", "--live")
	nextRound(t, rounds, "first")
	code, stdout, stderr := stop()
	if code != 0 || !strings.Contains(stdout, "pass   answers") || !strings.Contains(stderr, "(live)") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Nothing was recorded.
	if _, err := os.Stat(filepath.Join(filepath.Dir(suite), "code-analyst.test.recordings")); !os.IsNotExist(err) {
		t.Errorf("--watch --live recorded: %v", err)
	}
}

func TestRouteWatch(t *testing.T) {
	_, env, _, suite := suiteHome(t)
	agents := filepath.Dir(suite)
	route := filepath.Join(agents, "frontline.route.yaml")
	if err := os.WriteFile(route, []byte("cases: [{name: a, request: read the code, expect: code-analyst}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rounds, stop := watchRounds(t, env, "route", "--suite", "--watch")
	if r := nextRound(t, rounds, "first"); !slices.Equal(r, []string{"frontline.route.yaml"}) {
		t.Fatalf("first round %q", r)
	}
	// Any agent's definition is what the frontline sees.
	if err := os.WriteFile(filepath.Join(agents, "new-agent.md"), []byte("---\nname: new-agent\ndescription: New.\n---\nNew.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := nextRound(t, rounds, "an agent added"); !slices.Equal(r, []string{"frontline.route.yaml"}) {
		t.Fatalf("round %q", r)
	}
	if code, _, stderr := stop(); code != 0 {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestWatchUsage(t *testing.T) {
	_, env, _, _ := suiteHome(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "--live"}, "--live runs every sample live while watching: use it with --watch"},
		{[]string{"test", "--watch", "--record"}, "--watch re-runs suites as you edit, and never records"},
		{[]string{"test", "--watch", "--live", "--offline"}, "give one of them"},
		{[]string{"test", "--watch", "--format", "json"}, "--watch prints a text report per round: leave out --format json"},
		{[]string{"test", "--watch", "--demo"}, "leave out --demo"},
		{[]string{"route", "--watch", "hello"}, "--watch re-runs routing suites: use it with --suite"},
		{[]string{"route", "--suite", "--static", "--watch", "--live"}, "--static asks no model: leave out --live"},
	} {
		code, _, stderr := runTrialCmd(t, env, "", tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d\n%s", tt.args, code, stderr)
		}
	}
}

// TestTestWatchClearsATerminal: on a terminal each round starts on a
// cleared screen, as go test watchers do.
func TestTestWatchClearsATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty on this machine: %v", err)
	}
	defer ptmx.Close()
	_, env, _, _ := suiteHome(t)
	var screen bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&screen, ptmx); close(copied) }()
	ch := make(chan []string, 4)
	watchHook = func(files []string) { ch <- files }
	defer func() { watchHook = nil }()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		done <- executeContext(ctx, []string{"test", "--watch", "--color", "never"}, strings.NewReader(""), tty, &errOut, env)
	}()
	nextRound(t, ch, "first")
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	tty.Close()
	select {
	case <-copied:
	case <-time.After(20 * time.Second):
		t.Fatal("the terminal's output did not end")
	}
	if !strings.HasPrefix(screen.String(), clearScreen+"agentdesk test --watch · ") {
		t.Errorf("the round did not start on a cleared screen: %q", screen.String()[:min(80, screen.Len())])
	}
}
