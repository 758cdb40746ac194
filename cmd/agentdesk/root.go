package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
)

// version is set by -ldflags "-X main.version=v1.2.3"; when the build
// did not set it, programVersion reads the build information.
var version string

// programVersion is the version --version prints and reports carry.
func programVersion() string { return versionFrom(version, debug.ReadBuildInfo) }

// versionFrom picks the version: set, else the main module's version in
// the build information (the tag `go install …@v1.2.3` fetched, or the
// pseudo-version Go stamps from the commit), else "dev" with the commit
// the build recorded, if any.
func versionFrom(set string, read func() (*debug.BuildInfo, bool)) string {
	if set != "" {
		return set
	}
	info, ok := read()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += ", modified"
	}
	return "dev (" + rev + ")"
}

// subcommands lists the constructor of every subcommand of agentdesk: a new
// command is added here, and nowhere else. Help lists them by name.
var subcommands = []func(*globals) *cobra.Command{
	newLintCmd,     // lint.go
	newPreviewCmd,  // preview.go
	newRunCmd,      // run.go
	newRunsCmd,     // runs.go
	newTestCmd,     // test.go
	newOpenCmd,     // open.go
	newManifestCmd, // manifest.go
	newExportCmd,   // export.go
	newImportCmd,   // import.go
	newRouteCmd,    // route.go
	newToolsCmd,    // tools.go
}

// globals holds the global flags and the process's streams and environment.
// Commands read everything through it, never from os directly, so tests can
// run execute in-process.
type globals struct {
	// home is --home: the NetClaw base folder ("" means $NETCLAW_HOME, else
	// ~/.netclaw).
	home string
	// agents is --agents: overrides <home>/agents when set.
	agents string
	// color is --color: auto, always or never.
	color colorMode

	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// environ is the process environment as KEY=VALUE strings.
	environ []string

	// The browser's trial flags: --netclaw-dir, --audience, --project,
	// --approve.
	browserNetClaw  netclawFlag
	browserSandbox  sandboxFlags
	browserAudience audienceFlag
	browserProject  string
	browserApprove  []string
}

// Getenv returns the value of key in g's environment, or "" when unset. When
// a key appears more than once the last one wins, as it would for a child
// process started with this environment.
func (g *globals) Getenv(key string) string {
	prefix := key + "="
	for i := len(g.environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(g.environ[i], prefix); ok {
			return v
		}
	}
	return ""
}

// Home resolves the NetClaw home from --home, --agents, $NETCLAW_HOME and
// ~/.netclaw.
func (g *globals) Home() (lint.Home, error) {
	return lint.ResolveHome(g.home, g.agents, g.Getenv)
}

// Color reports whether output to w should be coloured: always with
// --color always; never with --color never; with --color auto only when w is
// a terminal, NO_COLOR is unset or empty, and TERM is not dumb (a terminal
// that shows escape sequences as text).
func (g *globals) Color(w io.Writer) bool {
	switch g.color {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	if g.Getenv("NO_COLOR") != "" || g.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a file descriptor attached to a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok {
		return false
	}
	return term.IsTerminal(f.Fd())
}

// newRootCmd builds the agentdesk command with its global flags and every
// registered subcommand.
func newRootCmd(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentdesk",
		Short: "A terminal desk for writing NetClaw sub-agents",
		Long: `agentdesk shows what the NetClaw runtime does with your sub-agents.
It says which definitions load or are rejected, and why, at the line.
It shows the [available-subagents] layer as the frontline model reads it.
It runs an agent against the configured model, and opens what the run left.

Without a subcommand it starts the interactive browser.
agentdesk --demo opens it on an embedded sample home: nothing else is needed.
agentdesk help TOPIC prints a reference page; the topics are listed below.`,
		Version:       programVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noSubcommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBrowser(cmd, g)
		},
	}
	root.SetIn(g.stdin)
	root.SetOut(g.stdout)
	root.SetErr(g.stderr)
	root.SetVersionTemplate("agentdesk {{.Version}}\n")

	pf := root.PersistentFlags()
	pf.StringVar(&g.home, "home", "", "NetClaw home folder (default $NETCLAW_HOME, else ~/.netclaw)")
	pf.StringVar(&g.agents, "agents", "", "agents folder (default <home>/agents)")
	pf.Var(&g.color, "color", "colour output: auto, always or never (NO_COLOR and TERM=dumb are honoured with auto; --color always overrides NO_COLOR)")
	// --demo belongs to the browser (browse.go reads it).
	root.Flags().Bool("demo", false, "open the browser on an embedded sample home with recorded runs (nothing else needed)")
	// --fast-replay is for tests on a terminal: the browser's replays
	// (the demo's) play without their recorded pauses.
	root.Flags().Bool("fast-replay", false, "play the browser's replays without their recorded pauses")
	_ = root.Flags().MarkHidden("fast-replay")
	g.browserNetClaw.add(root.Flags())
	g.browserSandbox.add(root.Flags())
	root.Flags().Var(&g.browserAudience, "audience", "the parent session's audience of the browser's trial runs: Personal, Team or Public")
	root.Flags().StringVar(&g.browserProject, "project", "", "project folder of the browser's trial runs (default: the working directory)")
	addApproveFlag(root.Flags(), &g.browserApprove, approveUsage+"; the browser asks about any other such call")

	for _, sub := range subcommands {
		root.AddCommand(sub(g))
	}
	addHelpTopics(root)
	registerCompletions(root, g)
	return root
}

// noSubcommand refuses arguments to the browser: the first one is a
// subcommand agentdesk does not have, named with the closest one it has
// (lint.Suggest).
func noSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	hint := ""
	if near := lint.Suggest(args[0], names, 1); len(near) > 0 {
		hint = fmt.Sprintf(": did you mean %q?", near[0])
	}
	return usageErrorf("unknown command %q for %q%s", args[0], cmd.CommandPath(), hint)
}

// colorMode is the value of --color.
type colorMode int

const (
	colorAuto colorMode = iota
	colorAlways
	colorNever
)

// String returns the flag's value as written on the command line.
func (c *colorMode) String() string {
	switch *c {
	case colorAlways:
		return "always"
	case colorNever:
		return "never"
	}
	return "auto"
}

// Set parses auto, always or never; anything else is a usage error.
func (c *colorMode) Set(s string) error {
	switch strings.ToLower(s) {
	case "auto":
		*c = colorAuto
	case "always":
		*c = colorAlways
	case "never":
		*c = colorNever
	default:
		return fmt.Errorf("%q is not a colour mode: use auto, always or never", s)
	}
	return nil
}

// Type names the flag's value in help text.
func (c *colorMode) Type() string { return "auto|always|never" }
