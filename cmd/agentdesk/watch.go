package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/watch"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/evalreport"
)

// watchDebounce is how long file events settle before suites re-run (the
// browser's watcher does the debouncing).
const watchDebounce = 150 * time.Millisecond

// clearScreen moves the cursor home and clears the terminal, as go test
// watchers do between runs.
const clearScreen = "\x1b[H\x1b[2J"

// watchRound is one round of a watch: the catalog as scanned now, the
// suite files to run and the mode. A command given one runs those suites
// once, with no setup of its own.
type watchRound struct {
	c     *lint.Catalog
	files []string
	mode  evalrec.Mode
}

// suiteDeps are what a suite reads, for knowing when to run it again.
type suiteDeps struct {
	// files are the suite file and what it names (vars-file,
	// context-files, preamble), the agent and skill files, absolute.
	files []string
	// resolved says which files its agent and skills resolve to; another
	// resolution (an agent renamed, a definition made valid) re-runs it.
	resolved string
	// anyAgent: every agent definition counts (a routing suite: the
	// frontline sees them all).
	anyAgent bool
}

// suiteWatch re-runs suites when what they read changes.
type suiteWatch struct {
	g *globals
	// command names the command in messages ("agentdesk test").
	command string
	kind    suiteKind
	// paths are the PATHs given (none: every suite in the agents folder).
	paths []string
	mode  evalrec.Mode
	deps  func(c *lint.Catalog, file string) suiteDeps
	// round runs the suites once and prints their report; an error of
	// exit status 1 is their verdict, not a failure of the watch.
	round func(r *watchRound) error
}

// watchSuites scans the home and watches it as w says, a round at each
// change, until the command is cancelled.
func watchSuites(cmd *cobra.Command, w *suiteWatch) error {
	c, err := scanHome(w.g, lint.ScanOptions{Environ: w.g.environ})
	if err != nil {
		return err
	}
	return w.run(cmd.Context(), c.Home)
}

// roundSuiteHome returns the suites' home: a watch round's scan, else the
// home opened for this run (the demo's, or the user's).
func roundSuiteHome(cmd *cobra.Command, g *globals, round *watchRound, demo bool, paths []string, record bool) (suitesHome, error) {
	if round != nil {
		return suitesHome{c: round.c}, nil
	}
	return openSuiteHome(cmd, g, demo, paths, record)
}

// roundFiles returns the suite files to run: a watch round's, else those
// find lists (from the paths given, or the agents folder).
func roundFiles(round *watchRound, find func() ([]string, error)) ([]string, error) {
	if round != nil {
		return round.files, nil
	}
	return find()
}

// watchHook, when set (by tests), is told the files of each round once it
// has run, and "" once the watch has stopped.
var watchHook func(files []string)

// run runs every suite, then watches the home and re-runs the suites
// whose files changed, until ctx ends (Ctrl-C), which ends the watch
// with status 0.
func (w *suiteWatch) run(ctx context.Context, home lint.Home) error {
	watcher, err := watch.Start(home, watchDebounce)
	if err != nil {
		return exitWith(exitInternal, err)
	}
	defer watcher.Close()
	stderr := w.g.stderr
	w.warnOutside(home)
	prev := map[string]suiteDeps{}
	first := true
	var changed []string
	for {
		if ctx.Err() == nil {
			w.ran(home, w.once(ctx, home, prev, changed, first))
			first = false
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(stderr, "agentdesk: stopped watching")
			if watchHook != nil {
				watchHook(nil)
			}
			return nil
		case err := <-watcher.Errors():
			fmt.Fprintf(stderr, "agentdesk: %s\n", termsafe.Escape(err.Error()))
			changed = nil
			continue
		case c, ok := <-watcher.Changes():
			if !ok {
				return exitWith(exitInternal, errors.New("the file watcher stopped"))
			}
			changed = c.Paths
		}
	}
}

// warnOutside says which of the paths given lie outside the agents
// folder, which is what the watch watches: edits to them are not seen.
func (w *suiteWatch) warnOutside(home lint.Home) {
	for _, p := range w.paths {
		if abs := absPath(p); !under(absPath(home.Agents), abs) {
			fmt.Fprintf(w.g.stderr, "agentdesk: %s is outside the agents folder %s, which is what --watch watches: edits to it are not seen\n", termsafe.Escape(p), termsafe.Escape(home.Agents))
		}
	}
}

// ran ends a round that ran the suite files run (nil: none ran): it
// tells watchHook, and says the watch goes on, and how (offline or live).
func (w *suiteWatch) ran(home lint.Home, run []string) {
	if run == nil {
		return
	}
	if watchHook != nil {
		watchHook(run)
	}
	modeName := "offline"
	if w.mode == evalrec.LiveOnly {
		modeName = "live"
	}
	fmt.Fprintf(w.g.stderr, "agentdesk: watching %s for changes (%s); Ctrl-C to stop\n", termsafe.Escape(home.Base), modeName)
}

// once scans the home, finds the suites and runs those that changed
// (all of them the first time), with a cleared screen and a header on a
// terminal. It returns the files it ran (nil: none), and keeps what each
// suite reads in prev.
func (w *suiteWatch) once(ctx context.Context, home lint.Home, prev map[string]suiteDeps, changed []string, all bool) []string {
	stderr := w.g.stderr
	c, err := lint.Scan(home, lint.ScanOptions{Environ: w.g.environ})
	if err != nil {
		fmt.Fprintf(stderr, "agentdesk: scanning %s: %s\n", termsafe.Escape(home.Base), termsafe.Escape(flagWorded(err)))
		return nil
	}
	files, err := findSuiteFiles(home.Agents, w.paths, w.kind)
	if err != nil {
		// None there (a folder deleted, to be made again): say so and
		// keep watching.
		if all || len(prev) > 0 {
			fmt.Fprintf(stderr, "agentdesk: %s; watching for them to come\n", termsafe.Escape(err.Error()))
		}
		clear(prev)
		return nil
	}
	now := map[string]suiteDeps{}
	for _, f := range files {
		now[f] = w.deps(c, f)
	}
	var run []string
	for _, f := range files {
		if all || affected(home, changed, prev, now, f) {
			run = append(run, f)
		}
	}
	w.replaceDeps(prev, now)
	if len(run) == 0 {
		return nil
	}
	w.announce(home, len(run), changed, all)
	if err := w.round(&watchRound{c: c, files: run, mode: w.mode}); err != nil && ctx.Err() == nil {
		w.roundFailed(err)
	}
	return run
}

// replaceDeps makes prev what each suite reads now, and says which suites
// are gone since the last round.
func (w *suiteWatch) replaceDeps(prev, now map[string]suiteDeps) {
	var gone []string
	for f := range prev {
		if _, ok := now[f]; !ok {
			gone = append(gone, f)
		}
	}
	slices.Sort(gone)
	clear(prev)
	for f, d := range now {
		prev[f] = d
	}
	for _, f := range gone {
		fmt.Fprintf(w.g.stderr, "agentdesk: %s is gone\n", termsafe.Escape(f))
	}
}

// announce starts a round: on a terminal it clears the screen, then a
// header says the time and how many suites run (all of them, or n to run
// again after a change to the paths changed).
func (w *suiteWatch) announce(home lint.Home, n int, changed []string, all bool) {
	if isTerminal(w.g.stdout) {
		fmt.Fprint(w.g.stdout, clearScreen)
	}
	header := fmt.Sprintf("%s --watch · %s · ", w.command, time.Now().Format("15:04:05"))
	if all {
		header += plural(n, "suite")
	} else {
		header += plural(n, "suite") + " to run again after a change to " + shownPaths(home, changed)
	}
	fmt.Fprintln(w.g.stdout, termsafe.Escape(header))
}

// roundFailed says on stderr why a round did not complete; findings (a
// case that failed) are the report's to say, and the watch goes on.
func (w *suiteWatch) roundFailed(err error) {
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitFindings {
		return
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(w.g.stderr, "agentdesk: %s\n", termsafe.EscapeLines(msg))
	}
}

// affected reports whether suite f must run again after changes to the
// paths changed: it is new; a changed path is one of the files it reads
// (before or now) or a folder above one; the configuration changed; its
// agent or skills resolve to other files; or, for a suite that reads every
// agent, an agent definition changed.
func affected(home lint.Home, changed []string, prev, now map[string]suiteDeps, f string) bool {
	before, ok := prev[f]
	if !ok {
		return true
	}
	d := now[f]
	if d.resolved != before.resolved {
		return true
	}
	config := absPath(home.ConfigDir)
	agents := absPath(home.Agents)
	for _, p := range changed {
		p = absPath(p)
		if under(config, p) || under(p, config) {
			return true
		}
		if d.anyAgent && under(agents, p) && (strings.HasSuffix(p, ".md") || !strings.Contains(filepath.Base(p), ".")) {
			return true
		}
		for _, dep := range slices.Concat(d.files, before.files) {
			if under(p, dep) {
				return true
			}
		}
	}
	return false
}

// under reports whether path is dir or inside it (both absolute and
// clean; links are not resolved: the watcher's paths are as watched).
func under(dir, path string) bool {
	if dir == path {
		return true
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

// shownPaths names the changed paths for a header, relative to the home,
// at most three.
func shownPaths(home lint.Home, paths []string) string {
	var out []string
	for i, p := range paths {
		if i == 3 {
			out = append(out, fmt.Sprintf("%d more", len(paths)-3))
			break
		}
		if rel, err := filepath.Rel(home.Base, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return "the home"
	}
	return strings.Join(out, ", ")
}

// testSuiteDeps are what a test suite reads: the suite, its vars-file and
// context-files, its agent's definition and its cases' skills.
func testSuiteDeps(c *lint.Catalog, file string) suiteDeps {
	s := suitefile.Load(file)
	d := suiteDeps{files: []string{absPath(file)}}
	if s.VarsFile != "" {
		d.files = append(d.files, absPath(s.VarsFile))
	}
	var resolved []string
	if a := c.Agent(s.Agent); a != nil {
		resolved = append(resolved, "agent="+absPath(a.Path))
	} else if r := c.RejectedAgent(s.Agent); r != nil {
		resolved = append(resolved, "rejected="+absPath(r.Path))
	}
	dir := filepath.Dir(file)
	for _, cs := range s.Cases {
		if cs.ContextFile != "" {
			d.files = append(d.files, absPath(suitefile.Resolve(dir, cs.ContextFile)))
		}
		if cs.Skill != "" {
			if sk := c.Skill(cs.Skill); sk != nil {
				resolved = append(resolved, "skill="+absPath(sk.Path))
			}
		}
	}
	slices.Sort(resolved)
	resolved = slices.Compact(resolved)
	for _, r := range resolved {
		_, p, _ := strings.Cut(r, "=")
		d.files = append(d.files, p)
	}
	d.resolved = strings.Join(resolved, "\n")
	return d
}

// routeSuiteDeps are what a routing suite reads: the suite, its preamble,
// and every agent (the frontline sees all of them).
func routeSuiteDeps(_ *lint.Catalog, file string) suiteDeps {
	s := suitefile.LoadRoute(file)
	d := suiteDeps{files: []string{absPath(file)}, anyAgent: true}
	if s.VarsFile != "" {
		d.files = append(d.files, absPath(s.VarsFile))
	}
	if s.PreambleFile != "" {
		d.files = append(d.files, absPath(suitefile.Resolve(filepath.Dir(file), s.PreambleFile)))
	}
	return d
}

// checkWatchFlags says what --watch cannot be given with, as bad usage.
func checkWatchFlags(watch, live, record, offline, demo bool, format evalreport.Format) error {
	switch {
	case live && !watch:
		return usageErrorf("--live runs every sample live while watching: use it with --watch")
	case !watch:
		return nil
	case record:
		return usageErrorf("--watch re-runs suites as you edit, and never records: leave out --record (record once you are done)")
	case live && offline:
		return usageErrorf("--watch --live runs every sample live and --offline replays only: give one of them")
	case demo:
		return usageErrorf("--watch watches your home; the demo's is a temporary copy: leave out --demo")
	case format != evalreport.Text:
		return usageErrorf("--watch prints a text report per round: leave out --format %s", format.String())
	}
	return nil
}

// watchMode is the mode of a watch: offline, or LiveOnly with --live.
func watchMode(live bool) evalrec.Mode {
	if live {
		return evalrec.LiveOnly
	}
	return evalrec.Offline
}
