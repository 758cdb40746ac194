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
// before; a run that never runs a command never copies. Symbolic links
// and special files are not copied (a link could lead a command's writes
// into the project).
type WorkTree struct {
	o    *Overlay
	dir  string
	snap map[string]stamp
	// Skipped lists what the copy left out (links, special files).
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
	w := &WorkTree{o: o, dir: filepath.Join(o.dir, WorkDir), snap: map[string]stamp{}}
	if err := os.RemoveAll(w.dir); err != nil {
		return nil, fmt.Errorf("clearing the work tree %s: %w", w.dir, err)
	}
	if err := os.MkdirAll(w.dir, 0o700); err != nil {
		return nil, fmt.Errorf("making the work tree %s: %w (check free space)", w.dir, err)
	}
	var files int
	var bytesCopied int64
	err := o.walkLocked(".", func(rel string, e Entry) error {
		dst := filepath.Join(w.dir, filepath.FromSlash(rel))
		switch {
		case e.Mode.IsDir():
			return os.MkdirAll(dst, 0o755)
		case !e.Mode.IsRegular():
			w.Skipped = append(w.Skipped, rel)
			return nil
		}
		files++
		if files > MaxWorkFiles {
			return fmt.Errorf("the project holds more than %d files: too many to copy for a shell command; run the agent on a smaller --project", MaxWorkFiles)
		}
		f, fi, err := o.openLocked(rel)
		if err != nil {
			w.Skipped = append(w.Skipped, rel)
			return nil
		}
		defer f.Close()
		bytesCopied += fi.Size()
		if bytesCopied > MaxWorkBytes {
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
	})
	if err != nil {
		os.RemoveAll(w.dir)
		return nil, fmt.Errorf("copying the project for a shell command into %s: %w", w.dir, err)
	}
	o.work = w
	return w, nil
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
}

// Collected says what Collect brought back.
type Collected struct {
	// Written and Deleted are project-relative paths, sorted.
	Written, Deleted []string
	// Skipped lists what was not brought back, with why.
	Skipped []string
}

// Collect reads the work tree back after a command: every file it
// changed or made is written to the overlay, every file it deleted is
// deleted there. Links and special files it made are not brought back
// (they are listed in Skipped), nor files over MaxFileSize.
func (w *WorkTree) Collect() (Collected, error) {
	o := w.o
	o.mu.Lock()
	defer o.mu.Unlock()
	w.quiet = true
	defer func() { w.quiet = false }()
	var c Collected
	seen := map[string]bool{}
	err := filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a folder the command made unreadable: skip it
		}
		rel, rerr := filepath.Rel(w.dir, p)
		if rerr != nil || rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			c.Skipped = append(c.Skipped, rel+" (a link or special file)")
			return nil
		}
		seen[rel] = true
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		st := stampOf(fi)
		if old, ok := w.snap[rel]; ok && old == st {
			return nil
		}
		if fi.Size() > MaxFileSize {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s (larger than %d MiB)", rel, MaxFileSize>>20))
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			c.Skipped = append(c.Skipped, rel+" ("+err.Error()+")")
			return nil
		}
		if err := o.writeLocked(rel, data, modeOf(fi)); err != nil {
			c.Skipped = append(c.Skipped, rel+" ("+err.Error()+")")
			return nil
		}
		w.snap[rel] = st
		c.Written = append(c.Written, rel)
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("reading the work tree %s back: %w", w.dir, err)
	}
	for rel := range w.snap {
		if !seen[rel] {
			delete(w.snap, rel)
			if err := o.removeLocked(rel); err == nil {
				c.Deleted = append(c.Deleted, rel)
			}
		}
	}
	sort.Strings(c.Deleted)
	if len(c.Written)+len(c.Deleted) > 0 {
		o.gen++
	}
	return c, nil
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
