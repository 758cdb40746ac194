package trialtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// maxWalkDepth caps how deep a `**` walk goes.
const maxWalkDepth = 64

// readDirBatch is how many entries one ReadDir call fetches.
const readDirBatch = 1024

// fileList runs file_list.
func (tb *Toolbox) fileList(ctx context.Context, raw json.RawMessage) Result {
	return tb.list(ctx, raw, MaxWalkEntries)
}

// list runs file_list, looking at no more than limit entries.
func (tb *Toolbox) list(ctx context.Context, raw json.RawMessage, limit int) Result {
	a, err := parseListArgs(raw)
	if err != nil {
		return errorResult("file_list: %v", err)
	}
	g, err := compileGlob(a.Glob)
	if err != nil {
		return errorResult("file_list: %v", err)
	}
	t, err := tb.resolve(a.Path)
	if err != nil {
		var nf *notFound
		if errors.As(err, &nf) && strings.ContainsAny(a.Path, "*?[") {
			return errorResult("file_list: %v; for a pattern, pass the folder as path and the pattern as glob, e.g. {\"path\":\"docs\",\"glob\":\"*.md\"}", err)
		}
		return pathResult("file_list", err)
	}
	f, _, err := tb.open(t, wantDir)
	if err != nil {
		return pathResult("file_list", err)
	}
	defer f.Close()

	l := &lister{tb: tb, ctx: ctx, g: g, base: t, limit: limit}
	if g.recursive() {
		err = l.walk(f, nil)
	} else {
		err = l.dir(f, nil)
	}
	if err != nil {
		return pathResult("file_list", err)
	}
	return l.result(a.Glob)
}

// lister gathers the entries of one file_list call.
type lister struct {
	tb      *Toolbox
	ctx     context.Context
	g       *glob
	base    target
	lines   []string // the entries written, in order
	size    int      // bytes in lines, newlines included
	matched int      // entries that matched, written or not
	seen    int      // entries looked at
	limit   int      // entries to look at, at most
	full    bool     // a cap on written entries was reached
	stopped bool     // limit was reached
}

// walk lists, under f (the folder at segments sub below the listed one),
// every entry the glob matches, in tree order: names sorted within a
// folder, a folder before what it holds. It does not follow symlinks and
// skips the inside of .git unless the glob names it.
func (l *lister) walk(f *os.File, sub []string) error {
	entries, err := l.read(f, sub)
	if err != nil {
		return err
	}
	for _, e := range entries {
		path := append(sub[:len(sub):len(sub)], e.Name())
		if l.g.match(path) {
			l.add(path, e)
		}
		if l.stopped || !e.IsDir() || len(path) >= maxWalkDepth || !l.g.descend(path) || (e.Name() == ".git" && !l.g.mentions(".git")) {
			continue
		}
		child, err := l.tb.root.OpenFile(filepath.Join(l.base.rel, filepath.Join(path...)), os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue // gone, unreadable, or swapped for a link leading out: not listed
		}
		if info, err := child.Stat(); err == nil && info.IsDir() {
			err = l.walk(child, path)
			child.Close()
			if err != nil {
				return err
			}
		} else {
			child.Close()
		}
	}
	return nil
}

// dir lists the entries of f the glob matches, sorted by name.
func (l *lister) dir(f *os.File, sub []string) error {
	entries, err := l.read(f, sub)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if l.g.matchName(e.Name()) {
			l.add([]string{e.Name()}, e)
		}
	}
	return nil
}

// read returns the entries of f sorted by name, counting them against
// the limit.
func (l *lister) read(f *os.File, sub []string) ([]fs.DirEntry, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	src := f
	if d, err := listingFile(f); err == nil && d != nil {
		defer d.Close()
		src = d
	}
	var all []fs.DirEntry
	for !l.stopped {
		batch, err := src.ReadDir(min(readDirBatch, l.limit-l.seen))
		if len(batch) > 0 {
			all = append(all, batch...)
			l.seen += len(batch)
			if l.seen >= l.limit {
				l.stopped = true
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(sub) == 0 {
				return nil, fmt.Errorf("%s cannot be listed: %v", showPath(l.base.show), unwrapPath(err))
			}
			break // a folder deeper down that cannot be read is left out
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name() < all[j].Name() })
	return all, nil
}

// unwrapPath drops the path of a *fs.PathError: the full path names the
// user's folders.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// add writes the entry e at segments sub below the listed folder, unless a
// cap is reached.
func (l *lister) add(sub []string, e fs.DirEntry) {
	l.matched++
	if l.full {
		return
	}
	line := l.describe(l.projectPath(sub), e)
	if len(l.lines) == MaxListEntries || l.size+len(line)+1 > MaxListBytes {
		l.full = true
		return
	}
	l.lines = append(l.lines, line)
	l.size += len(line) + 1
}

// projectPath is the project-relative slash path of the entry at sub.
func (l *lister) projectPath(sub []string) string {
	p := strings.Join(sub, "/")
	if l.base.show != "." {
		p = strings.TrimSuffix(l.base.show, "/") + "/" + p
	}
	return p
}

// describe is one line of the listing: the path, a trailing / for a folder,
// and a note for links and special files.
func (l *lister) describe(p string, e fs.DirEntry) string {
	m := e.Type()
	switch {
	case m.IsDir():
		return show(p + "/")
	case m.IsRegular():
		return show(p)
	case m&fs.ModeSymlink != 0:
		t, err := l.tb.resolve(p)
		var r *refusal
		switch {
		case errors.As(err, &r) && r.loop:
			return show(p) + "  (loop of symbolic links; not readable)"
		case errors.As(err, &r):
			return show(p) + "  (symbolic link leading outside the project folder; not readable)"
		case err != nil:
			return show(p) + "  (broken symbolic link)"
		}
		info, err := l.tb.root.Lstat(t.rel)
		to := filepath.ToSlash(t.rel)
		switch {
		case err != nil:
			return show(p) + "  (broken symbolic link)"
		case info.IsDir():
			return show(p+"/") + "  (symbolic link to " + showDir(to) + ")"
		case info.Mode().IsRegular():
			return show(p) + "  (symbolic link to " + showPath(to) + ")"
		}
		return show(p) + "  (symbolic link to " + kindName(info.Mode()) + "; not readable)"
	}
	return show(p) + "  (" + kindName(m) + "; not readable)"
}

// result assembles the listing and its notes.
func (l *lister) result(pattern string) Result {
	where := showDir(l.base.show)
	var b strings.Builder
	b.Grow(l.size + 160)
	for _, line := range l.lines {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	res := Result{}
	switch {
	case l.matched == 0 && pattern == "" && !l.stopped:
		fmt.Fprintf(&b, "[file_list: %s is empty]\n", where)
	case l.matched == 0 && !l.stopped:
		fmt.Fprintf(&b, "[file_list: nothing in %s matches %s]\n", where, show(pattern))
	}
	if l.full {
		count := fmt.Sprintf("%d", l.matched)
		if l.stopped {
			count = "at least " + count
		}
		fmt.Fprintf(&b, "[file_list: cut: this shows %d of %s entries in %s; list a subfolder or pass a narrower glob]\n",
			len(l.lines), count, where)
		res.Cut = true
	}
	if l.stopped {
		fmt.Fprintf(&b, "[file_list: stopped after looking at %d entries in %s; list a subfolder or pass a narrower glob]\n",
			l.limit, where)
		res.Cut = true
	}
	res.Text = strings.TrimSuffix(b.String(), "\n")
	return res
}
