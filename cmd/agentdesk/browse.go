package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
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
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(dir, "runs"), WordError: wordFlags})
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
	approved, err := browserApprove(g, h)
	if err != nil {
		return err
	}
	if err := needTerminal(g, opts.OpenPath); err != nil {
		return err
	}
	opts.Home = h
	opts.WordError = wordFlags
	opts.Words = browserWords
	opts.FastReplay, _ = cmd.Flags().GetBool("fast-replay")
	if opts.OpenPath == "" {
		opts.Scanner = wordedScanner{lint.NewScanner(h, lint.ScanOptions{Environ: g.environ})}
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
	if opts.Project, err = browserProject(g, opts.Project); err != nil {
		return err
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
	return runProgram(cmd, g, m)
}

// browserApprove reads the browser's --approve patterns. The browser's
// audience changes as it runs ('a'): an MCP server a pattern names must be
// one configured, for some audience.
func browserApprove(g *globals, h lint.Home) ([]approve.Pattern, error) {
	approved, err := parseApprove(g.browserApprove)
	if err != nil || len(approved) == 0 {
		return approved, err
	}
	// The server must be one configured; and some audience the browser's
	// runs (r: --audience) or its suites' cases (T) run as must be able to
	// use each pattern.
	cfg := lint.LoadConfig(h, g.environ)
	if err := checkApproveServers(approved, cfg, ""); err != nil {
		return nil, err
	}
	if err := checkApproveAudiences(approved, cfg, browserAudiences(h, preview.Audience(g.browserAudience))); err != nil {
		return nil, err
	}
	return approved, nil
}

// needTerminal refuses to start the browser (or, with openPath, the
// viewer) when standard output is not a terminal, and says what to use
// instead.
func needTerminal(g *globals, openPath string) error {
	if isTerminal(g.stdout) {
		return nil
	}
	if openPath != "" {
		return usageErrorf("the viewer needs a terminal and standard output is not one: read the files in %s directly, or use 'agentdesk runs RUN_ID'", openPath)
	}
	return usageErrorf("the browser needs a terminal and standard output is not one: for scripts use 'agentdesk lint' or 'agentdesk preview'")
}

// browserProject is the folder the browser's trials read: project when
// preset (the demo's), else --project (which must be a folder), else the
// folder agentdesk was started in, as `agentdesk run` does by default.
func browserProject(g *globals, project string) (string, error) {
	if project == "" && g.browserProject != "" {
		if fi, err := os.Stat(g.browserProject); err != nil || !fi.IsDir() {
			return "", usageErrorf("--project %s is not a folder", g.browserProject)
		}
		project = g.browserProject
	}
	if project == "" {
		if wd, err := os.Getwd(); err == nil {
			project = wd
		}
	}
	return project, nil
}

// runProgram runs the browser's model m on the terminal until it quits.
// Leaving with Ctrl-C, or being interrupted from outside, is a normal
// end.
func runProgram(cmd *cobra.Command, g *globals, m tea.Model) error {
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

// browserAudiences lists the audiences the browser's trials run as: runs
// as --audience (run), and each case of the test suites in the agents
// folder as its own audience, else its suite's, else --audience, each
// once.
func browserAudiences(h lint.Home, run preview.Audience) []preview.Audience {
	out := []preview.Audience{run}
	files, _ := suitefile.Find(h.Agents, suitefile.TestSuffix)
	for _, p := range files {
		s := suitefile.Load(p)
		for _, cs := range s.Cases {
			a, err := preview.ParseAudience(cmp.Or(cs.Audience, s.Audience, run.String()))
			if err == nil && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// wordedScanner is the browser's scanner, its errors worded with flags.
// It rescans only what changed, as lint.Scanner does.
type wordedScanner struct{ sc *lint.Scanner }

var _ tui.Rescanner = wordedScanner{}

// Scan scans and words the error.
func (s wordedScanner) Scan() (*lint.Catalog, error) {
	c, err := s.sc.Scan()
	return c, wordFlags(err)
}

// Rescan rescans the changed paths and words the error.
func (s wordedScanner) Rescan(changed []string) (*lint.Catalog, error) {
	c, err := s.sc.Rescan(changed)
	return c, wordFlags(err)
}

// newRunner makes the browser's runner on the default runs folder.
func newRunner(g *globals) (*runner.Runner, error) {
	dir, err := runfolder.DefaultRunsDir(g.Getenv)
	if err != nil {
		return nil, wordFlags(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: dir, WordError: wordFlags})
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
