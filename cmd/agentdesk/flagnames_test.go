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

// flagNameAllowed lists the string literals of library packages that may
// spell an agentdesk flag's name, each with its reason. The key is the file
// (slash-separated, from the module root) and the flag; an entry that no
// longer matches fails the test too, so the list cannot go stale.
var flagNameAllowed = map[string]string{
	"lint/netclaw/find.go --netclaw-dir":                           "ViaDir, the label of a folder named with Options.Dir, and the not-found error; lint/netclaw's find_test pins the words of both",
	"lint/netclaw/install.go --netclaw-dir":                        "not moved yet: the missing-resource error; lint/netclaw's find_test pins the words",
	"lint/suitefile/approve.go --approve":                          "a lint hint about a suite file's approve: list, which takes the same patterns as the flag; lint output, no cmd in between",
	"preview/adapt/files.go --force":                               "not moved yet: preview/adapt's managed_test pins the words",
	"preview/adapt/install.go --force":                             "not moved yet: preview/adapt's install_test pins the words",
	"preview/manifest.go --version":                                "not moved yet: preview's manifest_test pins the words",
	"runner/approve/gate.go --approve":                             "a model-visible refusal and the run record's approver: persisted in recordings and run folders, pinned by runner/approve's tests",
	"runner/eval/evalhtml/browsertest/browsertest.go --no-sandbox": "chromium's flag, not agentdesk's: a test helper starting a headless browser",
	"runner/eval/evalrec/cases.go --case":                          "not moved yet: the not-recorded hint of a case, in reports; pinned by runner/eval tests",
	"runner/eval/evalrec/cases.go --demo":                          "not moved yet: the not-recorded hint of a case, in reports; pinned by runner/eval tests",
	"runner/eval/evalrec/cases.go --models":                        "not moved yet: the not-recorded hint of a case, in reports; pinned by runner/eval tests",
	"runner/eval/evalrec/cases.go --record":                        "not moved yet: the not-recorded hint of a case, in reports; pinned by runner/eval tests",
	"runner/eval/evalrec/mode.go --record":                         "not moved yet: a case's not-recorded message, in reports; pinned by evalrec_test",
	"runner/eval/route/suite.go --record":                          "not moved yet: a case's message, in reports",
	"runner/eval/route/suite.go --suite":                           "not moved yet: the command a not-recorded case names, in reports",
	"runner/eval/suite/sample.go --models":                         "not moved yet: the command a not-recorded case names, in reports; pinned by matrix_test",
	"runner/eval/suite/sample.go --record":                         "not moved yet: a case's message, in reports",
	"runner/outcome.go --no-tools":                                 "not moved yet: appended to a run's error in its record",
	"runner/overlay/overlay.go --project":                          "not moved yet: runner's loop_test pins the words",
	"runner/overlay/work.go --project":                             "a shell call's failure, model-visible and recorded in the run",
	"runner/prepare.go --record":                                   "not moved yet: runner's replay_test pins the words",
	"runner/sandbox/sandbox.go --no-sandbox":                       "the sandbox's status line and its model-visible refusal, recorded in runs; pinned by runner/sandbox's tests",
	"runner/servers.go --no-sandbox":                               "an MCP server's state in the run record; pinned by runner's sandbox test",
	"runner/tools/shell.go --no-sandbox":                           "an MCP server's model-visible failure, recorded in the run",
	"tui/approval.go --approve":                                    "the approval prompt's screen tells the author the flag that approves the call without asking; a TUI screen, pinned by tui's approval_test",
	"tui/definition.go --home":                                     "a TUI screen",
	"tui/draft.go --home":                                          "a TUI screen",
	"tui/route.go --demo":                                          "a TUI screen",
	"tui/spawnprompt.go --netclaw-dir":                             "a TUI screen; pinned by tui's spawnprompt_test",
	"tui/spawnprompt.go --spawn":                                   "a TUI screen; pinned by tui's spawnprompt_test",
	"tui/tests.go --record":                                        "a TUI screen",
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
// stays.
func TestLibraryNamesNoFlags(t *testing.T) {
	flags := agentdeskFlags()
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	var found []string
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
					if _, ok := flagNameAllowed[key]; ok {
						seen[key] = true
						continue
					}
					found = append(found, fmt.Sprintf("%s:%d: --%s", rel, fset.Position(lit.Pos()).Line, m[1]))
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(found)
	for _, f := range found {
		t.Errorf("%s: a library package names a flag; return a typed error (or take the hint from cmd) and word it in cmd/agentdesk", f)
	}
	for key := range flagNameAllowed {
		if !seen[key] {
			t.Errorf("flagNameAllowed[%q] matches nothing any more: delete it", key)
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
		{runner.ErrNoRunsDir, "no runs folder: pass --runs-dir or set XDG_STATE_HOME or HOME"},
		{&runfolder.UnknownDirError{Err: cause}, "cannot find the runs folder: set XDG_STATE_HOME or HOME, or pass --runs-dir: $HOME is not defined"},
		{&runfolder.CreateDirError{Dir: "/r", Err: cause}, "creating the runs folder /r: $HOME is not defined; pass --runs-dir to use another"},
		{modeErr, "--record runs live and --offline replays only: give one of them"},
		{fmt.Errorf("--failed: %w", &evalrec.StateDirError{Err: cause}), "--failed: cannot find the state folder for --failed: set XDG_STATE_HOME or HOME: $HOME is not defined"},
		{&adapt.ForeignStateError{State: "/o/s.json", Tool: "x"}, `/o/s.json was not written by agentdesk (tool "x"): pick another --out`},
		{&adapt.OtherTargetError{Dir: "/o", Holds: "jit", Want: "codex"}, `/o holds jit exports (target "jit"), not codex: pick another --out for codex`},
		{&adapt.UnmanagedError{Dir: "/o", Problems: []string{"a", "b"}}, "refused to touch files in /o that agentdesk did not write or that were edited since:\n  a\n  b\nnothing was written: move those files away, or pick another --out"},
		{&lint.AgentsNotFolderError{Path: "/h/agents"}, "the agents path /h/agents is not a folder: pass a folder with --agents, or the file itself to lint"},
		{preview.ErrPublic, "the Public audience has no [available-subagents] layer and spawn_agent is refused there (\"Error: This tool is not available.\"): the frontline cannot delegate; use --audience Personal or Team"},
		{&route.InputError{Err: route.ErrNoCatalog}, "no agents were read: give the NetClaw home with --home"},
		{&overlay.InsideProjectError{Dir: "/p/tmp", Project: "/p"}, "the overlay folder /p/tmp lies inside the project /p: the trial would change the project; keep the runs folder elsewhere (--runs-dir)"},
		{&netclaw.DamagedError{Err: netclaw.ErrCorrupt}, netclaw.ErrCorrupt.Error() + "; reinstall NetClaw (its installer puts netclawd in ~/.netclaw/bin), or name a sound install with --netclaw-dir"},
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
	code, stdout, stderr := run(t, []string{"AGENTDESK_NETCLAW_DIR=" + damaged}, "preview", "--home", home, "--skill", "notes", "--task", "T", "--format", "json")
	if code != 0 || !strings.Contains(stdout+stderr, strings.TrimPrefix(fix, "; ")) {
		t.Errorf("AGENTDESK_NETCLAW_DIR: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
