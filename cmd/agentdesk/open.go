package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui"
)

// newOpenCmd builds `agentdesk open PATH|RUN_ID`.
func newOpenCmd(g *globals) *cobra.Command {
	var runsDir string
	cmd := &cobra.Command{
		Use:   "open PATH|RUN_ID",
		Short: "Open a run folder or an artifact file in the viewer",
		Long: `Open a folder of run artifacts, or one artifact file, in the browser's viewer.
result.md and truncated-output.md show as Markdown; the latter is marked partial.
transcript.jsonl shows as a readable log; run.json as it is.
It works on agentdesk's own run folders and on NetClaw's.

Instead of a path, give a run id as 'agentdesk runs' lists it:
the full 32 characters, or a prefix of at least 4 that only one run has.

Keys: tab moves between the folder's files; arrows and page keys scroll;
p opens the file in $PAGER; esc or q quits.

Exit status: 0 closed; 1 no such run; 2 bad usage; 3 internal failure.`,
		Example: `  agentdesk open 3f9a
  agentdesk open ~/.local/state/agentdesk/runs/3f2a9c1e…
  agentdesk open ./truncated-output.md`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := openTarget(g, runsDir, args[0])
			if err != nil {
				return err
			}
			// Say what is wrong with the path before the screen clears.
			if _, err := runfolder.ArtifactFiles(path); err != nil {
				return exitWith(exitUsage, err)
			}
			return browse(cmd, g, lint.Home{}, tui.Options{OpenPath: path})
		},
	}
	cmd.Flags().StringVar(&runsDir, "runs-dir", "", "runs folder a RUN_ID is looked up in (default $XDG_STATE_HOME/agentdesk/runs, else ~/.local/state/agentdesk/runs)")
	return cmd
}

// openTarget is the path open shows: arg itself when it exists, else the
// folder of the run whose id arg is or starts (as `agentdesk runs`
// resolves it), else arg (ArtifactFiles then says it is missing).
func openTarget(g *globals, runsDir, arg string) (string, error) {
	if _, err := os.Lstat(arg); !errors.Is(err, fs.ErrNotExist) || !runfolder.RunIDPrefix(arg) {
		return arg, nil
	}
	if runsDir == "" {
		var err error
		if runsDir, err = runfolder.DefaultRunsDir(g.Getenv); err != nil {
			return "", exitWith(exitUsage, err)
		}
	}
	id, err := runfolder.ResolveRunID(runsDir, arg)
	if err != nil {
		return "", exitWith(exitFindings, err)
	}
	return filepath.Join(runsDir, id), nil
}
