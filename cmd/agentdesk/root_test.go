package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/spf13/cobra"
)

// run executes agentdesk in-process and returns its exit code, stdout and
// stderr.
func run(t *testing.T, environ []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = execute(args, strings.NewReader(""), &out, &errOut, environ)
	return code, out.String(), errOut.String()
}

// withTestCommands registers extra subcommands for one test.
func withTestCommands(t *testing.T, cmds ...func(*globals) *cobra.Command) {
	t.Helper()
	saved := subcommands
	subcommands = append(append([]func(*globals) *cobra.Command{}, saved...), cmds...)
	t.Cleanup(func() { subcommands = saved })
}

func TestExecuteExitCodes(t *testing.T) {
	withTestCommands(t,
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
				return fmt.Errorf("read /x/\x1b[2Jevil.md: %w", errors.New("kaboom"))
			}}
		},
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "findings", RunE: func(*cobra.Command, []string) error {
				return exitWith(exitFindings, nil)
			}}
		},
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "incomplete", RunE: func(*cobra.Command, []string) error {
				return exitWith(exitFindings, errors.New("the run timed out"))
			}}
		},
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "badvalue", RunE: func(*cobra.Command, []string) error {
				return usageErrorf("--task is empty: say what the agent should do")
			}}
		},
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "one ARG", Args: cobra.ExactArgs(1), RunE: func(*cobra.Command, []string) error { return nil }}
		},
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "panics", RunE: func(*cobra.Command, []string) error { panic("nil map\x1b]0;t\x07") }}
		},
		func(*globals) *cobra.Command {
			return &cobra.Command{Use: "prerun", PreRunE: func(*cobra.Command, []string) error { return errors.New("setup failed") },
				RunE: func(*cobra.Command, []string) error { return nil }}
		},
	)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // substring, "" means empty
		stderr string // exact
	}{
		{name: "version", args: []string{"--version"}, code: 0, stdout: "agentdesk dev\n"},
		{name: "help", args: []string{"--help"}, code: 0, stdout: "Usage:"},
		{name: "unknown flag", args: []string{"--bogus"}, code: 2,
			stderr: "agentdesk: unknown flag: --bogus\nRun 'agentdesk --help' for usage.\n"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2,
			stderr: "agentdesk: unknown command \"frobnicate\" for \"agentdesk\"\nRun 'agentdesk --help' for usage.\n"},
		{name: "misspelt command", args: []string{"expor"}, code: 2,
			stderr: "agentdesk: unknown command \"expor\" for \"agentdesk\": did you mean \"export\"?\nRun 'agentdesk --help' for usage.\n"},
		{name: "bad colour", args: []string{"--color", "sometimes"}, code: 2,
			stderr: "agentdesk: invalid argument \"sometimes\" for \"--color\" flag: \"sometimes\" is not a colour mode: use auto, always or never\nRun 'agentdesk --help' for usage.\n"},
		{name: "wrong number of arguments", args: []string{"one"}, code: 2,
			stderr: "agentdesk: accepts 1 arg(s), received 0\nRun 'agentdesk one --help' for usage.\n"},
		{name: "unknown flag of a subcommand", args: []string{"one", "x", "--nope"}, code: 2,
			stderr: "agentdesk: unknown flag: --nope\nRun 'agentdesk one --help' for usage.\n"},
		{name: "usage error from the command", args: []string{"badvalue"}, code: 2,
			stderr: "agentdesk: --task is empty: say what the agent should do\nRun 'agentdesk badvalue --help' for usage.\n"},
		{name: "plain error is internal, escaped", args: []string{"boom"}, code: 3,
			stderr: "agentdesk: read /x/\\x1b[2Jevil.md: kaboom\n"},
		{name: "pre-run error is internal", args: []string{"prerun"}, code: 3, stderr: "agentdesk: setup failed\n"},
		{name: "findings exit silently", args: []string{"findings"}, code: 1},
		{name: "coded error is printed", args: []string{"incomplete"}, code: 1, stderr: "agentdesk: the run timed out\n"},
		{name: "panic is internal", args: []string{"panics"}, code: 3, stderr: "agentdesk: internal error: nil map\\x1b]0;t\\a\n"},
		{name: "success", args: []string{"one", "x"}, code: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if tt.stdout == "" && stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if !strings.Contains(stdout, tt.stdout) {
				t.Errorf("stdout = %q, want it to contain %q", stdout, tt.stdout)
			}
			if stderr != tt.stderr {
				t.Errorf("stderr = %q, want %q", stderr, tt.stderr)
			}
		})
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"cobra's own error", errors.New("unknown flag: --x"), 2},
		{"command error", &runError{errors.New("disk on fire")}, 3},
		{"coded", &runError{exitWith(1, nil)}, 1},
		{"coded, wrapped", &runError{fmt.Errorf("lint: %w", exitWith(2, errors.New("bad")))}, 2},
		{"coded outside a command", exitWith(3, errors.New("x")), 3},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("%s: exitCode = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestGetenv(t *testing.T) {
	g := &globals{environ: []string{"A=1", "NO_COLOR_X=1", "B=", "A=2", "C=x=y"}}
	tests := []struct{ key, want string }{
		{"A", "2"}, // the last one wins
		{"B", ""},
		{"C", "x=y"},
		{"NO_COLOR", ""},
		{"MISSING", ""},
	}
	for _, tt := range tests {
		if got := g.Getenv(tt.key); got != tt.want {
			t.Errorf("Getenv(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestColor(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty on this machine: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	tests := []struct {
		name string
		mode colorMode
		env  []string
		term bool
		want bool
	}{
		{name: "auto on a terminal", mode: colorAuto, term: true, want: true},
		{name: "auto on a pipe", mode: colorAuto, term: false, want: false},
		{name: "NO_COLOR beats auto", mode: colorAuto, env: []string{"NO_COLOR=1"}, term: true, want: false},
		{name: "empty NO_COLOR is unset", mode: colorAuto, env: []string{"NO_COLOR="}, term: true, want: true},
		{name: "always beats NO_COLOR", mode: colorAlways, env: []string{"NO_COLOR=1"}, term: false, want: true},
		{name: "never on a terminal", mode: colorNever, term: true, want: false},
		{name: "TERM=dumb beats auto", mode: colorAuto, env: []string{"TERM=dumb"}, term: true, want: false},
		{name: "always beats TERM=dumb", mode: colorAlways, env: []string{"TERM=dumb"}, term: false, want: true},
		{name: "another TERM", mode: colorAuto, env: []string{"TERM=xterm-256color"}, term: true, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &globals{color: tt.mode, environ: tt.env}
			var w io.Writer = &bytes.Buffer{}
			if tt.term {
				w = tty
			}
			if got := g.Color(w); got != tt.want {
				t.Errorf("Color = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestColorFlag(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want colorMode
	}{{"auto", colorAuto}, {"always", colorAlways}, {"NEVER", colorNever}} {
		var c colorMode
		if err := c.Set(tt.in); err != nil || c != tt.want {
			t.Errorf("Set(%q) = %v, %v", tt.in, c, err)
		}
		if c.String() != strings.ToLower(tt.in) {
			t.Errorf("String() = %q after Set(%q)", c.String(), tt.in)
		}
	}
}

func TestHome(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name         string
		home, agents string
		env          []string
		base, agentz string
	}{
		{name: "flag", home: dir + "/a", env: []string{"NETCLAW_HOME=" + dir + "/b"}, base: dir + "/a", agentz: dir + "/a/agents"},
		{name: "environment", env: []string{"NETCLAW_HOME=" + dir + "/b"}, base: dir + "/b", agentz: dir + "/b/agents"},
		{name: "agents override", home: dir + "/a", agents: dir + "/mine", base: dir + "/a", agentz: dir + "/mine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &globals{home: tt.home, agents: tt.agents, environ: tt.env}
			h, err := g.Home()
			if err != nil {
				t.Fatal(err)
			}
			if h.Base != filepath.Clean(tt.base) || h.Agents != filepath.Clean(tt.agentz) {
				t.Errorf("home = %+v, want base %s agents %s", h, tt.base, tt.agentz)
			}
		})
	}
}

func TestGlobalFlagsAfterSubcommand(t *testing.T) {
	var seen *globals
	withTestCommands(t, func(g *globals) *cobra.Command {
		return &cobra.Command{Use: "peek", RunE: func(*cobra.Command, []string) error { seen = g; return nil }}
	})
	if code, _, stderr := run(t, nil, "peek", "--home", "/h", "--agents", "/a", "--color", "never"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if seen.home != "/h" || seen.agents != "/a" || seen.color != colorNever {
		t.Errorf("globals = home %q agents %q color %v", seen.home, seen.agents, seen.color.String())
	}
}
