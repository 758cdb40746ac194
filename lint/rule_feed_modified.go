package lint

// This file holds the check of the rule feed-modified (RuleFeedModified): a
// feed file no longer matches its sync state: the next sync overwrites it.

import (
	"fmt"
	"path/filepath"
	"strings"
)

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
