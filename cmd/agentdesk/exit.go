package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// Exit codes, the same for every command.
const (
	// exitOK: success.
	exitOK = 0
	// exitFindings: lint found problems, or a run did not complete.
	exitFindings = 1
	// exitUsage: bad flags, arguments or flag values.
	exitUsage = 2
	// exitInternal: anything else that went wrong.
	exitInternal = 3
)

// exitError carries the exit code an error maps to.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitWith wraps err so that execute exits with code. err may be nil: the
// process then exits with code and prints nothing (a command that has already
// said what it found, such as lint with findings).
func exitWith(code int, err error) error {
	return &exitError{code: code, err: err}
}

// usageErrorf returns a bad-usage error (exit 2) with a formatted message;
// execute adds the "Run '... --help' for usage." hint.
func usageErrorf(format string, args ...any) error {
	return exitWith(exitUsage, fmt.Errorf(format, args...))
}

// runError marks an error returned by a command's own code (RunE and its
// hooks), as opposed to one cobra produced while parsing flags and
// arguments.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// exitCode maps an error from the command tree to an exit code: an error
// carrying a code gets that code; any other error from a command's code is an
// internal failure; an error from cobra itself (unknown flag or command, bad
// flag value, wrong number of arguments) is bad usage.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	if ee, ok := errors.AsType[*exitError](err); ok {
		return ee.code
	}
	if _, ok := errors.AsType[*runError](err); ok {
		return exitInternal
	}
	return exitUsage
}

// markRunErrors wraps the run hooks of cmd and every command under it so
// that their errors are told apart from cobra's usage errors.
func markRunErrors(cmd *cobra.Command) {
	wrap := func(f func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
		if f == nil {
			return nil
		}
		return func(c *cobra.Command, args []string) error {
			if err := f(c, args); err != nil {
				return &runError{err: err}
			}
			return nil
		}
	}
	cmd.PersistentPreRunE = wrap(cmd.PersistentPreRunE)
	cmd.PreRunE = wrap(cmd.PreRunE)
	cmd.RunE = wrap(cmd.RunE)
	cmd.PostRunE = wrap(cmd.PostRunE)
	cmd.PersistentPostRunE = wrap(cmd.PersistentPostRunE)
	for _, sub := range cmd.Commands() {
		markRunErrors(sub)
	}
}

// execute runs agentdesk with args and returns the process exit code. It
// prints an error once, as "agentdesk: <error>", on stderr; for bad usage it
// adds a line pointing at the command's help.
func execute(args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) (code int) {
	// Ctrl-C, a supervisor's SIGTERM and a closed terminal's SIGHUP all
	// end the command the same way: runs are cancelled, temporary folders
	// (the demo's) removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return executeContext(ctx, args, stdin, stdout, stderr, environ)
}

// executeContext is execute, ended when ctx ends instead of on a signal.
func executeContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) (code int) {
	g := &globals{stdin: stdin, stdout: stdout, stderr: stderr, environ: environ}
	root := newRootCmd(g)
	markRunErrors(root)
	root.SetArgs(args)
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "agentdesk: internal error: %s\n", termsafe.EscapeLines(strings.TrimRight(fmt.Sprint(r), "\n")))
			code = exitInternal
		}
	}()

	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	code = exitCode(err)
	if msg := flagWorded(err); msg != "" {
		fmt.Fprintf(stderr, "agentdesk: %s\n", termsafe.EscapeLines(strings.TrimRight(msg, "\n")))
	}
	if code == exitUsage {
		path := "agentdesk"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", path)
	}
	return code
}
