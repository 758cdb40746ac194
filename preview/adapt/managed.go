package adapt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/atomicfile"
)

// StateFile is the state file of a managed destination, in the folder it
// manages.
const StateFile = ".agentdesk-export.json"

// stateVersion is the format of the state file this agentdesk writes.
const stateVersion = 1

// stateDoc is the state file.
type stateDoc struct {
	// Tool is always "agentdesk".
	Tool    string `json:"tool"`
	Version int    `json:"version"`
	// Target is the id of the target the folder holds files for.
	Target string       `json:"target"`
	Files  []StateEntry `json:"files"`
}

// StateEntry records one file agentdesk wrote into a managed destination.
type StateEntry struct {
	// Output is the file's name in the destination folder.
	Output string `json:"output"`
	// OutputSHA256 is the SHA-256 of the bytes written (lowercase hex).
	OutputSHA256 string `json:"outputSha256"`
	// SourceName is the NetClaw name of the definition it came from.
	SourceName string `json:"sourceName"`
	// SourcePath is the definition's file.
	SourcePath string `json:"sourcePath"`
	// SourceSHA256 is the SHA-256 of the definition's bytes then.
	SourceSHA256 string `json:"sourceSha256"`
}

// Destination is a folder that receives exported files for one target and
// keeps a state file recording each file it wrote. It only ever writes or
// deletes files that the state file records with the digest they still
// have: a file it did not write, or one edited since, is never touched.
type Destination struct {
	// Dir is the folder.
	Dir    string
	target Target
	// entries are the state file's records, by output file name.
	entries map[string]StateEntry
}

// ForeignStateError is OpenDestination's answer to a state file another
// tool wrote. The command line words it with the flag that picks another
// folder.
type ForeignStateError struct {
	// State is the state file's path; Tool the tool it names.
	State, Tool string
}

// Error names the file and the tool.
func (e *ForeignStateError) Error() string {
	return fmt.Sprintf("%s was not written by agentdesk (tool %q): pick another folder", e.State, e.Tool)
}

// OtherTargetError is OpenDestination's answer to a folder that holds
// another target's exports. The command line words it with the flag that
// picks another folder.
type OtherTargetError struct {
	// Dir is the folder; Holds the target its state names; Want the
	// target asked for.
	Dir, Holds, Want string
}

// Error names the folder and both targets.
func (e *OtherTargetError) Error() string {
	return fmt.Sprintf("%s holds %s exports (target %q), not %s: pick another folder for %s", e.Dir, e.Holds, e.Holds, e.Want, e.Want)
}

// UnmanagedError is Plan's refusal to touch files agentdesk did not write
// or that were edited since; it wraps ErrRefused. The command line words
// it with the flag that picks another folder.
type UnmanagedError struct {
	// Dir is the folder; Problems one line per file refused.
	Dir      string
	Problems []string
}

// Error lists the files and says nothing was written.
func (e *UnmanagedError) Error() string {
	return e.Message("pick another folder")
}

// Message is the error with other as its last fix.
func (e *UnmanagedError) Message(other string) string {
	return fmt.Sprintf("%v to touch files in %s that agentdesk did not write or that were edited since:\n  %s\nnothing was written: move those files away, or %s",
		ErrRefused, e.Dir, strings.Join(e.Problems, "\n  "), other)
}

// Unwrap returns ErrRefused.
func (e *UnmanagedError) Unwrap() error { return ErrRefused }

// StatePath is the path of the destination's state file.
func (d *Destination) StatePath() string { return filepath.Join(d.Dir, StateFile) }

// OpenDestination reads the state of dir for target t. A folder without a
// state file (or no folder at all) is a new destination with no records.
// A state file that does not parse, was written for another target, or
// records a path outside the folder is an error: agentdesk then touches
// nothing.
func OpenDestination(dir string, t Target) (*Destination, error) {
	d := &Destination{Dir: dir, target: t, entries: map[string]StateEntry{}}
	data, err := os.ReadFile(d.StatePath())
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the export state %s: %w", d.StatePath(), err)
	}
	var doc stateDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("the export state %s does not parse (%v): fix it, or move the folder's files and the state away and export again", d.StatePath(), err)
	}
	switch {
	case doc.Tool != "agentdesk":
		return nil, &ForeignStateError{State: d.StatePath(), Tool: doc.Tool}
	case doc.Version > stateVersion:
		return nil, fmt.Errorf("%s was written by a newer agentdesk (state version %d): upgrade agentdesk", d.StatePath(), doc.Version)
	case doc.Target != t.ID:
		return nil, &OtherTargetError{Dir: dir, Holds: doc.Target, Want: t.ID}
	}
	for _, e := range doc.Files {
		if !fileSafe(e.Output) || e.Output == StateFile || !filepath.IsLocal(e.Output) {
			return nil, fmt.Errorf("%s records %q, which is not a file name in %s: fix the state file", d.StatePath(), e.Output, dir)
		}
		if _, dup := d.entries[e.Output]; dup {
			return nil, fmt.Errorf("%s records %q twice: fix the state file", d.StatePath(), e.Output)
		}
		d.entries[e.Output] = e
	}
	return d, nil
}

// Entries returns the state's records, sorted by output file name.
func (d *Destination) Entries() []StateEntry {
	out := make([]StateEntry, 0, len(d.entries))
	for _, e := range d.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b StateEntry) int { return strings.Compare(a.Output, b.Output) })
	return out
}

// Source is one definition to export, with where it came from.
type Source struct {
	// Name is the definition's NetClaw name.
	Name string
	// Path is its file, and SHA256 the digest of the file's bytes.
	Path   string
	SHA256 string
	// Out is the converted file.
	Out *Exported
}

// Action is what a plan does with one file.
type Action string

// The actions of a plan.
const (
	Create    Action = "create"
	Update    Action = "update"
	Unchanged Action = "unchanged"
	Prune     Action = "prune"
	// Forget drops the record of a file that is already gone.
	Forget Action = "forget"
)

// Change is one step of a plan.
type Change struct {
	Action Action
	// Path is the file on disk.
	Path string
	// Entry is the record after the change (for Prune and Forget, the one
	// removed).
	Entry StateEntry
	// Moved names, for Prune and Forget, the file the source now exports
	// to when it is still exported but under another name (the target's
	// naming changed: Codex files once had underscores); "" when the
	// source is gone.
	Moved string
	data  []byte
}

// Plan is what an export run does to a destination. Apply carries it out.
type Plan struct {
	dest    *Destination
	Changes []Change
	// Done counts the changes Apply carried out: all of them unless a
	// step failed.
	Done int
}

// Plan works out what exporting sources does: a file per source is
// created, or updated when the destination wrote it and it still has the
// bytes it wrote; a recorded file whose source is gone (live reports false
// for its record; LiveSources gives the rule agentdesk export uses) is
// pruned, and so is a recorded file of a source that now exports to
// another file (Change.Moved); a recorded file whose source is live but
// not among sources is left as it is. Any file the destination did not
// write, or that was edited since, makes the whole plan fail with an error
// wrapping ErrRefused that names every such file; nothing is written then.
func (d *Destination) Plan(sources []Source, live func(StateEntry) bool) (*Plan, error) {
	pl := planner{p: &Plan{dest: d}, planned: map[string]string{}, exported: map[string]string{}}
	for _, s := range sources {
		if s.Out != nil {
			pl.export(s)
		}
	}
	for _, e := range d.Entries() {
		moved := pl.exported[e.SourceName]
		if _, ok := pl.planned[strings.ToLower(e.Output)]; ok || moved == "" && live(e) {
			continue
		}
		pl.prune(e, moved)
	}
	if len(pl.problems) > 0 {
		return nil, &UnmanagedError{Dir: d.Dir, Problems: pl.problems}
	}
	return pl.p, nil
}

// planner builds a Plan: the changes so far, the problems that refuse
// it, and the outputs planned (lower-cased output → source name) and
// exported (source name → its output now).
type planner struct {
	p                 *Plan
	problems          []string
	planned, exported map[string]string
}

// export plans the output of source s: created, updated or unchanged. An
// output name that cannot be written or that two sources share, and a
// file there that the destination did not write or that was edited, is a
// problem.
func (pl *planner) export(s Source) {
	d := pl.p.dest
	file := s.Out.File
	if !fileSafe(file) || file == StateFile || !filepath.IsLocal(file) {
		pl.problems = append(pl.problems, fmt.Sprintf("%s: %q is not a file name agentdesk can write", s.Name, file))
		return
	}
	if other, dup := pl.planned[strings.ToLower(file)]; dup {
		pl.problems = append(pl.problems, fmt.Sprintf("'%s' and '%s' both become %s in %s: rename one of them", other, s.Name, file, d.target.Title))
		return
	}
	pl.planned[strings.ToLower(file)] = s.Name
	pl.exported[s.Name] = file
	path := filepath.Join(d.Dir, file)
	entry := StateEntry{Output: file, OutputSHA256: sha256Hex(s.Out.Data), SourceName: s.Name, SourcePath: s.Path, SourceSHA256: s.SHA256}
	old, recorded := d.entries[file]
	onDisk, err := d.check(path, old, recorded)
	switch {
	case err != nil:
		pl.problems = append(pl.problems, err.Error())
	case onDisk == nil:
		pl.p.Changes = append(pl.p.Changes, Change{Action: Create, Path: path, Entry: entry, data: s.Out.Data})
	case bytes.Equal(onDisk, s.Out.Data):
		pl.p.Changes = append(pl.p.Changes, Change{Action: Unchanged, Path: path, Entry: entry})
	default:
		pl.p.Changes = append(pl.p.Changes, Change{Action: Update, Path: path, Entry: entry, data: s.Out.Data})
	}
}

// prune plans the removal of recorded file e, whose source is gone or
// now exports to moved: pruned, or forgotten when it is gone already. A
// file there that was edited since is a problem.
func (pl *planner) prune(e StateEntry, moved string) {
	d := pl.p.dest
	path := filepath.Join(d.Dir, e.Output)
	onDisk, err := d.check(path, e, true)
	why := "its source '" + e.SourceName + "' is gone"
	if moved != "" {
		why = "its source '" + e.SourceName + "' now exports to " + moved
	}
	switch {
	case err != nil:
		pl.problems = append(pl.problems, err.Error()+" ("+why+", so agentdesk would delete it)")
	case onDisk == nil:
		pl.p.Changes = append(pl.p.Changes, Change{Action: Forget, Path: path, Entry: e, Moved: moved})
	default:
		pl.p.Changes = append(pl.p.Changes, Change{Action: Prune, Path: path, Entry: e, Moved: moved})
	}
}

// LiveSources returns the rule that tells, from a scan of the home, whether
// the source of a recorded file still exists: an agent of that name is
// loaded, or the recorded source file is there but the runtime rejects it
// now (an edit in progress should not delete its export). A source file
// that now loads under another name, or is gone, no longer is.
func LiveSources(c *lint.Catalog) func(StateEntry) bool {
	rejected := map[string]bool{}
	for _, f := range c.Rejected() {
		if abs, err := filepath.Abs(f.Path); err == nil {
			rejected[abs] = true
		}
	}
	return func(e StateEntry) bool {
		return c.Agent(e.SourceName) != nil || rejected[filepath.Clean(e.SourcePath)]
	}
}

// check reads the file at path and says whether the destination may touch
// it: a missing file is fine (nil bytes); an existing one must be a regular
// file recorded with the digest it has now.
func (d *Destination) check(path string, e StateEntry, recorded bool) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !recorded {
		return nil, fmt.Errorf("%s was not written by agentdesk (%s has no record of it)", path, StateFile)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is no longer the file agentdesk wrote (it is a %s now)", path, fi.Mode().Type())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if sha256Hex(data) != e.OutputSHA256 {
		return nil, fmt.Errorf("%s was edited since agentdesk wrote it", path)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// Apply carries the plan out: creates (never over an existing file),
// updates and deletions, each checked again just before it happens, then
// the state file, written atomically. When a step fails the state still
// records every step done before it, so a rerun recognises those files.
func (p *Plan) Apply() error {
	d := p.dest
	if err := os.MkdirAll(d.Dir, dirMode); err != nil {
		return fmt.Errorf("create %s: %w", d.Dir, err)
	}
	entries := make(map[string]StateEntry, len(d.entries))
	for k, v := range d.entries {
		entries[k] = v
	}
	var stepErr error
	for _, c := range p.Changes {
		if stepErr = p.apply(c); stepErr != nil {
			break
		}
		p.Done++
		switch c.Action {
		case Prune, Forget:
			delete(entries, c.Entry.Output)
		default:
			entries[c.Entry.Output] = c.Entry
		}
	}
	d.entries = entries
	return errors.Join(stepErr, d.saveState())
}

// apply carries out one change.
func (p *Plan) apply(c Change) error {
	d := p.dest
	switch c.Action {
	case Create:
		if err := atomicfile.Create(c.Path, c.data, fileMode); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%w: %s appeared while agentdesk was exporting: left as it is", ErrRefused, c.Path)
			}
			return err
		}
	case Update, Prune:
		old := d.entries[c.Entry.Output]
		if _, err := d.check(c.Path, old, true); err != nil {
			return fmt.Errorf("%w: %v while agentdesk was exporting: left as it is", ErrRefused, err)
		}
		if c.Action == Update {
			return atomicfile.Replace(c.Path, c.data, fileMode)
		}
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete %s: %w", c.Path, err)
		}
	}
	return nil
}

// saveState writes the state file when it changed.
func (d *Destination) saveState() error {
	doc := stateDoc{Tool: "agentdesk", Version: stateVersion, Target: d.target.ID, Files: d.Entries()}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode the export state: %w", err)
	}
	path := d.StatePath()
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, buf.Bytes()) {
		return nil
	}
	if len(doc.Files) == 0 {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	return atomicfile.Replace(path, buf.Bytes(), fileMode)
}
