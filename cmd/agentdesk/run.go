package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/report"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/rundiff"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui/demo"
)

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
	project       string
	approve       []string
	noTools       bool
	record        bool
	replay        string
	fast          bool
	netclaw       netclawFlag
	audience      audienceFlag
	mcp           mcpFlags
	sandbox       sandboxFlags
	samples       int
}

// maxSamples caps --samples.
const maxSamples = 100

// maxStdinTask caps what --task - or --context - reads.
const maxStdinTask = 16 << 20

// newRunCmd builds `agentdesk run`.
func newRunCmd(g *globals) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run AGENT --task TEXT | run [AGENT] --replay FILE",
		Short: "Run one headless trial spawn of an agent against the configured model",
		Long: `Run AGENT once on a task, as NetClaw would spawn it.

The request is the one NetClaw composes for a sub-agent
(agentdesk preview --spawn shows it):
  - the operating rules, from the NetClaw install found through
    --netclaw-dir, $AGENTDESK_NETCLAW_DIR, ~/.netclaw/bin or PATH;
    without one the run goes on and says they are missing;
  - the deployment playbook, the project's instructions, the body,
    the tool index and the execution contract;
  - a first message with the working context of the --project folder,
    the [session] block (the run folder's session/ storage) and the task.
The audience is --audience, Personal by default.
The model is the one NetClaw would use: the agent's modelRole, or
--model-role, resolved through netclaw.json.

The run ends as the runtime would end it:
  - Completed;
  - Failed, with a reason such as output_truncated, thinking_only_timeout,
    no_substantive_output_timeout, no_activity_timeout, empty_final_response,
    malformed_final_output, llm_call_failed or cancelled_by_parent;
  - Partial, when the cycle guard stops it (tool_cycle_stopped).

The reply streams to stdout as it arrives.
Thinking goes to stderr, dimmed on a colour terminal.
Tool calls and results show on stderr.
A last line on stderr gives the outcome, the reason and the run folder.
The folder holds run.json, result.md, transcript.jsonl and, for a truncated
reply, truncated-output.md.
With --json, stdout holds run.json alone, and the reply streams to stderr.
API keys and tokens are redacted from everything printed or written.

Tools (agentdesk help sandbox):
  - The model is offered the tools NetClaw offers a sub-agent of the audience
    (agentdesk tools lists them): the core tier from the start, a deferred
    tool once load_tool activates it.
  - Reads run on the project folder: --project, default the working directory.
  - Writes go to an overlay, never to the project.
    The run folder keeps them as changes.patch.
  - Shell, web and MCP calls run only when an --approve pattern matches.
    Else the run fails, as NetClaw fails a sub-agent with no one to approve.
  - Tools that touch NetClaw's own state get a stub result.
  - --no-tools offers none.
Tool results go back to the model, and the run goes on.
There is no cap on tool rounds.
A call repeated with the same arguments and result after two rounds is
refused with NetClaw's correction.
A repeat after that ends the run: Partial, tool_cycle_stopped.
An empty or thinking-only reply is nudged: up to 5 times before any tool
call, and 8 after.
A final reply holding tool-call markup gets one repair nudge.

--record keeps the raw response bytes with their timing, and the tool
results, redacted, in the run folder's stream.cassette.
--replay FILE plays a cassette back instead of calling a model.
It goes through the same decoders and watchdog, at recorded speed or --fast.
AGENT and --task may then be left out: the cassette names them.
The tool results come from the cassette, so the project folder need not exist.
--replay demo:NAME plays one of the demo's embedded recordings;
--replay demo: lists them.
A provider of type replay in netclaw.json, whose Endpoint is a cassette,
does the same.

--task - (or --context -) reads the text from stdin, without its final line
break. Ctrl-C cancels the run: cancelled_by_parent.

Exit status: 0 Completed; 1 any other outcome, an unknown or rejected agent,
or a model that does not resolve; 2 bad usage; 3 internal failure.`,
		Example: `  agentdesk run code-analyst --task "Explain what main.go does"
  git diff | agentdesk run reviewer --task - --context "PR #42" --no-tools
  agentdesk run summarizer --task "Summarise NOTES.md" --no-progress-timeout 2m --json
  agentdesk run code-analyst --task "Find the port" --project ~/src/app --record
  agentdesk run --replay ~/.local/state/agentdesk/runs/3f9a…/stream.cassette --fast`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			agent := ""
			if len(args) == 1 {
				agent = args[0]
			}
			return runTrial(cmd, g, f, agent)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.task, "task", "", "the task (required); - reads it from stdin")
	fl.StringVar(&f.context, "context", "", "optional background for this run; - reads it from stdin")
	fl.StringVar(&f.skill, "skill", "", "run as this routed skill would: its body is overlaid on the agent's prompt")
	fl.StringVar(&f.modelRole, "model-role", "", "model role to use instead of the agent's modelRole: Main, Compaction or Fallback")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "cap on the reply's tokens (default: the provider's; 8192 for Anthropic)")
	fl.StringVar(&f.runsDir, "runs-dir", "", "runs folder (default $XDG_STATE_HOME/agentdesk/runs, else ~/.local/state/agentdesk/runs)")
	fl.DurationVar(&f.prefill, "prefill-timeout", 0, "limit on stream silence until the first text, thinking or tool call (default: the agent's prefillTimeoutSeconds, else SubAgents.PrefillTimeoutSeconds)")
	fl.DurationVar(&f.interDelta, "inter-delta-timeout", 0, "limit on stream silence once the reply started (default Session.FirstTokenTimeoutSeconds)")
	fl.DurationVar(&f.noProgress, "no-progress-timeout", 0, "limit without text, thinking or tool calls (default SubAgents.NoProgressTimeoutSeconds); thinking alone is capped at 3×")
	fl.BoolVar(&f.json, "json", false, "print run.json on stdout at the end; the reply streams to stderr")
	fl.StringVar(&f.project, "project", "", "folder the trial tools work in; writes go to an overlay, never to the folder (default: the working directory)")
	fl.BoolVar(&f.noTools, "no-tools", false, "offer the model no tools")
	addApproveFlag(fl, &f.approve, approveUsage)
	fl.BoolVar(&f.record, "record", false, "keep the raw response bytes and tool results, redacted, in the run folder's stream.cassette")
	fl.IntVar(&f.samples, "samples", 1, "run the task this many times, one after the other, and print the spread of outcomes, tool sequences and output lengths (1 to 100)")
	fl.StringVar(&f.replay, "replay", "", "play this cassette back instead of calling a model")
	fl.BoolVar(&f.fast, "fast", false, "with --replay: play without the recorded pauses (the outcome is the same)")
	f.netclaw.add(fl)
	fl.Var(&f.audience, "audience", "the parent session's audience: Personal, Team or Public (any case)")
	f.mcp.add(fl)
	f.sandbox.add(fl)
	return cmd
}

// runTrial checks the flags, finds the agent, starts the run and streams it.
func runTrial(cmd *cobra.Command, g *globals, f runFlags, agentName string) error {
	changed := cmd.Flags().Changed
	replaying := changed("replay")
	if err := checkRunFlags(changed, f, agentName); err != nil {
		return err
	}
	var err error
	if f.task, err = readDash(g, f.task, "--task"); err != nil {
		return err
	}
	if f.context, err = readDash(g, f.context, "--context"); err != nil {
		return err
	}
	if changed("task") && strings.TrimSpace(f.task) == "" {
		return usageErrorf("the task is empty: say what the agent should do")
	}
	runsDir := f.runsDir
	if runsDir == "" {
		if runsDir, err = runfolder.DefaultRunsDir(g.Getenv); err != nil {
			return exitWith(exitUsage, err)
		}
	}
	spec := runner.Spec{
		Task: f.task, Context: f.context,
		ModelRole: f.modelRole, MaxTokens: f.maxTokens,
		Limits: runner.Limits{Prefill: f.prefill, InterDelta: f.interDelta, NoProgress: f.noProgress},
		Record: f.record, Fast: f.fast,
		NoMCP: f.mcp.off, MCPStartTimeout: f.mcp.timeout,
		Sandbox: f.sandbox.spec(),
	}
	listed, err := trialSource(g, f, replaying, &spec)
	if err != nil || listed {
		return err
	}
	if agentName != "" || !replaying {
		if err := trialAgent(g, f, agentName, replaying, &spec); err != nil {
			return err
		}
	}
	return startTrial(cmd, g, f, runsDir, spec)
}

// checkRunFlags checks run's flags against each other (changed says
// which were given) before anything is read: the validation step of
// runTrial.
func checkRunFlags(changed func(string) bool, f runFlags, agentName string) error {
	replaying := changed("replay")
	switch {
	case agentName == "" && !replaying:
		return usageErrorf("give the agent to run: agentdesk run AGENT --task TEXT (or replay a cassette with --replay FILE)")
	case !changed("task") && !replaying:
		return usageErrorf("--task is required: say what the agent should do (--task - reads it from stdin)")
	case f.task == "-" && f.context == "-":
		return usageErrorf("--task - and --context - both read stdin: give one of them as text")
	case f.maxTokens < 0:
		return usageErrorf("--max-tokens is %d: give a positive number, or leave it out", f.maxTokens)
	case f.noTools && changed("project"):
		return usageErrorf("--project names the folder the tools read and --no-tools offers none: give one of them")
	}
	if err := checkReplayFlags(changed, f, replaying); err != nil {
		return err
	}
	return checkRunLimits(changed, f)
}

// checkReplayFlags checks --samples, and --replay against the flags a
// replay cannot take.
func checkReplayFlags(changed func(string) bool, f runFlags, replaying bool) error {
	switch {
	case replaying && strings.TrimSpace(f.replay) == "":
		return usageErrorf("--replay needs the path of a cassette (a run folder's stream.cassette)")
	case replaying && f.record:
		return usageErrorf("--record makes a cassette from a model and --replay plays one: give one of them")
	case f.samples < 1 || f.samples > maxSamples:
		return usageErrorf("--samples is %d: give 1 to %d", f.samples, maxSamples)
	case replaying && f.samples > 1:
		return usageErrorf("a replay plays one recording the same way each time: leave out --samples")
	case replaying && (changed("project") || f.noTools):
		return usageErrorf("a replay plays the recorded tool results: leave out --project and --no-tools")
	}
	return nil
}

// checkRunLimits checks the timeouts, the MCP flags and --model-role.
func checkRunLimits(changed func(string) bool, f runFlags) error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"prefill-timeout", f.prefill}, {"inter-delta-timeout", f.interDelta}, {"no-progress-timeout", f.noProgress}} {
		if changed(d.name) && d.v <= 0 {
			return usageErrorf("--%s is %s: give a positive duration such as 90s or 5m", d.name, d.v)
		}
	}
	if err := f.mcp.check(); err != nil {
		return err
	}
	if f.modelRole != "" {
		if _, err := runner.NormalizeRole(f.modelRole); err != nil {
			return usageErrorf("--model-role: %v", err)
		}
	}
	return nil
}

// trialSource sets what spec plays (--replay: a cassette, or one of the
// demo's) or the tools it offers (--project, --approve). listed says
// the demo's recordings were listed instead, and nothing runs.
func trialSource(g *globals, f runFlags, replaying bool, spec *runner.Spec) (listed bool, err error) {
	if name, ok := strings.CutPrefix(f.replay, demoReplay); replaying && ok {
		if name == "" {
			return true, listDemoRecordings(g)
		}
		tape, err := demo.Cassette(name + ".cassette")
		if err != nil {
			return false, usageErrorf("%s%s is not one of the demo's recordings: run 'agentdesk run --replay %s' to list them", demoReplay, name, demoReplay)
		}
		spec.Replay, spec.ReplaySource = tape, demoReplay+name
		return false, nil
	}
	if replaying {
		tape, err := runner.LoadCassette(f.replay)
		if err != nil {
			return false, exitWith(exitFindings, err)
		}
		spec.Replay = tape
		spec.ReplaySource = f.replay
		if abs, err := filepath.Abs(f.replay); err == nil {
			spec.ReplaySource = abs
		}
		return false, nil
	}
	if f.noTools {
		return false, nil
	}
	return false, trialTools(f, spec)
}

// trialTools sets the approval patterns and the project folder (--project,
// else the working directory) of a run with tools.
func trialTools(f runFlags, spec *runner.Spec) error {
	var err error
	if spec.Approve, err = parseApprove(f.approve); err != nil {
		return err
	}
	spec.Project = f.project
	if spec.Project == "" {
		if spec.Project, err = os.Getwd(); err != nil {
			return exitWith(exitInternal, fmt.Errorf("finding the working directory for the trial tools: %w; pass --project DIR or --no-tools", err))
		}
	}
	if fi, err := os.Stat(spec.Project); err != nil || !fi.IsDir() {
		return usageErrorf("--project %s is not a folder: give the folder the tools may read, or --no-tools", termsafe.Escape(spec.Project))
	}
	return nil
}

// trialAgent scans the home and sets the agent spec runs, its config,
// skills, NetClaw install and --skill, checking --approve against the
// config.
func trialAgent(g *globals, f runFlags, agentName string, replaying bool, spec *runner.Spec) error {
	c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return err
	}
	agent := c.Agent(agentName)
	if agent == nil {
		return unknownRunAgent(g, c, agentName)
	}
	if missing := homeMissing(c.Home, "netclaw.json or secrets.json"); missing != "" && !replaying {
		fmt.Fprintf(g.stderr, "agentdesk: note: %s; the model comes from NETCLAW_ variables, else the runtime's default (Ollama at http://localhost:11434, qwen3:30b)\n", termsafe.Escape(missing))
	}
	spec.Agent, spec.Config, spec.Skills = agent, c.Config, c.Skills
	audience := preview.Audience(f.audience)
	if err := checkApproveServers(spec.Approve, c.Config, audience.String()); err != nil {
		return err
	}
	if err := checkApproveAudiences(spec.Approve, c.Config, []preview.Audience{audience}); err != nil {
		return err
	}
	if spec.NetClaw, err = f.netclaw.spawnNetClaw(g, c.Home, audience); err != nil {
		return err
	}
	if spec.NetClaw.Core == nil && !replaying {
		g.warn("agentdesk", "the operating rules (NetClaw's embedded core) are missing from this trial's request: "+spec.NetClaw.CoreMissing+"; the agent runs without them, so its behaviour may differ from NetClaw's"+netclawDirHint(spec.NetClaw.CoreMissing))
	}
	if f.skill == "" {
		return nil
	}
	skill := c.Skill(f.skill)
	if skill == nil {
		return unknownSkill(c, f.skill)
	}
	if _, failure := c.Route(skill); failure != "" {
		return exitWith(exitFindings, errors.New(failure))
	}
	if !strings.EqualFold(skill.Subagent, agent.Def.Name) {
		return usageErrorf("skill /%s routes to '%s', not to '%s': run agentdesk run %s --skill %s", skill.Name, skill.Subagent, agent.Def.Name, skill.Subagent, skill.Name)
	}
	spec.Skill = skill
	return nil
}

// startTrial starts spec's run into runsDir, or its samples, and follows
// it: the run step of runTrial.
func startTrial(cmd *cobra.Command, g *globals, f runFlags, runsDir string, spec runner.Spec) error {
	if err := f.sandbox.check(spec.Config); err != nil {
		return err
	}
	rn, err := runner.New(runner.Options{RunsDir: runsDir, WordError: wordFlags})
	if err != nil {
		return exitWith(exitUsage, err)
	}
	if spec.Replay == nil && spec.Project != "" {
		f.sandbox.announce(g)
	}
	if spec.Replay == nil && spec.Project != "" && !spec.NoMCP && spec.Config != nil {
		// Starting the servers may take up to the limit: say so first.
		if names := mcp.Startable(spec.Config.McpServers, mcp.Options{Audience: preview.Audience(f.audience).String(), Config: spec.Config}); len(names) > 0 {
			fmt.Fprint(g.stderr, f.mcp.starting(names))
		}
	}
	if f.samples > 1 {
		return runSamples(cmd.Context(), g, f, rn, spec)
	}
	r, err := rn.Start(cmd.Context(), spec)
	var se *runner.SpecError
	if errors.As(err, &se) {
		return exitWith(exitFindings, err)
	}
	if err != nil {
		return exitWith(exitInternal, err)
	}
	return streamRun(g, f, r)
}

// demoReplay prefixes the name of one of the demo's embedded recordings in
// --replay: nothing to install, no model, no home.
const demoReplay = "demo:"

// listDemoRecordings prints the demo's recordings, one a line, as
// --replay takes them.
func listDemoRecordings(g *globals) error {
	var b strings.Builder
	for _, r := range demo.Recordings() {
		fmt.Fprintf(&b, "%s%s\t%s\n", demoReplay, r.Name, r.Ends)
	}
	return writeString(g.stdout, b.String())
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
	if file := c.RejectedAgent(name); file != nil {
		one := &lint.Catalog{Home: c.Home, Profile: c.Profile, Files: []*lint.File{file}}
		if err := report.Text(g.stderr, one, report.Options{Color: g.Color(g.stderr)}); err != nil {
			return exitWith(exitInternal, err)
		}
	}
	return unknownAgent(c, name)
}

// ANSI styles of the run output.
const (
	styleDim    = "\x1b[2m"
	styleGreen  = "\x1b[1;32m"
	styleYellow = "\x1b[1;33m"
	styleRed    = "\x1b[1;31m"
	styleReset  = "\x1b[0m"
)

// styleState is a run state as printed, escaped, coloured when color is
// set: Completed green, Partial yellow, Running plain, any other red.
func styleState(state string, color bool) string {
	s := termsafe.Escape(state)
	if !color || state == vocab.StateRunning {
		return s
	}
	style := styleRed
	switch state {
	case vocab.StateCompleted:
		style = styleGreen
	case vocab.StatePartial:
		style = styleYellow
	}
	return style + s + styleReset
}

// outStream is one of the two output streams (stdout, stderr) as the run
// printer sees it: whether its last line is still open, and which writer
// wrote it. Two writers on one stream (the reply and the thinking, with
// --json) share it, so neither runs on in the other's line.
type outStream struct {
	w    io.Writer
	open bool
	last *streamWriter
	err  error
}

// streamWriter prints pieces of text, in one style, to an outStream.
type streamWriter struct {
	out   *outStream
	style string
}

func (s *streamWriter) write(text string) {
	o := s.out
	if text == "" || o.err != nil {
		return
	}
	if o.open && o.last != s {
		// Another writer left its line open on this stream: end it.
		o.last.endLine()
	}
	out := termsafe.EscapeLines(text)
	if s.style != "" {
		out = s.style + out + styleReset
	}
	_, o.err = io.WriteString(o.w, out)
	o.open, o.last = !strings.HasSuffix(text, "\n"), s
}

// endLine ends the current line of the stream if this writer left it open.
func (s *streamWriter) endLine() {
	if o := s.out; o.open && o.last == s {
		s.write("\n")
	}
}

// toolLine is the line printed for a tool call, or for its result.
func toolLine(e runner.Event) string {
	tc := e.Tool
	if e.Kind == runner.EventToolCall {
		return fmt.Sprintf("tool call: %s %s\n", termsafe.Escape(tc.Name), termsafe.Escape(tc.Arguments))
	}
	r := tc.Result
	what := "ok"
	switch {
	case r.Guard == "refuse":
		what = "refused by the cycle guard"
	case r.Guard == "stop":
		what = "repeated after a correction: the run ends"
	case r.Refused:
		what = "refused"
	case r.Error:
		what = "error"
	}
	if r.Replayed {
		what += " (recorded)"
	}
	first := strings.TrimSpace(strings.SplitN(r.Text, "\n", 2)[0])
	if len(first) > 100 {
		first = strings.ToValidUTF8(first[:100], "") + "…"
	}
	return fmt.Sprintf("tool result: %s, %d bytes: %s\n", what, r.Bytes, termsafe.Escape(first))
}

// streamRun prints the run's reply and thinking as they arrive, then the
// outcome line, and maps the outcome to the exit status.
func streamRun(g *globals, f runFlags, r *runner.Run) error {
	final, err := followRun(g, f, r)
	if err != nil {
		return err
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
	if final.Outcome != vocab.Completed {
		return exitWith(exitFindings, errors.New(final.Error))
	}
	return nil
}

// followRun streams a run's reply, thinking and tool calls as they come,
// then says how it ended on stderr, and returns its record.
func followRun(g *globals, f runFlags, r *runner.Run) (*runfolder.Record, error) {
	color := g.Color(g.stderr)
	stdout, stderr := &outStream{w: g.stdout}, &outStream{w: g.stderr}
	replyTo := stdout
	if f.json {
		replyTo = stderr
	}
	reply := &streamWriter{out: replyTo}
	thinking := &streamWriter{out: stderr}
	tools := &streamWriter{out: stderr}
	if color {
		thinking.style = styleDim
		tools.style = styleDim
	}
	// Ctrl-C cancels the run through the command's context; the events go
	// on until EventDone, so the reading context is not the command's.
	var final *runfolder.Record
	for e := range r.Events(context.Background()) {
		switch e.Kind {
		case runner.EventThinking:
			thinking.write(e.Text)
		case runner.EventText:
			thinking.endLine()
			reply.write(e.Text)
		case runner.EventToolCall, runner.EventToolResult:
			thinking.endLine()
			reply.endLine()
			tools.write(toolLine(e))
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

	sayRunEnded(g, final, color)
	if werr != nil {
		return nil, exitWith(exitInternal, fmt.Errorf("the run ended %s but its folder could not be written: %w", final.Outcome, werr))
	}
	if replyTo.err != nil {
		return nil, exitWith(exitInternal, fmt.Errorf("write the reply: %w", replyTo.err))
	}
	return final, nil
}

// sayRunEnded says on stderr how the run of final ended: that it was a
// replay, what went wrong with its MCP servers, what the parent session
// would receive, its state, outcome, reason and folder, its recording and
// the changes it made.
func sayRunEnded(g *globals, final *runfolder.Record, color bool) {
	if rp := final.Replay; rp != nil {
		// The cassette is named in run.json and result.md; the one run id
		// printed is the new run's.
		fmt.Fprintf(g.stderr, "replayed a run recorded %s: no model was called\n", rp.RecordedAt.Local().Format("2006-01-02 15:04:05"))
	}
	if m := final.MCP; m != nil {
		// What went wrong with an MCP server (it did not start, died, hung,
		// answered with an error): the model saw only the error text.
		for _, n := range m.Notes {
			fmt.Fprintf(g.stderr, "mcp: %s\n", termsafe.Escape(n))
		}
	}
	if lines := final.Parent.Lines(); len(lines) > 0 {
		// What the parent session would receive: NetClaw's acceptance
		// and terminal records, the notice, the file handoff.
		fmt.Fprintln(g.stderr, "what the parent receives:")
		for _, l := range lines {
			fmt.Fprintf(g.stderr, "  %s\n", l)
		}
	}
	fmt.Fprintf(g.stderr, "state: %s  outcome: %s  reason: %s  run: %s\n",
		styleState(final.State, color), vocab.OutcomeText(final.Outcome), termsafe.Escape(vocab.ReasonText(final.Reason)), termsafe.Escape(final.Dir))
	if slices.Contains(final.Files, runfolder.StreamFile) {
		fmt.Fprintf(g.stderr, "recorded: %s\n", termsafe.Escape(filepath.Join(final.Dir, runfolder.StreamFile)))
	}
	if line := runfolder.ChangesLine(final); line != "" {
		fmt.Fprintln(g.stderr, line)
	}
}

// runSamples runs spec n times, one after the other, each streamed as a
// single run is, then prints the spread of what they did: outcomes, tool
// sequences and output lengths (--json: the records and the spread on
// stdout). It exits 1 when a sample did not complete.
func runSamples(ctx context.Context, g *globals, f runFlags, rn *runner.Runner, spec runner.Spec) error {
	var recs []runfolder.Record
	for i := 1; i <= f.samples && ctx.Err() == nil; i++ {
		fmt.Fprintf(g.stderr, "sample %d of %d\n", i, f.samples)
		r, err := rn.Start(ctx, spec)
		var se *runner.SpecError
		if errors.As(err, &se) {
			return exitWith(exitFindings, err)
		}
		if err != nil {
			return exitWith(exitInternal, err)
		}
		final, err := followRun(g, f, r)
		if err != nil {
			return err
		}
		recs = append(recs, *final)
	}
	sp := rundiff.SpreadOf(recs)
	fmt.Fprint(g.stderr, rundiff.SpreadText(sp))
	if f.json {
		if err := writeJSON(g.stdout, struct {
			Runs   []runfolder.Record `json:"runs"`
			Spread rundiff.Spread     `json:"spread"`
		}{recs, sp}); err != nil {
			return err
		}
	}
	if sp.Completed < len(recs) || len(recs) < f.samples {
		return exitWith(exitFindings, fmt.Errorf("%d of %d samples did not complete", f.samples-sp.Completed, f.samples))
	}
	return nil
}
