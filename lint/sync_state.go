package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// syncState is one feed's .sync-state.json.
type syncState struct {
	path    string
	entries map[string]SyncEntry // by lower-cased name
}

type cachedSync struct {
	fp    fingerprint
	state *syncState
}

// syncStateFile is the JSON shape NetClaw writes.
type syncStateFile struct {
	LastSyncUTC string `json:"lastSyncUtc"`
	Skills      map[string]struct {
		Version     string `json:"version"`
		SHA256      string `json:"sha256"`
		SyncedAtUTC string `json:"syncedAtUtc"`
	} `json:"skills"`
}

// syncState reads (or returns the cached) sync state of the feed folder dir;
// nil when the feed has none or it does not parse.
func (s *Scanner) syncState(dir string) *syncState {
	path := filepath.Join(dir, ".sync-state.json")
	fi, err := os.Stat(path)
	if err != nil {
		delete(s.syncs, path)
		return nil
	}
	fp := fingerprintOf(fi)
	if c := s.syncs[path]; c != nil && c.fp == fp {
		return c.state
	}
	st := readSyncState(path)
	s.syncs[path] = &cachedSync{fp: fp, state: st}
	return st
}

// ReadSyncState reads a feed's .sync-state.json into entries keyed by the
// lower-cased name of each synced definition.
func ReadSyncState(path string) (map[string]SyncEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw syncStateFile
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s does not parse as JSON: %w", path, err)
	}
	out := make(map[string]SyncEntry, len(raw.Skills))
	for name, e := range raw.Skills {
		out[strings.ToLower(name)] = SyncEntry{Version: e.Version, SHA256: strings.ToLower(strings.TrimPrefix(e.SHA256, "sha256:")), SyncedAtUTC: e.SyncedAtUTC}
	}
	return out, nil
}

func readSyncState(path string) *syncState {
	entries, err := ReadSyncState(path)
	if err != nil {
		return nil
	}
	return &syncState{path: path, entries: entries}
}

// check finds the sync entry of a feed file (by its name, else its file
// name) and adds a feed-modified diagnostic when the bytes changed since.
func (st *syncState) check(f *File, p Profile, extra []Diagnostic) (*SyncEntry, []Diagnostic) {
	e, ok := st.entries[strings.ToLower(f.Name())]
	if !ok {
		e, ok = st.entries[strings.ToLower(strings.TrimSuffix(filepath.Base(f.Path), ".md"))]
	}
	if !ok {
		return nil, extra
	}
	if e.SHA256 != "" && f.SHA256 != "" && e.SHA256 != f.SHA256 {
		r, _ := RuleByID(RuleFeedModified)
		if sev := r.Severity(p); sev != Off {
			extra = append(extra, Diagnostic{Path: f.Path, Rule: RuleFeedModified, Severity: sev,
				Message: fmt.Sprintf("this synced file was edited: its sha256 no longer matches %s (version %s); the next sync overwrites the edit", filepath.Base(st.path), e.Version),
				Hint:    "copy it to the agents folder under a new name to keep your changes"})
		}
	}
	return &e, extra
}
