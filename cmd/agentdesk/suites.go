package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/tui/demo"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/evalreport"
)

// suiteKind is a kind of suite file, for the commands that run them.
type suiteKind struct {
	// suffix ends the file's name; what names the kind ("test suite");
	// write says how to make one, after "write".
	suffix, what, write string
}

// findSuiteFiles returns the suite files of kind k to run: those named in
// paths (a folder gives its suites), or every one in the agents folder. A
// path that is not there or is not a suite of the kind is bad usage, and
// so is finding none.
func findSuiteFiles(agents string, paths []string, k suiteKind) ([]string, error) {
	if len(paths) == 0 {
		found, err := suitefile.Find(agents, k.suffix)
		if err != nil {
			return nil, exitWith(exitInternal, err)
		}
		if len(found) == 0 {
			return nil, usageErrorf("no %ss in %s: write %s", k.what, termsafe.Escape(agents), k.write)
		}
		return found, nil
	}
	var out []string
	for _, p := range paths {
		more, err := suitePathFiles(p, k)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// suitePathFiles is the suite files of kind k one PATH gives: a folder's
// suites (there must be some), else the path itself, named as a suite of
// the kind. A link that leads nowhere is a suite that cannot be read (the
// report says so), not a path that is not there.
func suitePathFiles(p string, k suiteKind) ([]string, error) {
	if _, err := os.Lstat(p); err != nil {
		return nil, usageErrorf("%s: no such suite file or folder", termsafe.Escape(p))
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		found, err := suitefile.Find(p, k.suffix)
		if err != nil {
			return nil, exitWith(exitInternal, err)
		}
		if len(found) == 0 {
			return nil, usageErrorf("no %ss (*%s) in %s", k.what, k.suffix, termsafe.Escape(p))
		}
		return found, nil
	}
	if !strings.HasSuffix(filepath.Base(p), k.suffix) || filepath.Base(p) == k.suffix {
		return nil, usageErrorf("%s is not a %s: its name must end in %s", termsafe.Escape(p), k.what, k.suffix)
	}
	return []string{p}, nil
}

// writeSuiteReport writes a suite command's report to w in format f,
// with the writer the evaluation registered for it (a failure to write is
// internal), then says exit 1 when not every case passed.
func writeSuiteReport(w io.Writer, f evalreport.Format, ok bool, ws evalreport.Writers) error {
	if err := ws.Write(w, f); err != nil {
		return exitWith(exitInternal, err)
	}
	if !ok {
		return exitWith(exitFindings, nil)
	}
	return nil
}

// suitesHome is the home a suite command reads: the user's, or with
// --demo the embedded sample home set up in a temporary folder.
type suitesHome struct {
	c *lint.Catalog
	// dir is the demo's temporary folder ("" for the user's home): remove
	// it when done; its runs folder holds the demo's runs.
	dir string
}

// close removes the demo's folder. When the demo's runs were kept there,
// it says so on w: the run folders the report named are gone with it. A
// command that ended before any run (bad usage) made none, and says
// nothing.
func (h suitesHome) close(w io.Writer) {
	if h.dir == "" {
		return
	}
	if runs, err := os.ReadDir(filepath.Join(h.dir, "runs")); err == nil && len(runs) > 0 {
		fmt.Fprintln(w, "agentdesk: the demo's run folders were temporary and are removed now; pass --runs-dir DIR to keep them")
	}
	os.RemoveAll(h.dir)
}

// openSuiteHome scans the home a suite command reads. With demo, it is
// the sample home, which carries its own suites and recordings: a --home,
// --agents, PATH or --record is bad usage.
func openSuiteHome(cmd *cobra.Command, g *globals, demo bool, paths []string, record bool) (suitesHome, error) {
	if !demo {
		c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
		return suitesHome{c: c}, err
	}
	if cmd.Flags().Changed("home") || cmd.Flags().Changed("agents") || len(paths) > 0 {
		return suitesHome{}, usageErrorf("--demo runs the sample home's suites: leave out --home, --agents and PATH")
	}
	if record {
		return suitesHome{}, usageErrorf("--demo replays the recordings it carries: leave out --record")
	}
	dir, h, err := makeDemo()
	if err != nil {
		return suitesHome{}, err
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		os.RemoveAll(dir)
		return suitesHome{}, exitWith(exitInternal, err)
	}
	return suitesHome{c: c, dir: dir}, nil
}

// runsDir is the runs folder given, else the demo's, else "" (the
// default one).
func (h suitesHome) runsDir(given string) string {
	if given == "" && h.dir != "" {
		return filepath.Join(h.dir, "runs")
	}
	return given
}

// makeDemo sets the embedded sample home up in a new temporary folder and
// returns the folder (remove it when done) and the home.
func makeDemo() (string, lint.Home, error) {
	dir, err := os.MkdirTemp("", "agentdesk-demo-")
	if err != nil {
		return "", lint.Home{}, exitWith(exitInternal, fmt.Errorf("making the demo folder: %w", err))
	}
	h, err := demo.Setup(dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", lint.Home{}, exitWith(exitInternal, err)
	}
	return dir, h, nil
}

// shardUsage is the help of --shard, the same for agentdesk test and
// route --suite.
const shardUsage = "run the K-th of N shares of the cases (K/N), for N CI jobs; a case's share is fixed by its suite's and its own name"

// parseShard reads --shard ("": none); a bad value is bad usage.
func parseShard(s string) (*evalrec.Shard, error) {
	if s == "" {
		return nil, nil
	}
	sh, err := evalrec.ParseShard(s)
	if err != nil {
		return nil, usageErrorf("--shard: %v", err)
	}
	return sh, nil
}
