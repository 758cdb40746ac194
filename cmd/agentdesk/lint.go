package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/report"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/approve"
)

// lintFlags holds the flags of agentdesk lint.
type lintFlags struct {
	format    lintFormat
	profile   profileFlag
	strict    bool
	listRules bool
}

// newLintCmd builds `agentdesk lint [PATH...]`.
func newLintCmd(g *globals) *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check sub-agent definitions, skills and config as the runtime reads them",
		Long: `Check each sub-agent definition as the NetClaw runtime reads it.
lint says which files the runtime rejects, and why, at the line.

Without PATH, lint reads the home: the agents folder with its server feeds,
the skills, the configuration, and the suites beside the agents.
A PATH may be an agent file, an agents folder (its suites included) or a
suite file. Then only those are read, with the default configuration.

lint writes nothing anywhere.
--list-rules prints every rule; agentdesk help rules does too.

Exit status: 0 clean; 1 an error (or a warning, with --strict);
2 bad usage; 3 internal failure.`,
		Example: `  agentdesk lint
  agentdesk lint --home ./testdata/homes/good
  agentdesk lint --format sarif > agentdesk.sarif
  agentdesk lint --profile publish --strict agents/reviewer.md
  agentdesk lint --list-rules`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.listRules {
				if len(args) > 0 {
					return usageErrorf("--list-rules takes no PATH")
				}
				return writeRules(g.stdout, f.format)
			}
			return runLint(g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.listRules, "list-rules", false, "print every rule (id, kind, severity per profile, summary) and exit; text or json")
	fl.Var(&f.format, "format", "output format: text, json, sarif or github")
	fl.Var(&f.profile, "profile", "rules profile: runtime (what NetClaw does) or publish (SkillServer's upload checks)")
	fl.BoolVar(&f.strict, "strict", false, "fail on warnings too")
	return cmd
}

// runLint scans, prints the report on stdout and turns the findings into
// the exit code.
func runLint(g *globals, f lintFlags, paths []string) error {
	opts := lint.ScanOptions{Profile: lint.Profile(f.profile), Environ: g.environ}
	suites, others := splitSuitePaths(paths)
	if err := checkSuitePaths(suites); err != nil {
		return err
	}
	c, check, suites, err := lintTargets(g, opts, paths, suites, others)
	if err != nil {
		return err
	}
	suitefile.AddTo(c, check, suites, suiteAudit(check, suites))

	ropts := report.Options{Version: programVersion()}
	if err := writeReport(g.stdout, f.format, c, ropts, g.Color(g.stdout)); err != nil {
		return exitWith(exitInternal, err)
	}

	sum := c.Summary()
	if f.strict && sum.Warnings > 0 {
		if err := writeStrictNote(g.stdout, f.format, sum); err != nil {
			return exitWith(exitInternal, err)
		}
	}
	if sum.Errors > 0 || (f.strict && sum.Warnings > 0) {
		return exitWith(exitFindings, nil)
	}
	return nil
}

// lintTargets scans what lint's PATHs name: the whole home without
// PATHs; the agent files and agents folders named (with the suites in
// those folders); or, for suites alone, an empty catalog. It returns the
// catalog reported on, the one suites are checked against (the home's,
// when there is one, for suites alone) and every suite to check.
func lintTargets(g *globals, opts lint.ScanOptions, paths, suites, others []string) (c, check *lint.Catalog, _ []string, err error) {
	switch {
	case len(paths) == 0:
		c, suites, err = lintHome(g, opts)
		return c, c, suites, err
	case len(others) > 0:
		c, suites, err = lintPaths(others, opts, suites)
		return c, c, suites, err
	}
	// Suites alone: their agents are looked up in the home, when there
	// is one.
	c = &lint.Catalog{Profile: opts.Profile}
	if h, herr := g.Home(); herr == nil && h.Exists() {
		check, _ = lint.Scan(h, opts)
	}
	return c, check, suites, nil
}

// suiteAudit checks the suites' approve: items against the audience a
// suite or case names, under the configuration of check (nil: the
// runtime's defaults); nil when there is no suite.
func suiteAudit(check *lint.Catalog, suites []string) suitefile.ApproveAudit {
	if len(suites) == 0 {
		return nil
	}
	var cfg *lint.Config
	if check != nil {
		cfg = check.Config
	}
	return approve.NewAudienceCheck(cfg).Audit
}

// splitSuitePaths parts lint's PATHs into suite files and the others
// (agent files and agents folders), each in the order given.
func splitSuitePaths(paths []string) (suites, others []string) {
	for _, p := range paths {
		if suitefile.IsSuite(p) {
			suites = append(suites, p)
		} else {
			others = append(others, p)
		}
	}
	return suites, others
}

// checkSuitePaths refuses a suite named on the command line that is not
// there, or is a folder; one that cannot be read (a FIFO, a dangling
// link) is a finding of the report instead.
func checkSuitePaths(suites []string) error {
	for _, p := range suites {
		_, lerr := os.Lstat(p)
		if fi, err := os.Stat(p); lerr != nil || err == nil && fi.IsDir() {
			return usageErrorf("%s is not a suite file: give an existing <agent>.test.yaml", p)
		}
	}
	return nil
}

// lintHome scans the whole home, and lists the suites beside its agents.
func lintHome(g *globals, opts lint.ScanOptions) (*lint.Catalog, []string, error) {
	c, err := scanHome(g, opts)
	if err != nil {
		return c, nil, err
	}
	suites, err := findSuites(c.Home.Agents)
	return c, suites, err
}

// lintPaths scans the agent files and agents folders named, and adds the
// suites in those folders to the suites named.
func lintPaths(others []string, opts lint.ScanOptions, suites []string) (*lint.Catalog, []string, error) {
	c, err := scanPaths(others, opts)
	for _, p := range others {
		if fi, serr := os.Stat(p); err == nil && serr == nil && fi.IsDir() {
			found, ferr := findSuites(p)
			suites, err = append(suites, found...), ferr
		}
	}
	return c, suites, err
}

// writeStrictNote ends a text or github report that --strict fails on
// warnings with a line saying so: the summary alone reads as a pass when
// it counts no error. JSON and SARIF carry the counts and the exit status.
func writeStrictNote(w io.Writer, format lintFormat, sum lint.Summary) error {
	what := "the warnings fail the check"
	if sum.Warnings == 1 {
		what = "the warning fails the check"
	}
	if sum.Errors > 0 {
		what += ", as do the errors"
	}
	var err error
	switch format {
	case formatText:
		_, err = fmt.Fprintf(w, "--strict: %s\n", what)
	case formatGitHub:
		_, err = fmt.Fprintf(w, "::error title=agentdesk lint --strict::%s\n", what)
	}
	return err
}

// findSuites lists the suite files in an agents folder.
// A folder that cannot be read has none: the scan reports it as a finding
// (rule unreadable).
func findSuites(dir string) ([]string, error) {
	if _, err := os.ReadDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	found, err := suitefile.FindAll(dir)
	if err != nil {
		return nil, exitWith(exitInternal, err)
	}
	return found, nil
}

// scanHome lints the whole home: agents (feeds included), skills, config.
// A home that is not there to read is bad usage (homeToRead).
func scanHome(g *globals, opts lint.ScanOptions) (*lint.Catalog, error) {
	h, err := homeToRead(g, "")
	if err != nil {
		return nil, err
	}
	c, err := lint.Scan(h, opts)
	if err != nil {
		return nil, exitWith(exitInternal, fmt.Errorf("scan the home %s: %w", h.Base, err))
	}
	return c, nil
}

// scanPaths lints explicit files and agents folders. A path that does not
// exist is bad usage.
func scanPaths(paths []string, opts lint.ScanOptions) (*lint.Catalog, error) {
	for _, p := range paths {
		if lint.LooksLikeHome(p) {
			return nil, usageErrorf("%s is a NetClaw home, not an agents folder: run 'agentdesk lint --home %s', or lint %s", p, p, filepath.Join(p, "agents"))
		}
	}
	c, err := lint.ScanPaths(paths, opts)
	if errors.Is(err, lint.ErrNoSuchPath) {
		return nil, exitWith(exitUsage, err)
	}
	if err != nil {
		return nil, exitWith(exitInternal, fmt.Errorf("lint %s: %w", strings.Join(paths, " "), err))
	}
	return c, nil
}

// writeReport prints c in format to w; colour applies to text only.
func writeReport(w io.Writer, format lintFormat, c *lint.Catalog, opts report.Options, color bool) error {
	switch format {
	case formatJSON:
		return report.JSON(w, c, opts)
	case formatSARIF:
		return report.SARIF(w, c, opts)
	case formatGitHub:
		return report.GitHub(w, c, opts)
	}
	opts.Color = color
	return report.Text(w, c, opts)
}

// lintFormat is the value of --format.
type lintFormat int

const (
	formatText lintFormat = iota
	formatJSON
	formatSARIF
	formatGitHub
)

var lintFormatNames = []string{"text", "json", "sarif", "github"}

// String returns the format's name.
func (f *lintFormat) String() string { return lintFormatNames[*f] }

// Set parses text, json, sarif or github.
func (f *lintFormat) Set(s string) error {
	for i, name := range lintFormatNames {
		if strings.EqualFold(s, name) {
			*f = lintFormat(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a format: use text, json, sarif or github", s)
}

// Type names the flag's value in help text.
func (f *lintFormat) Type() string { return "text|json|sarif|github" }

// profileFlag is the value of --profile.
type profileFlag lint.Profile

// String returns "runtime" or "publish".
func (p *profileFlag) String() string { return lint.Profile(*p).String() }

// Set parses runtime or publish.
func (p *profileFlag) Set(s string) error {
	if s == "" {
		return errors.New(`the profile is empty: use runtime or publish`)
	}
	v, err := lint.ParseProfile(s)
	if err != nil {
		return err
	}
	*p = profileFlag(v)
	return nil
}

// Type names the flag's value in help text.
func (p *profileFlag) Type() string { return "runtime|publish" }
