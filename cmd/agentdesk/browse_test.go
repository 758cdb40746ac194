package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrowserRefusesWhatItCannotShow: the browser and `agentdesk open`
// say what is wrong with their paths (exit 2) before they need a
// terminal, and create nothing.
func TestBrowserRefusesWhatItCannotShow(t *testing.T) {
	tmp := t.TempDir()
	home := filepath.Join(tmp, "netclaw")
	if err := os.MkdirAll(filepath.Join(home, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(tmp, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(tmp, "runs")
	if err := os.MkdirAll(filepath.Join(runs, "0123abcd"), 0o755); err != nil {
		t.Fatal(err)
	}
	runID := "0123456789abcdef0123456789abcdef"
	for _, dir := range []string{filepath.Join(runs, runID), filepath.Join(tmp, "agentdesk", "runs", runID)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "result.md"), []byte("# Trial run\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(tmp, "nowhere")
	notHome := filepath.Join(tmp, "project")
	if err := os.MkdirAll(filepath.Join(notHome, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		env  []string
		args []string
		want string // in stderr
	}{
		{"missing --home", nil, []string{"--home", missing},
			"the NetClaw home " + missing + " does not exist: pass --home DIR or set NETCLAW_HOME"},
		{"missing NETCLAW_HOME", []string{"NETCLAW_HOME=" + missing}, nil,
			"the NetClaw home " + missing + " does not exist"},
		{"a folder that is no home", nil, []string{"--home", notHome},
			notHome + " is not a NetClaw home: it holds none of agents/, skills/ or config/: pass --home DIR or set NETCLAW_HOME (agentdesk --demo opens a sample home)"},
		{"--agents that is missing, without a home", nil, []string{"--home", missing, "--agents", filepath.Join(missing, "agents")}, "the agents folder " + filepath.Join(missing, "agents") + " does not exist"},
		{"--agents without a home: only the terminal is missing", nil, []string{"--home", missing, "--agents", filepath.Join(home, "agents")}, "the browser needs a terminal"},
		{"home is a file", nil, []string{"--home", file}, "the NetClaw home " + file + " is not a folder"},
		{"agents is a file", nil, []string{"--home", home, "--agents", file}, "the agents folder " + file + " is not a folder: pass --agents DIR"},
		{"no terminal", nil, []string{"--home", home}, "the browser needs a terminal"},
		{"open a missing path", nil, []string{"open", missing}, missing + " does not exist: give a run folder"},
		{"open the runs folder", nil, []string{"open", runs}, "open one run folder, like " + filepath.Join(runs, "0123")},
		{"open without a terminal", nil, []string{"open", file}, "the viewer needs a terminal and standard output is not one: read the files in " + file},
		{"open a run by its id prefix", nil, []string{"open", "--runs-dir", runs, "0123"}, "the viewer needs a terminal and standard output is not one: read the files in " + filepath.Join(runs, runID)},
		{"open a run by its whole id", []string{"XDG_STATE_HOME=" + tmp}, []string{"open", runID}, "read the files in " + filepath.Join(tmp, "agentdesk", "runs", runID)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"HOME=" + tmp}, c.env...), c.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d (stderr %q)", code, exitUsage, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, c.want)
			}
		})
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("%s was created", missing)
	}
	// A prefix no run has is no such run (exit 1), as for agentdesk runs.
	if code, _, stderr := run(t, []string{"HOME=" + tmp}, "open", "--runs-dir", runs, "ffff"); code != exitFindings || !strings.Contains(stderr, "no run ffff… in "+runs) {
		t.Errorf("open ffff: exit %d, stderr %q", code, stderr)
	}
}
