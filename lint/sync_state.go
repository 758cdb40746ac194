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
