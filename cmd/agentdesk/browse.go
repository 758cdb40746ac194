package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// runBrowser starts the interactive browser on the home from --home and
// --agents, and keeps it open until the user quits.
func runBrowser(cmd *cobra.Command, g *globals) error {
	if demo, _ := cmd.Flags().GetBool("demo"); demo {
		return runDemo(cmd, g)
	}
	// A typo in --home must not open an empty browser whose n key would
	// create the folders it names.
	h, err := homeToRead(g, " (agentdesk --demo opens a sample home)")
	if err != nil {
		return err
	}
	// With --agents the home may be missing: then it is not "gone".
	return browse(cmd, g, h, tui.Options{NoHome: !h.Exists()})
}

// runDemo opens the browser on the embedded sample home, made in a new
// temporary folder with its own runs folder, and removes it on the way out:
// the demo never reads or writes a real home.
func runDemo(cmd *cobra.Command, g *globals) error {
	if cmd.Flags().Changed("home") || cmd.Flags().Changed("agents") {
		return usageErrorf("--demo opens its own sample home: leave out --home and --agents")
	}
	dir, h, err := makeDemo()
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(dir, "runs")})
	if err != nil {
		return exitWith(exitInternal, err)
	}
	// Trial runs work on a copy of the demo's project.
	return browse(cmd, g, h, tui.Options{Demo: true, Runner: rn, Project: demo.ProjectDir(h), DraftsDir: filepath.Join(dir, "drafts")})
}

// browse runs the browser on h; opts may preset the demo flag and an
// opening path, the rest comes from g.
func browse(cmd *cobra.Command, g *globals, h lint.Home, opts tui.Options) error {
	// Bad patterns are bad usage, said before anything else, terminal or
	// not.
	approved, err := parseApprove(g.browserApprove)
	if err != nil {
		return err
	}
	if len(approved) > 0 {
		// The browser's audience changes as it runs ('a'): the server
		// must be one configured, for some audience.
		if err := checkApproveServers(approved, lint.LoadConfig(h, g.environ), ""); err != nil {
			return err
		}
	}
	if !isTerminal(g.stdout) {
		if opts.OpenPath != "" {
			return usageErrorf("the viewer needs a terminal and standard output is not one: read the files in %s directly, or use 'agentdesk runs RUN_ID'", opts.OpenPath)
		}
		return usageErrorf("the browser needs a terminal and standard output is not one: for scripts use 'agentdesk lint' or 'agentdesk preview'")
	}
	opts.Home = h
	if opts.OpenPath == "" {
		opts.Scanner = lint.NewScanner(h, lint.ScanOptions{Environ: g.environ})
		opts.Watch = true
	}
	if opts.Runner == nil {
		opts.Runner, opts.RunnerErr = newRunner(g)
	}
	if opts.OpenPath == "" {
		nc, err := g.browserNetClaw.spawnNetClaw(g, h, preview.Audience(g.browserAudience))
		if err != nil {
			return err
		}
		opts.NetClaw = nc
	}
	if opts.Project == "" && g.browserProject != "" {
		if fi, err := os.Stat(g.browserProject); err != nil || !fi.IsDir() {
			return usageErrorf("--project %s is not a folder", g.browserProject)
		}
		opts.Project = g.browserProject
	}
	if opts.Project == "" {
		// The trial tools read the folder agentdesk was started in, as
		// `agentdesk run` does by default.
		if wd, err := os.Getwd(); err == nil {
			opts.Project = wd
		}
	}
	opts.Approve = approved
	if err := g.browserSandbox.check(lint.LoadConfig(h, g.environ)); err != nil {
		return err
	}
	opts.Sandbox = g.browserSandbox.spec()
	opts.Color = g.Color(g.stdout)
	opts.Environ = g.environ
	m := tui.New(opts)
	defer m.Close()
	progOpts := []tea.ProgramOption{
		tea.WithContext(cmd.Context()),
		tea.WithInput(g.stdin),
		tea.WithOutput(g.stdout),
		tea.WithEnvironment(g.environ),
	}
	if g.color == colorAlways {
		// Bubble Tea reads NO_COLOR and TERM=dumb itself and would drop
		// the colours --color always asked for.
		progOpts = append(progOpts, tea.WithColorProfile(alwaysProfile(g.stdout, g.environ)))
	}
	p := tea.NewProgram(m, progOpts...)
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrInterrupted) {
		if errors.Is(err, tea.ErrProgramKilled) && cmd.Context().Err() != nil {
			return nil // interrupted from outside: a normal way to leave
		}
		return exitWith(exitInternal, fmt.Errorf("the browser stopped: %w", err))
	}
	return nil
}

// newRunner makes the browser's runner on the default runs folder.
func newRunner(g *globals) (*runner.Runner, error) {
	dir, err := runfolder.DefaultRunsDir(g.Getenv)
	if err != nil {
		return nil, wordFlags(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: dir})
	return rn, wordFlags(err)
}

// alwaysProfile is the colour profile --color always gives the browser:
// the terminal's own, detected as if NO_COLOR and TERM=dumb were not set,
// and at least 16 colours; every other command colours with --color
// always whatever NO_COLOR says, and the browser agrees.
func alwaysProfile(w io.Writer, environ []string) colorprofile.Profile {
	var env []string
	for _, kv := range environ {
		if strings.HasPrefix(kv, "NO_COLOR=") || kv == "TERM=dumb" {
			continue
		}
		env = append(env, kv)
	}
	return max(colorprofile.Detect(w, env), colorprofile.ANSI)
}
