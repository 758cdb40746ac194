package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/evalreport"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
)

// testFlags holds the flags of agentdesk test.
type testFlags struct {
	record, offline bool
	format          evalreport.Format
	jobs            int
	judgeRole       string
	runsDir         string
	demo            bool
	netclaw         netclawFlag
	audience        audienceFlag
	project         string
	cases           []string
	keepRuns        bool
	approve         []string
	models          []string
	shard           string
	failed          bool
	// watch and live are --watch and --live; round is set for one round
	// of a watch (see watchRound).
	watch, live bool
	round       *watchRound
	mcp         mcpFlags
	sandbox     sandboxFlags
	// seed gives the recording of a case kept from a run (runs
	// --to-case); it is no flag.
	seed func(suitePath, caseName string, sample int) (*cassette.Cassette, string)
}

// newTestCmd builds `agentdesk test [PATH...]`.
func newTestCmd(g *globals) *cobra.Command {
	var f testFlags
	cmd := &cobra.Command{
		Use:   "test [PATH...]",
		Short: "Run agent test suites (<agent>.test.yaml): live, recorded, or offline for CI",
		Long: `Run the test suites of sub-agents.

A suite is a YAML file, <agent>.test.yaml, beside the definition in the agents
folder; the runtime ignores it. Each case gives a task, and what the output
must show (agentdesk help suites lists every key).
Without PATH, every suite in the agents folder runs.
A PATH may be a suite file or a folder of suites.

Every sample is a real trial run, as agentdesk run makes it.
It has its own run folder, tagged with the suite and case; agentdesk runs lists them.
A case with a judge rubric has its output checked by a model: role Main, or
--judge-role. The model answers PASS or FAIL, with a reason.

Modes:
  - default: a recorded sample is replayed; one that is not runs live.
  - --record: every sample runs live, and its recording is kept beside the
    suite, in <agent>.test.recordings/: one file per case and sample,
    redacted, meant to be committed.
  - --offline: replays only, on the recorded timeline, with no model and no
    key. That is what CI runs.
A recording made with a different audience, system prompt, first message,
tools, mocks, model or limits is reported stale, with what changed.
It is never reported as passed.
--record replaces a recording only with a sample that reached a verdict.
A sample that could not reach the model, was cancelled or ended by
agentdesk's own error keeps the recording before it.
The report says how many were replaced and kept.

--case NAME runs only the cases named: to record or run one case alone.
It is repeatable; * and ? are wildcards.

A case's repeat takes 1 to 100 samples.
That is the one limit on samples in agentdesk: a routing suite's samples and
route --samples have it too.

--models A,B,... runs every case on each model, side by side.
A model is named by role (Main, Compaction, Fallback) or by its
Models.Definitions name: --models Main,Compaction answers "can this agent
run on the cheaper model?".
The report adds a matrix, cases by models: per cell the samples passed, the
median time and the median output tokens, and a summary row.
JUnit names each test case "case [model]".
Each model keeps its recordings, in <agent>.test.recordings/model-<name>/,
so --offline replays the matrix. A suite's models: key is the default.

--failed runs again only the cases that did not pass in the last run of
their suite: failed, stale, not recorded or in error.
Each runs on the models it failed on (with --models, on those of them).
The matrix says "not run" in the cells it skips.
agentdesk test keeps how each case ended in $XDG_STATE_HOME/agentdesk/last-runs
(else ~/.local/state/agentdesk/last-runs): one file per suite, written atomically.
A run of some cases (--case, --shard, --failed) updates theirs, and keeps the others'.

--shard K/N runs the K-th of N shares of the cases, for N CI jobs.
A case's share is a hash of its suite file's name and its own.
So it is the same on every machine, whatever the other cases.
Each share's report stands alone: gather the JUnit files.
A broken suite file is reported by one share.

A replayed sample writes its run folder only when it does not pass; the
report names it. --keep-runs writes one for every replayed sample.
Live samples always have their run folders.

--jobs N runs samples in parallel, at most N model calls per provider at once.
Results print in suite order.
On a terminal a progress line on stderr shows cases done, samples running
and cases not passed.

Exit status: 0 every case passed; 1 a case failed, is stale, is not recorded
(--offline) or could not be judged, or a suite file is broken; 2 bad usage;
3 internal failure.`,
		Example: `  agentdesk test
  agentdesk test --record agents/code-analyst.test.yaml
  agentdesk test --record --case 'finds the port'
  agentdesk test --offline --format junit > report.xml
  agentdesk test --offline --format html > report.html
  agentdesk test --watch
  agentdesk test --models Main,Compaction agents/summarizer.test.yaml
  agentdesk test --demo --offline
  agentdesk test --demo --offline --models qwen3-30b,llama3-8b`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTests(cmd, g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.record, "record", false, "run every sample live and keep its recording beside the suite")
	fl.BoolVar(&f.offline, "offline", false, "replay recordings only: no model, no key (for CI)")
	fl.Var(&f.format, "format", "output format: text, json, junit, github or html (one self-contained page)")
	fl.IntVar(&f.jobs, "jobs", suite.DefaultJobs, jobsUsage)
	fl.StringVar(&f.judgeRole, "judge-role", "Main", "model role of the judge: Main, Compaction or Fallback")
	fl.StringVar(&f.runsDir, "runs-dir", "", "runs folder (default $XDG_STATE_HOME/agentdesk/runs, else ~/.local/state/agentdesk/runs)")
	fl.BoolVar(&f.demo, "demo", false, "run the embedded sample home's suites (nothing else needed)")
	f.netclaw.add(fl)
	fl.Var(&f.audience, "audience", "the parent session's audience of cases whose suite names none: Personal, Team or Public")
	fl.StringVar(&f.project, "project", "", "project folder of cases that name none (default: none)")
	fl.StringArrayVar(&f.cases, "case", nil, caseUsage)
	fl.StringVar(&f.shard, "shard", "", shardUsage)
	fl.BoolVar(&f.failed, "failed", false, "run again only the cases that did not pass in the last run of their suite (kept in $XDG_STATE_HOME/agentdesk/last-runs)")
	fl.StringSliceVar(&f.models, "models", nil, "run every case on each of these models side by side: roles (Main, Compaction, Fallback) or Models.Definitions names, comma-separated (default: the suite's models:)")
	fl.BoolVar(&f.keepRuns, "keep-runs", false, "write the run folder of every replayed sample, not only of those that did not pass")
	addApproveFlag(fl, &f.approve, approveUsage+"; recorded and offline samples need none")
	fl.BoolVar(&f.watch, "watch", false, "run the suites, then again each time their suite, agent, skill or config file changes (offline; Ctrl-C stops)")
	fl.BoolVar(&f.live, "live", false, "with --watch: run every sample live against the model, recordings or not (nothing is recorded)")
	f.mcp.add(fl)
	f.sandbox.add(fl)
	return cmd
}

// runTests finds the suites, runs them and prints the report: it checks
// the flags (checkTestFlags), then watches the suites or runs them once
// (testSuitesRun).
func runTests(cmd *cobra.Command, g *globals, f testFlags, paths []string) error {
	mode, judgeRole, err := checkTestFlags(f)
	if err != nil {
		return err
	}
	if f.round != nil {
		mode = f.round.mode
	}
	if f.watch && f.round == nil {
		return watchSuites(cmd, &suiteWatch{g: g, command: "agentdesk test", kind: testSuites, paths: paths, mode: watchMode(f.live), deps: testSuiteDeps,
			round: func(r *watchRound) error {
				one := f
				one.round, one.live, one.offline = r, false, r.mode == evalrec.Offline
				return runTests(cmd, g, one, paths)
			}})
	}
	batchGC()
	return testSuitesRun(cmd, g, f, mode, judgeRole, paths)
}

// checkTestFlags is agentdesk test's validation step: it checks the flags
// against each other before anything is read, and returns the mode the
// suites run in (a watch round sets its own later) and the judge's role.
func checkTestFlags(f testFlags) (mode evalrec.Mode, judgeRole string, err error) {
	mode, err = evalrec.ModeFor(f.record, f.offline)
	if err != nil {
		return mode, "", usageErrorf("%w", err)
	}
	if f.failed && f.demo {
		return mode, "", usageErrorf("--failed reads the last run of your suites; the demo keeps none: leave out --demo or --failed")
	}
	if err := checkWatchFlags(f.watch, f.live, f.record, f.offline, f.demo, f.format); err != nil {
		return mode, "", err
	}
	if f.jobs < 1 {
		return mode, "", usageErrorf("--jobs is %d: give 1 or more", f.jobs)
	}
	if err := f.mcp.check(); err != nil {
		return mode, "", err
	}
	judgeRole, err = runner.NormalizeRole(f.judgeRole)
	if err != nil {
		return mode, "", usageErrorf("--judge-role: %v", err)
	}
	return mode, judgeRole, nil
}

// testModels reads --models against the configuration: nil when it is
// not given (each suite's models: then), else the models it names, which
// must be at least one.
func testModels(cfg *lint.Config, names []string) ([]suitefile.ModelChoice, error) {
	if len(names) == 0 {
		return nil, nil
	}
	models, err := suitefile.LookupModels(cfg, names)
	if err != nil {
		return nil, usageErrorf("--models: %v", err)
	}
	if len(models) == 0 {
		return nil, usageErrorf("--models names no model: give roles or Models.Definitions names, comma-separated")
	}
	return models, nil
}

// warnSamplesCore warns when NetClaw's embedded core (the operating
// rules) is missing from the samples' requests: offline, recordings made
// with it replay stale; live, the samples may behave otherwise than in
// NetClaw. The demo's samples replay, and need no warning.
func warnSamplesCore(g *globals, nc runner.NetClaw, offline, demo bool) {
	switch {
	case nc.Core != nil || demo: // the demo's samples replay
	case offline:
		// Replayed samples are compared with a request without them:
		// recordings made with them are stale, and this says why.
		g.warn("agentdesk", "the operating rules (NetClaw's embedded core) are missing: "+nc.CoreMissing+"; recordings made with them replay stale (system prompt: operating-rules changed)"+netclawDirHint(nc.CoreMissing))
	default:
		g.warn("agentdesk", "the operating rules (NetClaw's embedded core) are missing from the samples' requests: "+nc.CoreMissing+"; the samples run without them, so they may behave otherwise than in NetClaw"+netclawDirHint(nc.CoreMissing))
	}
}

// checkProjectFolder refuses a --project that is not a folder; "" is none.
func checkProjectFolder(project string) error {
	if project == "" {
		return nil
	}
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return usageErrorf("--project %s is not a folder", termsafe.Escape(project))
	}
	return nil
}

// loadTestSuites reads and checks the test suites in files, and keeps
// those the case selection takes. It returns them and how many cases they
// run, once on each model of a matrix (models: the number --models
// gives). A case's approve: is checked against its audience (its own,
// else its suite's, else audience). It fails as sel.done does, when
// --case or --failed takes nothing.
func loadTestSuites(g *globals, c *lint.Catalog, files []string, sel *caseSelection, models int, audience preview.Audience) ([]*suitefile.Suite, int, error) {
	audit := approve.NewAudienceCheck(c.Config).Audit
	var suites []*suitefile.Suite
	cells := 0 // the cases to run, once on each model of a matrix
	for _, p := range files {
		s := suitefile.Load(p)
		suitefile.Check(s, c)
		// A case's approve: meets the case's audience, else the suite's,
		// else --audience.
		suitefile.CheckApproveAudience(s, audit, audience.String())
		names := make([]string, len(s.Cases))
		for i, cs := range s.Cases {
			names[i] = cs.Name
		}
		before := sel.total
		if sel.take(p, names, s.Broken()) {
			suites = append(suites, s)
			if !sel.onFailed() {
				cells += (sel.total - before) * matrixWidth(models, s)
				continue
			}
			for _, name := range names { // --failed: each case on the models it failed on
				if sel.runs(p, name) {
					cells += len(sel.failedModels(p, name))
				}
			}
		}
	}
	if err := sel.done(g); err != nil {
		return nil, 0, err
	}
	return suites, cells, nil
}

// testAudiences lists the audiences the selected cases of suites run as
// (the case's, else the suite's, else the command's), each once.
func testAudiences(suites []*suitefile.Suite, sel *caseSelection, command preview.Audience) []preview.Audience {
	var out []preview.Audience
	for _, s := range suites {
		for _, cs := range s.Cases {
			if !sel.runs(s.Path, cs.Name) {
				continue
			}
			a, err := preview.ParseAudience(cmp.Or(cs.Audience, s.Audience, command.String()))
			if err == nil && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// testSuitesRun is agentdesk test's run step, once the flags are checked:
// it opens the home (or takes a watch round's), finds and selects the
// suites, runs them in mode, prints each suite's text report as it ends,
// keeps how each case ended for --failed, and prints the report.
func testSuitesRun(cmd *cobra.Command, g *globals, f testFlags, mode evalrec.Mode, judgeRole string, paths []string) error {
	sh, err := roundSuiteHome(cmd, g, f.round, f.demo, paths, f.record)
	if err != nil {
		return err
	}
	defer sh.close(cmd.ErrOrStderr())
	c, runsDir := sh.c, sh.runsDir(f.runsDir)
	shownFrom := "" // the folder paths are shown relative to
	if f.demo {
		shownFrom = c.Home.Base
	}
	files, err := roundFiles(f.round, func() ([]string, error) { return findSuiteFiles(c.Home.Agents, paths, testSuites) })
	if err != nil {
		return err
	}
	rn, err := openRunner(g, runsDir)
	if err != nil {
		return err
	}
	models, err := testModels(c.Config, f.models)
	if err != nil {
		return err
	}
	nc, err := f.netclaw.spawnNetClaw(g, c.Home, preview.Audience(f.audience))
	if err != nil {
		return err
	}
	if err := checkProjectFolder(f.project); err != nil {
		return err
	}
	sel, err := newCaseSelection(g, f.cases, f.shard, f.failed, f.demo, files)
	if err != nil {
		return err
	}
	for _, m := range models {
		// --failed --models takes the failed cells of these models.
		sel.within = append(sel.within, m.Name)
	}
	suites, cells, err := loadTestSuites(g, c, files, sel, len(models), preview.Audience(f.audience))
	if err != nil {
		return err
	}

	// --approve meets every case's audience: it is refused only when
	// none of them can use it.
	approved, err := parseSuiteApprove(f.approve, c.Config, testAudiences(suites, sel, preview.Audience(f.audience)))
	if err != nil {
		return err
	}
	if err := f.sandbox.check(c.Config); err != nil {
		return err
	}
	// Bad usage is said alone: the warning comes once the flags hold.
	warnSamplesCore(g, nc, f.offline, f.demo)

	ropts := suite.ReportOptions{Color: g.Color(g.stdout), Dir: shownFrom}
	progress := newProgressLine(g, cells)
	printer := newOrderedPrinter(g.stdout, suites, ropts, f.format == evalreport.Text)
	start := time.Now()
	results := suite.Run(cmd.Context(), suites, suite.Options{
		NetClaw: nc, Project: f.project,
		Runner: rn, Catalog: c, Mode: mode, Words: evalWords, Jobs: f.jobs, JudgeRole: judgeRole, KeepRuns: f.keepRuns, Approve: approved, Cases: sel.filter, ShownFrom: shownFrom, Demo: f.demo,
		Models: models, Shard: sel.shard, Select: sel.selectCases(), SelectModels: sel.selectModels(),
		NoMCP: f.mcp.off, MCPStartTimeout: f.mcp.timeout, Seed: f.seed,
		Sandbox: f.sandbox.spec(),
		OnMCPStart: func(names []string) {
			progress.clear()
			fmt.Fprint(g.stderr, f.mcp.starting(names))
			progress.draw()
		},
		OnMCPNote: func(n string) {
			progress.clear()
			fmt.Fprintf(g.stderr, "agentdesk: %s\n", termsafe.Escape(n))
			progress.draw()
		},
		OnSample: func(_ *suitefile.Suite, _ *suitefile.Case, _ int, done bool, _ *suite.SampleResult) {
			progress.sample(done)
		},
		OnCase: func(_ *suitefile.Suite, r *suite.CaseResult) { progress.caseDone(r.Status) },
		OnSuite: func(r *suite.SuiteResult) {
			progress.clear()
			printer.add(r)
			progress.draw()
		},
	})
	took := time.Since(start)
	progress.clear()
	if sel.stateDir != "" {
		saveLastRuns(g, sel.stateDir, results, start)
	}

	ws := suite.Reports(results, suite.HTMLOptions{ReportOptions: ropts, Generated: time.Now(), Took: took})
	// The text report was printed suite by suite as each finished; what
	// is left is the summary.
	ws[evalreport.Text] = func(io.Writer) error { return printer.finish(results, took) }
	return writeSuiteReport(g.stdout, f.format, suite.Summarize(results).OK(), ws)
}

// lastFailed returns, with --failed, the last run of each suite of files
// that has one (a suite with none runs no case, and stderr says so); nil
// without --failed.
func lastFailed(g *globals, on bool, dir string, files []string) (map[string]*evalrec.LastRun, error) {
	if !on {
		return nil, nil
	}
	last := map[string]*evalrec.LastRun{}
	for _, p := range files {
		l, err := evalrec.LoadLastRun(dir, p)
		if err != nil {
			return nil, exitWith(exitInternal, err)
		}
		if l == nil {
			fmt.Fprintf(g.stderr, "agentdesk: --failed: %s has no last run recorded; none of its cases runs\n", termsafe.Escape(p))
			continue
		}
		last[p] = l
	}
	return last, nil
}

// saveLastRuns records how each case that ran ended, on each model, for
// --failed. A state folder that cannot be written is a warning.
func saveLastRuns(g *globals, dir string, results []*suite.SuiteResult, at time.Time) {
	for _, r := range results {
		// Each case keeps a status per model it ran on ("" for its own
		// role), so --failed picks a case that still fails on a model a
		// later run left out.
		statuses := map[evalrec.CaseModel]string{}
		for _, c := range r.Cases {
			statuses[evalrec.CaseModel{Case: c.Case.Name, Model: c.Model}] = string(c.Status)
		}
		if err := evalrec.SaveLastRunByModel(dir, r.Suite.Path, statuses, at); err != nil {
			g.warn("agentdesk", fmt.Sprintf("%v; --failed will not know of this run", err))
		}
	}
}

// caseUsage is the help of --case, the same for agentdesk test and route --suite.
const caseUsage = "run only the cases named NAME (repeatable; * and ? are wildcards): record or replay one case alone"

// unmatchedCases says, as bad usage, which --case patterns match no case
// of the suites (whose case names are names).
func unmatchedCases(filter *evalrec.CaseFilter, names []string) error {
	un := filter.Unmatched(names)
	if len(un) == 0 {
		return nil
	}
	var quoted []string
	for _, p := range un {
		quoted = append(quoted, strconv.Quote(p))
	}
	list := strings.Join(names, ", ")
	if len(names) == 0 {
		list = "none"
	}
	return usageErrorf("--case %s matches no case; the cases are: %s", strings.Join(quoted, ", --case "), termsafe.Escape(list))
}

// jobsUsage is the help of --jobs, the same for agentdesk test and route.
const jobsUsage = "samples in parallel: at most N model calls per provider at once"

// testSuites is the kind of suite agentdesk test runs.
var testSuites = suiteKind{suffix: suitefile.TestSuffix, what: "test suite", write: "<agent>.test.yaml beside the agent (see agentdesk test --help), or give a PATH"}

// orderedPrinter prints the text report's suites in suite order, each as
// soon as it and those before it are done.
type orderedPrinter struct {
	p     *suite.TextPrinter
	on    bool
	index map[*suitefile.Suite]int
	done  []*suite.SuiteResult
	next  int
	err   error
}

func newOrderedPrinter(w io.Writer, suites []*suitefile.Suite, o suite.ReportOptions, on bool) *orderedPrinter {
	op := &orderedPrinter{p: suite.NewTextPrinter(w, o), on: on, index: map[*suitefile.Suite]int{}, done: make([]*suite.SuiteResult, len(suites))}
	for i, s := range suites {
		op.index[s] = i
	}
	return op
}

func (op *orderedPrinter) add(r *suite.SuiteResult) {
	if !op.on {
		return
	}
	op.done[op.index[r.Suite]] = r
	for op.next < len(op.done) && op.done[op.next] != nil {
		if err := op.p.Suite(op.done[op.next]); err != nil && op.err == nil {
			op.err = err
		}
		op.next++
	}
}

func (op *orderedPrinter) finish(rs []*suite.SuiteResult, took time.Duration) error {
	if op.err != nil {
		return op.err
	}
	return op.p.Summary(rs, took)
}

// matrixWidth is how many models each case of s runs on: the command's
// (given of them), else the suite's models:, else one.
func matrixWidth(given int, s *suitefile.Suite) int {
	switch {
	case given > 0:
		return given
	case len(s.Models) > 0:
		return len(s.Models)
	}
	return 1
}

// progressLine is the progress line on a terminal's stderr: cases done,
// samples running, cases failed. It draws nothing when stderr is not a
// terminal.
type progressLine struct {
	w                            io.Writer
	on                           bool
	total, done, running, failed int
	shown                        bool
}

func newProgressLine(g *globals, total int) *progressLine {
	return &progressLine{w: g.stderr, on: isTerminal(g.stderr), total: total}
}

func (p *progressLine) sample(done bool) {
	if done {
		p.running--
	} else {
		p.running++
	}
	p.draw()
}

func (p *progressLine) caseDone(s suite.Status) {
	p.done++
	if !s.OK() {
		p.failed++
	}
	p.draw()
}

func (p *progressLine) draw() {
	if !p.on {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%d/%d cases done, %d running, %d not passed", p.done, p.total, p.running, p.failed)
	p.shown = true
}

func (p *progressLine) clear() {
	if p.on && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
