package overlay

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Caps on the work tree a shell command runs in.
const (
	// MaxWorkFiles caps the files copied into a work tree.
	MaxWorkFiles = 200_000
	// MaxWorkBytes caps the bytes copied into a work tree.
	MaxWorkBytes = 2 << 30
)

// WorkDir is the name of the work tree's folder inside the overlay folder.
const WorkDir = "work"

// WorkTree is a full copy of the view, for shell commands: they run in
// it, and what they change there is read back into the overlay by
// Collect. The project itself is never a command's working folder.
//
// The trade-off: the copy costs one read of the project (capped by
// MaxWorkFiles and MaxWorkBytes) on the first command of a run, and none
// before; a run that never runs a command never copies.
//
// Symbolic links are copied as links, never followed: a relative link
// that stays inside the project keeps its text (it resolves in the copy
// as in the project); an absolute link into the project is pointed at the
// same place in the copy, so nothing written through it reaches the
// project; a link that leads out of the project points at the same place
// outside (a relative one made absolute, since the copy lies elsewhere).
// Special files are not copied.
type WorkTree struct {
	o    *Overlay
	dir  string
	snap map[string]stamp
	// links holds, per link in the work tree, the text it was given, to
	// tell the links a command changed.
	links map[string]string
	// Skipped lists what the copy left out (special files).
	Skipped []string
	quiet   bool // Collect is writing: do not mirror back
}

type stamp struct {
	size int64
	mod  time.Time
	mode fs.FileMode
}

func stampOf(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mod: fi.ModTime(), mode: fi.Mode()}
}

// WorkTree returns the overlay's work tree, making it (a copy of the view
// at this moment) on the first call.
func (o *Overlay) WorkTree() (*WorkTree, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.work != nil {
		return o.work, nil
	}
	w := &WorkTree{o: o, dir: filepath.Join(o.dir, WorkDir), snap: map[string]stamp{}, links: map[string]string{}}
	if err := os.RemoveAll(w.dir); err != nil {
		return nil, fmt.Errorf("clearing the work tree %s: %w", w.dir, err)
	}
	if err := os.MkdirAll(w.dir, 0o700); err != nil {
		return nil, fmt.Errorf("making the work tree %s: %w (check free space)", w.dir, err)
	}
	cp := workCopy{w: w}
	err := o.walkLocked(".", cp.visit)
	if err != nil {
		os.RemoveAll(w.dir)
		return nil, fmt.Errorf("copying the project for a shell command into %s: %w", w.dir, err)
	}
	o.work = w
	return w, nil
}

// workCopy copies the view into a new work tree (WorkTree, the
// overlay's lock held), counting the files and bytes copied against
// MaxWorkFiles and MaxWorkBytes.
type workCopy struct {
	w     *WorkTree
	files int
	bytes int64
}

// visit copies one entry of the view, at rel: a folder is made, a link
// made with its text pointing into the work tree, a regular file copied;
// a special file, or a link or file that cannot be read, is skipped.
func (cp *workCopy) visit(rel string, e Entry) error {
	w := cp.w
	dst := filepath.Join(w.dir, filepath.FromSlash(rel))
	switch {
	case e.Mode.IsDir():
		return os.MkdirAll(dst, 0o755)
	case e.Mode&fs.ModeSymlink != 0:
		target, err := w.o.readlinkLocked(rel, e.Written)
		if err != nil {
			w.Skipped = append(w.Skipped, rel)
			return nil
		}
		text := w.workText(rel, target)
		if err := os.Symlink(text, dst); err != nil {
			return err
		}
		w.links[rel] = text
		return nil
	case !e.Mode.IsRegular():
		w.Skipped = append(w.Skipped, rel)
		return nil
	}
	return cp.copyFile(rel, dst)
}

// copyFile copies the view's file rel to dst, with git's mode, and keeps
// its stamp for Collect; past the bounds on files or bytes it fails.
func (cp *workCopy) copyFile(rel, dst string) error {
	w := cp.w
	cp.files++
	if cp.files > MaxWorkFiles {
		return fmt.Errorf("the project holds more than %d files: too many to copy for a shell command; run the agent on a smaller --project", MaxWorkFiles)
	}
	f, fi, err := w.o.openLocked(rel)
	if err != nil {
		w.Skipped = append(w.Skipped, rel)
		return nil
	}
	defer f.Close()
	cp.bytes += fi.Size()
	if cp.bytes > MaxWorkBytes {
		return fmt.Errorf("the project holds more than %d MiB: too much to copy for a shell command; run the agent on a smaller --project", MaxWorkBytes>>20)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, modeOf(fi))
	if err != nil {
		return err
	}
	_, err = io.Copy(out, f)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if st, err := os.Lstat(dst); err == nil {
		w.snap[rel] = stampOf(st)
	}
	return nil
}

// WorkTreeIfMade returns the overlay's work tree, nil when no command has
// made it yet.
func (o *Overlay) WorkTreeIfMade() *WorkTree {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.work
}

// workText is the text the link rel of the view, with target, gets in
// the work tree (see WorkTree).
func (w *WorkTree) workText(rel, target string) string {
	o := w.o
	if filepath.IsAbs(target) {
		r, ok := o.inProject(target)
		if ok {
			return filepath.Join(w.dir, r)
		}
		return target
	}
	lexical := filepath.Join(filepath.Dir(filepath.FromSlash(rel)), target)
	if !escapes(filepath.Clean(lexical)) {
		return target
	}
	return filepath.Join(o.realBase, lexical)
}

// projectText is the text a link a command made in the work tree gets in
// the view: a path into the work tree becomes the same path in the
// project; anything else stays as it is.
func (w *WorkTree) projectText(text string) string {
	if filepath.IsAbs(text) {
		if r, ok := within(w.dir, filepath.Clean(text)); ok {
			return filepath.Join(w.o.absBase, r)
		}
	}
	return text
}

// Dir returns the work tree's folder: a shell command's working folder.
func (w *WorkTree) Dir() string { return w.dir }

// put mirrors an overlay write into the work tree. The overlay's lock is
// held.
func (w *WorkTree) put(rel string, data []byte, mode fs.FileMode) {
	if w.quiet {
		return
	}
	dst := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return
	}
	os.Remove(dst) // a link planted there is replaced, not followed
	if err := os.WriteFile(dst, data, mode); err != nil {
		return
	}
	if st, err := os.Lstat(dst); err == nil {
		w.snap[rel] = stampOf(st)
	}
}

// drop mirrors an overlay deletion. The overlay's lock is held.
func (w *WorkTree) drop(rel string) {
	if w.quiet {
		return
	}
	os.RemoveAll(filepath.Join(w.dir, filepath.FromSlash(rel)))
	for p := range w.snap {
		if p == rel || len(p) > len(rel) && p[:len(rel)+1] == rel+"/" {
			delete(w.snap, p)
		}
	}
	for p := range w.links {
		if p == rel || len(p) > len(rel) && p[:len(rel)+1] == rel+"/" {
			delete(w.links, p)
		}
	}
}

// Collected says what Collect brought back.
type Collected struct {
	// Written and Deleted are project-relative paths, sorted.
	Written, Deleted []string
	// Skipped lists what was not brought back, with why.
	Skipped []string
}

// Collect reads the work tree back after a command: every file and
// symbolic link it changed or made is written to the overlay (a link's
// text pointing into the work tree is made to point into the project, as
// the view sees it), every one it deleted is deleted there. Special files
// it made are not brought back (they are listed in Skipped), nor files
// over MaxFileSize.
func (w *WorkTree) Collect() (Collected, error) {
	o := w.o
	o.mu.Lock()
	defer o.mu.Unlock()
	w.quiet = true
	defer func() { w.quiet = false }()
	cl := collector{w: w, seen: map[string]bool{}}
	if err := filepath.WalkDir(w.dir, cl.visit); err != nil {
		return cl.c, fmt.Errorf("reading the work tree %s back: %w", w.dir, err)
	}
	c := cl.c
	for rel := range w.snap {
		if !cl.seen[rel] {
			delete(w.snap, rel)
			if err := o.removeLocked(rel); err == nil {
				c.Deleted = append(c.Deleted, rel)
			}
		}
	}
	for rel := range w.links {
		if !cl.seen[rel] {
			delete(w.links, rel)
			if err := o.removeLocked(rel); err == nil {
				c.Deleted = append(c.Deleted, rel)
			}
		}
	}
	sort.Strings(c.Written)
	sort.Strings(c.Deleted)
	if len(c.Written)+len(c.Deleted) > 0 {
		o.gen++
	}
	return c, nil
}

// collector reads a work tree back (Collect, the overlay's lock held):
// what it brought back or skipped, and the paths it met.
type collector struct {
	w    *WorkTree
	c    Collected
	seen map[string]bool
}

// visit is the fs.WalkDirFunc over the work tree: a link or a regular
// file is brought back, a special file skipped; what cannot be read is
// passed over.
func (cl *collector) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		return nil // a folder the command made unreadable: skip it
	}
	rel, rerr := filepath.Rel(cl.w.dir, p)
	if rerr != nil || rel == "." {
		return nil
	}
	rel = filepath.ToSlash(rel)
	switch {
	case d.IsDir():
	case d.Type()&fs.ModeSymlink != 0:
		cl.link(p, rel)
	case !d.Type().IsRegular():
		cl.c.Skipped = append(cl.c.Skipped, rel+" (a special file)")
	default:
		cl.file(p, rel, d)
	}
	return nil
}

// link brings back the link p (rel in the work tree) when the command
// made or changed it, its text pointing into the project.
func (cl *collector) link(p, rel string) {
	w, o := cl.w, cl.w.o
	text, err := os.Readlink(p)
	if err != nil {
		return
	}
	cl.seen[rel] = true
	delete(w.snap, rel)
	if old, ok := w.links[rel]; ok && old == text {
		return
	}
	if err := o.symlinkLocked(rel, w.projectText(text)); err != nil {
		cl.c.Skipped = append(cl.c.Skipped, rel+" ("+err.Error()+")")
		return
	}
	w.links[rel] = text
	cl.c.Written = append(cl.c.Written, rel)
}

// file brings back the regular file p (rel in the work tree, d) when the
// command made or changed it (its size, time or mode differ from the
// snapshot's), unless it is larger than MaxFileSize.
func (cl *collector) file(p, rel string, d fs.DirEntry) {
	w, o := cl.w, cl.w.o
	cl.seen[rel] = true
	if _, was := w.links[rel]; was {
		// A link the command replaced with a file: the link goes first
		// (a write to the link's path would follow it).
		delete(w.links, rel)
		_ = o.removeLocked(rel)
	}
	fi, err := d.Info()
	if err != nil {
		return
	}
	st := stampOf(fi)
	if old, ok := w.snap[rel]; ok && old == st {
		return
	}
	if fi.Size() > MaxFileSize {
		cl.c.Skipped = append(cl.c.Skipped, fmt.Sprintf("%s (larger than %d MiB)", rel, MaxFileSize>>20))
		return
	}
	data, err := os.ReadFile(p)
	if err != nil {
		cl.c.Skipped = append(cl.c.Skipped, rel+" ("+err.Error()+")")
		return
	}
	if err := o.writeLocked(rel, data, modeOf(fi)); err != nil {
		cl.c.Skipped = append(cl.c.Skipped, rel+" ("+err.Error()+")")
		return
	}
	w.snap[rel] = st
	cl.c.Written = append(cl.c.Written, rel)
}

// remove deletes the work tree's folder.
func (w *WorkTree) remove() error {
	// A command may have left folders without write permission.
	filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(w.dir)
}
