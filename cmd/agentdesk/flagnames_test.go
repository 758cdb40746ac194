package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/netclaw"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/adapt"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/keepcase"
	"github.com/agentdesk/agentdesk/runner/eval/route"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// libraryRoots are the library packages: everything below cmd in the
// one-way flow. Only cmd names a flag.
var libraryRoots = []string{"lint", "preview", "runner", "tui"}

// allowedFlagName is how many string literals of a file may name a flag,
// and why they stay.
type allowedFlagName struct {
	n   int
	why string
}

// flagNameAllowed lists the string literals of library packages that may
// spell an agentdesk flag's name, with their count and reason. The key is
// the file (slash-separated, from the module root) and the flag; one more
// fails the test, and so does one fewer (lower the count), so the list
// cannot go stale.
var flagNameAllowed = map[string]allowedFlagName{
	"lint/suitefile/approve.go --approve":                          {1, "lint output (and docs/rules.md, generated from it): the approve rule's hint says a suite's approve: items take the grammar the flag takes; it explains a file, no flag is set"},
	"runner/approve/gate.go --approve":                             {3, "persisted and model-visible: Decision.By (\"--approve PATTERN\", the approver) is saved with each call in transcript.jsonl, and the advice ends the refusal the model reads as the tool's result; TestGateDecide and TestUnattendedMessageFitsThePlace assert them"},
	"runner/eval/evalhtml/browsertest/browsertest.go --no-sandbox": {1, "chromium's flag, not agentdesk's: a test helper starting a headless browser"},
	"runner/outcome.go --no-tools":                                 {1, "persisted: NoToolsHint ends a run's error in run.json and result.md (noToolsFix swaps it for the fix of a suite or the browser), which runs and the browser show from there"},
	"runner/overlay/work.go --project":                             {2, "model-visible: the shell tool's failure when the project is too big to copy, which the model reads as the call's result and transcript.jsonl keeps"},
	"runner/sandbox/sandbox.go --no-sandbox":                       {5, "persisted and model-visible: Report.String and Short label the sandbox in run.json, result.md and the Run pane; Refusal is the tool result a model reads; ServerRefusedError is a stdio MCP server's state in run.json and the run's note; TestSimulatedRefusal and TestStdioMCPRefusedWithoutSandbox assert them"},
}

// flagMention finds --NAME in a string; NAME is checked against the flags
// the command line has.
var flagMention = regexp.MustCompile(`(?:^|[^-\w])--([a-z][a-z0-9-]*)`)

// agentdeskFlags is every flag name the command tree defines.
func agentdeskFlags() map[string]bool {
	names := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) { names[f.Name] = true }
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&globals{}))
	return names
}

// TestLibraryNamesNoFlags guards the layering rule that only cmd words a
// flag's name: a library package returns a typed error (or takes a hint
// cmd fills in), and cmd adds "--record", "--home" and the like. It reads
// every non-test Go file of the library packages and fails on a string
// literal that names an agentdesk flag, unless flagNameAllowed says why it
// stays. With -v it lists each one that stays: the census.
func TestLibraryNamesNoFlags(t *testing.T) {
	flags := agentdeskFlags()
	root := filepath.Join("..", "..")
	found := map[string][]string{}
	for _, lib := range libraryRoots {
		err := filepath.WalkDir(filepath.Join(root, lib), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, m := range flagMention.FindAllStringSubmatch(s, -1) {
					if !flags[m[1]] {
						continue
					}
					key := rel + " --" + m[1]
					at := fmt.Sprintf("%s:%d: --%s", rel, fset.Position(lit.Pos()).Line, m[1])
					if a, ok := flagNameAllowed[key]; ok && testing.Verbose() {
						t.Logf("allowed: %s: %s", at, a.why)
					}
					found[key] = append(found[key], at)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	keys := make([]string, 0, len(found))
	for key := range found {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		at := found[key]
		a, ok := flagNameAllowed[key]
		switch {
		case !ok:
			for _, l := range at {
				t.Errorf("%s: a library package names a flag; return a typed error (or take the words from cmd) and word it in cmd/agentdesk/flagwords.go", l)
			}
		case len(at) > a.n:
			t.Errorf("%s: %d strings name the flag, %d are allowed (%s); word the new one in cmd/agentdesk/flagwords.go:\n%s", key, len(at), a.n, a.why, strings.Join(at, "\n"))
		}
	}
	for key, a := range flagNameAllowed {
		if n := len(found[key]); n < a.n {
			t.Errorf("flagNameAllowed[%q] allows %d strings, %d are left: lower it (delete it at 0)", key, a.n, n)
		}
	}
}

// TestFlagWorded: cmd words each typed error of a library package as the
// library worded it before it stopped naming flags, wherever the error
// sits in the chain.
func TestFlagWorded(t *testing.T) {
	cause := errors.New("$HOME is not defined")
	_, modeErr := evalrec.ModeFor(true, true)
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&lint.HomeUnknownError{Err: cause}, "cannot find the NetClaw home: set --home or NETCLAW_HOME: $HOME is not defined"},
		{&runner.NoCassetteError{Path: "/r/stream.cassette", Err: fs.ErrNotExist}, "no cassette at /r/stream.cassette: record one with agentdesk run --record (it leaves stream.cassette in the run folder)"},
		{runner.ErrNoRunsDir, "no runs folder: pass --runs-dir or set XDG_STATE_HOME or HOME"},
		{&runfolder.UnknownDirError{Err: cause}, "cannot find the runs folder: set XDG_STATE_HOME or HOME, or pass --runs-dir: $HOME is not defined"},
		{&runfolder.CreateDirError{Dir: "/r", Err: cause}, "creating the runs folder /r: $HOME is not defined; pass --runs-dir to use another"},
		{modeErr, "--record runs live and --offline replays only: give one of them"},
		{fmt.Errorf("--failed: %w", &evalrec.StateDirError{Err: cause}), "--failed: cannot find the state folder for --failed: set XDG_STATE_HOME or HOME: $HOME is not defined"},
		{&adapt.ForeignStateError{State: "/o/s.json", Tool: "x"}, `/o/s.json was not written by agentdesk (tool "x"): pick another --out`},
		{&adapt.OtherTargetError{Dir: "/o", Holds: "jit", Want: "codex"}, `/o holds jit exports (target "jit"), not codex: pick another --out for codex`},
		{&adapt.UnmanagedError{Dir: "/o", Problems: []string{"a", "b"}}, "refused to touch files in /o that agentdesk did not write or that were edited since:\n  a\n  b\nnothing was written: move those files away, or pick another --out"},
		{&adapt.DifferError{Paths: []string{"/o/a", "/o/b"}}, "refused: /o/a exists with different bytes; /o/b exists with different bytes (nothing was written; pass --force to replace them)"},
		{&adapt.ImportRefusedError{Dir: "/h/agents", Problems: []adapt.ImportProblem{{Exists: "/h/agents/a.md"}, {Text: "x and y both import as 'b'"}}}, "refused to import into /h/agents:\n  /h/agents/a.md already exists (pass --force to replace it)\n  x and y both import as 'b'\nnothing was written"},
		{&preview.VersionConflictError{Path: "agents/a.md", Given: "9.9.9", Own: "2.1.0"}, `agents/a.md: --version "9.9.9" differs from the file's version "2.1.0": version conflict (drop --version, or change the file's version)`},
		{&preview.NoVersionError{Path: "agents/a.md"}, "agents/a.md: no version: pass --version or set metadata.version in the frontmatter"},
		{errors.Join(&preview.NoVersionError{Path: "a.md"}, &preview.NoVersionError{Path: "b.md"}), "a.md: no version: pass --version or set metadata.version in the frontmatter\nb.md: no version: pass --version or set metadata.version in the frontmatter"},
		{&lint.AgentsNotFolderError{Path: "/h/agents"}, "the agents path /h/agents is not a folder: pass a folder with --agents, or the file itself to lint"},
		{preview.ErrPublic, "the Public audience has no [available-subagents] layer and spawn_agent is refused there (\"Error: This tool is not available.\"): the frontline cannot delegate; use --audience Personal or Team"},
		{&route.InputError{Err: route.ErrNoCatalog}, "no agents were read: give the NetClaw home with --home"},
		{&overlay.InsideProjectError{Dir: "/p/tmp/agentdesk-overlay-1", Project: "/p"}, "the overlay folder /p/tmp/agentdesk-overlay-1 lies inside the project /p: the trial would change the project; set TMPDIR to a folder outside the project, or pick another --project"},
		{&overlay.ProjectError{Dir: "/p", Err: fs.ErrNotExist}, "project folder /p: file does not exist (pass an existing folder with --project)"},
		{&overlay.ProjectError{Dir: "/p"}, "project folder /p is not a folder (pass a folder with --project)"},
		{&netclaw.DamagedError{Err: netclaw.ErrCorrupt}, netclaw.ErrCorrupt.Error() + "; reinstall NetClaw (its installer puts netclawd in ~/.netclaw/bin), or name a sound install with --netclaw-dir"},
		{&netclaw.NotFoundError{Looked: []string{"/h/bin", "netclawd and netclaw on PATH"}}, "NetClaw installation not found (looked in /h/bin, netclawd and netclaw on PATH): install NetClaw, or name the folder holding netclawd or Netclaw.Configuration.dll with --netclaw-dir DIR or AGENTDESK_NETCLAW_DIR"},
		{&netclaw.FolderError{Dir: "/n", Via: netclaw.ViaDir, Err: errors.New("not a folder")}, "NetClaw folder /n (--netclaw-dir): not a folder; name the folder holding netclawd or Netclaw.Configuration.dll"},
		{&netclaw.FolderError{Dir: "/n", Via: netclaw.ViaDir, Why: "it holds none of them"}, "NetClaw folder /n (--netclaw-dir) has no usable netclawd, netclaw or Netclaw.Configuration.dll: it holds none of them; name the folder of a NetClaw install (" + filepath.Join("~", ".netclaw", "bin") + " by default) or of a build holding Netclaw.Configuration.dll"},
		{&netclaw.MissingResourceError{Source: "/n/netclawd", Name: "R", Have: []string{"A", "B"}}, "/n/netclawd: no such embedded resource R in Netclaw.Configuration.dll (it has: A, B); this NetClaw may be older or newer than agentdesk knows: update agentdesk, or name another NetClaw install with --netclaw-dir"},
		{&keepcase.NameTakenError{Path: "a.test.yaml", Name: "one"}, `a.test.yaml: "one": a case of that name is in the suite already; name it with --case-name`},
	} {
		if got := flagWorded(tt.err); got != tt.want {
			t.Errorf("flagWorded(%T)\n got %q\nwant %q", tt.err, got, tt.want)
		}
		wrapped := exitWith(exitUsage, fmt.Errorf("reading: %w", tt.err))
		if got := wordFlags(wrapped); got.Error() != "reading: "+tt.want || exitCode(got) != exitUsage || !errors.Is(got, tt.err) {
			t.Errorf("wordFlags(wrapped %T) = %q, exit %d", tt.err, got, exitCode(got))
		}
	}
	if err := errors.New("nothing to word"); wordFlags(err) != err || wordFlags(nil) != nil {
		t.Error("wordFlags changed an error it has no words for")
	}
}

// TestDamagedNetClawWorded: a damaged install is worded with --netclaw-dir
// both where the flag named it (a usage error) and where
// AGENTDESK_NETCLAW_DIR did (the reason the operating rules are missing).
func TestDamagedNetClawWorded(t *testing.T) {
	home := previewHome(t, nil)
	damaged := t.TempDir()
	if err := os.WriteFile(filepath.Join(damaged, netclaw.AssemblyFile), []byte("not an assembly"), 0o644); err != nil {
		t.Fatal(err)
	}
	const fix = "; reinstall NetClaw (its installer puts netclawd in ~/.netclaw/bin), or name a sound install with --netclaw-dir"
	code, _, stderr := run(t, nil, "preview", "--home", home, "--skill", "notes", "--task", "T", "--netclaw-dir", damaged)
	if code != exitUsage || !strings.Contains(stderr, "agentdesk: --netclaw-dir "+damaged+": ") || !strings.Contains(stderr, fix+"\n") {
		t.Errorf("--netclaw-dir: exit %d\n%s", code, stderr)
	}
	empty := t.TempDir()
	code, _, stderr = run(t, nil, "preview", "--home", home, "--skill", "notes", "--task", "T", "--netclaw-dir", empty)
	if want := "NetClaw folder " + empty + " (--netclaw-dir) has no usable netclawd, netclaw or Netclaw.Configuration.dll: it holds none of them; name the folder"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("--netclaw-dir of an empty folder: exit %d\n%s\nwant %s", code, stderr, want)
	}
	code, stdout, stderr := run(t, []string{"AGENTDESK_NETCLAW_DIR=" + damaged}, "preview", "--home", home, "--skill", "notes", "--task", "T", "--format", "json")
	if code != 0 || !strings.Contains(stdout+stderr, strings.TrimPrefix(fix, "; ")) {
		t.Errorf("AGENTDESK_NETCLAW_DIR: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestBrowserWordsNameRealFlags: the words cmd gives the evaluations and
// the browser name flags and commands the command line has.
func TestBrowserWordsNameRealFlags(t *testing.T) {
	flags := agentdeskFlags()
	root := newRootCmd(&globals{})
	w := browserWords
	for _, f := range []string{w.Approve, w.Home, w.NetClawDir, w.Eval.Record, w.Eval.Case, w.Eval.Models, w.Eval.Demo} {
		if !strings.HasPrefix(f, "--") || !flags[strings.TrimPrefix(f, "--")] {
			t.Errorf("%q is not a flag of agentdesk", f)
		}
	}
	for _, c := range []string{w.Eval.Test, w.Eval.Route, w.Spawn} {
		args := strings.Fields(c)
		if len(args) < 2 || args[0] != "agentdesk" {
			t.Errorf("%q is not an agentdesk command", c)
			continue
		}
		sub, rest, err := root.Find(args[1:])
		if err != nil || sub == root {
			t.Errorf("%q: no such command: %v", c, err)
			continue
		}
		for _, f := range rest {
			if sub.Flags().Lookup(strings.TrimPrefix(f, "--")) == nil {
				t.Errorf("%q: %s has no flag %s", c, sub.Name(), f)
			}
		}
	}
}
