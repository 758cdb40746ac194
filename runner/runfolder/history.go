package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentdesk/agentdesk/lint/vocab"
)

// Filter selects past runs.
type Filter struct {
	// Agent keeps the runs of the agent with this name (case-insensitive);
	// "" keeps all.
	Agent string
}

func (f Filter) keep(r *Record) bool {
	return f.Agent == "" || strings.EqualFold(r.Agent, f.Agent)
}

// ListRuns reads every run in the runs folder dir, newest first. A folder
// with a run id for a name whose run.json cannot be read is listed with
// state Unreadable and the reason in Error. A run left Running by a process
// on this host that is gone is reported Lost. A runs folder that does not
// exist holds no runs.
func ListRuns(dir string, f Filter) ([]Record, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the runs folder %s: %w", dir, err)
	}
	var out []Record
	for _, e := range entries {
		if !e.IsDir() || !ValidRunID(e.Name()) {
			continue
		}
		rec, err := LoadRun(dir, e.Name())
		if err != nil {
			if f.Agent != "" {
				continue
			}
			rec = unreadableRun(dir, e, err)
		}
		if f.keep(&rec) {
			out = append(out, rec)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].StartedAt.Equal(out[j].StartedAt) {
			return out[i].StartedAt.After(out[j].StartedAt)
		}
		return out[i].RunID < out[j].RunID
	})
	return out, nil
}

// unreadableRun is the record ListRuns shows for the run folder e in dir
// whose run.json could not be read (err): state Unreadable, the reason in
// Error, started when the folder last changed.
func unreadableRun(dir string, e fs.DirEntry, err error) Record {
	rec := Record{RunID: e.Name(), State: vocab.StateUnreadable, Error: err.Error(), Dir: filepath.Join(dir, e.Name())}
	if fi, err := e.Info(); err == nil {
		rec.StartedAt = fi.ModTime()
	}
	return rec
}

// LoadRun reads the run.json of run id in the runs folder dir. An id with
// no folder there is an error that says just so.
func LoadRun(dir, id string) (Record, error) {
	if !ValidRunID(id) {
		return Record{}, fmt.Errorf("%q is not a run id (32 lowercase hex characters)", id)
	}
	path := filepath.Join(dir, id, RunFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(filepath.Join(dir, id)); errors.Is(serr, fs.ErrNotExist) {
			return Record{}, fmt.Errorf("no run %s in %s", id, dir)
		}
	}
	if err != nil {
		return Record{}, fmt.Errorf("reading run %s: %w", id, err)
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, fmt.Errorf("reading %s: %w; the file is damaged", path, err)
	}
	if rec.RunID != id {
		return Record{}, fmt.Errorf("%s names run %q, not %s", path, rec.RunID, id)
	}
	rec.Dir = filepath.Join(dir, id)
	if rec.State == vocab.StateRunning && lost(&rec) {
		rec.State = vocab.StateLost
	}
	return rec, nil
}

// lost reports whether a Running record's process, on this host, is gone.
func lost(rec *Record) bool {
	host, _ := os.Hostname()
	if rec.PID <= 0 || rec.Host == "" || rec.Host != host {
		return false
	}
	return !processAlive(rec.PID)
}

// ErrNotRunID is wrapped by ResolveRunID's error for text that cannot be
// a run id or a prefix of one: a caller's usage error, not a missing run.
var ErrNotRunID = errors.New("not a run id")

// RunIDPrefix reports whether s (any case, surrounding spaces ignored)
// can name a run: 4 to 32 hex characters.
func RunIDPrefix(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return len(s) >= 4 && len(s) <= 32 && strings.Trim(s, "0123456789abcdef") == ""
}

// ResolveRunID returns the id of the one run in dir whose id starts with
// prefix (at least 4 characters), or the full id as given. Text that is
// no run id or prefix gives an error wrapping ErrNotRunID.
func ResolveRunID(dir, prefix string) (string, error) {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if ValidRunID(prefix) {
		return prefix, nil
	}
	if !RunIDPrefix(prefix) {
		return "", fmt.Errorf("%q is %w: give the 32 hex characters, or at least the first 4", prefix, ErrNotRunID)
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("reading the runs folder %s: %w", dir, err)
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() && ValidRunID(e.Name()) && strings.HasPrefix(e.Name(), prefix) {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no run %s… in %s", prefix, dir)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%d runs start with %s in %s: give more of the id", len(found), prefix, dir)
}
