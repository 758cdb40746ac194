package runfolder

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Run folder file names.
const (
	RunFile             = "run.json"
	ResultFile          = "result.md"
	TranscriptFile      = "transcript.jsonl"
	TruncatedOutputFile = "truncated-output.md"
	// StreamFile is the cassette of a run made with Spec.Record.
	StreamFile = "stream.cassette"
)

// NewRunID returns a fresh run id: 32 lowercase hex characters from
// crypto/rand.
func NewRunID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails; it crashes the program if it could not
	return hex.EncodeToString(b[:])
}

var runIDRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ValidRunID reports whether id has the form of a run id.
func ValidRunID(id string) bool { return runIDRE.MatchString(id) }

// UnknownDirError is DefaultRunsDir's answer when neither XDG_STATE_HOME
// nor HOME is set and the user's home folder is unknown. The command line
// words it with the flag that names a runs folder.
type UnknownDirError struct {
	// Err is why the user's home folder is unknown.
	Err error
}

// Error says what to set.
func (e *UnknownDirError) Error() string {
	return "cannot find the runs folder: set XDG_STATE_HOME or HOME: " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *UnknownDirError) Unwrap() error { return e.Err }

// CreateDirError is Create's answer when the runs folder cannot be made.
// The command line words it with the flag that names another.
type CreateDirError struct {
	// Dir is the runs folder.
	Dir string
	// Err is why it cannot be made.
	Err error
}

// Error names the folder and the cause.
func (e *CreateDirError) Error() string {
	return "creating the runs folder " + e.Dir + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *CreateDirError) Unwrap() error { return e.Err }

// DefaultRunsDir returns the runs folder: $XDG_STATE_HOME/agentdesk/runs,
// else ~/.local/state/agentdesk/runs. getenv may be nil (os.Getenv).
func DefaultRunsDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "agentdesk", "runs"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", &UnknownDirError{Err: err}
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "agentdesk", "runs"), nil
}

// Create makes <runsDir>/<id> (and runsDir), readable only by the
// user: runs hold tasks and replies.
func Create(runsDir, id string) (string, error) {
	if err := os.MkdirAll(runsDir, 0o700); err != nil {
		return "", &CreateDirError{Dir: runsDir, Err: err}
	}
	dir := filepath.Join(runsDir, id)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating the run folder %s: %w", dir, err)
	}
	return dir, nil
}
