package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// collectChanges reads what the run changed in its overlay of the
// project and keeps it (redacted, old contents left out) for Changes, with
// its changes.patch (redacted) and, when recording, both in the cassette.
// A replay's changes come from its cassette instead (set when the run
// started).
func (r *Run) collectChanges() error {
	if r.overlay == nil {
		return nil
	}
	full, err := r.overlay.Changes()
	if err != nil {
		return fmt.Errorf("reading what run %s changed: %w", r.rec.RunID, err)
	}
	cs := make([]overlay.Change, len(full))
	for i, c := range full {
		c.Old = nil
		if c.New != nil {
			c.New = []byte(r.red.String(string(c.New)))
		}
		cs[i] = c
	}
	var patch string
	if len(full) > 0 {
		patch = r.red.String(string(overlay.RenderPatch(redactBinary(r.red, full))))
	}
	r.mu.Lock()
	r.changes, r.patch = cs, patch
	r.mu.Unlock()
	if r.tape != nil {
		r.tape.Changes = tapeChanges(cs)
		if len(patch) <= cassette.MaxPatch {
			r.tape.Patch = patch
		}
	}
	return nil
}

// tapeChanges converts changes for a cassette: text contents up to
// cassette.MaxChangeContent, none for deleted or binary files.
func tapeChanges(cs []overlay.Change) []cassette.Change {
	out := make([]cassette.Change, len(cs))
	for i, c := range cs {
		out[i] = cassette.Change{Path: c.Path, Kind: string(c.Kind)}
		if c.Kind != overlay.Deleted && !c.Binary && !c.Special && !c.NewLink && len(c.New) <= cassette.MaxChangeContent {
			s := string(c.New)
			out[i].Content = &s
		}
	}
	return out
}

// replayChanges are a cassette's recorded changes, as Changes returns
// them.
func replayChanges(tape *cassette.Cassette) []overlay.Change {
	if tape == nil || len(tape.Changes) == 0 {
		return nil
	}
	out := make([]overlay.Change, len(tape.Changes))
	for i, c := range tape.Changes {
		out[i] = overlay.Change{Path: c.Path, Kind: overlay.ChangeKind(c.Kind), NewMode: 0o644}
		if c.Content != nil {
			out[i].New = []byte(*c.Content)
		} else if c.Kind != string(overlay.Deleted) {
			out[i].Binary = true // kept without its content
		}
		if c.Kind != string(overlay.Added) {
			out[i].Unrecorded = true // the content before the run is not kept
		}
	}
	return out
}

// replayPatch is the changes.patch a replay writes: the recorded one, or
// for a cassette that has none (made before cassettes kept it), what its
// changes can show: the files it added in full, the rest listed in the
// patch's header.
func replayPatch(tape *cassette.Cassette) string {
	if tape == nil {
		return ""
	}
	if tape.Patch != "" {
		return tape.Patch
	}
	if cs := replayChanges(tape); len(cs) > 0 {
		return string(overlay.RenderPatch(cs))
	}
	return ""
}

// keepChanges lists the run's changes in the record and queues the
// redacted changes.patch and the files the run left in its session folder for the run folder. The run's
// lock is held.
func (r *Run) keepChanges(rec *runfolder.Record) error {
	r.extraFiles = map[string][]byte{}
	if r.overlay == nil {
		r.keepReplayedChanges(rec)
		return nil
	}
	if ws := r.workspace; ws != nil && ws.Session() != nil {
		r.keepSessionFiles(rec, ws.Session())
	}
	cs := r.changes
	if len(cs) == 0 {
		return nil
	}
	rec.Changes = make([]runfolder.ChangeRecord, len(cs))
	for i, c := range cs {
		rec.Changes[i] = runfolder.ChangeRecord{Path: r.red.String(c.Path), Kind: string(c.Kind)}
	}
	r.extraFiles[runfolder.PatchFile] = []byte(r.patch)
	rec.Files = append(rec.Files, runfolder.PatchFile)
	return nil
}

// keepReplayedChanges lists a replay's changes (from its cassette) in
// the record, and queues its redacted changes.patch. The run's lock is
// held.
func (r *Run) keepReplayedChanges(rec *runfolder.Record) {
	for _, c := range r.changes {
		rec.Changes = append(rec.Changes, runfolder.ChangeRecord{Path: c.Path, Kind: string(c.Kind)})
	}
	if r.patch != "" {
		r.extraFiles[runfolder.PatchFile] = []byte(r.red.String(r.patch))
		rec.Files = append(rec.Files, runfolder.PatchFile)
	}
}

// keepSessionFiles queues, redacted, the files the run's tools left in
// its session folder (seen through the overlay sess), and lists the
// folder in the record when there are any. The run's lock is held.
func (r *Run) keepSessionFiles(rec *runfolder.Record, sess *overlay.Overlay) {
	cs, err := sess.Changes()
	if err != nil {
		return
	}
	for _, c := range cs {
		if c.Kind != overlay.Deleted && !c.Special && !c.NewLink {
			r.extraFiles[path.Join(SessionDir, c.Path)] = []byte(r.red.String(string(c.New)))
		}
	}
	if len(r.extraFiles) > 0 {
		rec.Files = append(rec.Files, SessionDir)
	}
}

// redactBinary returns changes with the new content of each binary file
// redacted: the patch carries it compressed, where redacting the patch's
// text could not reach it. (The patch's index line then names the
// redacted content, so `git apply` still accepts it.)
func redactBinary(red *redact.Redactor, changes []overlay.Change) []overlay.Change {
	out := make([]overlay.Change, len(changes))
	for i, c := range changes {
		if c.Binary && c.New != nil {
			c.New = []byte(red.String(string(c.New)))
		}
		out[i] = c
	}
	return out
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

// openSession gives the run's tools its session storage, dir/session
// with the folders TrialStorage names in it: made now, seen through an
// overlay (the tools' writes land in the run's temporary folder), and its
// files copied into the run folder when the run ends. Shell commands get
// the run's temp_dir as their temporary folder; closeSession removes it.
func (p *prepared) openSession(dir, id string) error {
	if p.workspace == nil || p.spec.Unsaved {
		// An unsaved run has no folder to hold one.
		return nil
	}
	sess := filepath.Join(dir, SessionDir)
	if err := os.MkdirAll(sess, 0o700); err != nil {
		return fmt.Errorf("making the session folder %s: %w", sess, err)
	}
	upper, release, err := ownedTempDir(sessionTempPrefix)
	if err != nil {
		return fmt.Errorf("making the session folder's overlay: %w (check TMPDIR's free space)", err)
	}
	ov, err := overlay.New(sess, upper)
	if err != nil {
		release()
		return err
	}
	p.workspace.WithSession(ov, TrialStorage(dir, id))
	if set, ok := p.toolbox.(*tools.Set); ok {
		set.OnClose(func() error {
			err := ov.Close()
			if rerr := release(); err == nil {
				err = rerr
			}
			return err
		})
	}
	return nil
}

// closeSession tidies the session folder of the run id whose folder is
// dir once the run has ended: the temp_dir shell commands wrote in
// directly (disposable, and never redacted) is removed, then every folder
// of the session left empty, the session folder too. What the tools
// wrote through the overlay is in the run folder by then.
func closeSession(dir, id string, red *redact.Redactor) {
	st := TrialStorage(dir, id)
	sess := filepath.Join(dir, SessionDir)
	if rel, err := filepath.Rel(sess, st.TempDir); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return // not inside the session folder: never remove it
	}
	os.RemoveAll(st.TempDir)
	redactSession(sess, red)
	for d := filepath.Dir(st.TempDir); ; d = filepath.Dir(d) {
		if err := os.Remove(d); (err != nil && !errors.Is(err, fs.ErrNotExist)) || d == sess {
			break
		}
	}
}

// redactSession redacts, in place, what sandboxed commands and stdio
// MCP servers wrote straight into the session folder sess (it is shown
// writable at its own path, so their writes miss the overlay that
// redacts the tools'): the content of files, the names of files and
// folders, the text of links. A file that holds no secret is not
// rewritten; a name whose redacted form is taken is removed.
func redactSession(sess string, red *redact.Redactor) {
	if red == nil {
		return
	}
	var renames []string
	_ = filepath.WalkDir(sess, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == sess {
			return nil
		}
		if red.String(d.Name()) != d.Name() {
			renames = append(renames, p)
		}
		redactContent(p, d, red)
		return nil
	})
	// Deepest first: a folder is renamed after what it holds.
	for i := len(renames) - 1; i >= 0; i-- {
		renameRedacted(renames[i], red)
	}
}

// redactContent redacts, in place, the text of the link or the content
// of the regular file p (d); one that holds no secret is left as it is.
func redactContent(p string, d fs.DirEntry, red *redact.Redactor) {
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		if text, err := os.Readlink(p); err == nil && red.String(text) != text {
			if os.Remove(p) == nil {
				_ = os.Symlink(red.String(text), p)
			}
		}
	case d.Type().IsRegular():
		b, err := os.ReadFile(p)
		if err != nil {
			return
		}
		if r := red.String(string(b)); r != string(b) {
			if fi, err := d.Info(); err == nil {
				_ = atomicfile.Replace(p, []byte(r), fi.Mode().Perm())
			}
		}
	}
}

// renameRedacted gives p, whose name holds a secret, its redacted name;
// it removes p when that name is taken or is no name (a separator, "."
// or "..").
func renameRedacted(p string, red *redact.Redactor) {
	name := red.String(filepath.Base(p))
	to := filepath.Join(filepath.Dir(p), name)
	if strings.ContainsRune(name, filepath.Separator) || name == "." || name == ".." {
		_ = os.RemoveAll(p)
		return
	}
	if _, err := os.Lstat(to); err == nil || os.Rename(p, to) != nil {
		_ = os.RemoveAll(p)
	}
}

// Patch returns the run's changes.patch (redacted), once it has ended; ""
// when the run changed nothing or has not ended.
func (r *Run) Patch() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		return ""
	}
	return string(r.extraFiles[runfolder.PatchFile])
}
