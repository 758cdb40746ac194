package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/keepcase"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/rundiff"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// runsFlags holds the flags of agentdesk runs.
type runsFlags struct {
	runsDir string
	agent   string
	json    bool
	diff    bool
	format  previewFormat
	// toCase and caseName are --to-case and --case-name.
	toCase   bool
	caseName string
}

// newRunsCmd builds `agentdesk runs`.
func newRunsCmd(g *globals) *cobra.Command {
	var f runsFlags
	cmd := &cobra.Command{
		Use:   "runs [RUN_ID] | --diff BEFORE AFTER | RUN_ID --to-case [SUITE]",
		Short: "List trial runs, newest first, or show one",
		Long: `List the trial runs, newest first, or show one.

Without RUN_ID, each line gives the id, start time, agent, state, outcome and
reason. A run played back from a cassette is marked "(replay)".
A Completed run's reason is none.
A run whose run.json says Running but whose process is gone shows as Lost.
A folder whose run.json cannot be read shows as Unreadable.

RUN_ID is the full 32 characters, or a prefix of at least 4 that only one run
has. With it, runs prints that run's result.md.
A run that has not ended has none; its record is summarised instead.
--json prints run.json, or a list of them without RUN_ID.

--diff BEFORE AFTER compares two runs:
  - outcome and reason;
  - the request, part by part, with a diff of each part that changed;
  - the tool calls, as an aligned sequence;
  - the output, word by word;
  - tokens and clocks, with their deltas;
  - changes.patch, as a diff of diffs.
Runs of different agents or models compare too, under a heading that says so.
--format json prints the comparison as one JSON document.

RUN_ID --to-case [SUITE] keeps the run as a test case.
It appends a case to the agent's suite: SUITE, default
<agents>/<agent>.test.yaml, created when missing.
The case has the run's task, context, project and audience.
Its expectations come from what the run did: its outcome when not Completed,
the tools it called, and a contains taken from its output, to narrow by hand.
The rest of the file is kept as it was; the write is atomic.
A suite with errors, or a case name already taken, is refused and not touched.
A run made with --record gives the case its recording at once, so
'agentdesk test --offline' replays it. The case's first result is printed.

Exit status: 0 listed or shown; 1 no such run; 2 bad usage (RUN_ID is no run
id or prefix of one); 3 internal failure.`,
		Example: `  agentdesk runs
  agentdesk runs --agent code-analyst
  agentdesk runs 3f9a --json | jq .reason
  agentdesk runs --diff 3f9a 7c21
  agentdesk runs --diff 3f9a 7c21 --format json | jq .request.changed`,
		Args: func(cmd *cobra.Command, args []string) error {
			return checkRunsArgs(cmd, f, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRuns(cmd, g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.runsDir, "runs-dir", "", "runs folder (default $XDG_STATE_HOME/agentdesk/runs, else ~/.local/state/agentdesk/runs)")
	fl.StringVar(&f.agent, "agent", "", "list only the runs of this agent (any case)")
	fl.BoolVar(&f.json, "json", false, "print run.json records instead of text")
	fl.BoolVar(&f.diff, "diff", false, "compare two runs: runs --diff BEFORE AFTER")
	fl.BoolVar(&f.toCase, "to-case", false, "keep the run as a case of its agent's suite: runs RUN_ID --to-case [SUITE]")
	fl.StringVar(&f.caseName, "case-name", "", "the kept case's name (default: the task's first line)")
	fl.Var(&f.format, "format", "output format: text or json (json is --json for a list or a run)")
	return cmd
}

// checkRunsArgs is runs' validation step: --to-case keeps one run (and
// names at most a suite), --diff compares two, and otherwise at most one
// run is shown.
func checkRunsArgs(cmd *cobra.Command, f runsFlags, args []string) error {
	switch {
	case f.toCase && (len(args) < 1 || len(args) > 2):
		return usageErrorf("--to-case keeps one run: agentdesk runs RUN_ID --to-case [SUITE] (got %d arguments)", len(args))
	case f.toCase:
		return nil
	case f.diff && len(args) != 2:
		return usageErrorf("--diff compares two runs: agentdesk runs --diff BEFORE AFTER (got %d)", len(args))
	case f.diff:
		return nil
	}
	return cobra.MaximumNArgs(1)(cmd, args)
}

// runRuns is runs' run step: on the runs folder (--runs-dir, else the
// default one) it compares two runs, keeps one as a case, shows one, or
// lists them.
func runRuns(cmd *cobra.Command, g *globals, f runsFlags, args []string) error {
	dir := f.runsDir
	if dir == "" {
		var err error
		if dir, err = runfolder.DefaultRunsDir(g.Getenv); err != nil {
			return exitWith(exitUsage, err)
		}
	}
	if f.diff {
		return diffRuns(g, f, dir, args[0], args[1])
	}
	if f.toCase {
		return keepRunAsCase(cmd, g, f, dir, args)
	}
	if cmd.Flags().Changed("format") {
		f.json = f.json || f.format == previewJSON
	}
	if len(args) == 1 {
		return showRun(g, f, dir, args[0])
	}
	return listRuns(g, f, dir)
}

// listRuns prints the runs of dir, newest first.
func listRuns(g *globals, f runsFlags, dir string) error {
	recs, err := runfolder.ListRuns(dir, runfolder.Filter{Agent: f.agent})
	if err != nil {
		return exitWith(exitInternal, err)
	}
	if f.json {
		if recs == nil {
			recs = []runfolder.Record{}
		}
		return writeJSON(g.stdout, recs)
	}
	if len(recs) == 0 {
		what := "no runs"
		if f.agent != "" {
			what = "no runs of " + termsafe.Escape(f.agent)
		}
		_, err := fmt.Fprintf(g.stderr, "%s in %s\n", what, termsafe.Escape(dir))
		return err
	}
	color := g.Color(g.stdout)
	rows := [][]string{{"RUN", "STARTED", "AGENT", "STATE", "OUTCOME", "REASON"}}
	// A SUITE column when some run was made by a test or route suite.
	suites := slices.ContainsFunc(recs, func(r runfolder.Record) bool { return r.Suite != nil })
	if suites {
		rows[0] = append(rows[0], "SUITE")
	}
	for _, r := range recs {
		rows = append(rows, runRow(r, color, suites))
	}
	return writeString(g.stdout, table(rows))
}

// runRow is run r's row in the list: id, start, agent (the frontline's
// for agentdesk route, marked when replayed), state, outcome and reason,
// and, when the list has a SUITE column (suites), the suite that made it.
func runRow(r runfolder.Record, color, suites bool) []string {
	started := "-"
	if !r.StartedAt.IsZero() {
		started = r.StartedAt.Local().Format("2006-01-02 15:04:05")
	}
	agent := termsafe.Escape(r.Agent)
	switch {
	case r.Frontline != nil:
		agent = "(frontline)" // agentdesk route: no agent ran
	case agent == "":
		agent = "-"
	}
	if r.Replay != nil {
		agent += " (replay)"
	}
	row := []string{r.RunID, started, agent, styleState(r.State, color), vocab.OutcomeText(r.Outcome), termsafe.Escape(vocab.ReasonText(r.Reason))}
	if !suites {
		return row
	}
	tag := "-"
	if r.Suite != nil {
		tag = termsafe.Escape(r.Suite.String())
	}
	return append(row, tag)
}

// table aligns rows in columns two spaces apart, measuring display width.
func table(rows [][]string) string {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		for i, cell := range row {
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)+2))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// showRun prints one run: its result.md, or its record as JSON.
func showRun(g *globals, f runsFlags, dir, idOrPrefix string) error {
	id, err := runfolder.ResolveRunID(dir, idOrPrefix)
	if errors.Is(err, runfolder.ErrNotRunID) {
		return exitWith(exitUsage, err)
	}
	if err != nil {
		return exitWith(exitFindings, err)
	}
	rec, err := runfolder.LoadRun(dir, id)
	if err != nil {
		return exitWith(exitFindings, err)
	}
	if f.agent != "" && !strings.EqualFold(rec.Agent, f.agent) {
		return exitWith(exitFindings, fmt.Errorf("run %s is a run of %s, not %s", id, termsafe.Escape(rec.Agent), termsafe.Escape(f.agent)))
	}
	if f.json {
		data, err := rec.MarshalIndent()
		if err != nil {
			return exitWith(exitInternal, err)
		}
		return writeString(g.stdout, string(data))
	}
	result, err := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if err == nil {
		return writeString(g.stdout, termsafe.EscapeLines(string(result)))
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return exitWith(exitInternal, fmt.Errorf("reading run %s: %w", id, err))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Trial run %s\n\n", rec.RunID)
	why := "no result.md yet"
	if rec.State == vocab.StateLost {
		why = "the process that ran it is gone; it left no result.md"
	}
	fmt.Fprintf(&b, "- State: %s (%s)\n", termsafe.Escape(rec.State), why)
	fmt.Fprintf(&b, "- Agent: %s (%s)\n", termsafe.Escape(rec.Agent), termsafe.Escape(rec.AgentPath))
	fmt.Fprintf(&b, "- Started: %s\n", rec.StartedAt.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, "- Model: %s at %s\n", termsafe.Escape(rec.Model.ModelID), termsafe.Escape(rec.Model.Endpoint))
	fmt.Fprintf(&b, "- Folder: %s\n", termsafe.Escape(rec.Dir))
	return writeString(g.stdout, b.String())
}

// diffRuns compares two runs, each named by id or prefix, and prints the
// comparison.
func diffRuns(g *globals, f runsFlags, dir, before, after string) error {
	var runs [2]*rundiff.Run
	for i, arg := range []string{before, after} {
		id, err := runfolder.ResolveRunID(dir, arg)
		if errors.Is(err, runfolder.ErrNotRunID) {
			return exitWith(exitUsage, err)
		}
		if err != nil {
			return exitWith(exitFindings, err)
		}
		if runs[i], err = rundiff.Load(filepath.Join(dir, id)); err != nil {
			return exitWith(exitFindings, err)
		}
	}
	c := rundiff.Compare(runs[0], runs[1])
	if f.json || f.format == previewJSON {
		return writeJSON(g.stdout, c)
	}
	return writeString(g.stdout, rundiff.Text(c, g.Color(g.stdout)))
}

// keepRunAsCase appends run args[0] as a case to its agent's suite
// (args[1], or <agents>/<agent>.test.yaml), then records the case from
// the run's recording when it kept one.
func keepRunAsCase(cmd *cobra.Command, g *globals, f runsFlags, dir string, args []string) error {
	id, rec, err := runToKeep(dir, args[0])
	if err != nil {
		return err
	}
	path, err := keptCaseSuite(g, rec, args)
	if err != nil {
		return err
	}
	c := keepcase.FromRun(&rec, path, f.caseName)
	if err := keepcase.Append(path, c); err != nil {
		if errors.Is(err, keepcase.ErrNameTaken) {
			return exitWith(exitUsage, err)
		}
		return exitWith(exitFindings, err)
	}
	fmt.Fprintf(g.stderr, "kept run %s as case %q in %s: edit its expect: contains to what the reply must say\n", id[:8], termsafe.Escape(c.Name), termsafe.Escape(path))
	tapePath := filepath.Join(rec.Dir, runfolder.StreamFile)
	tape, err := runner.LoadCassette(tapePath)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(g.stderr, "the run kept no recording (it ran without --record): 'agentdesk test %s --record --case %s' records the case\n",
			termsafe.Escape(path), evalrec.ShellQuote(c.Name))
		return nil
	}
	if err != nil {
		return exitWith(exitFindings, fmt.Errorf("the case is kept, but its recording is not: %w", err))
	}
	tf := testFlags{record: true, jobs: 1, runsDir: dir, cases: []string{c.Name}, mcp: mcpFlags{timeout: mcp.DefaultStartTimeout},
		seed: func(suitePath, caseName string, sample int) (*cassette.Cassette, string) {
			if caseName != c.Name || sample != 1 || !samePath(suitePath, path) {
				return nil, ""
			}
			return tape, tapePath
		}}
	return runTests(cmd, g, tf, []string{path})
}

// runToKeep finds the run idOrPrefix names in dir for --to-case: it must
// be an agent's run (not the frontline's) with a task.
func runToKeep(dir, idOrPrefix string) (string, runfolder.Record, error) {
	id, err := runfolder.ResolveRunID(dir, idOrPrefix)
	if errors.Is(err, runfolder.ErrNotRunID) {
		return "", runfolder.Record{}, exitWith(exitUsage, err)
	}
	if err != nil {
		return "", runfolder.Record{}, exitWith(exitFindings, err)
	}
	rec, err := runfolder.LoadRun(dir, id)
	if err != nil {
		return "", runfolder.Record{}, exitWith(exitFindings, err)
	}
	if rec.Agent == "" || rec.Frontline != nil {
		return "", runfolder.Record{}, exitWith(exitFindings, fmt.Errorf("run %s asked the frontline model (agentdesk route), not an agent: keep it in a routing suite by hand", id))
	}
	if strings.TrimSpace(rec.Task) == "" {
		return "", runfolder.Record{}, exitWith(exitFindings, fmt.Errorf("run %s has no task to keep", id))
	}
	return id, rec, nil
}

// keptCaseSuite is the suite a kept run's case goes to: args[1] when
// given (it must be named as a test suite), else its agent's suite in the
// home's agents folder.
func keptCaseSuite(g *globals, rec runfolder.Record, args []string) (string, error) {
	if len(args) == 2 {
		path := args[1]
		if !suitefile.IsTestSuite(path) {
			return "", usageErrorf("%s is not a test suite's name: it ends in %s", termsafe.Escape(path), suitefile.TestSuffix)
		}
		return path, nil
	}
	h, err := homeToRead(g, "")
	if err != nil {
		return "", err
	}
	return filepath.Join(h.Agents, rec.Agent+suitefile.TestSuffix), nil
}

// samePath reports whether two paths name the same file.
func samePath(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
