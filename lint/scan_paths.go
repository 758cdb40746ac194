package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ErrNoSuchPath is wrapped by ScanPaths when a path does not exist.
var ErrNoSuchPath = errors.New("no such file or folder")

// ScanPaths lints explicit paths instead of a whole home. A folder is read
// as an agents folder (its *.md files, then its .server-feeds); a file is
// parsed as an agent definition whatever its name. The files of all paths,
// in the order given (each folder in runtime order), then get the
// folder-wide rules together: the first of two equal names wins. A file
// reached twice (named twice, or named and inside a folder also given) is
// read once, where it first appears. Skills and the home's config are not
// read; the catalog carries the default config. With no configuration to
// say which feeds are read, every feed folder is, in name order, as the
// runtime's loader does when it is built without feed configuration.
func ScanPaths(paths []string, opts ScanOptions) (*Catalog, error) {
	l := pathList{seen: map[string]bool{}}
	for _, p := range paths {
		if err := l.addPath(p, opts); err != nil {
			return nil, err
		}
	}
	parseAll(l.entries, opts.Profile)
	c := &Catalog{Profile: opts.Profile, Config: DefaultConfig()}
	for _, e := range l.entries {
		if e.file != nil {
			c.Files = append(c.Files, e.file)
		}
	}
	s := NewScanner(Home{}, opts)
	s.allFeeds = true
	c.Files = s.applyFolderRules(c.Files)
	c.ScannedAt = time.Now()
	return c, nil
}

// pathList gathers the files of explicit paths in order, each file
// (by absolute path) once.
type pathList struct {
	entries []*listed
	seen    map[string]bool
}

// add appends e unless its file is listed already.
func (l *pathList) add(e *listed) {
	key := e.path
	if abs, err := filepath.Abs(e.path); err == nil {
		key = abs
	}
	if !l.seen[key] {
		l.seen[key] = true
		l.entries = append(l.entries, e)
	}
}

// addPath adds the files of path p: a folder's agent files in runtime
// order, or the file itself (ranked as a feed's inside .server-feeds). A
// path that does not exist is an error.
func (l *pathList) addPath(p string, opts ScanOptions) error {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(p); lerr != nil {
			return fmt.Errorf("%s: %w: give an agent file or an agents folder", p, ErrNoSuchPath)
		}
	}
	if err == nil && fi.IsDir() {
		s := NewScanner(NewHome(filepath.Dir(p), p), opts)
		s.allFeeds = true
		more, err := s.listAgents()
		if err != nil {
			return err
		}
		for _, e := range more {
			l.add(e)
		}
		return nil
	}
	if e, ok := statListed(p, sourceOf(p)); ok {
		if e.source.IsFeed() {
			e.rank = 1
		}
		l.add(e)
	}
	return nil
}

// sourceOf says which feed a file belongs to from its path:
// .../.server-feeds/<feed>/<name>.md is a feed file.
func sourceOf(path string) Source {
	dir := filepath.Dir(path)
	if filepath.Base(filepath.Dir(dir)) == ".server-feeds" {
		return Source{Feed: filepath.Base(dir)}
	}
	return Source{}
}
