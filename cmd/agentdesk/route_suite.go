package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/route"
)

// runRouteSuites runs routing suites and prints the report.
func runRouteSuites(cmd *cobra.Command, g *globals, f routeFlags, paths []string) error {
	changed := cmd.Flags().Changed
	mode, err := evalrec.ModeFor(f.record, f.offline)
	switch {
	case err != nil:
		return usageErrorf("%w", err)
	case f.showRequest || changed("system-file") || changed("audience") || changed("model-role"):
		return usageErrorf("a suite says its audience, preamble-file and model-role itself: leave out --show-request, --system-file, --audience and --model-role")
	case f.jobs < 1:
		return usageErrorf("--jobs is %d: give 1 or more", f.jobs)
	case changed("samples") && (f.samples < 1 || f.samples > suitefile.MaxRepeat):
		return usageErrorf("--samples is %d: %s", f.samples, samplesRange)
	case f.static && (f.record || f.offline || changed("samples")):
		return usageErrorf("--static asks no model: leave out --record, --offline and --samples")
	case f.static && f.live:
		return usageErrorf("--static asks no model: leave out --live")
	}
	if err := checkWatchFlags(f.watch, f.live, f.record, f.offline, f.demo, f.format); err != nil {
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
	sh, err := roundSuiteHome(cmd, g, f.round, f.demo, paths, f.record)
	if err != nil {
		return err
	}
	defer sh.close(cmd.ErrOrStderr())
	c := sh.c
	// The frontline runs no tool, so --approve is only checked, as for one
	// request; each suite names its audience.
	if ps, err := parseApprove(f.approve); err != nil {
		return err
	} else if err := checkApproveServers(ps, c.Config, ""); err != nil {
		return err
	}
	var files []string
	if f.round != nil {
		files = f.round.files
	} else if files, err = routeSuiteFiles(c.Home.Agents, paths); err != nil {
		return err
	}
	rn, err := openRunner(g, sh.runsDir(f.runsDir))
	if err != nil {
		return err
	}
	samples := 0
	if changed("samples") {
		samples = f.samples
	}
	if f.failed && f.demo {
		return usageErrorf("--failed reads the last run of your suites; the demo keeps none: leave out --demo or --failed")
	}
	sel, err := newCaseSelection(g, f.cases, f.shard, f.failed, f.demo, files)
	if err != nil {
		return err
	}
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
		return err
	}
	if mode == evalrec.Offline && !f.demo && !f.static && f.round == nil && anyWithoutPreamble(suites) {
		// Replayed samples are compared with a frontline given
		// agentdesk's neutral preamble: recordings made with NetClaw's
		// main-session prompt are stale, and this says why (as test
		// --offline does).
		if nc, err := f.netclaw.spawnNetClaw(g, c.Home, preview.Personal); err != nil {
			return err
		} else if nc.Core == nil {
			g.warn("agentdesk", "the operating rules (NetClaw's embedded core) are missing: "+nc.CoreMissing+"; suites without a preamble-file get agentdesk's neutral preamble, so recordings made with NetClaw's main-session prompt replay stale (preamble changed)"+netclawDirHint(nc.CoreMissing))
		}
	}
	cwd, _ := os.Getwd() // the folder paths are shown relative to
	if f.demo {
		cwd = c.Home.Base
	}
	// On a terminal, a progress line on stderr (agentdesk test's).
	progress := newProgressLine(g, sel.total)
	start := time.Now()
	var results []*route.SuiteResult
	for _, s := range suites {
		results = append(results, route.RunSuite(cmd.Context(), s, route.SuiteOptions{
			Runner: rn, Catalog: c, Mode: mode, Jobs: f.jobs, Samples: samples, Static: f.static, Cases: sel.filter, Shard: sel.shard, ShownFrom: cwd, Demo: f.demo,
			KeepRuns: f.keepRuns, Select: sel.failed,
			Frontline: suiteFrontline(g, f, c),
			OnSample:  progress.sample,
			OnCase:    func(r *route.CaseResult) { progress.caseDone(r.Status) },
		}))
	}
	took := time.Since(start)
	progress.clear()
	if sel.stateDir != "" && !f.static {
		for _, r := range results {
			statuses := map[string]string{}
			for _, cr := range r.Cases {
				statuses[cr.Case.Name] = string(cr.Status)
			}
			if err := evalrec.SaveLastRun(sel.stateDir, r.Suite.Path, statuses, start); err != nil {
				g.warn("agentdesk", fmt.Sprintf("%v; --failed will not know of this run", err))
			}
		}
	}
	return writeSuiteReport(g.stdout, f.format, route.Summarize(results).OK(), route.Reports(results, c, cwd, time.Now(), took))
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
