package main

import (
	"fmt"
	"strings"

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
	"github.com/agentdesk/agentdesk/tui"
)

// Library packages never name a flag: they return typed errors that say
// what is wrong in their own terms, and cmd words them here with the flag
// that mends it (TestLibraryNamesNoFlags keeps it so). execute prints every
// error through flagWorded. What never comes back to execute gets the same
// words through wordFlags: the runner's Options.WordError (what Start and
// Keep return, which suite reports and the browser show), the browser's
// Options.WordError and its scanner, and the reason the operating rules are
// missing.

// flagWording words one error of err's tree (err itself, not what it
// wraps): the text its Error() gives (plain) and the text cmd shows in its
// place (worded).
type flagWording func(err error) (plain, worded string, ok bool)

// wordType words an error of type E.
func wordType[E error](word func(E) string) flagWording {
	return func(err error) (string, string, bool) {
		e, ok := err.(E)
		if !ok {
			return "", "", false
		}
		return e.Error(), word(e), true
	}
}

// wordSentinel words the sentinel target.
func wordSentinel(target error, worded string) flagWording {
	return func(err error) (string, string, bool) {
		if err != target {
			return "", "", false
		}
		return target.Error(), worded, true
	}
}

// eachError calls f on err and every error it wraps, depth first, through
// both Unwrap() error and Unwrap() []error (errors.Join: each file's
// problem of manifest).
func eachError(err error, f func(error)) {
	if err == nil {
		return
	}
	f(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		eachError(u.Unwrap(), f)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			eachError(e, f)
		}
	}
}

// evalWords are the words of the evaluations' hints (in every report
// format and the browser's Tests pane): the commands that run suites and
// the flags that record a case.
var evalWords = evalrec.Words{Test: "agentdesk test", Route: "agentdesk route --suite", Record: "--record", Case: "--case", Models: "--models", Demo: "--demo"}

// browserWords are the command line's words in the browser's hints.
var browserWords = tui.Words{Eval: evalWords, Approve: "--approve", Home: "--home", NetClawDir: "--netclaw-dir", Spawn: "agentdesk preview --spawn"}

// flagWordings is every typed error of a library package that cmd words
// with a flag.
var flagWordings = []flagWording{
	wordType(func(e *lint.HomeUnknownError) string {
		return "cannot find the NetClaw home: set --home or NETCLAW_HOME: " + e.Err.Error()
	}),
	wordType(func(e *runner.NoCassetteError) string { return e.Message("agentdesk run --record") }),
	wordSentinel(runner.ErrNoRunsDir, "no runs folder: pass --runs-dir or set XDG_STATE_HOME or HOME"),
	wordType(func(e *runfolder.UnknownDirError) string {
		return "cannot find the runs folder: set XDG_STATE_HOME or HOME, or pass --runs-dir: " + e.Err.Error()
	}),
	wordType(func(e *runfolder.CreateDirError) string {
		return fmt.Sprintf("creating the runs folder %s: %v; pass --runs-dir to use another", e.Dir, e.Err)
	}),
	wordType(func(e *preview.VersionConflictError) string { return e.Message("--version") }),
	wordType(func(e *preview.NoVersionError) string { return e.Message("pass --version") }),
	wordSentinel(evalrec.ErrModeConflict, "--record runs live and --offline replays only: give one of them"),
	wordType(func(e *evalrec.StateDirError) string {
		return "cannot find the state folder for --failed: set XDG_STATE_HOME or HOME: " + e.Err.Error()
	}),
	wordType(func(e *adapt.ForeignStateError) string {
		return fmt.Sprintf("%s was not written by agentdesk (tool %q): pick another --out", e.State, e.Tool)
	}),
	wordType(func(e *adapt.OtherTargetError) string {
		return fmt.Sprintf("%s holds %s exports (target %q), not %s: pick another --out for %s", e.Dir, e.Holds, e.Holds, e.Want, e.Want)
	}),
	wordType(func(e *adapt.UnmanagedError) string { return e.Message("pick another --out") }),
	wordType(func(e *adapt.DifferError) string { return e.Message("pass --force to replace them") }),
	wordType(func(e *adapt.ImportRefusedError) string { return e.Message("pass --force to replace it") }),
	wordType(func(e *lint.AgentsNotFolderError) string {
		return "the agents path " + e.Path + " is not a folder: pass a folder with --agents, or the file itself to lint"
	}),
	wordSentinel(preview.ErrPublic, "the Public audience has no [available-subagents] layer and spawn_agent is refused there (\"Error: This tool is not available.\"): the frontline cannot delegate; use --audience Personal or Team"),
	wordSentinel(route.ErrNoCatalog, "no agents were read: give the NetClaw home with --home"),
	// The runner makes a run's overlay folder under the temporary folder
	// (os.MkdirTemp, TMPDIR), never in the runs folder.
	wordType(func(e *overlay.InsideProjectError) string {
		return e.Message("set TMPDIR to a folder outside the project, or pick another --project")
	}),
	wordType(func(e *overlay.ProjectError) string { return e.Message("with --project") }),
	wordType(func(e *netclaw.DamagedError) string {
		return e.Message("name a sound install with --netclaw-dir")
	}),
	wordType(func(e *netclaw.NotFoundError) string {
		return e.Message("--netclaw-dir DIR or " + netclaw.EnvDir)
	}),
	wordType(func(e *netclaw.FolderError) string {
		if e.Via == netclaw.ViaDir {
			return e.Message("--netclaw-dir")
		}
		return e.Error()
	}),
	wordType(func(e *netclaw.MissingResourceError) string {
		return e.Message("name another NetClaw install with --netclaw-dir")
	}),
	wordType(func(e *keepcase.NameTakenError) string {
		return fmt.Sprintf("%s: %q: %v; name it with --case-name", e.Path, e.Name, keepcase.ErrNameTaken)
	}),
}

// flagWorded is err's message with each typed error in its tree worded
// by cmd. A typed error's text is replaced where it last occurs: the
// layers above wrap it with %w, which keeps its text whole.
func flagWorded(err error) string {
	msg := err.Error()
	var pairs [][2]string
	eachError(err, func(e error) {
		for _, w := range flagWordings {
			if plain, worded, ok := w(e); ok && plain != worded {
				pairs = append(pairs, [2]string{plain, worded})
				return
			}
		}
	})
	// From the outermost in: an outer typed error's text holds an inner
	// one's, so it is found whole first, and its worded text keeps the
	// inner one's to be worded next.
	for _, p := range pairs {
		plain, worded := p[0], p[1]
		if j := strings.LastIndex(msg, plain); j >= 0 {
			msg = msg[:j] + worded + msg[j+len(plain):]
		}
	}
	return msg
}

// wordedError is an error whose message cmd has worded with flags; it
// unwraps to the library's error.
type wordedError struct {
	msg string
	err error
}

func (e *wordedError) Error() string { return e.msg }
func (e *wordedError) Unwrap() error { return e.err }

// wordFlags returns err worded by cmd (flagWorded), or err itself when
// there was nothing to word; nil stays nil.
func wordFlags(err error) error {
	if err == nil {
		return nil
	}
	if msg := flagWorded(err); msg != err.Error() {
		return &wordedError{msg: msg, err: err}
	}
	return err
}
