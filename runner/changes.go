package runner

import (
	"fmt"
	"path/filepath"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
	"github.com/agentdesk/agentdesk/runner/overlay"
)

// PatchFile is the run folder's unified diff of what the run changed in
// its overlay of the project: `git apply changes.patch` from the project
// root makes the same changes.
const PatchFile = overlay.PatchFile

// ChangeRecord is one file a run changed in its overlay, for run.json.
type ChangeRecord struct {
	// Path is project-relative, slash-separated.
	Path string `json:"path"`
	// Kind is added, modified or deleted.
	Kind string `json:"kind"`
}

// keepChanges reads what the run changed in its overlay, keeps it for
// Changes, lists it in the record, and writes the redacted changes.patch
// when there is any. The run's lock is held.
func (r *Run) keepChanges(rec *Record) error {
	if r.overlay == nil {
		return nil
	}
	cs, err := r.overlay.Changes()
	if err != nil {
		return fmt.Errorf("reading what run %s changed: %w", rec.RunID, err)
	}
	for i := range cs {
		cs[i].Old = nil // only the new content is kept, redacted
		if cs[i].New != nil {
			cs[i].New = []byte(r.red.String(string(cs[i].New)))
		}
	}
	r.changes = cs
	if len(cs) == 0 {
		return nil
	}
	full, err := r.overlay.Changes()
	if err != nil {
		return fmt.Errorf("reading what run %s changed: %w", rec.RunID, err)
	}
	rec.Changes = make([]ChangeRecord, len(cs))
	for i, c := range cs {
		rec.Changes[i] = ChangeRecord{Path: r.red.String(c.Path), Kind: string(c.Kind)}
	}
	patch := r.red.String(string(overlay.RenderPatch(full)))
	if err := atomicfile.Replace(filepath.Join(rec.Dir, PatchFile), []byte(patch), 0o600); err != nil {
		return fmt.Errorf("writing %s of run %s: %w", PatchFile, rec.RunID, err)
	}
	rec.Files = append(rec.Files, PatchFile)
	return nil
}

// Changes returns what the run changed in its overlay of the project
// (new contents redacted, old contents left out), once it has ended; nil
// for a run without a project or before the end.
func (r *Run) Changes() []overlay.Change {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		return nil
	}
	return r.changes
}
