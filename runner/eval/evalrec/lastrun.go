package evalrec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
)

// LastRunVersion is the format version of a last-run file.
const LastRunVersion = 1

// LastRun is how every case of one suite file ended the last time it
// ran, kept in the state folder so that --failed can run again the cases
// that did not pass. A run of some of the cases (--case, --shard,
// --failed) updates theirs and keeps the others'.
type LastRun struct {
	Version int `json:"version"`
	// Suite is the suite file's absolute path.
	Suite string `json:"suite"`
	// At is when a case of it last ran.
	At time.Time `json:"at"`
	// Cases maps each case's name to its status then ("pass", "fail",
	// "stale", "not recorded", "error").
	Cases map[string]string `json:"cases"`
	// Models maps a case run on models side by side (--models) to each
	// model's status then, by model name.
	Models map[string]map[string]string `json:"models,omitempty"`
}

// CaseModel names a case as it ran on one model: Model is "" for a case
// run on its own model role.
type CaseModel struct{ Case, Model string }

// Failed returns the names of the cases that did not pass, sorted.
func (l *LastRun) Failed() []string {
	var out []string
	for name, st := range l.Cases {
		if st != "pass" {
			out = append(out, name)
		}
	}
	for name, byModel := range l.Models {
		for _, st := range byModel {
			if st != "pass" && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// FailedModels returns the models the case named name did not pass on
// the last time it ran on them, sorted: "" is its own model role.
func (l *LastRun) FailedModels(name string) []string {
	var out []string
	if st, ok := l.Cases[name]; ok && st != "pass" {
		out = append(out, "")
	}
	for model, st := range l.Models[name] {
		if st != "pass" {
			out = append(out, model)
		}
	}
	sort.Strings(out)
	return out
}

// StateDirError is LastRunsDir's answer when neither XDG_STATE_HOME nor
// HOME is set and the user's home folder is unknown. The command line
// words it with the flag that reads the last runs.
type StateDirError struct {
	// Err is why the user's home folder is unknown.
	Err error
}

// Error says what to set.
func (e *StateDirError) Error() string {
	return "cannot find the state folder of the last runs: set XDG_STATE_HOME or HOME: " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *StateDirError) Unwrap() error { return e.Err }

// LastRunsDir returns the folder of the last-run files:
// $XDG_STATE_HOME/agentdesk/last-runs, else ~/.local/state/agentdesk/
// last-runs. getenv may be nil (os.Getenv).
func LastRunsDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "agentdesk", "last-runs"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", &StateDirError{Err: err}
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "agentdesk", "last-runs"), nil
}

// lastRunPath is the file of the suite at suitePath: named by a digest
// of its absolute path.
func lastRunPath(dir, suitePath string) (string, string) {
	abs, err := filepath.Abs(suitePath)
	if err != nil {
		abs = suitePath
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".json"), abs
}

// LoadLastRun reads the last run of the suite at suitePath; nil, nil
// when it has none recorded.
func LoadLastRun(dir, suitePath string) (*LastRun, error) {
	path, abs := lastRunPath(dir, suitePath)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the last run of %s: %w", suitePath, err)
	}
	var l LastRun
	if err := json.Unmarshal(data, &l); err != nil || l.Version != LastRunVersion || l.Suite != abs {
		// Not ours to trust: as if the suite had never run.
		return nil, nil
	}
	if l.Cases == nil {
		l.Cases = map[string]string{}
	}
	return &l, nil
}

// SaveLastRun records how the cases of the suite at suitePath that ran
// ended (statuses by case name), over the last run's record of them,
// atomically.
func SaveLastRun(dir, suitePath string, statuses map[string]string, at time.Time) error {
	byModel := make(map[CaseModel]string, len(statuses))
	for name, st := range statuses {
		byModel[CaseModel{Case: name}] = st
	}
	return SaveLastRunByModel(dir, suitePath, byModel, at)
}

// SaveLastRunByModel is SaveLastRun for cases that may have run on
// several models: each case and model keeps its own status, and a case
// or model that did not run keeps the one before.
func SaveLastRunByModel(dir, suitePath string, statuses map[CaseModel]string, at time.Time) error {
	if len(statuses) == 0 {
		return nil
	}
	l, err := LoadLastRun(dir, suitePath)
	if err != nil || l == nil {
		l = &LastRun{Cases: map[string]string{}}
	}
	path, abs := lastRunPath(dir, suitePath)
	l.Version, l.Suite, l.At = LastRunVersion, abs, at.UTC()
	for k, st := range statuses {
		if k.Model == "" {
			l.Cases[k.Case] = st
			continue
		}
		if l.Models == nil {
			l.Models = map[string]map[string]string{}
		}
		if l.Models[k.Case] == nil {
			l.Models[k.Case] = map[string]string{}
		}
		l.Models[k.Case][k.Model] = st
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the state folder %s: %w", dir, err)
	}
	if err := atomicfile.Replace(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("recording the last run of %s: %w", suitePath, err)
	}
	return nil
}
