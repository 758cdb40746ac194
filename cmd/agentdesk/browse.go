package main

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/tui"
)

// runBrowser starts the interactive browser on the home from --home and
// --agents, and keeps it open until the user quits.
func runBrowser(cmd *cobra.Command, g *globals) error {
	h, err := g.Home()
	if err != nil {
		return exitWith(exitUsage, err)
	}
	return browse(cmd, g, h, tui.Options{})
}

// browse runs the browser on h; opts may preset the demo flag and an
// opening path, the rest comes from g.
func browse(cmd *cobra.Command, g *globals, h lint.Home, opts tui.Options) error {
	if !isTerminal(g.stdout) {
		return exitWith(exitUsage, errors.New("the browser needs a terminal and standard output is not one: for scripts use 'agentdesk lint' or 'agentdesk preview'"))
	}
	opts.Home = h
	if opts.OpenPath == "" {
		opts.Scanner = lint.NewScanner(h, lint.ScanOptions{Environ: g.environ})
		opts.Watch = true
	}
	if opts.Runner == nil {
		opts.Runner, opts.RunnerErr = newRunner(g)
	}
	opts.Color = g.Color(g.stdout)
	opts.Environ = g.environ
	m := tui.New(opts)
	defer m.Close()
	p := tea.NewProgram(m,
		tea.WithContext(cmd.Context()),
		tea.WithInput(g.stdin),
		tea.WithOutput(g.stdout),
		tea.WithEnvironment(g.environ),
	)
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
	dir, err := runner.DefaultRunsDir(g.Getenv)
	if err != nil {
		return nil, err
	}
	return runner.New(runner.Options{RunsDir: dir})
}
