package main

import (
	"fmt"
	"slices"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
)

// caseSelection is which cases of the suites a test or route --suite run
// takes: --case, --shard and --failed together, and what they took.
type caseSelection struct {
	filter *evalrec.CaseFilter
	shard  *evalrec.Shard
	// last holds, with --failed, each suite's last run by path (nil
	// without --failed; a suite with none is not in it); within the names
	// of --models, whose failed cells alone --failed takes (none: every
	// model a case failed on).
	last   map[string]*evalrec.LastRun
	within []string
	// stateDir holds the last runs ("" for the demo, or where there is no
	// state folder): how each case ended is saved there for --failed.
	stateDir string

	// names is every case name seen, for --case's did-you-mean; all counts
	// the cases --case and --failed take, total those this shard runs.
	names      []string
	all, total int
}

// newCaseSelection reads --case, --shard and --failed (with the last runs
// of files); demo runs keep no last runs.
func newCaseSelection(g *globals, cases []string, shard string, failed, demo bool, files []string) (*caseSelection, error) {
	sel := &caseSelection{filter: evalrec.NewCaseFilter(cases)}
	var err error
	if sel.shard, err = parseShard(shard); err != nil {
		return nil, err
	}
	if !demo {
		if sel.stateDir, err = evalrec.LastRunsDir(g.Getenv); err != nil && failed {
			return nil, usageErrorf("--failed: %w", err)
		}
	}
	if sel.last, err = lastFailed(g, failed, sel.stateDir, files); err != nil {
		return nil, err
	}
	return sel, nil
}

// onFailed reports whether --failed was given.
func (sel *caseSelection) onFailed() bool { return sel.last != nil }

// failedCase reports, with --failed, whether the case named name of the
// suite at path runs again: it did not pass on some model it runs on.
func (sel *caseSelection) failedCase(path, name string) bool {
	return len(sel.failedModels(path, name)) > 0
}

// selectCases is suite.Options.Select: nil without --failed.
func (sel *caseSelection) selectCases() func(path, name string) bool {
	if !sel.onFailed() {
		return nil
	}
	return sel.failedCase
}

// failedModels returns, with --failed, the models the case named name of
// the suite at path runs on again ("" its own role): those it did not
// pass on in its suite's last run, among --models when given.
func (sel *caseSelection) failedModels(path, name string) []string {
	l := sel.last[path]
	if l == nil {
		return nil
	}
	ms := l.FailedModels(name)
	if sel.within == nil {
		return ms
	}
	return slices.DeleteFunc(ms, func(m string) bool { return !slices.Contains(sel.within, m) })
}

// selectModels is suite.Options.SelectModels: nil without --failed.
func (sel *caseSelection) selectModels() func(path, name string) []string {
	if !sel.onFailed() {
		return nil
	}
	return sel.failedModels
}

// take counts the selected cases of the suite at path, whose case names are
// names, and reports whether the suite runs: not when the selection takes
// none of its cases, and a broken suite (one that cannot run as written)
// only in the shard that reports it.
func (sel *caseSelection) take(path string, names []string, broken bool) bool {
	n := 0
	for _, name := range names {
		sel.names = append(sel.names, name)
		if sel.onFailed() && !sel.failedCase(path, name) {
			continue
		}
		if sel.filter.Match(name) {
			sel.all++
			if sel.shard.Has(path, name) {
				n++
			}
		}
	}
	if n == 0 && (sel.filter != nil || sel.shard != nil || sel.onFailed()) && !broken {
		return false // --case names none of its cases, they are in other shards, or none failed
	}
	if broken && !sel.shard.Has(path, "") {
		return false // a broken suite is reported by one shard
	}
	sel.total += n
	return true
}

// runs reports whether this invocation runs the case named name of the
// suite at path: --failed, --case and --shard all take it.
func (sel *caseSelection) runs(path, name string) bool {
	return (!sel.onFailed() || sel.failedCase(path, name)) && sel.filter.Match(name) && sel.shard.Has(path, name)
}

// done refuses a --case that names no case, and says on stderr what the
// shard runs and when --failed leaves nothing to run.
func (sel *caseSelection) done(g *globals) error {
	if err := unmatchedCases(sel.filter, sel.names); err != nil {
		return err
	}
	if sel.shard != nil {
		fmt.Fprintf(g.stderr, "agentdesk: shard %s runs %d of %d cases\n", sel.shard, sel.total, sel.all)
	}
	if sel.onFailed() && sel.total == 0 && len(sel.last) > 0 {
		on := ""
		if sel.within != nil {
			on = " on these models"
		}
		fmt.Fprintf(g.stderr, "agentdesk: --failed: no case failed%s in the last run of these suites; nothing to run again\n", on)
	}
	return nil
}
