package overlay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Overlay is a copy-on-write view of one project folder. Its methods are
// safe for concurrent use.
type Overlay struct {
	absBase  string // the project as given, absolute and clean
	realBase string // absBase with symlinks resolved
	dir      string // the overlay folder
	upperDir string // dir/files: the written files, at their project-relative paths
	upper    *os.Root
	base     *os.Root

	mu      sync.RWMutex
	deleted map[string]bool // project-relative slash paths hidden from the base (and all below them)
	gen     uint64          // bumped by every change
	work    *WorkTree
}

// Upper is the name of the folder, inside the overlay folder, that holds
// the written files.
const Upper = "files"

// InsideProjectError is New's answer to an overlay folder inside the
// project: the trial would change the project. The command line words it
// with what puts the overlay folder elsewhere (the runner makes it under
// the temporary folder, TMPDIR) and the flag that names the project.
type InsideProjectError struct {
	// Dir is the overlay folder; Project the project folder.
	Dir, Project string
}

// Error names both folders and what to do.
func (e *InsideProjectError) Error() string {
	return e.Message("keep the overlay folder outside the project")
}

// Message is the error with fix as what to do.
func (e *InsideProjectError) Message(fix string) string {
	return fmt.Sprintf("the overlay folder %s lies inside the project %s: the trial would change the project; %s", e.Dir, e.Project, fix)
}

// ProjectError is a project folder New cannot open: missing, unreadable,
// or not a folder. The command line words it with the flag that names the
// project.
type ProjectError struct {
	// Dir is the project folder as given (absolute once it could be made so).
	Dir string
	// Err is why it cannot be opened; nil when it is not a folder.
	Err error
}

// Error names the folder and says what to pass instead.
func (e *ProjectError) Error() string { return e.Message("as the project") }

// Message is the error with how saying how to pass another folder
// ("as the project", or "with" and a flag).
func (e *ProjectError) Message(how string) string {
	if e.Err == nil {
		return fmt.Sprintf("project folder %s is not a folder (pass a folder %s)", e.Dir, how)
	}
	return fmt.Sprintf("project folder %s: %v (pass an existing folder %s)", e.Dir, e.Err, how)
}

// Unwrap returns the cause.
func (e *ProjectError) Unwrap() error { return e.Err }

// New opens an overlay of the project folder project, keeping its writes
// in dir (created when missing; it should be empty, and must not lie
// inside the project). It copies nothing.
func New(project, dir string) (*Overlay, error) {
	if project == "" {
		project = "."
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return nil, &ProjectError{Dir: project, Err: err}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, &ProjectError{Dir: abs, Err: err}
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, &ProjectError{Dir: abs}
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("overlay folder %s: %w", dir, err)
	}
	upperDir := filepath.Join(absDir, Upper)
	if err := os.MkdirAll(upperDir, 0o700); err != nil {
		return nil, fmt.Errorf("making the overlay folder %s: %w (check the runs folder's permissions and free space)", upperDir, err)
	}
	if realDir, err := filepath.EvalSymlinks(absDir); err == nil {
		if _, inside := within(real, realDir); inside {
			return nil, &InsideProjectError{Dir: absDir, Project: abs}
		}
	}
	b, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w (check its permissions)", abs, err)
	}
	u, err := os.OpenRoot(upperDir)
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("overlay folder %s: %w", upperDir, err)
	}
	return &Overlay{absBase: abs, realBase: real, dir: absDir, upperDir: upperDir, upper: u, base: b, deleted: map[string]bool{}}, nil
}

// Project returns the project folder, absolute, as given to New.
func (o *Overlay) Project() string { return o.absBase }

// Dir returns the overlay folder.
func (o *Overlay) Dir() string { return o.dir }

// Close releases the folders and removes the work tree, if any. The
// overlay folder itself stays (the run folder keeps it) unless it was
// made by NewTemp.
func (o *Overlay) Close() error {
	o.mu.Lock()
	w := o.work
	o.work = nil
	o.mu.Unlock()
	var first error
	if w != nil {
		first = w.remove()
	}
	o.upper.Close()
	o.base.Close()
	return first
}

// ErrOutside is wrapped by the errors of paths that lead out of the view.
var ErrOutside = errors.New("outside the project folder")

// PathError is a path the overlay refuses or cannot find, worded for the
// model.
type PathError struct {
	// Path is the project-relative path, or the path as given.
	Path string
	// Msg says what is wrong.
	Msg string
	// Err is the cause (ErrOutside, fs.ErrNotExist, ...).
	Err error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Msg }
func (e *PathError) Unwrap() error { return e.Err }

func outside(p, how string) error {
	return &PathError{Path: p, Msg: "leads outside the project folder" + how + "; the tools only reach files inside it (give paths relative to it)", Err: ErrOutside}
}

// Rel checks the path p (relative to the project, or absolute inside it)
// and returns it project-relative, slash-separated and clean ("." for the
// project itself). It refuses NUL bytes, `..` that leads out, and absolute
// paths elsewhere. It does not look at the disk.
func (o *Overlay) Rel(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", &PathError{Path: fmt.Sprintf("%q", p), Msg: "holds a NUL byte; no file name does", Err: ErrOutside}
	}
	if p == "" {
		return ".", nil
	}
	native := filepath.FromSlash(p)
	if filepath.IsAbs(native) {
		r, ok := o.inProject(native)
		if !ok {
			return "", outside(p, "")
		}
		return filepath.ToSlash(r), nil
	}
	if filepath.VolumeName(native) != "" || strings.HasPrefix(native, string(filepath.Separator)) {
		return "", outside(p, "")
	}
	r := filepath.Clean(native)
	if escapes(r) {
		return "", outside(p, " through '..'")
	}
	return filepath.ToSlash(r), nil
}

// inProject returns the absolute path p, cleaned, relative to the project
// when it lies inside it, as given or with links resolved.
func (o *Overlay) inProject(p string) (string, bool) {
	c := filepath.Clean(p)
	if r, ok := within(o.absBase, c); ok {
		return r, true
	}
	return within(o.realBase, c)
}

// within returns p relative to base when p lies inside base (or is base).
func within(base, p string) (string, bool) {
	r, err := filepath.Rel(base, p)
	if err != nil || escapes(r) {
		return "", false
	}
	return r, true
}

// escapes reports whether the clean relative path r leads out through "..".
func escapes(r string) bool {
	return r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r)
}

// hiddenLocked reports whether rel is hidden from the base: it or a
// folder above it was deleted in the overlay.
func (o *Overlay) hiddenLocked(rel string) bool {
	for p := rel; ; p = path.Dir(p) {
		if o.deleted[p] {
			return true
		}
		if p == "." || p == "/" {
			return false
		}
	}
}

// Layer says where a path of the view lives.
type Layer int

// The layers.
const (
	// Missing: the path is not in the view.
	Missing Layer = iota
	// Base: the path falls through to the project.
	Base
	// Written: the path is in the overlay.
	Written
)

// Lookup says where rel (from Rel) lives, and the file info there: the
// overlay's entry, or the project's (symbolic links in the project
// resolved, and refused when they lead out).
func (o *Overlay) Lookup(rel string) (Layer, fs.FileInfo, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.lookupLocked(rel)
}

func (o *Overlay) lookupLocked(rel string) (Layer, fs.FileInfo, error) {
	_, layer, fi, err := o.lookupPathLocked(rel)
	return layer, fi, err
}

// lookupPathLocked is lookupLocked that also returns the path of the view
// the entry was found at: rel, or where the project's symbolic links on
// the way lead.
func (o *Overlay) lookupPathLocked(rel string) (string, Layer, fs.FileInfo, error) {
	if fi, err := o.upper.Lstat(filepath.FromSlash(rel)); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return rel, Written, fi, &PathError{Path: rel, Msg: "is a symbolic link made in this run; the trial tools do not follow links made by the agent", Err: ErrOutside}
		}
		return rel, Written, fi, nil
	}
	if o.hiddenLocked(rel) {
		return rel, Missing, nil, &PathError{Path: rel, Msg: "does not exist in the project folder (it was deleted in this run)", Err: fs.ErrNotExist}
	}
	real, err := o.resolveBase(rel)
	if err != nil || filepath.ToSlash(real) != rel {
		// A symbolic link of the project on the way: its target as the
		// view has it (written or deleted in this run), not as the disk has
		// it.
		if followed, ferr := o.followLocked(rel); ferr != nil {
			return rel, Missing, nil, ferr
		} else if followed != rel {
			return o.lookupPathLocked(followed)
		}
	}
	if err != nil {
		return rel, Missing, nil, err
	}
	fi, err := o.base.Stat(real)
	if err != nil {
		return rel, Missing, nil, o.baseError(rel, err)
	}
	return rel, Base, fi, nil
}

// resolveBase resolves the symbolic links of rel in the project and
// returns the result relative to the resolved project, refusing a link
// that leads out.
func (o *Overlay) resolveBase(rel string) (string, error) {
	real, err := filepath.EvalSymlinks(filepath.Join(o.realBase, filepath.FromSlash(rel)))
	if err != nil {
		return "", o.baseError(rel, err)
	}
	r, ok := within(o.realBase, real)
	if !ok {
		return "", outside(rel, " through a symbolic link")
	}
	return r, nil
}

// baseError words an error met in the project.
func (o *Overlay) baseError(rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), isNotDir(err):
		return &PathError{Path: rel, Msg: "does not exist in the project folder", Err: fs.ErrNotExist}
	case isLoop(err):
		return &PathError{Path: rel, Msg: "goes round a loop of symbolic links", Err: err}
	case errors.Is(err, fs.ErrPermission):
		return &PathError{Path: rel, Msg: "cannot be read: permission denied", Err: err}
	case strings.Contains(err.Error(), "escapes"):
		return outside(rel, " through a symbolic link")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the bare cause: the full path names the user's folders
	}
	return &PathError{Path: rel, Msg: "cannot be read: " + err.Error(), Err: err}
}

// MaxFileSize caps a file the overlay reads whole or writes.
const MaxFileSize = 64 << 20

// ReadFile returns the content of the file rel in the view.
func (o *Overlay) ReadFile(rel string) ([]byte, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.readLocked(rel)
}

func (o *Overlay) readLocked(rel string) ([]byte, error) {
	f, fi, err := o.openLocked(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !fi.Mode().IsRegular() {
		return nil, &PathError{Path: rel, Msg: "is not a regular file"}
	}
	if fi.Size() > MaxFileSize {
		return nil, &PathError{Path: rel, Msg: fmt.Sprintf("is larger than %d MiB", MaxFileSize>>20)}
	}
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// Open opens the file or folder rel of the view for reading. The caller
// closes it.
func (o *Overlay) Open(rel string) (*os.File, fs.FileInfo, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.openLocked(rel)
}

func (o *Overlay) openLocked(rel string) (*os.File, fs.FileInfo, error) {
	at, layer, fi, err := o.lookupPathLocked(rel)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, nil, &PathError{Path: rel, Msg: "is a special file (" + fi.Mode().Type().String() + "), not a regular file"}
	}
	var f *os.File
	if layer == Written {
		f, err = o.upper.Open(filepath.FromSlash(at))
	} else {
		var real string
		if real, err = o.resolveBase(at); err == nil {
			f, err = o.base.OpenFile(real, os.O_RDONLY|oNonblock, 0)
		}
	}
	if err != nil {
		return nil, nil, o.baseError(rel, err)
	}
	post, err := f.Stat()
	if err != nil || post.Mode().Type() != fi.Mode().Type() {
		f.Close()
		return nil, nil, &PathError{Path: rel, Msg: "changed while it was being opened; try again"}
	}
	return f, post, nil
}

// Entry is one name in a folder of the view.
type Entry struct {
	Name string
	// Mode is the entry's type and permissions, symbolic links not
	// followed.
	Mode fs.FileMode
	// Written is set for an entry in the overlay.
	Written bool
}

// ReadDir lists the folder rel of the view, sorted by name: the project's
// entries that were not deleted, merged with the overlay's.
func (o *Overlay) ReadDir(rel string) ([]Entry, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.readDirLocked(rel)
}

func (o *Overlay) readDirLocked(rel string) ([]Entry, error) {
	layer, fi, err := o.lookupLocked(rel)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &PathError{Path: rel, Msg: "is a file, not a folder"}
	}
	if layer == Base {
		// A folder reached through a symbolic link lists its target.
		if followed, err := o.followLocked(rel); err == nil {
			rel = followed
		}
	}
	byName := map[string]Entry{}
	if err := o.baseEntriesLocked(rel, byName, layer == Base); err != nil {
		return nil, err
	}
	if ents, err := fs.ReadDir(o.upper.FS(), rel); err == nil {
		for _, e := range ents {
			byName[e.Name()] = Entry{Name: e.Name(), Mode: e.Type(), Written: true}
		}
	}
	out := make([]Entry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// baseEntriesLocked adds to byName the entries of the project's folder
// rel that the run did not delete (none when it deleted the folder). A
// folder that cannot be read is an error only when strict (the view's
// folder is the project's, not one the run made).
func (o *Overlay) baseEntriesLocked(rel string, byName map[string]Entry, strict bool) error {
	if o.hiddenLocked(rel) {
		return nil
	}
	real, err := o.resolveBase(rel)
	if err != nil {
		return nil
	}
	ents, err := fs.ReadDir(o.base.FS(), filepath.ToSlash(real))
	if err != nil {
		if strict {
			return o.baseError(rel, err)
		}
		return nil
	}
	for _, e := range ents {
		if o.deleted[path.Join(rel, e.Name())] {
			continue
		}
		byName[e.Name()] = Entry{Name: e.Name(), Mode: e.Type()}
	}
	return nil
}

// WriteFile writes data to the file rel of the view, making the folders
// above it. A symbolic link of the project is written through, as the
// runtime's write follows it: its target changes in the view and the link
// stays (see followLocked). The project does not change.
func (o *Overlay) WriteFile(rel string, data []byte) error {
	if len(data) > MaxFileSize {
		return &PathError{Path: rel, Msg: fmt.Sprintf("would be larger than %d MiB; write less", MaxFileSize>>20)}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	rel, err := o.followLocked(rel)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if _, fi, err := o.lookupLocked(rel); err == nil && fi.Mode().IsRegular() {
		mode = modeOf(fi) // an executable stays executable
	}
	if err := o.writeLocked(rel, data, mode); err != nil {
		return err
	}
	o.gen++
	return nil
}

// maxLinkHops caps the symbolic links followed for one write, as the
// kernel's own limit does.
const maxLinkHops = 40

// followLocked returns the path a write to rel lands on: the project's
// symbolic links on the way (the folders above rel, then rel itself,
// again for each link's target) followed inside the view, a dangling one
// too, as the runtime's write follows them on disk. A link that leads out
// of the project is refused. Links made in this run are not followed
// (see Lookup), nor paths the run deleted or wrote.
func (o *Overlay) followLocked(rel string) (string, error) {
	orig := rel
	for hops := 0; hops < maxLinkHops; hops++ {
		if rel == "." {
			return rel, nil
		}
		if dir := path.Dir(rel); dir != "." && o.fromBaseLocked(dir) {
			// The folders above, resolved in the project (a link there
			// that leads out stays, and the write refuses it).
			if real, err := o.resolveBase(dir); err == nil {
				rel = path.Join(filepath.ToSlash(real), path.Base(rel))
			}
		}
		if !o.baseLinkLocked(rel) {
			return rel, nil
		}
		next, err := o.linkTargetLocked(orig, rel)
		if err != nil {
			return "", err
		}
		rel = next
	}
	return "", &PathError{Path: orig, Msg: "goes round a loop of symbolic links", Err: errors.New("too many links")}
}

// linkTargetLocked is the path in the view the project's symbolic link
// rel points at, met on the way to orig: its text, absolute (inside the
// project, as given or with links resolved) or relative to its folder. A
// target outside the project is refused.
func (o *Overlay) linkTargetLocked(orig, rel string) (string, error) {
	text, err := o.base.Readlink(filepath.FromSlash(rel))
	if err != nil {
		return "", o.baseError(orig, err)
	}
	if filepath.IsAbs(text) {
		r, ok := o.inProject(text)
		if !ok {
			return "", outside(orig, " through the symbolic link "+rel)
		}
		return filepath.ToSlash(r), nil
	}
	j := filepath.Clean(filepath.Join(filepath.Dir(filepath.FromSlash(rel)), text))
	if escapes(j) {
		return "", outside(orig, " through the symbolic link "+rel)
	}
	return filepath.ToSlash(j), nil
}

// fromBaseLocked reports whether rel of the view is the project's: nothing
// written at it in this run, and not deleted.
func (o *Overlay) fromBaseLocked(rel string) bool {
	if _, err := o.upper.Lstat(filepath.FromSlash(rel)); err == nil {
		return false
	}
	return !o.hiddenLocked(rel)
}

// baseLinkLocked reports whether rel of the view is a symbolic link of the
// project: nothing written there in this run, not deleted, and a link on
// disk.
func (o *Overlay) baseLinkLocked(rel string) bool {
	if !o.fromBaseLocked(rel) {
		return false
	}
	fi, err := o.base.Lstat(filepath.FromSlash(rel))
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

func (o *Overlay) writeLocked(rel string, data []byte, mode fs.FileMode) error {
	if rel == "." {
		return &PathError{Path: rel, Msg: "is the project folder, not a file"}
	}
	if err := o.writableLocked(rel); err != nil {
		return err
	}
	native := filepath.FromSlash(rel)
	if dir := filepath.Dir(native); dir != "." {
		if err := o.upper.MkdirAll(dir, 0o755); err != nil {
			return o.upperError(rel, err)
		}
	}
	tmp := native + ".agentdesk-tmp"
	f, err := o.upper.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return o.upperError(rel, err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = o.upper.Rename(tmp, native)
	}
	if werr != nil {
		o.upper.Remove(tmp)
		return o.upperError(rel, werr)
	}
	if o.work != nil {
		o.work.put(rel, data, mode)
	}
	return nil
}

// writableLocked refuses a write to rel (not the project folder) that
// the runtime's disk would refuse or that would land outside the project.
func (o *Overlay) writableLocked(rel string) error {
	// A path that reaches out of the project through one of its symbolic
	// links is refused, as a read is: at the runtime the write would land
	// outside the project, and `git apply` refuses a patch that writes
	// beyond a symbolic link.
	for p := rel; p != "."; p = path.Dir(p) {
		if layer, _, err := o.lookupLocked(p); layer != Written && errors.Is(err, ErrOutside) {
			return outside(rel, " through the symbolic link "+p)
		}
	}
	// A folder of the view where a file should go, or a file where a
	// folder should go, is refused as the disk would refuse it.
	if _, fi, err := o.lookupLocked(rel); err == nil && fi.IsDir() {
		return &PathError{Path: rel, Msg: "is a folder; give a file's path"}
	}
	for p := path.Dir(rel); p != "."; p = path.Dir(p) {
		if _, fi, err := o.lookupLocked(p); err == nil && !fi.IsDir() {
			return &PathError{Path: rel, Msg: p + " is a file, not a folder"}
		}
	}
	return nil
}

// upperError words an error met in the overlay folder.
func (o *Overlay) upperError(rel string, err error) error {
	if strings.Contains(err.Error(), "escapes") {
		return outside(rel, " through a symbolic link")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &PathError{Path: rel, Msg: "cannot be written in the overlay: " + err.Error(), Err: err}
}

// Remove deletes the file or folder rel (and all below it) from the view.
func (o *Overlay) Remove(rel string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.removeLocked(rel); err != nil {
		return err
	}
	o.gen++
	return nil
}

func (o *Overlay) removeLocked(rel string) error {
	if rel == "." {
		return &PathError{Path: rel, Msg: "is the project folder; it cannot be deleted"}
	}
	if _, _, err := o.lookupLocked(rel); err != nil && !errors.Is(err, ErrOutside) && !o.isLinkLocked(rel) {
		return err
	}
	if err := o.upper.RemoveAll(filepath.FromSlash(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return o.upperError(rel, err)
	}
	o.deleted[rel] = true
	if o.work != nil {
		o.work.drop(rel)
	}
	return nil
}

// Rename moves the file or folder from to the path to, inside the view:
// the new path is written in the overlay and the old one deleted. An
// existing file at to is replaced; a folder there is refused.
func (o *Overlay) Rename(from, to string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if from == "." || to == "." {
		return &PathError{Path: from, Msg: "the project folder itself cannot be renamed"}
	}
	if to == from {
		return nil
	}
	if strings.HasPrefix(to+"/", from+"/") {
		return &PathError{Path: to, Msg: "lies inside " + from + "; a folder cannot be moved into itself"}
	}
	_, fi, err := o.lookupLocked(from)
	if err != nil {
		return err
	}
	files := []string{from}
	if fi.IsDir() {
		if files, err = o.filesUnderLocked(from); err != nil {
			return err
		}
	}
	if fi.IsDir() {
		if err := o.upper.MkdirAll(filepath.FromSlash(to), 0o755); err != nil {
			return o.upperError(to, err)
		}
		delete(o.deleted, to)
	}
	if err := o.copyFilesLocked(files, from, to); err != nil {
		return err
	}
	if err := o.removeLocked(from); err != nil {
		return err
	}
	o.gen++
	return nil
}

// copyFilesLocked writes each of files (from, or below it) at the same
// place below to, with mode 0644.
func (o *Overlay) copyFilesLocked(files []string, from, to string) error {
	for _, f := range files {
		data, err := o.readLocked(f)
		if err != nil {
			return err
		}
		dst := to + strings.TrimPrefix(f, from)
		if err := o.writeLocked(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// filesUnderLocked lists the regular files below the folder dir of the
// view, in lexical order.
func (o *Overlay) filesUnderLocked(dir string) ([]string, error) {
	var files []string
	err := o.walkLocked(dir, func(rel string, e Entry) error {
		if e.Mode.IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

// Walk calls fn for every entry below the folder rel of the view, in
// lexical order, a folder before what it holds. It follows no symbolic
// link.
func (o *Overlay) Walk(rel string, fn func(rel string, e Entry) error) error {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.walkLocked(rel, fn)
}

// ErrSkipDir, returned by a Walk function for a folder, skips what the
// folder holds.
var ErrSkipDir = fs.SkipDir

func (o *Overlay) walkLocked(rel string, fn func(rel string, e Entry) error) error {
	ents, err := o.readDirLocked(rel)
	if err != nil {
		return err
	}
	for _, e := range ents {
		child := path.Join(rel, e.Name)
		err := fn(child, e)
		if err == ErrSkipDir {
			continue
		}
		if err != nil {
			return err
		}
		if e.Mode.IsDir() {
			if err := o.walkLocked(child, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// Generation counts the changes made to the view; it grows with every
// write, deletion and rename.
func (o *Overlay) Generation() uint64 {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.gen
}

// readlinkLocked returns the text of the symbolic link rel: the
// overlay's (written) or the project's.
func (o *Overlay) readlinkLocked(rel string, written bool) (string, error) {
	if written {
		return o.upper.Readlink(filepath.FromSlash(rel))
	}
	return o.base.Readlink(filepath.FromSlash(rel))
}

// isLinkLocked reports whether rel is a symbolic link in the view (a
// dangling one too, which Lookup reports missing).
func (o *Overlay) isLinkLocked(rel string) bool {
	native := filepath.FromSlash(rel)
	if fi, err := o.upper.Lstat(native); err == nil {
		return fi.Mode()&fs.ModeSymlink != 0
	}
	if o.hiddenLocked(rel) {
		return false
	}
	fi, err := o.base.Lstat(native)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// symlinkLocked makes rel in the view a symbolic link to target (never
// followed by the view; see Lookup), replacing what the overlay held
// there. The project does not change.
func (o *Overlay) symlinkLocked(rel, target string) error {
	if rel == "." {
		return &PathError{Path: rel, Msg: "is the project folder, not a link"}
	}
	for p := path.Dir(rel); p != "."; p = path.Dir(p) {
		if layer, _, err := o.lookupLocked(p); layer != Written && errors.Is(err, ErrOutside) {
			return outside(rel, " through the symbolic link "+p)
		}
	}
	native := filepath.FromSlash(rel)
	if dir := filepath.Dir(native); dir != "." {
		if err := o.upper.MkdirAll(dir, 0o755); err != nil {
			return o.upperError(rel, err)
		}
	}
	if err := o.upper.RemoveAll(native); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return o.upperError(rel, err)
	}
	if err := o.upper.Symlink(target, native); err != nil {
		return o.upperError(rel, err)
	}
	return nil
}

// baseContent returns the project's own file rel (no link followed, no
// overlay): its bytes and mode, or false when it is no regular file there.
func (o *Overlay) baseContent(rel string) ([]byte, fs.FileMode, bool) {
	fi, err := o.base.Lstat(filepath.FromSlash(rel))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileSize {
		return nil, 0, false
	}
	data, err := o.base.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		return nil, 0, false
	}
	return data, fi.Mode(), true
}
