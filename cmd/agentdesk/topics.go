package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/tui"
)

// helpTopic is a page of `agentdesk help TOPIC` that is not a command.
type helpTopic struct {
	name, short string
	// text builds the page; root is the whole command tree, for the
	// pages made from it.
	text func(root *cobra.Command) string
}

// helpTopics are the reference pages the binary carries, in the order
// `agentdesk help` lists them.
var helpTopics = []helpTopic{
	{"environment", "Environment variables agentdesk reads", func(*cobra.Command) string { return environmentTopic }},
	{"exit-codes", "What each exit status means", func(*cobra.Command) string { return exitCodesTopic }},
	{"formats", "The output formats, command by command", formatsTopic},
	{"keys", "Every key of the browser", func(*cobra.Command) string { return keysTopic() }},
	{"rules", "Every lint rule: id, severity per profile, summary", func(*cobra.Command) string { return rulesTopic() }},
	{"sandbox", "What a trial's tools may do, and how to approve them", func(*cobra.Command) string { return sandboxTopic }},
	{"suites", "Every key of test suites and routing suites", func(*cobra.Command) string { return suitesTopic() }},
}

// addHelpTopics adds each topic to root as a help topic (a command with no
// Run: cobra lists it under "Additional help topics"), and replaces cobra's
// help command with one that finds topics and refuses unknown names.
func addHelpTopics(root *cobra.Command) {
	for _, t := range helpTopics {
		tc := &cobra.Command{Use: t.name, Short: t.short, Long: t.text(root)}
		tc.SetHelpFunc(func(c *cobra.Command, _ []string) {
			fmt.Fprint(c.OutOrStdout(), strings.TrimRight(c.Long, "\n")+"\n")
		})
		root.AddCommand(tc)
	}
	root.SetHelpCommand(newHelpCmd(root))
	root.SetUsageTemplate(usageTemplate)
}

// usageTemplate is cobra's default usage template (cobra v1.10.2), with
// the help topics listed as "agentdesk help TOPIC" reads them.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

Available Commands:{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

Additional Commands:{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

Help topics ({{.CommandPath}} help TOPIC):{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .Name .NamePadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

// topicNames lists the help topics' names.
func topicNames() []string {
	var names []string
	for _, t := range helpTopics {
		names = append(names, t.name)
	}
	return names
}

// newHelpCmd builds `agentdesk help [COMMAND | TOPIC]`.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND | TOPIC]",
		Short: "Help about a command or a topic",
		Long: `Help about a command or a topic.

  agentdesk help              the commands and the topics
  agentdesk help lint         the help of a command
  agentdesk help exit-codes   a topic`,
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range root.Commands() {
				if sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return root.Help()
			}
			cmd, _, err := root.Find(args)
			if err != nil || cmd == root {
				return usageErrorf("no command or help topic %q%s: agentdesk help lists them", args[0], helpSuggestion(root, args[0]))
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}

// helpSuggestion is ": did you mean X?" for the command or topic nearest
// to name, or "".
func helpSuggestion(root *cobra.Command, name string) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() {
			names = append(names, c.Name())
		}
	}
	if near := lint.Suggest(name, names, 1); len(near) > 0 {
		return fmt.Sprintf(" (did you mean %q?)", near[0])
	}
	return ""
}

const exitCodesTopic = `agentdesk exits with one of four codes, the same for every command.

  0  success
  1  findings, or a run that did not complete
  2  bad usage: an unknown flag, a bad value, a path that is not there
  3  internal failure: a bug, or the system refused (say what you ran)

What 1 means, command by command:

  lint      an error was found; a warning too, with --strict
  run       the run did not complete: its outcome is Partial or Failed
  test      a case failed, is stale, is not recorded (--offline) or could not
            be judged; or a suite file is broken
  route     a sample got no answer, or the request cannot be asked;
            with --suite, as for test
  preview   no such agent or skill, or a skill whose route is broken
  runs      no run has that id, or its run.json cannot be read
  open      no run has that id
  tools     the tool policy in netclaw.json cannot be read
  manifest  an error under the publish profile, or a file already there
            with other bytes (use --force)
  export    it would touch a file it did not write, or one edited since
  import    an input does not convert; nothing is written,
            unless --keep-going

A usage error prints one line on stderr and "Run '... --help' for usage."
Infos of lint never change the exit status.`

const environmentTopic = `agentdesk reads these variables. A flag always wins over a variable.

  NETCLAW_HOME           the NetClaw home when --home is not given
                         (default: ~/.netclaw)
  NETCLAW_<Section>__<Key>
                         a configuration value, over netclaw.json and
                         secrets.json, as the runtime reads it
                         (NETCLAW_SubAgents__Enabled=false)
  AGENTDESK_NETCLAW_DIR  the NetClaw install to read the operating core from,
                         when --netclaw-dir is not given
  XDG_STATE_HOME         run folders, drafts and last runs live under
                         $XDG_STATE_HOME/agentdesk
                         (default: ~/.local/state/agentdesk)
  NO_COLOR               no colour with --color auto
  TERM                   TERM=dumb: no colour with --color auto
  VISUAL, EDITOR         the editor the browser's e and n open
  PAGER                  the pager the browser's p opens
  PATH                   where netclawd or netclaw, check programs and MCP
                         stdio commands are found
  HOME                   the default home, and ~ in the paths shown

Examples:

  NETCLAW_HOME=~/work/netclaw agentdesk lint
  NO_COLOR=1 agentdesk test --offline
  agentdesk --color always lint | less -R     (a flag beats NO_COLOR)

A check program (expect: command:) gets only PATH, HOME, USER, LOGNAME,
LANG, LC_ALL, LC_CTYPE, TMPDIR and TZ from agentdesk's environment.
It also gets AGENTDESK_* variables that describe the sample:
AGENTDESK_OUTCOME, AGENTDESK_REASON, AGENTDESK_TOOLS, AGENTDESK_TOOL_CALLS,
AGENTDESK_CASE, AGENTDESK_SAMPLE, AGENTDESK_SUITE, AGENTDESK_AGENT,
AGENTDESK_HOW, AGENTDESK_MODEL, AGENTDESK_MODEL_ROLE,
AGENTDESK_INPUT_TOKENS, AGENTDESK_OUTPUT_TOKENS,
AGENTDESK_OUTPUT_TOKENS_COUNTED, AGENTDESK_SECONDS, AGENTDESK_RECORD,
AGENTDESK_VAR_<name> and AGENTDESK_NETWORK.
docs/test.md says what each holds.`

// formatsTopic lists every command's --format (or --json) flag, read from
// the command tree, after what each format is for.
func formatsTopic(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString(`Commands print text by default. --format picks another format.

  agentdesk lint --format sarif > agentdesk.sarif
  agentdesk test --offline --format junit > test-report.xml

  text    for people; coloured on a terminal (see --color)
  json    one JSON document on stdout, for scripts
  sarif   SARIF 2.1.0, for code-scanning uploads
  github  GitHub Actions annotations (::error file=…,line=…::)
  junit   JUnit XML, for CI test reports
  html    one self-contained page: no script, nothing fetched

The formats each command takes:

`)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, name := range []string{"format", "json"} {
			if fl := c.Flags().Lookup(name); fl != nil {
				fmt.Fprintf(tw, "  %s\t--%s\t%s\n", c.CommandPath(), fl.Name, fl.Usage)
			}
		}
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				walk(sub)
			}
		}
	}
	walk(root)
	tw.Flush()
	b.WriteString(`
Text taken from a file or a model is printed with control characters
escaped (\x1b), in every format.
Colour follows --color auto|always|never; NO_COLOR and TERM=dumb count
only with auto.
The JSON keys of each command are in docs/.`)
	return b.String()
}

// keysTopic is every key of the browser, from its key map.
func keysTopic() string {
	var b strings.Builder
	b.WriteString("The browser's keys. ? shows them in the browser too.\n")
	for _, g := range tui.DefaultKeyMap().Reference() {
		b.WriteString("\n" + g.Title + "\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, l := range g.Keys {
			fmt.Fprintf(tw, "  %s\t%s\n", l.Keys, l.Desc)
		}
		tw.Flush()
	}
	return b.String()
}

const sandboxTopic = `A trial never changes your project, your home or NetClaw's state.
Each tool call runs in one of these ways, and is labelled so in run.json,
result.md and the transcript:

  real      file_read, file_list, file_search, tool_output_read,
            search_tools, load_tool, skill_load, skill_read_resource:
            run for real, confined to the project as the run sees it
  overlay   file_write, file_edit: write into the run's overlay, a
            copy-on-write view of the project; later reads see the writes
  approved  shell_execute, web_fetch and every MCP tool (server__tool):
  denied    run only when approved, else denied
  stubbed   web_search, reminders, webhooks, memory tools, skill_manage,
            set_working_directory, check_background_job: a stub says what
            NetClaw would have done
  mocked    a suite's mocks: answer instead of the tool

Approve calls with --approve on run, test, route and the browser:

  --approve shell_execute                    every shell command
  --approve 'shell_execute:go test *'        commands matching the glob
  --approve 'web_fetch:https://example.com/*'
  --approve mcp:github                       every tool of MCP server github
  --approve github__create_issue             one MCP tool

In TOOL:GLOB, GLOB matches the command of shell_execute, the URL of
web_fetch, the query of web_search, and otherwise the arguments: compact
JSON with keys sorted and no _ meta arguments, as the browser's prompt
shows them. * matches anything, ? one character.

A call that needs approval and matches no pattern ends the run on the
command line: Failed, reason tool_execution_failed. The message names the
pattern that would allow it. The browser asks instead: o approves once,
a for the run, d denies.

On Linux, approved commands and stdio MCP servers run in a sandbox:
the run's copy of the project at the project's path, the rest read-only,
a /tmp of their own, no network, no Unix sockets to your machine's
servers, no terminal, no secret environment variables.
--allow-network and --allow-network-mcp NAME open the network;
--pass-env NAME passes a variable. Where the machine cannot sandbox,
they are refused unless you pass --no-sandbox; such a run is labelled
unsandboxed. An HTTP or SSE MCP server is remote: a call to it acts
outside the trial.

A shell command runs in a copy of the overlay, through /bin/sh.
It has 120 s unless _timeout_seconds asks for more (at most 600 s).
Every process a run starts is killed when the run ends.
On Linux that holds even when agentdesk itself is killed.

When a run changed files, its folder holds changes.patch.
git apply changes.patch, from the project, makes the same changes.

docs/sandbox.md has the details.`

// suiteKeyDocs says what each key of a suite file does, by where it is
// (suitefile.Keys). A key the reader takes and this map lacks fails
// TestHelpTopics.
var suiteKeyDocs = map[string]map[string]string{
	"test suite": {
		"agent":     "the agent under test (default: the file name without .test.yaml)",
		"audience":  "the parent session's audience: personal (default) or team",
		"models":    "run every case on each model: a role or a Models.Definitions name",
		"cases":     "the cases, a list",
		"vars":      "rows that fill the template, inline",
		"vars-file": "rows from a .jsonl or .csv file, relative to the suite",
		"template":  "a case with {{name}} placeholders, made once per row",
		"mocks":     "tool answers for every case, after each case's own",
		"approve":   "approval patterns for every case's gated calls, as --approve takes them, after each case's own",
	},
	"test case": {
		"name":         "unique in the suite; it keys the recordings",
		"task":         "the task the agent gets",
		"context":      "background sent with the task",
		"context-file": "a file whose text is the context, relative to the suite",
		"project":      "the project the tools work in, as an overlay; none: no tools",
		"skill":        "run through this routed skill",
		"model-role":   "the role whose model runs the case, over the agent's modelRole",
		"audience":     "this case's audience, over the suite's",
		"repeat":       "samples to run, 1 to 100 (default 1)",
		"pass-rate":    "the share of samples that must pass (default 1)",
		"expect":       "what each sample must show",
		"mocks":        "tool answers for this case",
		"approve":      "approval patterns for this case's gated calls, as --approve takes them (e.g. \"shell_execute:go test *\")",
	},
	"expect": {
		"outcome":           "Completed (default), Partial or Failed",
		"reason":            "the run's reason, such as output_truncated",
		"contains":          "text the output holds, ignoring case; a value or a list",
		"not-contains":      "text the output must not hold",
		"matches":           "an RE2 regular expression the output matches",
		"tools":             "tools that must be called: a name, a list, or {name, args}",
		"no-tools":          "tools that must not be called",
		"max-tool-calls":    "at most this many tool calls",
		"max-seconds":       "at most this many seconds",
		"max-output-tokens": "at most this many output tokens",
		"judge":             "a rubric a model checks; it answers PASS or FAIL",
		"command":           "a program that checks the sample; exit 0 passes",
		"changes":           "what the run must or must not change in the project",
	},
	"expect: tools: item": {
		"name": "the tool",
		"args": "arguments the call holds, as a subset",
	},
	"expect: changes: item": {
		"path":      "a file, or a folder/ , relative to the project",
		"contains":  "text the file holds after the run",
		"unchanged": "true: nothing added, changed or deleted there",
	},
	"mocks: item": {
		"tool":   "the tool the mock answers",
		"args":   "arguments the call holds, as a subset; * and ? in strings",
		"result": "the text the model gets",
		"error":  "an error text the model gets instead",
	},
	"routing suite": {
		"audience":      "personal (default) or team",
		"preamble-file": "a file whose text replaces the frontline's preamble",
		"model-role":    "the frontline model's role (default Main)",
		"samples":       "samples per case, 1 to 100 (default 5)",
		"cases":         "the cases, a list",
		"vars":          "rows that fill the template, inline",
		"vars-file":     "rows from a .jsonl or .csv file, relative to the suite",
		"template":      "a case with {{name}} placeholders, made once per row",
	},
	"routing case": {
		"name":     "optional; without one the request names the case",
		"request":  "the user's message to the frontline model",
		"expect":   "the agent it should pick, or none",
		"min-rate": "the share of samples that must agree (default: all)",
		"samples":  "samples for this case, over the suite's",
	},
}

// suitesTopic documents every key of suite files, from the reader's own
// lists of keys.
func suitesTopic() string {
	var b strings.Builder
	b.WriteString(`A test suite is <agent>.test.yaml beside the agent's definition.
A routing suite is <name>.route.yaml beside the agents.
The runtime reads only *.md there, so it ignores both.

  # agents/code-analyst.test.yaml
  cases:
    - name: finds the port
      task: Which port does the server listen on?
      project: ../src/app
      expect:
        contains: "8080"
        tools: [file_read]

  # agents/frontline.route.yaml
  cases:
    - request: Why did last night's deploy fail?
      expect: log-analyst

agentdesk lint checks both kinds. Any other key is a suite-unknown-key error.
`)
	for _, g := range suitefile.Keys() {
		b.WriteString("\n" + g.Where + "\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, k := range g.Keys {
			fmt.Fprintf(tw, "  %s\t%s\n", k, suiteKeyDocs[g.Where][k])
		}
		tw.Flush()
	}
	b.WriteString("\ndocs/test.md and docs/route.md have the details.\n")
	return b.String()
}
