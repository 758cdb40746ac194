package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/report"
	"github.com/agentdesk/agentdesk/runner"
)

func init() { subcommands = append(subcommands, newRunCmd) }

// runFlags holds the flags of agentdesk run.
type runFlags struct {
	task, context string
	skill         string
	modelRole     string
	maxTokens     int
	runsDir       string
	prefill       time.Duration
	interDelta    time.Duration
	noProgress    time.Duration
	json          bool
}

// maxStdinTask caps what --task - or --context - reads.
const maxStdinTask = 16 << 20

// newRunCmd builds `agentdesk run`.
func newRunCmd(g *globals) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run AGENT --task TEXT",
		Short: "Run one headless trial spawn of an agent against the configured model",
		Long: `Run AGENT once on a task, against the model NetClaw would use for it (its
modelRole, or --model-role, resolved through netclaw.json), and classify how
the run ended exactly as the runtime would: Completed, or Failed with a
reason such as output_truncated, thinking_only_timeout,
no_substantive_output_timeout, no_activity_timeout, prefill_timeout,
empty_final_response, llm_call_failed or cancelled_by_parent.

The reply streams to stdout as it arrives; thinking goes to stderr (dimmed on
a colour terminal). Then a line on stderr gives the outcome, the reason and
the run folder, which holds run.json, result.md, transcript.jsonl and, for a
truncated reply, truncated-output.md. With --json, stdout holds run.json
alone and the reply streams to stderr. API keys and tokens are redacted from
everything printed or written.

--task - (or --context -) reads the text from stdin, without its final line
break. Ctrl-C cancels the run (cancelled_by_parent).

Exit status: 0 Completed, 1 any other outcome, an unknown or rejected agent,
or a model that does not resolve, 2 bad usage, 3 internal failure.`,
		Example: `  agentdesk run code-analyst --task "Explain what main.go does"
  git diff | agentdesk run reviewer --task - --context "PR #42"
  agentdesk run summarizer --task "Summarise NOTES.md" --no-progress-timeout 2m --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTrial(cmd, g, f, args[0])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.task, "task", "", "the task (required); - reads it from stdin")
	fl.StringVar(&f.context, "context", "", "optional background for this run; - reads it from stdin")
	fl.StringVar(&f.skill, "skill", "", "run as this routed skill would: its body is overlaid on the agent's prompt")
	fl.StringVar(&f.modelRole, "model-role", "", "model role to use instead of the agent's modelRole: Main, Compaction or Fallback")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "cap on the reply's tokens (default: the provider's; 8192 for Anthropic)")
	fl.StringVar(&f.runsDir, "runs-dir", "", "runs folder (default $XDG_STATE_HOME/agentdesk/runs, else ~/.local/state/agentdesk/runs)")
	fl.DurationVar(&f.prefill, "prefill-timeout", 0, "limit until the first text, thinking or tool call (default: the agent's prefillTimeoutSeconds, else SubAgents.PrefillTimeoutSeconds)")
	fl.DurationVar(&f.interDelta, "inter-delta-timeout", 0, "limit on stream silence once the reply started (default Session.FirstTokenTimeoutSeconds)")
	fl.DurationVar(&f.noProgress, "no-progress-timeout", 0, "limit without text, thinking or tool calls (default SubAgents.NoProgressTimeoutSeconds); thinking alone is capped at 3×")
	fl.BoolVar(&f.json, "json", false, "print run.json on stdout at the end; the reply streams to stderr")
	return cmd
}

// runTrial checks the flags, finds the agent, starts the run and streams it.
func runTrial(cmd *cobra.Command, g *globals, f runFlags, agentName string) error {
	changed := cmd.Flags().Changed
	switch {
	case !changed("task"):
		return usageErrorf("--task is required: say what the agent should do (--task - reads it from stdin)")
	case f.task == "-" && f.context == "-":
		return usageErrorf("--task - and --context - both read stdin: give one of them as text")
	case f.maxTokens < 0:
		return usageErrorf("--max-tokens is %d: give a positive number, or leave it out", f.maxTokens)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"prefill-timeout", f.prefill}, {"inter-delta-timeout", f.interDelta}, {"no-progress-timeout", f.noProgress}} {
		if changed(d.name) && d.v <= 0 {
			return usageErrorf("--%s is %s: give a positive duration such as 90s or 5m", d.name, d.v)
		}
	}
	if f.modelRole != "" {
		if _, err := runner.NormalizeRole(f.modelRole); err != nil {
			return usageErrorf("--model-role: %v", err)
		}
	}
	var err error
	if f.task, err = readDash(g, f.task, "--task"); err != nil {
		return err
	}
	if f.context, err = readDash(g, f.context, "--context"); err != nil {
		return err
	}
	if strings.TrimSpace(f.task) == "" {
		return usageErrorf("the task is empty: say what the agent should do")
	}
	runsDir := f.runsDir
	if runsDir == "" {
		if runsDir, err = runner.DefaultRunsDir(g.Getenv); err != nil {
			return exitWith(exitUsage, err)
		}
	}

	c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return err
	}
	agent := c.Agent(agentName)
	if agent == nil {
		return unknownRunAgent(g, c, agentName)
	}
	var skill *lint.Skill
	if f.skill != "" {
		if skill = c.Skill(f.skill); skill == nil {
			names := make([]string, 0, len(c.Skills))
			for _, s := range c.Skills {
				names = append(names, s.Name)
			}
			return exitWith(exitFindings, fmt.Errorf("no skill named '%s' in %s%s", report.Escape(f.skill), c.Home.Skills, closeNames(f.skill, names, "skill")))
		}
		if skill.RouteError != "" {
			return exitWith(exitFindings, errors.New(skill.RouteError))
		}
		if !skill.Routed() {
			return exitWith(exitFindings, fmt.Errorf("skill /%s does not route to a sub-agent (it has no metadata.subagent): run it in NetClaw itself", skill.Name))
		}
		if !strings.EqualFold(skill.Subagent, agent.Def.Name) {
			return usageErrorf("skill /%s routes to '%s', not to '%s': run agentdesk run %s --skill %s", skill.Name, skill.Subagent, agent.Def.Name, skill.Subagent, skill.Name)
		}
	}

	rn, err := runner.New(runner.Options{RunsDir: runsDir})
	if err != nil {
		return exitWith(exitUsage, err)
	}
	r, err := rn.Start(cmd.Context(), runner.Spec{
		Agent: agent, Skill: skill, Config: c.Config,
		Task: f.task, Context: f.context,
		ModelRole: f.modelRole, MaxTokens: f.maxTokens,
		Limits: runner.Limits{Prefill: f.prefill, InterDelta: f.interDelta, NoProgress: f.noProgress},
	})
	var se *runner.SpecError
	if errors.As(err, &se) {
		return exitWith(exitFindings, err)
	}
	if err != nil {
		return exitWith(exitInternal, err)
	}
	return streamRun(g, f, r)
}

// readDash returns v, or stdin's text (without its final line break) when
// v is "-".
func readDash(g *globals, v, flag string) (string, error) {
	if v != "-" {
		return v, nil
	}
	b, err := io.ReadAll(io.LimitReader(g.stdin, maxStdinTask+1))
	if err != nil {
		return "", exitWith(exitInternal, fmt.Errorf("%s -: reading stdin: %w", flag, err))
	}
	if len(b) > maxStdinTask {
		return "", usageErrorf("%s -: stdin holds more than %d MiB: give a shorter text", flag, maxStdinTask>>20)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// unknownRunAgent explains an agent that does not resolve; for a rejected
// one it prints the file's diagnostics on stderr first.
func unknownRunAgent(g *globals, c *lint.Catalog, name string) error {
	for _, file := range c.Rejected() {
		if file.Def != nil && strings.EqualFold(strings.TrimSpace(file.Def.Name), strings.TrimSpace(name)) {
			one := &lint.Catalog{Home: c.Home, Profile: c.Profile, Files: []*lint.File{file}}
			if err := report.Text(g.stderr, one, report.Options{Color: g.Color(g.stderr)}); err != nil {
				return exitWith(exitInternal, err)
			}
		}
	}
	return unknownAgent(c, report.Escape(name))
}

// ANSI styles of the run output.
const (
	styleDim   = "\x1b[2m"
	styleGreen = "\x1b[1;32m"
	styleRed   = "\x1b[1;31m"
	styleReset = "\x1b[0m"
)

// streamWriter prints pieces of text to one stream and remembers whether
// the last one ended its line.
type streamWriter struct {
	w       io.Writer
	style   string
	started bool
	atEOL   bool
	err     error
}

func (s *streamWriter) write(text string) {
	if text == "" || s.err != nil {
		return
	}
	out := escapeText(text)
	if s.style != "" {
		out = s.style + out + styleReset
	}
	_, s.err = io.WriteString(s.w, out)
	s.started = true
	s.atEOL = strings.HasSuffix(text, "\n")
}

// endLine ends the stream's current line, if it has one open.
func (s *streamWriter) endLine() {
	if s.started && !s.atEOL {
		s.write("\n")
	}
}

// streamRun prints the run's reply and thinking as they arrive, then the
// outcome line, and maps the outcome to the exit status.
func streamRun(g *globals, f runFlags, r *runner.Run) error {
	color := g.Color(g.stderr)
	replyTo := g.stdout
	if f.json {
		replyTo = g.stderr
	}
	reply := &streamWriter{w: replyTo}
	thinking := &streamWriter{w: g.stderr}
	if color {
		thinking.style = styleDim
	}
	// Ctrl-C cancels the run through the command's context; the events go
	// on until EventDone, so the reading context is not the command's.
	var final *runner.Record
	for e := range r.Events(context.Background()) {
		switch e.Kind {
		case runner.EventThinking:
			thinking.write(e.Text)
		case runner.EventText:
			if thinking.started && !thinking.atEOL && replyTo != g.stderr {
				thinking.endLine()
			}
			reply.write(e.Text)
		case runner.EventDone:
			final = e.Record
		}
	}
	rec, werr := r.Wait()
	if final == nil {
		final = &rec
	}
	reply.endLine()
	thinking.endLine()

	outcome := string(final.Outcome)
	if color {
		style := styleRed
		if final.Outcome == runner.Completed {
			style = styleGreen
		}
		outcome = style + outcome + styleReset
	}
	reason := final.Reason
	if reason == "" {
		reason = "none"
	}
	fmt.Fprintf(g.stderr, "outcome: %s  reason: %s  run: %s\n", outcome, reason, report.Escape(final.Dir))
	if werr != nil {
		return exitWith(exitInternal, fmt.Errorf("the run ended %s but its folder could not be written: %w", final.Outcome, werr))
	}
	if reply.err != nil {
		return exitWith(exitInternal, fmt.Errorf("write the reply: %w", reply.err))
	}
	if f.json {
		data, err := final.MarshalIndent()
		if err != nil {
			return exitWith(exitInternal, err)
		}
		if err := writeString(g.stdout, string(data)); err != nil {
			return err
		}
	}
	if final.Outcome != runner.Completed {
		return exitWith(exitFindings, errors.New(final.Error))
	}
	return nil
}
