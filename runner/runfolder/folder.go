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
			return "", fmt.Errorf("cannot find the runs folder: set XDG_STATE_HOME or HOME, or pass --runs-dir: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "agentdesk", "runs"), nil
}

// Create makes <runsDir>/<id> (and runsDir), readable only by the
// user: runs hold tasks and replies.
func Create(runsDir, id string) (string, error) {
	if err := os.MkdirAll(runsDir, 0o700); err != nil {
		return "", fmt.Errorf("creating the runs folder %s: %w; pass --runs-dir to use another", runsDir, err)
	}
	dir := filepath.Join(runsDir, id)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating the run folder %s: %w", dir, err)
	}
	return dir, nil
}
