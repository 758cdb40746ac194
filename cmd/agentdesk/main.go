// Command agentdesk is a terminal desk for people who write NetClaw
// sub-agents: an interactive browser of every definition the runtime would
// load or reject, `agentdesk lint` for CI, and trial runs against a model.
//
// This package holds flags, subcommands, wiring and exit codes only; the
// logic lives in the lint, preview, runner and tui packages.
package main

import (
	"os"

	"github.com/agentdesk/agentdesk/runner"
)

func main() {
	// The temporary folders of runs killed with SIGKILL (their copies of
	// projects) go first; a live run's are never touched.
	runner.SweepLeftovers()
	os.Exit(execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
