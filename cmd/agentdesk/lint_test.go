package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// Agent definitions for temporary homes.
const (
	goodAgent = "---\nname: reviewer\ndescription: Reviews pull requests.\n---\nYou review pull requests.\n"
	// warnAgent loads, with an unknown-field warning.
	warnAgent = "---\nname: writer\ndescription: Writes release notes.\nModelRole: Main\n---\nYou write release notes.\n"
	// badAgent is rejected: it has no frontmatter.
	badAgent = "You have no frontmatter.\n"
)

// repoHome is one of the sample homes under the repository's testdata.
func repoHome(name string) string {
	return filepath.Join("..", "..", "testdata", "homes", name)
}

func TestLintExitCodes(t *testing.T) {
	clean := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent})
	warn := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent, "agents/writer.md": warnAgent})
	bad := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent, "agents/broken.md": badAgent})
	empty := hometest.New(t, map[string]string{"README.md": "not a home"})
	env := []string{"HOME=/nonexistent"}
	tests := []struct {
		name   string
		env    []string
		args   []string
		code   int
		stdout []string // substrings
		stderr string   // substring; "" means stderr must be empty
	}{
		{name: "clean home", args: []string{"lint", "--home", clean}, code: 0,
			stdout: []string{"1 loaded, 0 rejected, 0 errors, 0 warnings\n"}},
		{name: "home from NETCLAW_HOME", env: []string{"NETCLAW_HOME=" + bad}, args: []string{"lint"}, code: 1,
			stdout: []string{"broken.md", "[frontmatter]", "1 loaded, 1 rejected, 1 error, 0 warnings\n"}},
		{name: "warnings pass", args: []string{"lint", "--home", warn}, code: 0,
			stdout: []string{"writer.md:4:1: warning:", "[unknown-field]", "2 loaded, 0 rejected, 0 errors, 1 warning\n"}},
		{name: "warnings fail with --strict", args: []string{"lint", "--strict", "--home", warn}, code: 1,
			stdout: []string{"1 warning\n--strict: the warning fails the check\n"}},
		{name: "warnings fail with --strict, github", args: []string{"lint", "--strict", "--format", "github", "--home", warn}, code: 1,
			stdout: []string{"::error title=agentdesk lint --strict::the warning fails the check\n"}},
		{name: "--strict without warnings says nothing more", args: []string{"lint", "--strict", "--home", clean}, code: 0,
			stdout: []string{"0 warnings\n"}},
		{name: "errors fail", args: []string{"lint", "--home", bad}, code: 1,
			stdout: []string{"broken.md", "1 error"}},
		{name: "a file", args: []string{"lint", filepath.Join(bad, "agents", "reviewer.md")}, code: 0,
			stdout: []string{"1 loaded, 0 rejected"}},
		{name: "a folder", args: []string{"lint", filepath.Join(bad, "agents")}, code: 1,
			stdout: []string{"1 loaded, 1 rejected"}},
		{name: "--agents overrides the folder", args: []string{"lint", "--home", bad, "--agents", filepath.Join(clean, "agents")}, code: 0,
			stdout: []string{"1 loaded, 0 rejected"}},
		{name: "json", args: []string{"lint", "--format", "json", "--home", bad}, code: 1,
			stdout: []string{`"status": "rejected"`, `"rule": "frontmatter"`}},
		{name: "github", args: []string{"lint", "--format=github", "--home", bad}, code: 1,
			stdout: []string{"::error file=", "title=frontmatter::"}},
		{name: "sarif", args: []string{"lint", "--format=sarif", "--home", bad}, code: 1,
			stdout: []string{`"version": "2.1.0"`, `"ruleId": "frontmatter"`}},
		{name: "publish profile", args: []string{"lint", "--profile", "publish", "--home", clean}, code: 0},
		{name: "bad format", args: []string{"lint", "--format", "xml", "--home", clean}, code: 2,
			stderr: "\"xml\" is not a format: use text, json, sarif or github\nRun 'agentdesk lint --help' for usage.\n"},
		{name: "bad profile", args: []string{"lint", "--profile", "strict", "--home", clean}, code: 2,
			stderr: "unknown profile \"strict\": use runtime or publish\nRun 'agentdesk lint --help' for usage.\n"},
		{name: "missing path", args: []string{"lint", filepath.Join(clean, "agents", "nope.md")}, code: 2,
			stderr: "nope.md: no such file or folder: give an agent file or an agents folder\nRun 'agentdesk lint --help' for usage.\n"},
		{name: "missing home", args: []string{"lint", "--home", filepath.Join(clean, "nowhere")}, code: 2,
			stderr: "nowhere does not exist: pass --home DIR or set NETCLAW_HOME\n"},
		{name: "agents is a file", args: []string{"lint", "--home", clean, "--agents", filepath.Join(clean, "agents", "reviewer.md")}, code: 2,
			stderr: "is not a folder: pass --agents DIR\n"},
		{name: "--agents names no folder", args: []string{"lint", "--home", clean, "--agents", filepath.Join(clean, "agnets")}, code: 2,
			stderr: "agnets does not exist: check --agents, or leave it out to read "},
		{name: "a home without an agents folder", args: []string{"lint", "--home", hometest.New(t, map[string]string{"config/netclaw.json": "{}"})}, code: 0,
			stdout: []string{": info: Agents directory does not exist: ", "/agents [agents-folder]\n", "0 loaded, 0 rejected, 0 errors, 0 warnings, 1 info\n"}},
		{name: "a folder that is no home", args: []string{"lint", "--home", empty}, code: 2,
			stderr: empty + " is not a NetClaw home: it holds none of agents/, skills/ or config/: pass --home DIR or set NETCLAW_HOME\n"},
		{name: "a folder that is no home, json", args: []string{"lint", "--format", "json", "--home", empty}, code: 2, stderr: "is not a NetClaw home"},
		{name: "a folder that is no home, sarif", args: []string{"lint", "--format", "sarif", "--home", empty}, code: 2, stderr: "is not a NetClaw home"},
		{name: "a folder that is no home, github", args: []string{"lint", "--format", "github", "--home", empty}, code: 2, stderr: "is not a NetClaw home"},
		{name: "--agents without a home", args: []string{"lint", "--home", filepath.Join(empty, "nowhere"), "--agents", filepath.Join(clean, "agents")}, code: 0,
			stdout: []string{"1 loaded, 0 rejected"}},
		{name: "--agents in a folder that is no home", args: []string{"lint", "--home", empty, "--agents", filepath.Join(clean, "agents")}, code: 0,
			stdout: []string{"1 loaded, 0 rejected"}},
		{name: "a home given as PATH", args: []string{"lint", bad}, code: 2,
			stderr: " is a NetClaw home, not an agents folder: run 'agentdesk lint --home "},
		{name: "colour always", args: []string{"lint", "--color", "always", "--home", warn}, code: 0,
			stdout: []string{"\x1b[1;33mwarning\x1b[0m"}},
		{name: "sample home: good", args: []string{"lint", "--home", repoHome("good")}, code: 0,
			stdout: []string{" loaded, 0 rejected, 0 errors, "}},
		{name: "sample home: bad", args: []string{"lint", "--home", repoHome("bad")}, code: 1,
			stdout: []string{"[frontmatter]", "[duplicate-name]", "[routing-target]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append(env, tt.env...), tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if tt.stderr == "" && stderr != "" {
				t.Errorf("stderr = %q, want nothing", stderr)
			}
			if tt.stderr != "" && !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.stderr)
			}
			if code == 2 && stdout != "" {
				t.Errorf("bad usage printed a report: %q", stdout)
			}
			if !strings.Contains(strings.Join(tt.args, " "), "--color") && strings.Contains(stdout, "\x1b") {
				t.Errorf("colour on a pipe: %q", stdout)
			}
		})
	}
}

func TestLintNoColorHonoured(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/writer.md": warnAgent})
	_, stdout, _ := run(t, []string{"NO_COLOR=1"}, "lint", "--home", home, "--color", "auto")
	if strings.Contains(stdout, "\x1b") {
		t.Errorf("NO_COLOR with --color auto printed colour: %q", stdout)
	}
	_, stdout, _ = run(t, []string{"NO_COLOR=1"}, "lint", "--home", home, "--color", "always")
	if !strings.Contains(stdout, "\x1b[") {
		t.Errorf("--color always printed no colour under NO_COLOR: %q", stdout)
	}
}

func TestLintJSONIsOneDocument(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent, "agents/broken.md": badAgent})
	_, stdout, _ := run(t, nil, "lint", "--format", "json", "--home", home)
	var doc struct {
		Files []struct {
			Path, Status string
		}
		Summary struct{ Loaded, Rejected, Errors int }
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Errorf("more than one JSON document on stdout")
	}
	if doc.Summary.Loaded != 1 || doc.Summary.Rejected != 1 || doc.Summary.Errors != 1 {
		t.Errorf("summary = %+v", doc.Summary)
	}
}

func TestLintEscapesControlCharacters(t *testing.T) {
	home := hometest.New(t, map[string]string{
		"agents/evil.md": "---\nname: \"\x1b[31mevil\x1b[0m\"\ndescription: \"\x1b]0;pwned\x07\"\nModel\x1bRole: Main\n---\nBody.\n",
	})
	for _, format := range []string{"text", "json", "sarif", "github"} {
		_, stdout, _ := run(t, nil, "lint", "--format", format, "--home", home)
		if strings.ContainsAny(stdout, "\x1b\x07") {
			t.Errorf("%s: raw control character in the output:\n%q", format, stdout)
		}
	}
}

// snapshot records every path under dir with its size, mode and time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[path] = fmt.Sprintf("%v %s %d", info.Mode(), info.ModTime().Format(time.RFC3339Nano), info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLintWritesNothing(t *testing.T) {
	home := hometest.New(t, map[string]string{
		"agents/reviewer.md":                         goodAgent,
		"agents/broken.md":                           badAgent,
		"agents/.server-feeds/acme/helper.md":        goodAgent,
		"skills/triage/SKILL.md":                     "---\nname: triage\ndescription: x\nmetadata:\n  subagent: nobody\n---\nTriage.\n",
		"config/netclaw.json":                        "{ not json",
		"agents/.server-feeds/acme/.sync-state.json": "{}",
	})
	cwd := t.TempDir()
	t.Chdir(cwd)
	before, beforeCwd := snapshot(t, home), snapshot(t, cwd)
	for _, format := range []string{"text", "json", "sarif", "github"} {
		run(t, []string{"XDG_STATE_HOME=" + cwd, "XDG_CACHE_HOME=" + cwd}, "lint", "--format", format, "--home", home)
	}
	after, afterCwd := snapshot(t, home), snapshot(t, cwd)
	if len(before) != len(after) || len(beforeCwd) != len(afterCwd) {
		t.Fatalf("lint added or removed files:\nbefore %v\nafter  %v\ncwd before %v\ncwd after %v", before, after, beforeCwd, afterCwd)
	}
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s changed: %s -> %s", p, v, after[p])
		}
	}
}

// TestLintOnADumbTerminal: TERM=dumb shows escape sequences as text, so
// lint on such a terminal prints none; on another terminal it colours.
func TestLintOnADumbTerminal(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/writer.md": warnAgent})
	if out := runOnTerminal(t, []string{"TERM=dumb"}, "lint", "--home", home); strings.Contains(out, "\x1b[") || !strings.Contains(out, "[unknown-field]") {
		t.Errorf("TERM=dumb: %q", out)
	}
	if out := runOnTerminal(t, nil, "lint", "--home", home); !strings.Contains(out, "\x1b[") {
		t.Errorf("xterm-256color printed no colour: %q", out)
	}
}

// TestLintUnreadableAgentsFolder: an agents folder that cannot be read is
// a finding (exit 1) in the report, not an internal failure (exit 3).
func TestLintUnreadableAgentsFolder(t *testing.T) {
	home := t.TempDir()
	if err := os.Symlink("agents", filepath.Join(home, "agents")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	for _, args := range [][]string{{"lint", "--home", home}, {"lint", "--home", home, "--format", "github"}} {
		code, stdout, stderr := run(t, nil, args...)
		if code != exitFindings || !strings.Contains(stdout, "cannot read the agents folder: a symbolic link loop") || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}
