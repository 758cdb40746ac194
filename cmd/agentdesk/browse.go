package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// runBrowser starts the interactive browser. The tui package is not wired in
// yet, so for now it says so.
func runBrowser(cmd *cobra.Command, g *globals) error {
	return exitWith(exitInternal, errors.New("the browser is not built yet: use 'agentdesk lint' meanwhile"))
}
