package main

import (
	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/tui"
)

// newOpenCmd builds `agentdesk open PATH`.
func newOpenCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "open PATH",
		Short: "Open a run folder or an artifact file in the viewer",
		Long: `Open a folder of run artifacts, or one artifact file, in the browser's
scrollable viewer: result.md and truncated-output.md rendered as markdown
(the latter marked partial), transcript.jsonl as a readable log, run.json as
is. It works on agentdesk's own run folders and on NetClaw's.

Keys: tab moves between the folder's files, arrows and page keys scroll,
p opens the file in $PAGER, esc or q quits.`,
		Example: `  agentdesk open ~/.local/state/agentdesk/runs/3f2a9c1e…
  agentdesk open ./truncated-output.md`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Say what is wrong with the path before the screen clears.
			if _, err := runner.ArtifactFiles(args[0]); err != nil {
				return exitWith(exitUsage, err)
			}
			return browse(cmd, g, lint.Home{}, tui.Options{OpenPath: args[0]})
		},
	}
}
