package overlay

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// PatchFile is the name of the patch in the run folder.
const PatchFile = "changes.patch"

// ChangeKind says how a file changed.
type ChangeKind string

// The kinds of change.
const (
	Added    ChangeKind = "added"
	Modified ChangeKind = "modified"
	Deleted  ChangeKind = "deleted"
)

// Change is one file the run changed, compared with the project.
type Change struct {
	// Path is project-relative, slash-separated.
	Path string
	Kind ChangeKind
	// Old is the project's content (nil when added); New the view's (nil
	// when deleted).
	Old, New []byte
	// OldMode and NewMode are the permission bits.
	OldMode, NewMode fs.FileMode
	// Binary is set when either side is not text: the patch carries it
	// in git's binary patch form.
	Binary bool
	// OldLink and NewLink are set when that side is a symbolic link: Old
	// or New then holds its target, and the patch shows it as git does
	// (mode 120000, the target as the content, no newline at its end); a
	// link that became a file, or a file that became a link, is a
	// deletion and an addition of the path.
	OldLink, NewLink bool
	// Special is set when the project's path is a special file (a pipe, a
	// device, a folder where the view has a file): listed, not diffed.
	Special bool
	// Unrecorded is set when the content before the run is not at hand
	// (a replay of a cassette that kept only the new content): listed,
	// not diffed.
	Unrecorded bool
}

// Changes compares the view with the project and returns every file that
// differs, sorted by path. A file written back with its old content is no
// change.
func (o *Overlay) Changes() ([]Change, error) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	sc := changeScan{o: o, seen: map[string]bool{}}
	if err := fs.WalkDir(o.upper.FS(), ".", sc.written); err != nil {
		return nil, fmt.Errorf("reading the overlay %s: %w", o.upperDir, err)
	}
	dels := make([]string, 0, len(o.deleted))
	for d := range o.deleted {
		dels = append(dels, d)
	}
	sort.Strings(dels)
	for _, d := range dels {
		sc.deletedPath(d)
	}
	sort.Slice(sc.out, func(i, j int) bool { return sc.out[i].Path < sc.out[j].Path })
	return sc.out, nil
}

// changeScan gathers an overlay's changes (its lock held): out, and the
// paths seen so far, each listed once.
type changeScan struct {
	o    *Overlay
	seen map[string]bool
	out  []Change
}

// written is the fs.WalkDirFunc over the upper layer: each file or link
// the run wrote is a change, added or modified, unless it is the same as
// the project's.
func (sc *changeScan) written(p string, d fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	link := d.Type()&fs.ModeSymlink != 0
	if d.IsDir() || strings.HasSuffix(p, ".agentdesk-tmp") || !d.Type().IsRegular() && !link {
		return nil
	}
	sc.seen[p] = true
	c, err := sc.o.upperChange(p, d, link)
	if err != nil {
		return err
	}
	if fi, err := sc.o.base.Lstat(filepath.FromSlash(p)); err == nil && sc.o.compareBase(&c, p, fi) {
		return nil
	}
	c.Binary = isBinary(c.Old) || isBinary(c.New)
	sc.out = append(sc.out, c)
	return nil
}

// upperChange is the change of the path p the run wrote (d in the upper
// layer), as an addition: the link's target, or the file's content and
// mode.
func (o *Overlay) upperChange(p string, d fs.DirEntry, link bool) (Change, error) {
	if link {
		target, err := o.upper.Readlink(filepath.FromSlash(p))
		if err != nil {
			return Change{}, err
		}
		return Change{Path: p, Kind: Added, New: []byte(target), NewLink: true}, nil
	}
	data, err := o.upper.ReadFile(filepath.FromSlash(p))
	if err != nil {
		return Change{}, err
	}
	info, _ := d.Info()
	return Change{Path: p, Kind: Added, New: data, NewMode: modeOf(info)}, nil
}

// compareBase makes c, a change of the path p that the project holds
// too (fi), a modification of the project's link, special file or file,
// and reports whether c is no change at all: the same link target, or
// the same content and executable bit.
func (o *Overlay) compareBase(c *Change, p string, fi fs.FileInfo) (unchanged bool) {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		old, err := o.base.Readlink(filepath.FromSlash(p))
		if err != nil {
			c.Kind, c.Special = Modified, true
			return false
		}
		if c.NewLink && old == string(c.New) {
			return true
		}
		c.Kind, c.Old, c.OldLink = Modified, []byte(old), true
	case !fi.Mode().IsRegular():
		c.Kind, c.Special = Modified, true
	default:
		old, mode, ok := o.baseContent(p)
		if !ok {
			c.Kind, c.Special = Modified, true
			return false
		}
		if !c.NewLink && bytes.Equal(old, c.New) && mode.Perm()&0o111 == c.NewMode.Perm()&0o111 {
			return true
		}
		c.Kind, c.Old, c.OldMode = Modified, old, mode.Perm()
	}
	return false
}

// deletedPath lists what the run deleted at the project's path d: the
// link itself (a link, dangling or not, is not walked into), or every
// file under d not listed yet.
func (sc *changeScan) deletedPath(d string) {
	if fi, err := sc.o.base.Lstat(filepath.FromSlash(d)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if !sc.seen[d] {
			sc.seen[d] = true
			sc.out = append(sc.out, sc.o.deletedLink(d))
		}
		return
	}
	_ = fs.WalkDir(sc.o.base.FS(), d, sc.removed)
}

// deletedLink is the deletion of the project's link d: its target, or,
// when it cannot be read, a special file.
func (o *Overlay) deletedLink(d string) Change {
	c := Change{Path: d, Kind: Deleted, Special: true}
	if old, err := o.base.Readlink(filepath.FromSlash(d)); err == nil {
		c.Old, c.OldLink, c.Special = []byte(old), true, false
	}
	return c
}

// removed is the fs.WalkDirFunc over a deleted folder of the project:
// each file, link or special file in it not listed yet is a deletion.
func (sc *changeScan) removed(p string, e fs.DirEntry, err error) error {
	if err != nil || e.IsDir() || sc.seen[p] {
		return nil
	}
	sc.seen[p] = true
	c := Change{Path: p, Kind: Deleted}
	switch {
	case e.Type()&fs.ModeSymlink != 0:
		if old, err := sc.o.base.Readlink(filepath.FromSlash(p)); err == nil {
			c.Old, c.OldLink = []byte(old), true
		} else {
			c.Special = true
		}
	case !e.Type().IsRegular():
		c.Special = true
	default:
		if old, mode, ok := sc.o.baseContent(p); ok {
			c.Old, c.OldMode, c.Binary = old, mode.Perm(), isBinary(old)
		}
	}
	sc.out = append(sc.out, c)
	return nil
}

// modeOf returns the permission bits git records: 0755 for an executable,
// else 0644.
func modeOf(fi fs.FileInfo) fs.FileMode {
	if fi != nil && fi.Mode().Perm()&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

// isBinary reports whether data is not text as git sees it: a NUL byte in
// its first 8000 bytes, or not UTF-8.
func isBinary(data []byte) bool {
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(data)
}

// Patch renders the view's changes as a unified diff in git's format.
func (o *Overlay) Patch() ([]byte, error) {
	cs, err := o.Changes()
	if err != nil {
		return nil, err
	}
	return RenderPatch(cs), nil
}

// RenderPatch renders changes as a unified diff in git's format, which
// `git apply` accepts from the project root. Symbolic links are shown as
// git shows them (mode 120000, the target as the content); binary files
// in git's binary patch form (see writeBinaryDiff). Changes it cannot
// express (special files, and binary files whose content is not at hand)
// are listed in a header before the first diff, which git apply ignores.
// No changes render as an empty patch.
func RenderPatch(changes []Change) []byte {
	var b bytes.Buffer
	var skipped []string
	for _, c := range changes {
		if what := uncarried(c); what != "" {
			skipped = append(skipped, fmt.Sprintf("#   %s (%s, %s)", quotePath(c.Path), c.Kind, what))
		}
	}
	if len(skipped) > 0 {
		b.WriteString("# agentdesk: changes this patch does not carry (see the overlay's files/ folder):\n")
		b.WriteString(strings.Join(skipped, "\n"))
		b.WriteString("\n")
	}
	for _, c := range changes {
		switch {
		case uncarried(c) != "":
		case c.Kind == Modified && c.OldLink != c.NewLink:
			// A type change: git shows the old path deleted and the new added.
			writeChange(&b, Change{Path: c.Path, Kind: Deleted, Old: c.Old, OldMode: c.OldMode, OldLink: c.OldLink, Binary: !c.OldLink && isBinary(c.Old)})
			writeChange(&b, Change{Path: c.Path, Kind: Added, New: c.New, NewMode: c.NewMode, NewLink: c.NewLink, Binary: !c.NewLink && isBinary(c.New)})
		default:
			writeChange(&b, c)
		}
	}
	return b.Bytes()
}

// uncarried says why the patch cannot carry c ("" when it can).
func uncarried(c Change) string {
	switch {
	case c.Special:
		return "a special file"
	case c.Unrecorded:
		return "its content before the run was not recorded"
	case c.Binary && c.Kind != Deleted && c.New == nil:
		return "a binary file whose content was not recorded"
	}
	return ""
}

// writeChange writes one file's change: git's binary patch for a binary
// file, else a unified diff.
func writeChange(b *bytes.Buffer, c Change) {
	if c.Binary && !c.OldLink && !c.NewLink {
		writeBinaryDiff(b, c)
		return
	}
	writeDiff(b, c.Path, c.Kind, c.Old, c.New, gitMode(c.OldLink, c.OldMode), gitMode(c.NewLink, c.NewMode))
}

// gitMode is the mode git records: 120000 for a symbolic link, else
// 100644 or 100755.
func gitMode(link bool, m fs.FileMode) string {
	if link {
		return "120000"
	}
	return fmt.Sprintf("100%o", m.Perm())
}

// writeDiff writes one file's diff in git's format.
func writeDiff(b *bytes.Buffer, p string, kind ChangeKind, old, new []byte, oldMode, newMode string) {
	a, bb := quotePath("a/"+p), quotePath("b/"+p)
	fmt.Fprintf(b, "diff --git %s %s\n", a, bb)
	oldName, newName := a, bb
	switch kind {
	case Added:
		fmt.Fprintf(b, "new file mode %s\n", newMode)
		oldName = "/dev/null"
	case Deleted:
		fmt.Fprintf(b, "deleted file mode %s\n", oldMode)
		newName = "/dev/null"
	default:
		if oldMode != newMode {
			fmt.Fprintf(b, "old mode %s\nnew mode %s\n", oldMode, newMode)
		}
	}
	if bytes.Equal(old, new) {
		return // a mode change, or an empty file added or deleted
	}
	d := udiff.Unified(oldName, newName, string(old), string(new))
	b.WriteString(d)
	if !strings.HasSuffix(d, "\n") {
		b.WriteString("\n")
	}
}

// quotePath quotes a path as git does when it holds a quote, a backslash,
// a control character or a byte beyond ASCII; others stay as they are.
func quotePath(p string) string {
	need := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			need = true
			break
		}
	}
	if !need {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// contains is strings.Contains, for the platform files.
func contains(s, sub string) bool { return strings.Contains(s, sub) }
