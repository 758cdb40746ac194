package lint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ScanOptions configures a scan.
type ScanOptions struct {
	// Profile selects the severities (runtime by default).
	Profile Profile
	// Environ is the environment the NETCLAW_ configuration overrides come
	// from; nil means os.Environ().
	Environ []string
}

func (o ScanOptions) environ() []string {
	if o.Environ == nil {
		return os.Environ()
	}
	return o.Environ
}

// Scanner scans one home again and again, re-reading only the files whose
// path, size or modification time changed since the previous scan. It is
// what the browser calls on every file event. A Scanner is not safe for
// concurrent use.
type Scanner struct {
	home  Home
	opts  ScanOptions
	files map[string]*cachedFile
	// skills caches SKILL.md parses by path.
	skills map[string]*Skill
	// syncs caches .sync-state.json reads by feed folder.
	syncs map[string]*cachedSync
}

// cachedFile is one parse, before the folder-wide rules touched it.
type cachedFile struct {
	fp   fingerprint
	file *File
}

type fingerprint struct {
	size int64
	mod  time.Time
	mode fs.FileMode
}

func fingerprintOf(fi fs.FileInfo) fingerprint {
	return fingerprint{fi.Size(), fi.ModTime(), fi.Mode()}
}

// NewScanner returns a scanner for the home.
func NewScanner(h Home, opts ScanOptions) *Scanner {
	return &Scanner{home: h, opts: opts, files: map[string]*cachedFile{}, skills: map[string]*Skill{}, syncs: map[string]*cachedSync{}}
}

// Home returns the home the scanner reads.
func (s *Scanner) Home() Home { return s.home }

// Scan reads the home once in full.
func Scan(h Home, opts ScanOptions) (*Catalog, error) {
	return NewScanner(h, opts).Scan()
}

// Scan lists the agents folder and its feeds, the skills and the config, and
// returns the catalog in runtime order. Only files that changed since the
// last Scan are read and parsed again. A missing agents folder is an empty
// catalog, not an error; an agents path that is not a folder is an error.
func (s *Scanner) Scan() (*Catalog, error) {
	entries, err := s.listAgents()
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(entries))
	todo := make([]*listed, 0)
	for _, e := range entries {
		seen[e.path] = true
		if c := s.files[e.path]; c != nil && e.err == nil && c.fp == e.fp {
			e.file = c.file
			continue
		}
		todo = append(todo, e)
	}
	parseAll(todo, s.opts.Profile)
	for _, e := range todo {
		if e.file == nil { // vanished between listing and reading
			delete(s.files, e.path)
			continue
		}
		s.files[e.path] = &cachedFile{fp: e.fp, file: e.file}
	}
	for p := range s.files {
		if !seen[p] {
			delete(s.files, p)
		}
	}

	c := &Catalog{Home: s.home, Profile: s.opts.Profile}
	c.Files = make([]*File, 0, len(entries))
	for _, e := range entries {
		if e.file != nil {
			c.Files = append(c.Files, e.file)
		}
	}
	c.Files = s.applyFolderRules(c.Files)
	c.Config = LoadConfig(s.home, s.opts.environ())
	c.Skills = s.scanSkills(c)
	c.ScannedAt = time.Now()
	return c, nil
}

// listed is one agent file found by a listing.
type listed struct {
	path   string
	source Source
	fp     fingerprint
	err    error // set when the file cannot be read
	file   *File
}

// listAgents lists the top-level *.md files in byte order, then each feed
// folder in name order with its *.md files in byte order, stat-ing each.
func (s *Scanner) listAgents() ([]*listed, error) {
	fi, err := os.Stat(s.home.Agents)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the agents folder %s: %w", s.home.Agents, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("the agents path %s is not a folder: pass a folder with --agents, or the file itself to lint", s.home.Agents)
	}
	out, err := listMarkdown(s.home.Agents, Source{})
	if err != nil {
		return nil, err
	}
	feeds, err := os.ReadDir(s.home.FeedsDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return nil, fmt.Errorf("cannot read the feeds folder %s: %w", s.home.FeedsDir(), err)
	}
	// os.ReadDir returns entries sorted by name: byte order.
	for _, d := range feeds {
		dir := filepath.Join(s.home.FeedsDir(), d.Name())
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		more, err := listMarkdown(dir, Source{Feed: d.Name()})
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// listMarkdown lists the *.md files (case-sensitive suffix, dot-files too)
// directly in dir, sorted by byte order of their names. Folders named *.md
// are skipped, as the runtime lists files only.
func listMarkdown(dir string, src Source) ([]*listed, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %w", dir, err)
	}
	out := make([]*listed, 0, len(ents))
	for _, d := range ents {
		name := d.Name()
		if !strings.HasSuffix(name, ".md") || d.IsDir() {
			continue
		}
		e := &listed{path: filepath.Join(dir, name), source: src}
		fi, err := os.Stat(e.path)
		switch {
		case err == nil && fi.IsDir():
			continue // a link to a folder: not a file
		case err == nil && !fi.Mode().IsRegular():
			e.err = fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
		case err == nil && fi.Size() > MaxFileSize:
			e.err = fmt.Errorf("the file is %d bytes, over the %d MiB limit", fi.Size(), MaxFileSize>>20)
		case err != nil:
			if _, lerr := os.Lstat(e.path); errors.Is(lerr, fs.ErrNotExist) {
				continue // gone since the listing
			}
			e.err = describeStatError(err)
		}
		if fi != nil {
			e.fp = fingerprintOf(fi)
		}
		out = append(out, e)
	}
	return out, nil
}

func describeStatError(err error) error {
	var pe *fs.PathError
	msg := err.Error()
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("a symbolic link to a file that does not exist")
	case strings.Contains(msg, "too many levels of symbolic links"):
		return errors.New("a symbolic link loop")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	return errors.New(msg)
}

// parseAll reads and parses the listed files on all cores. Entries that
// vanished between listing and reading are left with a nil file.
func parseAll(todo []*listed, p Profile) {
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if workers <= 1 {
		for _, e := range todo {
			e.file = readAndParse(e, p)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan *listed)
	for range workers {
		wg.Go(func() {
			for e := range next {
				e.file = readAndParse(e, p)
			}
		})
	}
	for _, e := range todo {
		next <- e
	}
	close(next)
	wg.Wait()
}

func readAndParse(e *listed, p Profile) *File {
	if e.err != nil {
		return unreadable(e.path, e.source, e.err, p)
	}
	data, err := readCapped(e.path, e.fp.size)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return unreadable(e.path, e.source, describeStatError(err), p)
	}
	f := Parse(e.path, data, p)
	f.Source = e.source
	f.ModTime = e.fp.mod
	return f
}

// readCapped reads a file in one read when it is the size the listing saw,
// refusing one that grew past MaxFileSize since.
func readCapped(path string, size int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	// One byte more than expected, so a file that grew shows up as a short
	// read that did not reach EOF.
	buf := make([]byte, 0, min(size, MaxFileSize)+1)
	for {
		n, err := fh.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(buf) > MaxFileSize {
			return nil, fmt.Errorf("the file is over the %d MiB limit", MaxFileSize>>20)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// unreadable is the File for a path the runtime cannot read: skipped.
func unreadable(path string, src Source, err error, p Profile) *File {
	f := &File{Path: path, Source: src, Status: Rejected,
		Reason: fmt.Sprintf("Agent definition at %s could not be read (%v) — skipping", path, err)}
	r, _ := RuleByID(RuleUnreadable)
	f.Diagnostics = []Diagnostic{{Path: path, Rule: RuleUnreadable, Severity: r.Severity(p),
		Message: fmt.Sprintf("cannot read the file: %v; the runtime skips it", err),
		Hint:    "fix or remove the file"}}
	return f
}

// applyFolderRules applies the rules that need the whole folder to the
// files in runtime order: duplicate names (the first wins) and feed files
// edited since their sync. Cached files are never modified: a file that
// gains a diagnostic is copied.
func (s *Scanner) applyFolderRules(files []*File) []*File {
	winners := make(map[string]*File, len(files))
	states := map[string]*syncState{}
	for i, f := range files {
		var extra []Diagnostic
		status, reason := f.Status, f.Reason
		var sync *SyncEntry
		if f.Source.IsFeed() {
			dir := filepath.Dir(f.Path)
			st, ok := states[dir]
			if !ok {
				st = s.syncState(dir)
				states[dir] = st
			}
			if st != nil {
				sync, extra = st.check(f, s.opts.Profile, extra)
			}
		}
		if f.Status == Loaded {
			key := strings.ToUpper(f.Def.Name)
			if w := winners[key]; w != nil {
				extra = append(extra, duplicateDiag(f, w, s.opts.Profile))
				status, reason = Rejected, duplicateReason(f)
			} else {
				winners[key] = f
			}
		}
		if len(extra) == 0 && sync == nil {
			continue
		}
		c := *f
		c.Status, c.Reason, c.Sync = status, reason, sync
		c.Diagnostics = append(slices.Clip(f.Diagnostics), extra...)
		SortDiagnostics(c.Diagnostics)
		files[i] = &c
		if winners[strings.ToUpper(c.Name())] == f {
			winners[strings.ToUpper(c.Name())] = &c
		}
	}
	return files
}

func duplicateReason(f *File) string {
	if f.Source.IsFeed() {
		return fmt.Sprintf("Agent '%s' at %s from feed '%s' declares duplicate name '%s' — skipping; earlier definition wins", f.Def.Name, f.Path, f.Source.Feed, f.Def.Name)
	}
	return fmt.Sprintf("Agent '%s' at %s declares duplicate name '%s' — skipping", f.Def.Name, f.Path, f.Def.Name)
}

func duplicateDiag(f, winner *File, p Profile) Diagnostic {
	pos := Pos{1, 1}
	if fl, ok := f.Def.Field("name"); ok {
		pos = fl.ValuePos
	}
	r, _ := RuleByID(RuleDuplicateName)
	hint := "rename this agent, or delete one of the two files"
	if f.Source.IsFeed() && !winner.Source.IsFeed() {
		hint = "the local file shadows this synced one; rename or delete the local file to use the feed's version"
	}
	return Diagnostic{Path: f.Path, Pos: pos, Rule: RuleDuplicateName, Severity: r.Severity(p),
		Message: fmt.Sprintf("duplicate name '%s': %s (%s) declares it first and wins; the runtime skips this file", f.Def.Name, winner.Path, winner.Source),
		Hint:    hint}
}
