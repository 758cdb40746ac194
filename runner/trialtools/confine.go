package trialtools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// target is a path the model named, checked to lie inside the project
// folder.
type target struct {
	show string // project-relative, slash-separated, as the model should see it; "." for the folder itself
	rel  string // the resolved path (no symlinks at check time), relative to the resolved root, OS separators
}

// refusal is a path the tools will not touch; its message is worded for the
// model.
type refusal struct {
	msg  string
	loop bool // the path goes round a loop of symbolic links
}

func (e *refusal) Error() string { return e.msg }

func refusef(format string, a ...any) error { return &refusal{msg: fmt.Sprintf(format, a...)} }

// notFound is a path that does not exist inside the project folder.
type notFound struct{ show string }

func (e *notFound) Error() string { return showPath(e.show) + " does not exist in the project folder" }

// testHookChecked, when set (by tests only), runs between the check of a
// path and its opening, to swap the file under the check.
var testHookChecked func(rel string)

// resolve checks the path p the model named and returns where it leads. An
// empty p is the project folder.
func (tb *Toolbox) resolve(p string) (target, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return target{}, refusef("%s holds a NUL byte; no file name does", show(p))
	}
	if p == "" {
		p = "."
	}
	native := filepath.FromSlash(p)
	var rel string
	switch {
	case filepath.IsAbs(native):
		c := filepath.Clean(native)
		r, ok := within(tb.absRoot, c)
		if !ok {
			r, ok = within(tb.realRoot, c)
		}
		if !ok {
			return target{}, refusef("%s is outside the project folder; the tools only reach files inside it (give paths relative to it)", show(p))
		}
		rel = r
	case filepath.VolumeName(native) != "" || strings.HasPrefix(native, string(filepath.Separator)):
		// Windows: "C:x" and "\x" are neither relative nor absolute.
		return target{}, refusef("%s is not a path inside the project folder; give a path relative to it", show(p))
	default:
		rel = filepath.Clean(native)
		if escapes(rel) {
			return target{}, refusef("%s leads out of the project folder through '..'; the tools only reach files inside it", show(p))
		}
	}
	t := target{show: filepath.ToSlash(rel)}
	real, err := filepath.EvalSymlinks(filepath.Join(tb.realRoot, rel))
	if err != nil {
		return target{}, tb.pathError(t.show, err)
	}
	r, ok := within(tb.realRoot, real)
	if !ok {
		return target{}, refusef("%s leads outside the project folder through a symbolic link; the tools only reach files inside it", showPath(t.show))
	}
	t.rel = r
	return t, nil
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

// pathError words an error met while resolving or opening show.
func (tb *Toolbox) pathError(show string, err error) error {
	var pe *fs.PathError
	errors.As(err, &pe)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return &notFound{show}
	case errors.Is(err, syscall.ELOOP), strings.Contains(err.Error(), "too many links"): // EvalSymlinks' own loop error
		return &refusal{msg: showPath(show) + " goes round a loop of symbolic links", loop: true}
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s cannot be read: permission denied", showPath(show))
	case pe != nil && strings.Contains(pe.Err.Error(), "escapes"):
		// os.Root's "path escapes from parent": a component was swapped for
		// a symlink leading out after the check.
		return refusef("%s leads outside the project folder through a symbolic link; the tools only reach files inside it", showPath(show))
	}
	if pe != nil {
		err = pe.Err // the bare cause: the full path names the user's folders
	}
	return fmt.Errorf("%s cannot be read: %v", showPath(show), err)
}

// wantKind is what a tool may open.
type wantKind int

const (
	wantFile wantKind = iota
	wantDir
)

// open opens t, which must be a regular file (wantFile) or a folder
// (wantDir). It checks the kind before opening, opens through the os.Root
// (which refuses any escape, even one swapped in after resolve), without
// blocking, and compares the opened file with the one it checked.
func (tb *Toolbox) open(t target, want wantKind) (*os.File, fs.FileInfo, error) {
	pre, err := tb.root.Lstat(t.rel)
	if err != nil {
		return nil, nil, tb.pathError(t.show, err)
	}
	if err := checkKind(t.show, pre, want); err != nil {
		return nil, nil, err
	}
	if testHookChecked != nil {
		testHookChecked(t.rel)
	}
	f, err := tb.root.OpenFile(t.rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, tb.pathError(t.show, err)
	}
	post, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, tb.pathError(t.show, err)
	}
	if !os.SameFile(pre, post) || pre.Mode().Type() != post.Mode().Type() {
		f.Close()
		return nil, nil, refusef("%s changed while it was being opened; it was not read. Try again if it should be readable", showPath(t.show))
	}
	return f, post, nil
}

// checkKind refuses anything but a regular file (wantFile) or a folder
// (wantDir), naming what it found.
func checkKind(show string, info fs.FileInfo, want wantKind) error {
	m := info.Mode()
	switch {
	case m.IsRegular():
		if want == wantDir {
			return fmt.Errorf("%s is a file, not a folder; read it with file_read", showPath(show))
		}
		return nil
	case m.IsDir():
		if want == wantFile {
			return fmt.Errorf("%s is a folder, not a file; list it with file_list", showPath(show))
		}
		return nil
	case m&fs.ModeSymlink != 0:
		return refusef("%s changed while it was being opened; it was not read. Try again if it should be readable", showPath(show))
	}
	return refusef("%s is %s, not a regular file; the tools only read regular files", showPath(show), kindName(m))
}

// kindName names a file mode's type for messages.
func kindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m.IsRegular():
		return "a file"
	}
	return "a special file"
}
