package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/adapt"
)

// registerCompletions teaches cobra's shell completion (`agentdesk
// completion bash|zsh|fish|powershell`) the values agentdesk accepts: every
// flag whose type lists its values (--format, --profile, --audience,
// --color: "text|json|..."), the targets of --to and the tools of --from,
// and the names of the loaded agents for `run AGENT`, `export AGENT...`,
// `tools AGENT`, `preview --agent` and `runs --agent`.
func registerCompletions(root *cobra.Command, g *globals) {
	agents := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return agentNames(g), cobra.ShellCompDirectiveNoFileComp
	}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{cmd.LocalNonPersistentFlags(), cmd.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if values := strings.Split(f.Value.Type(), "|"); len(values) > 1 {
					_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
				}
			})
		}
		switch cmd.Name() {
		case "run", "tools":
			cmd.ValidArgsFunction = func(c *cobra.Command, args []string, s string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return agents(c, args, s)
			}
		case "export":
			cmd.ValidArgsFunction = agents
			_ = cmd.RegisterFlagCompletionFunc("to", cobra.FixedCompletions(adapt.TargetIDs(false), cobra.ShellCompDirectiveNoFileComp))
		case "import":
			_ = cmd.RegisterFlagCompletionFunc("from", cobra.FixedCompletions(adapt.TargetIDs(true), cobra.ShellCompDirectiveNoFileComp))
		case "preview", "runs":
			_ = cmd.RegisterFlagCompletionFunc("agent", agents)
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// agentNames lists the names of the agents the home loads, for
// completion; nothing when the home cannot be read.
func agentNames(g *globals) []string {
	h, err := g.Home()
	if err != nil || !h.Exists() && g.agents == "" {
		return nil
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return nil
	}
	var names []string
	for _, f := range c.Loaded() {
		names = append(names, f.Name())
	}
	return names
}
