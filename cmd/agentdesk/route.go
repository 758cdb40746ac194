package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/evalreport"
	"github.com/agentdesk/agentdesk/runner/eval/route"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// routeFlags holds the flags of agentdesk route.
type routeFlags struct {
	// approve is accepted with the other trial flags; the frontline runs
	// no tool, so nothing needs it.
	approve     []string
	audience    audienceFlag
	netclaw     netclawFlag
	project     string
	systemFile  string
	samples     int
	jobs        int
	modelRole   string
	maxTokens   int
	runsDir     string
	record      bool
	static      bool
	showRequest bool
	format      evalreport.Format
	suite       bool
	offline     bool
	prefill     time.Duration
	noProgress  time.Duration
	demo        bool
	cases       []string
	shard       string
	keepRuns    bool
	failed      bool
	// watch and live are --watch and --live; round is set for one round
	// of a watch (see watchRound).
	watch, live bool
	round       *watchRound
}

// samplesRange says the limit on samples, the same everywhere: route
// --samples, a routing suite's samples, a test case's repeat.
var samplesRange = fmt.Sprintf("give 1 to %d (the limit on samples everywhere: --samples, a suite's samples and repeat)", suitefile.MaxRepeat)

// maxSystemFile caps what --system-file reads.
const maxSystemFile = 1 << 20

// newRouteCmd builds `agentdesk route`.
func newRouteCmd(g *globals) *cobra.Command {
	var f routeFlags
	cmd := &cobra.Command{
		Use:   "route REQUEST | route --suite [FILE...]",
		Short: "Ask the frontline model which sub-agent it picks for a request",
		Long: `Ask the frontline model which sub-agent it picks for REQUEST.

The request goes to the model of role Main, or --model-role.
When the NetClaw install is found (--netclaw-dir), it is sent as a NetClaw
session's first turn:
  1. system: the main session's prompt: SOUL.md, the operating rules, the
     deployment playbook, TOOLING.md, the --project folder's instructions;
  2. system: the session's context layers: the tool index, the skill index,
     the memory layer, the [available-subagents] layer of the audience
     (Personal unless --audience says otherwise) byte for byte, and the
     attachments hint;
  3. user: the per-turn block: [current-time], [working-context];
  4. user: the request.
The tools are the session's core tier and spawn_agent, with the runtime's
names, descriptions and parameters.
Without an install, or with --system-file, the first system message is a
short neutral preamble (or the file's text). The second is then the
[available-subagents] layer alone, and spawn_agent is the only tool.

The model's first reply says what it did:
  - spawned agent X, with the task and context it wrote;
  - called spawn_agent for an agent that does not exist or is internal,
    with the runtime's refusal;
  - answered itself;
  - called another tool;
  - wrote arguments that are not valid JSON.

The request is asked --samples times in parallel: default 5, 1 to 100.
That is the one limit on samples in agentdesk, a suite's samples included.
At most --jobs run at once, default 4.
The distribution of picks prints first, then each sample.
Every sample is a trial run with its own run folder; agentdesk runs lists them.
--record keeps its stream.cassette.
API keys are redacted from everything printed or written.

--static ranks the layer's agents for the request by shared words, with no
model at all: BM25 over names and descriptions.
It warns about descriptions so alike that a request cannot tell them apart.
It is a heuristic: a model reads meaning, not words.

--show-request prints the request that would be sent, and sends nothing.

--suite runs routing suites (agentdesk help suites lists their keys).
A routing suite is a <name>.route.yaml file beside the agents; the runtime
ignores it. Each case has a request, the agent it should go to (expect: an
agent, or none when the frontline should answer itself) and the share of
samples that must agree (min-rate, default 1).
Without FILE, every suite in the agents folder runs.
It prints each case's distribution, then the confusion table: expected ×
picked, in samples. For each pair of agents the model mixed up, it shows
both descriptions side by side, with the requests that went wrong.
That is what to sharpen.

The modes are agentdesk test's:
  - default: a recorded sample is replayed; one that is not is asked live;
  - --record: every sample is asked, and its recording is kept beside the
    suite, in <name>.route.recordings/: redacted, meant to be committed;
  - --offline: replays only, with no model and no key (CI).
A recording made with another layer, preamble, context layer, tool set,
model or request is stale, never passed.
--record replaces a recording only with a sample that reached a verdict.
One that could not reach the model, or was cancelled, keeps the one before.
--case NAME (repeatable, * and ? wildcards) runs only the cases named.
--jobs N asks at most N samples of one provider at once (default 4).
On a terminal a progress line on stderr shows cases done, running and not passed.
--format junit or github suits CI; html makes one self-contained page.
A replayed sample writes its run folder only when its case does not pass;
--keep-runs: always.
With --static, each case's request is ranked by shared words instead.
A case whose top match is not its agent then fails.

--demo uses the embedded sample home.
Its routing suite replays from the recordings it carries (--suite).
A REQUEST that suite holds is answered by its recorded frontline; another
request is refused, with the ones it has.
--static and --show-request work on its layer.
It has no model to ask live.

A request that cannot be asked is exit 1, with the fix:
no Main model configured, the Public audience (it has no layer), sub-agents
disabled, no user-facing agent, a model that does not take tools.

Exit status: 0 every sample was answered (with --suite: every case passed);
1 a sample's call failed or the request cannot be asked (with --suite: a case
failed, is stale, is not recorded under --offline, or a suite is broken);
2 bad usage; 3 internal failure.`,
		Example: `  agentdesk route "Please review my staged diff before I push"
  agentdesk route --samples 10 --audience team "Why did last night's deploy fail?"
  agentdesk route --system-file frontline.md --record "Summarise NOTES.md"
  agentdesk route --static "Why did last night's deploy fail?"
  echo "Triage this ticket" | agentdesk route -
  agentdesk route --suite --record agents/frontline.route.yaml
  agentdesk route --suite --offline --format junit > route-report.xml
  agentdesk route --demo --suite
  agentdesk route --demo "How does the file watcher in this repository decide when to rescan?"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.suite {
				return runRouteSuites(cmd, g, f, args)
			}
			if len(args) > 1 {
				return usageErrorf("give the request as one argument (quote it), or run suites with --suite FILE...")
			}
			return runRoute(cmd, g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.Var(&f.audience, "audience", "the session's audience: Personal, Team or Public (any case)")
	f.netclaw.add(fl)
	fl.StringVar(&f.project, "project", "", "the session's project folder, whose instructions file and working context (git state) the frontline's request holds (with a NetClaw install)")
	fl.StringVar(&f.systemFile, "system-file", "", "file whose text is the frontline's preamble, the first system message (default: a short neutral one)")
	fl.IntVar(&f.samples, "samples", route.DefaultSamples, "how many times to ask, in parallel: "+samplesRange)
	fl.IntVar(&f.jobs, "jobs", route.DefaultJobs, jobsUsage)
	fl.StringVar(&f.modelRole, "model-role", "", "model role of the frontline (default Main): Main, Compaction or Fallback")
	fl.IntVar(&f.maxTokens, "max-tokens", 0, "cap on each reply's tokens (default: the provider's; 8192 for Anthropic)")
	fl.StringVar(&f.runsDir, "runs-dir", "", "runs folder (default $XDG_STATE_HOME/agentdesk/runs, else ~/.local/state/agentdesk/runs)")
	fl.BoolVar(&f.record, "record", false, "keep each sample's recording, redacted: with --suite beside the suite (<name>.route.recordings/), else in its run folder's stream.cassette")
	addApproveFlag(fl, &f.approve, approveUsage+"; route runs no tool (the frontline's first reply is the answer), so it only checks the patterns")
	fl.BoolVar(&f.static, "static", false, "rank the agents by shared words, with no model (a heuristic)")
	fl.BoolVar(&f.showRequest, "show-request", false, "print the request that would be sent, and send nothing")
	fl.Var(&f.format, "format", "output format: text or json (with --suite also junit, github or html)")
	fl.BoolVar(&f.suite, "suite", false, "run routing suites (<name>.route.yaml): the FILEs given, or every one in the agents folder")
	fl.BoolVar(&f.offline, "offline", false, "with --suite: replay recordings only, no model and no key (for CI)")
	fl.DurationVar(&f.prefill, "prefill-timeout", 0, "limit until the first text, thinking or tool call (default SubAgents.PrefillTimeoutSeconds)")
	fl.BoolVar(&f.demo, "demo", false, "use the embedded sample home and its routing suite (nothing else needed): with --suite, --static, --show-request, or a REQUEST its suite recorded")
	fl.StringArrayVar(&f.cases, "case", nil, "with --suite: "+caseUsage)
	fl.StringVar(&f.shard, "shard", "", "with --suite: "+shardUsage)
	fl.BoolVar(&f.failed, "failed", false, "with --suite: run again only the cases that did not pass in the last run of their suite")
	fl.BoolVar(&f.keepRuns, "keep-runs", false, "with --suite: write the run folder of every replayed sample, not only of the cases that did not pass")
	fl.DurationVar(&f.noProgress, "no-progress-timeout", 0, "limit without text, thinking or tool calls (default SubAgents.NoProgressTimeoutSeconds)")
	fl.BoolVar(&f.watch, "watch", false, "with --suite: run the suites, then again each time a suite, an agent or the config changes (offline; Ctrl-C stops)")
	fl.BoolVar(&f.live, "live", false, "with --suite --watch: ask the model live every time, recordings or not (nothing is recorded)")
	return cmd
}

// runRoute checks the flags, builds the question and asks it (or ranks it).
func runRoute(cmd *cobra.Command, g *globals, f routeFlags, args []string) error {
	if err := checkRouteFlags(cmd.Flags().Changed, f, args); err != nil {
		return err
	}
	request, err := readDash(g, args[0], "REQUEST")
	if err != nil {
		return err
	}
	if strings.TrimSpace(request) == "" {
		return usageErrorf("the request is empty: give the user's message, as they would type it")
	}
	preamble, err := readPreamble(f.systemFile)
	if err != nil {
		return err
	}
	sh, err := openSuiteHome(cmd, g, f.demo, nil, f.record)
	if err != nil {
		return err
	}
	defer sh.close(cmd.ErrOrStderr())
	c := sh.c
	a := preview.Audience(f.audience)
	// The frontline runs no tool: the patterns are only checked.
	if ps, err := parseApprove(f.approve); err != nil {
		return err
	} else if err := checkApproveServers(ps, c.Config, a.String()); err != nil {
		return err
	} else if err := checkApproveAudiences(ps, c.Config, []preview.Audience{a}); err != nil {
		return err
	}
	if f.static {
		return routeStatic(g, f, c, a, request)
	}
	p, err := prepareQuestion(g, f, c, a, preamble, request)
	if err != nil {
		return err
	}
	if f.showRequest {
		if f.format == evalreport.JSON {
			return writeJSONDoc(g, p.JSON())
		}
		return writeString(g.stdout, termsafe.EscapeLines(p.Render()))
	}
	return askRoute(cmd, g, f, sh, p, request)
}

// prepareQuestion prepares the frontline's question of request: with
// the --system-file preamble, else as NetClaw puts it (not in the demo).
func prepareQuestion(g *globals, f routeFlags, c *lint.Catalog, a preview.Audience, preamble, request string) (*route.Prepared, error) {
	q := route.Question{
		Catalog: c, Audience: a, Preamble: preamble, Request: request,
		ModelRole: f.modelRole, MaxTokens: f.maxTokens,
		Limits: runner.Limits{Prefill: f.prefill, NoProgress: f.noProgress},
	}
	if f.systemFile != "" {
		q.PreambleSource = "--system-file " + f.systemFile
	} else if !f.demo {
		if err := frontlineAsNetClaw(g, f, c, &q); err != nil {
			return nil, err
		}
	}
	p, err := route.Prepare(q)
	if err != nil {
		return nil, exitWith(exitFindings, err)
	}
	return p, nil
}

// checkRouteFlags checks route's flags for one request against each
// other (changed says which were given): the validation step of
// runRoute.
func checkRouteFlags(changed func(string) bool, f routeFlags, args []string) error {
	switch {
	case len(args) == 0:
		return usageErrorf("give the request: agentdesk route \"what the user would type\" (- reads it from stdin)")
	case f.samples < 1 || f.samples > suitefile.MaxRepeat:
		return usageErrorf("--samples is %d: %s", f.samples, samplesRange)
	case f.jobs < 1:
		return usageErrorf("--jobs is %d: give 1 or more", f.jobs)
	case f.maxTokens < 0:
		return usageErrorf("--max-tokens is %d: give a positive number, or leave it out", f.maxTokens)
	}
	if err := checkSuiteOnlyFlags(f); err != nil {
		return err
	}
	switch {
	case f.static && (f.record || changed("samples") || changed("system-file") || changed("model-role") || f.showRequest):
		return usageErrorf("--static asks no model: leave out --record, --samples, --system-file, --model-role and --show-request")
	case f.showRequest && f.record:
		return usageErrorf("--show-request sends nothing, so there is nothing to record: leave out --record")
	case f.demo && !f.static && !f.showRequest && changed("samples"):
		return usageErrorf("--demo replays the samples it recorded: leave out --samples")
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"prefill-timeout", f.prefill}, {"no-progress-timeout", f.noProgress}} {
		if changed(d.name) && d.v <= 0 {
			return usageErrorf("--%s is %s: give a positive duration such as 90s or 5m", d.name, d.v)
		}
	}
	if f.modelRole != "" {
		if _, err := runner.NormalizeRole(f.modelRole); err != nil {
			return usageErrorf("--model-role: %v", err)
		}
	}
	return nil
}

// checkSuiteOnlyFlags refuses, for one request, the flags that only
// routing suites take.
func checkSuiteOnlyFlags(f routeFlags) error {
	switch {
	case f.offline:
		return usageErrorf("--offline replays suite recordings: use it with --suite")
	case len(f.cases) > 0:
		return usageErrorf("--case picks cases of routing suites: use it with --suite")
	case f.shard != "":
		return usageErrorf("--shard splits the cases of routing suites: use it with --suite")
	case f.keepRuns:
		return usageErrorf("--keep-runs keeps the replays of routing suites: use it with --suite")
	case f.failed:
		return usageErrorf("--failed runs again the failed cases of routing suites: use it with --suite")
	case f.watch || f.live:
		return usageErrorf("--watch re-runs routing suites: use it with --suite")
	case f.format != evalreport.Text && f.format != evalreport.JSON:
		return usageErrorf("--format %s reports suites: use it with --suite, or text or json for one request", f.format.String())
	}
	return nil
}

// readPreamble reads the frontline's preamble from --system-file ("" when
// it is not given).
func readPreamble(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := suitefile.ReadSideFile(path, maxSystemFile)
	switch {
	case err != nil:
		return "", usageErrorf("--system-file %s: %v; give the frontline's preamble in a text file", termsafe.Escape(path), err)
	case strings.TrimSpace(string(b)) == "":
		return "", usageErrorf("--system-file %s is empty: write the frontline's preamble in it, or leave the flag out", termsafe.Escape(path))
	}
	return string(b), nil
}

// askRoute asks the frontline p's question (the demo's recordings answer
// it in the demo), reports its picks and says exit 1 when a sample got
// no answer: the run step of runRoute.
func askRoute(cmd *cobra.Command, g *globals, f routeFlags, sh suitesHome, p *route.Prepared, request string) error {
	opts := route.Options{Samples: f.samples, Jobs: f.jobs, Record: f.record}
	var recorded *runfolder.Model // the demo's recorded frontline, as the report names it
	if f.demo {
		// The demo has no model: its recorded frontline answers the
		// requests its routing suite holds.
		tapes, sources, err := demo.FrontlineReplays(sh.c.Home, request)
		if err != nil {
			return usageErrorf("%v", err)
		}
		opts.Samples, opts.Replays, opts.ReplaySources = len(tapes), tapes, sources
		m := demoFrontlineModel(p.Model, tapes[0].Header, sh.c.Home.Base, sources[0])
		recorded = &m
	}
	rn, err := openRunner(g, sh.runsDir(f.runsDir))
	if err != nil {
		return err
	}
	res, err := route.Ask(cmd.Context(), rn, p, opts)
	if err != nil {
		return exitWith(exitFindings, fmt.Errorf("cancelled: %w", err))
	}
	if res.NoTools != "" {
		return exitWith(exitFindings, errors.New(res.NoTools))
	}
	if recorded != nil {
		// Not the demo configuration's replay provider (a recorded run
		// of a trial, which no sample played): the recordings that did.
		res.Prepared.Model = *recorded
	}
	if f.format == evalreport.JSON {
		err = writeRouteJSON(g, res)
	} else {
		err = writeString(g.stdout, routeText(res))
	}
	if err != nil {
		return err
	}
	return unanswered(res)
}

// unanswered says exit 1, naming them, when samples of res got no
// answer, and exit 3 when a run folder could not be written.
func unanswered(res *route.Result) error {
	var failed []string
	for _, s := range res.Samples {
		if s.WriteErr != nil {
			return exitWith(exitInternal, fmt.Errorf("sample %d: the run folder could not be written: %w", s.N, s.WriteErr))
		}
		if why := s.NoAnswer(); why != "" {
			failed = append(failed, fmt.Sprintf("sample %d: %s", s.N, why))
		} else if s.Pick.Kind == route.Failed {
			failed = append(failed, fmt.Sprintf("sample %d: %s", s.N, s.Pick.Error))
		}
	}
	if len(failed) > 0 {
		return exitWith(exitFindings, fmt.Errorf("%d of %d %s did not get an answer:\n  %s", len(failed), len(res.Samples), evalrec.Plural(len(res.Samples), "sample", "samples"), strings.Join(failed, "\n  ")))
	}
	return nil
}

// openRunner returns a Runner on the runs folder: runsDir, else the
// default one. Its errors are bad usage.
func openRunner(g *globals, runsDir string) (*runner.Runner, error) {
	if runsDir == "" {
		var err error
		if runsDir, err = runfolder.DefaultRunsDir(g.Getenv); err != nil {
			return nil, exitWith(exitUsage, err)
		}
	}
	rn, err := runner.New(runner.Options{RunsDir: runsDir, WordError: wordFlags})
	if err != nil {
		return nil, exitWith(exitUsage, err)
	}
	if err := writableDir(rn.Dir()); err != nil {
		return nil, usageErrorf("--runs-dir %s cannot hold run folders: %v; give a folder you can write to (default $XDG_STATE_HOME/agentdesk/runs)", termsafe.Escape(rn.Dir()), err)
	}
	return rn, nil
}

// writableDir makes dir when it is missing and checks that a file can be
// written in it (the file is removed).
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return unwrapPathError(err)
	}
	f, err := os.CreateTemp(dir, ".agentdesk-probe-*")
	if err != nil {
		return unwrapPathError(err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// unwrapPathError is the cause of a *fs.PathError (the path is said
// already).
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// demoRecordingProvider is the provider the report names for the demo's
// recorded frontline.
const demoRecordingProvider = "demo recording"

// demoFrontlineModel is the model of the demo's recorded frontline, as
// the report shows it: the model and role the recording's header names,
// "demo recording" for the provider and the recordings' folder (relative
// to the demo home base, which is removed when the command ends) for the
// endpoint. configured is the demo configuration's model, whose fields
// stand in for what the header leaves out.
func demoFrontlineModel(configured runfolder.Model, h cassette.Header, base, source string) runfolder.Model {
	dir := filepath.Dir(source)
	if rel, err := filepath.Rel(base, dir); err == nil && filepath.IsLocal(rel) {
		dir = rel
	}
	m := runfolder.Model{Role: configured.Role, Provider: demoRecordingProvider, Type: runner.ReplayProviderType, Endpoint: dir,
		ModelID: configured.ModelID, Via: configured.Via}
	if h.Model != "" {
		m.ModelID = h.Model
	}
	if h.Role != "" {
		m.Role = h.Role
	}
	return m
}

// routeText renders a result: the question, the distribution, the samples.
func routeText(res *route.Result) string {
	p := res.Prepared
	var b strings.Builder
	n := len(res.Samples)
	fmt.Fprintf(&b, "Request: %s\n", termsafe.Escape(p.Request))
	fmt.Fprintf(&b, "Preamble: %s\n", termsafe.Escape(preambleSource(p.Question)))
	if c := p.ContextSummary(); c != "" {
		fmt.Fprintf(&b, "Context: %s\n", c)
	}
	from := "provider " + p.Model.Provider + ", " + p.Model.Via
	if p.Model.Provider == demoRecordingProvider {
		from = demoRecordingProvider + ", " + p.Model.Endpoint
	}
	fmt.Fprintf(&b, "Frontline: %s (%s), audience %s, %d %s in the layer, %d %s\n\n",
		termsafe.Escape(p.Model.ModelID), termsafe.Escape(from), p.Audience,
		len(p.Frontline.Agents), evalrec.Plural(len(p.Frontline.Agents), "agent", "agents"), n, evalrec.Plural(n, "sample", "samples"))
	width := 0
	dist := res.Distribution()
	for _, s := range dist {
		width = max(width, len(shareLabel(s)))
	}
	errors := 0
	for _, s := range res.Samples {
		if s.NoAnswer() != "" {
			errors++
		}
	}
	if errors > 0 {
		width = max(width, len(route.NoAnswerLabel))
	}
	for _, s := range dist {
		fmt.Fprintf(&b, "  %-*s  %d/%d  %3d%%\n", width, termsafe.Escape(shareLabel(s)), s.Count, n, s.Count*100/n)
	}
	if errors > 0 {
		// Not a pick: an error, whatever the share.
		fmt.Fprintf(&b, "  %-*s  %d/%d  error: not counted as %s\n", width, route.NoAnswerLabel, errors, n, evalrec.Plural(errors, "a pick", "picks"))
	}
	b.WriteString("\n")
	for _, s := range res.Samples {
		fmt.Fprintf(&b, "%d. %s\n", s.N, termsafe.Escape(s.Describe()))
		for _, also := range s.Pick.Also {
			fmt.Fprintf(&b, "   then %s\n", termsafe.Escape(also.Describe()))
		}
		if s.Run.Dir != "" {
			fmt.Fprintf(&b, "   run %s\n", termsafe.Escape(s.Run.Dir))
		}
	}
	return b.String()
}

// shareLabel is a distribution line's label: None spelt out.
func shareLabel(s route.Share) string {
	if s.Kind == route.Answered {
		return "none (answered itself)"
	}
	return s.Label
}

// routeDoc is the --format json document of agentdesk route.
type routeDoc struct {
	Request  string `json:"request"`
	Preamble string `json:"preamble,omitempty"`
	// ContextLayers name the main session's context layers sent, in
	// order (none with agentdesk's default).
	ContextLayers []string          `json:"context_layers,omitempty"`
	Audience      preview.Audience  `json:"audience"`
	Model         runfolder.Model   `json:"model"`
	Agents        []string          `json:"agents"`
	Distribution  []route.Share     `json:"distribution"`
	Samples       []routeSampleJSON `json:"samples"`
	Static        []route.Score     `json:"static,omitempty"`
	Similar       []route.Pair      `json:"similar,omitempty"`
	Heuristic     string            `json:"heuristic,omitempty"`
}

// routeSampleJSON is one sample in --format json.
type routeSampleJSON struct {
	N      int        `json:"n"`
	Pick   route.Pick `json:"pick"`
	Label  string     `json:"label"`
	RunID  string     `json:"run_id,omitempty"`
	RunDir string     `json:"run_dir,omitempty"`
	// Error says why the sample got no answer (it is not a pick).
	Error string `json:"error,omitempty"`
}

func writeRouteJSON(g *globals, res *route.Result) error {
	p := res.Prepared
	doc := routeDoc{Request: p.Request, Preamble: preambleSource(p.Question), ContextLayers: p.ContextLayers(), Audience: p.Audience, Model: p.Model, Agents: p.Frontline.Agents, Distribution: res.Distribution()}
	for _, s := range res.Samples {
		doc.Samples = append(doc.Samples, routeSampleJSON{N: s.N, Pick: s.Pick, Label: s.Label(), RunID: s.Run.RunID, RunDir: s.Run.Dir, Error: s.NoAnswer()})
	}
	return writeJSONDoc(g, doc)
}

func writeJSONDoc(g *globals, doc any) error {
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return exitWith(exitInternal, err)
	}
	return writeString(g.stdout, string(data)+"\n")
}

// staticHeuristic is the label every static ranking carries.
const staticHeuristic = "a heuristic: shared words (BM25 over the agents' names and descriptions), no model was asked; a model reads meaning, not words"

// routeStatic ranks the layer's agents for request by shared words.
func routeStatic(g *globals, f routeFlags, c *lint.Catalog, a preview.Audience, request string) error {
	fl, err := preview.FrontlineRequest(c, a, "", request)
	if err != nil {
		return exitWith(exitFindings, err)
	}
	idx := route.NewIndex(preview.Listed(c, a))
	ranks := idx.Rank(request)
	similar := idx.Similar(0)
	if f.format == evalreport.JSON {
		return writeJSONDoc(g, routeDoc{Request: request, Audience: a, Agents: fl.Agents, Static: ranks, Similar: similar, Heuristic: staticHeuristic})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Request: %s\nStatic ranking, audience %s: %s\n\n", termsafe.Escape(request), a, staticHeuristic)
	width := 0
	for _, r := range ranks {
		width = max(width, len(r.Agent))
	}
	for i, r := range ranks {
		terms := "no shared word"
		if len(r.Terms) > 0 {
			terms = strings.Join(r.Terms, ", ")
		}
		fmt.Fprintf(&b, "  %d. %-*s  %5.2f  %s\n", i+1, width, termsafe.Escape(r.Agent), r.Score, termsafe.Escape(terms))
	}
	writeSimilar(&b, similar)
	return writeString(g.stdout, b.String())
}

// writeSimilar warns about descriptions too alike to tell apart.
func writeSimilar(b *strings.Builder, pairs []route.Pair) {
	for _, p := range pairs {
		fmt.Fprintf(b, "warning: %s and %s are %d%% alike in words (%s): a request may not tell them apart; say in each description what the other does not do\n",
			termsafe.Escape(p.A), termsafe.Escape(p.B), int(p.Similarity*100+0.5), termsafe.Escape(strings.Join(p.Shared[:min(len(p.Shared), 5)], ", ")))
	}
}

// frontlineAsNetClaw makes the frontline's preamble and tools the main
// session's, as NetClaw composes them, when the install is found
// (route.AsNetClaw); else it leaves agentdesk's neutral default.
func frontlineAsNetClaw(g *globals, f routeFlags, c *lint.Catalog, q *route.Question) error {
	if f.project != "" {
		if fi, err := os.Stat(f.project); err != nil || !fi.IsDir() {
			return usageErrorf("--project %s is not a folder: give the session's project folder, or leave --project out", termsafe.Escape(f.project))
		}
	}
	nc, err := f.netclaw.spawnNetClaw(g, c.Home, q.Audience)
	if err != nil {
		return err
	}
	if err := route.AsNetClaw(q, nc, f.project); err != nil {
		return exitWith(exitFindings, err)
	}
	return nil
}

// suiteFrontline composes a routing suite's frontline as NetClaw's main
// session for suites without a preamble-file (nil for the demo, whose
// recordings were made with agentdesk's default).
func suiteFrontline(g *globals, f routeFlags, c *lint.Catalog) func(*route.Question) error {
	if f.demo {
		return nil
	}
	return func(q *route.Question) error { return frontlineAsNetClaw(g, f, c, q) }
}

// preambleSource says which preamble a question used.
func preambleSource(q route.Question) string {
	if q.PreambleSource != "" {
		return q.PreambleSource
	}
	return "agentdesk's neutral default"
}
