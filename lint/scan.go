package lint

import (
	"cmp"
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

// AgentsNotFolderError is a scan's answer to an agents path that is a
// file. The command line words it with the flag that names the folder.
type AgentsNotFolderError struct {
	// Path is the agents path.
	Path string
}

// Error names the path and what to pass instead.
func (e *AgentsNotFolderError) Error() string {
	return "the agents path " + e.Path + " is not a folder: pass a folder, or the file itself to lint"
}

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
	home Home
	opts ScanOptions
	// entries is the last listing in runtime order, each with its parse
	// (before the folder-wide rules touched it); byPath indexes it.
	entries []*listed
	byPath  map[string]*listed
	scanned bool
	// skills caches SKILL.md parses by path.
	skills map[string]*Skill
	// syncs caches .sync-state.json reads by path.
	syncs map[string]*cachedSync
	// allFeeds reads every feed folder in name order, as the runtime's
	// loader does when it is built with no feed configuration (ScanPaths,
	// which reads no configuration).
	allFeeds bool
	// feeds is the configuration's AgentFeeds at the last listing, and
	// feedRank their place in it (1, 2, ...); other feed folders rank after
	// them all.
	feeds    []string
	feedRank map[string]int
	// cfg is the configuration of the last scan.
	cfg *Config
	// agentsMissing is true when the last listing found no agents folder.
	agentsMissing bool
	// unreadable holds a diagnostic for each folder the last listing could
	// not read (the agents folder, the feeds folder, a feed folder): the
	// runtime loads nothing from it, and lint reports it as a finding.
	unreadable []Diagnostic
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
	return &Scanner{home: h, opts: opts, byPath: map[string]*listed{}, skills: map[string]*Skill{}, syncs: map[string]*cachedSync{}}
}

// Home returns the home the scanner reads.
func (s *Scanner) Home() Home { return s.home }

// Scan reads the home once in full.
func Scan(h Home, opts ScanOptions) (*Catalog, error) {
	return NewScanner(h, opts).Scan()
}

// Scan lists the agents folder and its feeds, the skills and the config, and
// returns the catalog in runtime order. Every file is stat-ed; only those
// whose fingerprint changed since the last scan are read and parsed again.
// A missing agents folder is an empty catalog, not an error; an agents path
// that is not a folder is an error.
func (s *Scanner) Scan() (*Catalog, error) {
	return s.scan(LoadConfig(s.home, s.opts.environ()))
}

// scan is Scan with the configuration already loaded.
func (s *Scanner) scan(cfg *Config) (*Catalog, error) {
	s.cfg = cfg
	s.setFeeds(cfg)
	entries, err := s.listAgents()
	if err != nil {
		return nil, err
	}
	var todo []*listed
	for _, e := range entries {
		if old := s.byPath[e.path]; old != nil && old.reusable(e) {
			e.file = old.file
			continue
		}
		todo = append(todo, e)
	}
	parseAll(todo, s.opts.Profile)
	s.entries = slices.DeleteFunc(entries, func(e *listed) bool { return e.file == nil })
	clear(s.byPath)
	for _, e := range s.entries {
		s.byPath[e.path] = e
	}
	s.scanned = true
	return s.catalog(), nil
}

// setFeeds records which feed folders the runtime reads under cfg.
func (s *Scanner) setFeeds(cfg *Config) {
	s.feeds = cfg.AgentFeeds()
	s.feedRank = make(map[string]int, len(s.feeds))
	for i, f := range s.feeds {
		s.feedRank[f] = i + 1
	}
}

// rank orders a file's folder in the listing: 0 for the agents folder,
// then the feeds the runtime reads in its order, then the other feed
// folders (by name, see compareListed).
func (s *Scanner) rank(src Source) int {
	switch {
	case !src.IsFeed():
		return 0
	case s.allFeeds:
		return 1
	}
	if r, ok := s.feedRank[src.Feed]; ok {
		return r
	}
	return len(s.feeds) + 1
}

// feedNotLoaded says why the runtime does not read a feed folder, "" when
// it does.
func (s *Scanner) feedNotLoaded(feed string) string {
	if s.allFeeds || s.feedRank[feed] > 0 {
		return ""
	}
	return s.cfg.FeedNotLoaded(feed, false)
}

// Rescan is Scan for a caller that knows which paths changed (a file
// watcher): only those are stat-ed and, when changed, parsed again; the
// rest of the listing is reused. A change to a folder (the agents folder, a
// feed folder) or a first call falls back to a full Scan. Config, skills and
// sync states are always checked; they are few.
func (s *Scanner) Rescan(changed []string) (*Catalog, error) {
	if !s.scanned {
		return s.Scan()
	}
	cfg := LoadConfig(s.home, s.opts.environ())
	if !slices.Equal(cfg.AgentFeeds(), s.feeds) {
		return s.scan(cfg) // SkillFeeds changed which feeds are read
	}
	s.cfg = cfg
	var todo []*listed
	for _, p := range changed {
		p = filepath.Clean(p)
		switch s.classify(p) {
		case pathStructural:
			return s.Scan()
		case pathIgnored:
			continue
		}
		e, keep := statListed(p, sourceOf(p))
		if keep {
			e.rank = s.rank(e.source)
		}
		old := s.byPath[p]
		switch {
		case !keep && old != nil:
			s.entries = slices.DeleteFunc(s.entries, func(x *listed) bool { return x == old })
			delete(s.byPath, p)
		case !keep:
		case old != nil && old.reusable(e):
		case old != nil:
			*old = *e
			todo = append(todo, old)
		default:
			i, _ := slices.BinarySearchFunc(s.entries, e, compareListed)
			s.entries = slices.Insert(s.entries, i, e)
			s.byPath[p] = e
			todo = append(todo, e)
		}
	}
	parseAll(todo, s.opts.Profile)
	for _, e := range todo {
		if e.file == nil {
			s.entries = slices.DeleteFunc(s.entries, func(x *listed) bool { return x == e })
			delete(s.byPath, e.path)
		}
	}
	return s.catalog(), nil
}

// pathKind says what a changed path means to Rescan.
type pathKind int

const (
	pathIgnored    pathKind = iota // not an agent file: config, skills, notes
	pathAgentFile                  // one *.md in the agents folder or a feed
	pathStructural                 // a folder appeared or went: list again
)

func (s *Scanner) classify(p string) pathKind {
	agents, feeds := s.home.Agents, s.home.FeedsDir()
	dir := filepath.Dir(p)
	switch {
	case p == agents || p == feeds || dir == feeds || p == s.home.Base:
		return pathStructural
	case strings.HasSuffix(p, ".md") && (dir == agents || filepath.Dir(dir) == feeds):
		return pathAgentFile
	}
	return pathIgnored
}

// catalog builds the catalog from the current listing: folder-wide rules,
// config, skills.
func (s *Scanner) catalog() *Catalog {
	c := &Catalog{Home: s.home, Profile: s.opts.Profile, Config: s.cfg}
	c.Files = make([]*File, 0, len(s.entries))
	for _, e := range s.entries {
		c.Files = append(c.Files, e.file)
	}
	c.Files = s.applyFolderRules(c.Files)
	c.FolderDiagnostics = s.folderDiagnostics(c.Files)
	c.Skills = s.scanSkills(c)
	c.ScannedAt = time.Now()
	return c
}

// folderUnreadable records that the listing could not read dir (what it
// is): an error of rule unreadable on the folder.
func (s *Scanner) folderUnreadable(dir, what string, err error) {
	sev := Error
	if r, ok := RuleByID(RuleUnreadable); ok {
		sev = r.Severity(s.opts.Profile)
	}
	s.unreadable = append(s.unreadable, Diagnostic{Path: dir, Rule: RuleUnreadable, Severity: sev,
		Message: fmt.Sprintf("cannot read the %s: %v: the runtime loads no agent from it", what, DescribeStatError(err)),
		Hint:    "make the folder readable (check its permissions, or the link that leads to it)"})
}

// feedLinkBroken records that the feed folder dir is a link that leads
// nowhere or loops: an info of rule unreadable (no agent is read from it,
// by the runtime or by agentdesk), so it is not skipped silently.
func (s *Scanner) feedLinkBroken(dir string, err error) {
	s.unreadable = append(s.unreadable, Diagnostic{Path: dir, Rule: RuleUnreadable, Severity: Info,
		Message: fmt.Sprintf("cannot read the feed folder: %v: no agent is loaded from it", DescribeStatError(err)),
		Hint:    "fix the link, or remove it"})
}

// folderDiagnostics says, in the runtime's words, that the agents folder
// does not exist or holds no agent file it reads, names each feed folder
// the runtime does not read, and each folder that cannot be read.
func (s *Scanner) folderDiagnostics(files []*File) []Diagnostic {
	if s.agentsMissing {
		return s.agentsFolderDiagnostics(0)
	}
	// A folder that could not be listed says why there is no file; a
	// broken feed link (an info) does not.
	if len(files) == 0 && slices.ContainsFunc(s.unreadable, func(d Diagnostic) bool { return d.Severity != Info }) {
		return slices.Clone(s.unreadable)
	}
	read := 0
	notRead := map[string]int{}
	var feeds []string
	for _, f := range files {
		if f.Status != NotLoaded {
			read++
			continue
		}
		if notRead[f.Source.Feed] == 0 {
			feeds = append(feeds, f.Source.Feed)
		}
		notRead[f.Source.Feed]++
	}
	out := append(slices.Clone(s.unreadable), s.agentsFolderDiagnostics(read)...)
	for _, feed := range feeds {
		if d, ok := feedNotLoadedDiag(s.home.FeedDir(feed), feed, s.feedNotLoaded(feed), notRead[feed], "agent file", s.opts.Profile); ok {
			out = append(out, d)
		}
	}
	return out
}

// listed is one agent file found by a listing.
type listed struct {
	path   string
	source Source
	rank   int // see Scanner.rank
	fp     fingerprint
	err    error // set when the file cannot be read
	file   *File
}

// reusable reports whether old's parse still stands for the fresh listing e.
func (old *listed) reusable(e *listed) bool {
	return old.file != nil && old.err == nil && e.err == nil && old.fp == e.fp
}

// compareListed orders files as the runtime does: top-level files first,
// then the feeds in the order the runtime reads them, then the feed folders
// it does not read by name; within each folder, by the byte order of the
// file name.
func compareListed(a, b *listed) int {
	return cmp.Or(cmp.Compare(a.rank, b.rank), strings.Compare(a.source.Feed, b.source.Feed),
		strings.Compare(filepath.Base(a.path), filepath.Base(b.path)))
}

// listAgents lists the top-level *.md files in byte order, then the feed
// folders the runtime reads in its order, then the other feed folders in
// name order, each with its *.md files in byte order, stat-ing each.
func (s *Scanner) listAgents() ([]*listed, error) {
	s.agentsMissing = false
	s.unreadable = nil
	fi, err := os.Stat(s.home.Agents)
	if errors.Is(err, fs.ErrNotExist) {
		s.agentsMissing = true
		return nil, nil
	}
	if err != nil {
		s.folderUnreadable(s.home.Agents, "agents folder", err)
		return nil, nil
	}
	if !fi.IsDir() {
		return nil, &AgentsNotFolderError{Path: s.home.Agents}
	}
	out, err := listMarkdown(s.home.Agents, Source{})
	if err != nil {
		s.folderUnreadable(s.home.Agents, "agents folder", err)
		return nil, nil
	}
	feeds, err := os.ReadDir(s.home.FeedsDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		s.folderUnreadable(s.home.FeedsDir(), "feeds folder", err)
	}
	// os.ReadDir returns entries sorted by name: byte order.
	for _, d := range feeds {
		out = append(out, s.listFeed(d)...)
	}
	slices.SortStableFunc(out, compareListed)
	return out, nil
}

// listFeed lists the *.md files of the feed folder d, ranked by the
// feed's order. A broken link to a feed folder and a folder that cannot
// be listed are reported; anything but a folder lists nothing.
func (s *Scanner) listFeed(d fs.DirEntry) []*listed {
	dir := filepath.Join(s.home.FeedsDir(), d.Name())
	fi, err := os.Stat(dir)
	if err != nil && d.Type()&fs.ModeSymlink != 0 {
		s.feedLinkBroken(dir, err)
		return nil
	}
	if err != nil || !fi.IsDir() {
		return nil
	}
	src := Source{Feed: d.Name()}
	more, err := listMarkdown(dir, src)
	if err != nil {
		s.folderUnreadable(dir, "feed folder", err)
		return nil
	}
	for _, e := range more {
		e.rank = s.rank(src)
	}
	return more
}

// listMarkdown lists the *.md files (case-sensitive suffix, dot-files too)
// directly in dir, sorted by byte order of their names, stat-ing them on all
// cores. Folders named *.md are skipped, as the runtime lists files only.
func listMarkdown(dir string, src Source) ([]*listed, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %w", dir, err)
	}
	var names []string
	for _, d := range ents {
		if name := d.Name(); strings.HasSuffix(name, ".md") && !d.IsDir() {
			names = append(names, name)
		}
	}
	out := make([]*listed, len(names))
	forEachParallel(len(names), func(i int) {
		if e, ok := statListed(filepath.Join(dir, names[i]), src); ok {
			out[i] = e
		}
	})
	return slices.DeleteFunc(out, func(e *listed) bool { return e == nil }), nil
}

// statListed stats one listed path. ok is false when the path is not an
// agent file after all: a folder (or a link to one), or gone.
func statListed(path string, src Source) (e *listed, ok bool) {
	e = &listed{path: path, source: src}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, false
	case err == nil && !fi.Mode().IsRegular():
		e.err = fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	case err == nil && fi.Size() > MaxFileSize:
		e.err = fmt.Errorf("the file is %d bytes, over the %d MiB limit", fi.Size(), MaxFileSize>>20)
	case err != nil:
		if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
			return nil, false // gone since the listing
		}
		e.err = DescribeStatError(err)
	}
	if fi != nil {
		e.fp = fingerprintOf(fi)
	}
	return e, true
}

// forEachParallel calls fn(0..n-1) on all cores.
func forEachParallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 || n < 64 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for w := range workers {
		wg.Go(func() {
			for i := w * chunk; i < min(n, (w+1)*chunk); i++ {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// DescribeStatError says in plain words why a path could not be stat'ed
// or opened: a dangling link, a link loop, permission denied, else the
// system's message without the path.
func DescribeStatError(err error) error {
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
		return errPermissionDenied
	}
	return errors.New(msg)
}

// errPermissionDenied is a read refused for permission: .NET's
// UnauthorizedAccessException, which NetClaw's agent loader does not catch.
var errPermissionDenied = fmt.Errorf("permission denied: %w", fs.ErrPermission)

// parseAll reads and parses the listed files on all cores. Entries that
// vanished between listing and reading are left with a nil file.
func parseAll(todo []*listed, p Profile) {
	forEachParallel(len(todo), func(i int) {
		todo[i].file = readAndParse(todo[i], p)
	})
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
		return unreadable(e.path, e.source, DescribeStatError(err), p)
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

// checkSync checks a feed file against its folder's sync state (read once
// a folder; states holds those read), and returns its sync entry and the
// findings of a file edited since its sync.
func (s *Scanner) checkSync(f *File, states map[string]*syncState) (*SyncEntry, []Diagnostic) {
	dir := filepath.Dir(f.Path)
	st, ok := states[dir]
	if !ok {
		st = s.syncState(dir)
		states[dir] = st
	}
	if st == nil {
		return nil, nil
	}
	return st.check(f, s.opts.Profile, nil)
}

// applyFolderRules applies the rules that need the whole folder to the
// files in runtime order: duplicate names (the first wins) and feed files
// edited since their sync. Cached files are never modified: a file that
// gains a diagnostic is copied.
func (s *Scanner) applyFolderRules(files []*File) []*File {
	r := folderRules{s: s, winners: make(map[string]*File, len(files)), states: map[string]*syncState{}}
	for i, f := range files {
		if c := r.apply(f); c != nil {
			files[i] = c
		}
	}
	return files
}

// folderRules is the state of the folder-wide rules along the files:
// the file that holds each name (upper-cased), and each feed folder's
// sync state.
type folderRules struct {
	s       *Scanner
	winners map[string]*File
	states  map[string]*syncState
}

// apply applies the folder-wide rules to the next file, f, and returns
// the copy that replaces it, or nil when nothing changes: a feed that is
// not read makes it not loaded; an edit since its sync and a name taken
// by an earlier file add findings (the latter rejects it).
func (r *folderRules) apply(f *File) *File {
	if f.Source.IsFeed() {
		if why := r.s.feedNotLoaded(f.Source.Feed); why != "" {
			c := *f
			c.Status, c.Reason, c.Diagnostics, c.Sync = NotLoaded, why, nil, nil
			return &c
		}
	}
	var extra []Diagnostic
	status, reason := f.Status, f.Reason
	var sync *SyncEntry
	if f.Source.IsFeed() {
		sync, extra = r.s.checkSync(f, r.states)
	}
	if f.Status == Loaded {
		key := strings.ToUpper(f.Def.Name)
		if w := r.winners[key]; w != nil {
			extra = append(extra, duplicateDiag(f, w, r.s.opts.Profile))
			status, reason = Rejected, duplicateReason(f)
		} else {
			r.winners[key] = f
		}
	}
	if len(extra) == 0 && sync == nil {
		return nil
	}
	c := f.withFindings(status, reason, sync, extra)
	if r.winners[strings.ToUpper(c.Name())] == f {
		r.winners[strings.ToUpper(c.Name())] = c
	}
	return c
}

// withFindings returns a copy of f (a cached file is never modified) with
// its status, reason and sync entry set, and the findings extra added to
// its diagnostics, sorted.
func (f *File) withFindings(status Status, reason string, sync *SyncEntry, extra []Diagnostic) *File {
	c := *f
	c.Status, c.Reason, c.Sync = status, reason, sync
	c.Diagnostics = append(slices.Clip(f.Diagnostics), extra...)
	SortDiagnostics(c.Diagnostics)
	return &c
}
