package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/route"
)

// runRouteSuites runs routing suites and prints the report: it checks the
// flags (checkRouteSuiteFlags), then watches the suites or runs them once
// (routeSuitesRun).
func runRouteSuites(cmd *cobra.Command, g *globals, f routeFlags, paths []string) error {
	changed := cmd.Flags().Changed
	mode, err := checkRouteSuiteFlags(changed, f)
	if err != nil {
		return err
	}
	if f.round != nil {
		mode = f.round.mode
	}
	if f.watch && f.round == nil {
		return watchSuites(cmd, &suiteWatch{g: g, command: "agentdesk route --suite", kind: routeSuites, paths: paths, mode: watchMode(f.live), deps: routeSuiteDeps,
			round: func(r *watchRound) error {
				one := f
				one.round, one.live, one.offline = r, false, r.mode == evalrec.Offline
				return runRouteSuites(cmd, g, one, paths)
			}})
	}
	samples := 0
	if changed("samples") {
		samples = f.samples
	}
	return routeSuitesRun(cmd, g, f, mode, samples, paths)
}

// routeSuitesRun is route --suite's run step, once the flags are checked:
// it opens the home (or takes a watch round's), finds and selects the
// suites, runs them in mode with samples (0: each suite's own), keeps how
// each case ended for --failed, and prints the report.
func routeSuitesRun(cmd *cobra.Command, g *globals, f routeFlags, mode evalrec.Mode, samples int, paths []string) error {
	sh, err := roundSuiteHome(cmd, g, f.round, f.demo, paths, f.record)
	if err != nil {
		return err
	}
	defer sh.close(cmd.ErrOrStderr())
	c := sh.c
	files, err := roundFiles(f.round, func() ([]string, error) { return routeSuiteFiles(c.Home.Agents, paths) })
	if err != nil {
		return err
	}
	rn, err := openRunner(g, sh.runsDir(f.runsDir))
	if err != nil {
		return err
	}
	sel, err := newCaseSelection(g, f.cases, f.shard, f.failed, f.demo, files)
	if err != nil {
		return err
	}
	suites, err := loadRouteSuites(g, c, files, sel)
	if err != nil {
		return err
	}
	// The frontline runs no tool, so --approve is only checked, as for one
	// request, against the audiences the suites name.
	if _, err := parseSuiteApprove(f.approve, c.Config, routeAudiences(suites)); err != nil {
		return err
	}
	if mode == evalrec.Offline && !f.demo && !f.static && f.round == nil && anyWithoutPreamble(suites) {
		if err := warnNeutralPreamble(g, f, c); err != nil {
			return err
		}
	}
	cwd, _ := os.Getwd() // the folder paths are shown relative to
	if f.demo {
		cwd = c.Home.Base
	}
	start := time.Now()
	results := runEachRouteSuite(cmd.Context(), g, suites, sel.total, route.SuiteOptions{
		Runner: rn, Catalog: c, Mode: mode, Words: evalWords, Jobs: f.jobs, Samples: samples, Static: f.static, Cases: sel.filter, Shard: sel.shard, ShownFrom: cwd, Demo: f.demo,
		KeepRuns: f.keepRuns, Select: sel.selectCases(),
		Frontline: suiteFrontline(g, f, c),
	})
	took := time.Since(start)
	if sel.stateDir != "" && !f.static {
		saveRouteLastRuns(g, sel.stateDir, results, start)
	}
	return writeSuiteReport(g.stdout, f.format, route.Summarize(results).OK(), route.Reports(results, c, cwd, time.Now(), took))
}

// runEachRouteSuite runs the suites one after another with opts. On a
// terminal a progress line on stderr (agentdesk test's) counts the total
// cases selected as they end; it is cleared once the last suite has run.
func runEachRouteSuite(ctx context.Context, g *globals, suites []*suitefile.RouteSuite, total int, opts route.SuiteOptions) []*route.SuiteResult {
	progress := newProgressLine(g, total)
	defer progress.clear()
	opts.OnSample = progress.sample
	opts.OnCase = func(r *route.CaseResult) { progress.caseDone(r.Status) }
	var results []*route.SuiteResult
	for _, s := range suites {
		results = append(results, route.RunSuite(ctx, s, opts))
	}
	return results
}

// checkRouteSuiteFlags is route --suite's validation step: it checks the
// flags against each other before anything is read, and returns the mode
// the suites run in (a watch round sets its own later).
func checkRouteSuiteFlags(changed func(string) bool, f routeFlags) (evalrec.Mode, error) {
	mode, err := evalrec.ModeFor(f.record, f.offline)
	switch {
	case err != nil:
		return mode, usageErrorf("%w", err)
	case f.showRequest || changed("system-file") || changed("audience") || changed("model-role"):
		return mode, usageErrorf("a suite says its audience, preamble-file and model-role itself: leave out --show-request, --system-file, --audience and --model-role")
	case f.jobs < 1:
		return mode, usageErrorf("--jobs is %d: give 1 or more", f.jobs)
	case changed("samples") && (f.samples < 1 || f.samples > suitefile.MaxRepeat):
		return mode, usageErrorf("--samples is %d: %s", f.samples, samplesRange)
	case f.static && (f.record || f.offline || changed("samples")):
		return mode, usageErrorf("--static asks no model: leave out --record, --offline and --samples")
	case f.static && f.live:
		return mode, usageErrorf("--static asks no model: leave out --live")
	case f.failed && f.demo:
		return mode, usageErrorf("--failed reads the last run of your suites; the demo keeps none: leave out --demo or --failed")
	}
	return mode, checkWatchFlags(f.watch, f.live, f.record, f.offline, f.demo, f.format)
}

// routeAudiences lists the audiences suites name, each once.
func routeAudiences(suites []*suitefile.RouteSuite) []preview.Audience {
	var out []preview.Audience
	for _, s := range suites {
		if a, err := preview.ParseAudience(s.Audience); err == nil && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// loadRouteSuites reads and checks the routing suites in files, and keeps
// those the case selection takes (a suite with no case is broken). It
// fails as sel.done does, when --case or --failed takes nothing.
func loadRouteSuites(g *globals, c *lint.Catalog, files []string, sel *caseSelection) ([]*suitefile.RouteSuite, error) {
	var suites []*suitefile.RouteSuite
	for _, path := range files {
		s := suitefile.LoadRoute(path)
		suitefile.CheckRoute(s, c)
		names := make([]string, len(s.Cases))
		for i, cs := range s.Cases {
			names[i] = cs.Name
		}
		if sel.take(path, names, len(s.Cases) == 0) {
			suites = append(suites, s)
		}
	}
	if err := sel.done(g); err != nil {
		return nil, err
	}
	return suites, nil
}

// warnNeutralPreamble warns, before an offline replay, when NetClaw's
// embedded core is missing. Replayed samples are compared with a
// frontline given agentdesk's neutral preamble: recordings made with
// NetClaw's main-session prompt are stale, and this says why (as test
// --offline does).
func warnNeutralPreamble(g *globals, f routeFlags, c *lint.Catalog) error {
	nc, err := f.netclaw.spawnNetClaw(g, c.Home, preview.Personal)
	if err != nil {
		return err
	}
	if nc.Core == nil {
		g.warn("agentdesk", "the operating rules (NetClaw's embedded core) are missing: "+nc.CoreMissing+"; suites without a preamble-file get agentdesk's neutral preamble, so recordings made with NetClaw's main-session prompt replay stale (preamble changed)"+netclawDirHint(nc.CoreMissing))
	}
	return nil
}

// saveRouteLastRuns keeps how each case of each suite ended in dir, for
// a later --failed; a suite whose last run cannot be saved is warned of.
func saveRouteLastRuns(g *globals, dir string, results []*route.SuiteResult, at time.Time) {
	for _, r := range results {
		statuses := map[string]string{}
		for _, cr := range r.Cases {
			statuses[cr.Case.Name] = string(cr.Status)
		}
		if err := evalrec.SaveLastRun(dir, r.Suite.Path, statuses, at); err != nil {
			g.warn("agentdesk", fmt.Sprintf("%v; --failed will not know of this run", err))
		}
	}
}

// routeSuiteFiles returns the routing suites to run: those named (a
// folder gives its suites), or every suite in the agents folder.
func routeSuiteFiles(agents string, paths []string) ([]string, error) {
	return findSuiteFiles(agents, paths, routeSuites)
}

// routeSuites is the kind of suite agentdesk route --suite runs.
var routeSuites = suiteKind{suffix: suitefile.RouteSuffix, what: "routing suite", write: "<name>.route.yaml beside the agents (see agentdesk route --help), or give a FILE"}

// anyWithoutPreamble reports whether a suite gives no preamble-file (its
// frontline gets NetClaw's main-session prompt, or agentdesk's neutral
// preamble without NetClaw).
func anyWithoutPreamble(suites []*suitefile.RouteSuite) bool {
	for _, s := range suites {
		if s.PreambleFile == "" {
			return true
		}
	}
	return false
}
