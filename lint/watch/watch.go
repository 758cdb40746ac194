// Package watch watches a NETCLAW_HOME for saves: the agents folder, each
// feed folder, the skills folders and the config folder, debounced into
// Changes. It uses no terminal; the browser (tui) and the headless
// agentdesk test --watch turn its Changes into rescans.
package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentdesk/agentdesk/lint"
)

// maxWatchedDirs bounds how many folders one watcher registers.
const maxWatchedDirs = 4096

// maxDebounceWait is the longest a steady stream of events can hold back a
// change notice.
const maxDebounceWait = time.Second

// Change is one debounced batch of file-system events under a home.
type Change struct {
	// Paths that had events, sorted, without repeats.
	Paths []string
}

// Watcher watches a home's agents folder, each feed folder, the skills
// folders, the config folder, and their parents, so that a folder deleted
// and created again is watched again. Events are debounced into Changes;
// editors that save by writing a temporary file and renaming it over the
// original produce one Change like any other save.
type Watcher struct {
	home     lint.Home
	fs       *fsnotify.Watcher
	debounce time.Duration
	changes  chan Change
	errs     chan error
	done     chan struct{}
	closed   chan struct{}

	// mu guards watched, which only the loop changes (and Start
	// before the loop starts).
	mu sync.Mutex
	// watched maps each registered folder to the names of the children
	// whose events matter (nil: all of them) and its identity when added.
	watched map[string]watchedDir
}

type watchedDir struct {
	only map[string]bool // nil: every child
	info os.FileInfo
}

// Start starts watching h. Events settle for debounce before a
// Change is sent.
func Start(h lint.Home, debounce time.Duration) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w (live reload is off)", h.Agents, err)
	}
	w := &Watcher{
		home:     h,
		fs:       fw,
		debounce: debounce,
		changes:  make(chan Change, 1),
		errs:     make(chan error, 1),
		done:     make(chan struct{}),
		closed:   make(chan struct{}),
		watched:  map[string]watchedDir{},
	}
	if err := w.sync(); err != nil {
		fw.Close()
		return nil, err
	}
	go w.loop()
	return w, nil
}

// Changes delivers debounced changes. At most one waits undelivered: a
// later one is merged into it, so its Paths name every path with an event
// since the last Change was received.
func (w *Watcher) Changes() <-chan Change { return w.changes }

// Errors delivers watch errors (for example the inotify watch limit).
func (w *Watcher) Errors() <-chan error { return w.errs }

// Close stops the watcher and closes Changes.
func (w *Watcher) Close() error {
	select {
	case <-w.done:
		return nil
	default:
	}
	close(w.done)
	err := w.fs.Close()
	<-w.closed
	return err
}

// watchedDirs returns the folders being watched, sorted.
func (w *Watcher) watchedDirs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for d := range w.watched {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

func (w *Watcher) loop() {
	defer close(w.closed)
	defer close(w.changes)
	b := batch{pending: map[string]bool{}}
	for {
		select {
		case <-w.done:
			b.stop()
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if w.relevant(ev) {
				w.follow(ev)
				b.add(ev.Name, time.Now(), w.debounce)
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.report(err)
		case <-b.fired():
			paths := b.take()
			w.report(w.sync())
			w.send(Change{Paths: paths})
		}
	}
}

// follow keeps the watches in step with an event: a removed or renamed
// folder's watches are dropped, and a folder that may have come or gone
// is watched as it is now, before more files land in it.
func (w *Watcher) follow(ev fsnotify.Event) {
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.forget(ev.Name)
	}
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.report(w.sync())
	}
}

// batch gathers the paths changed since the last Change was sent, and
// the timer that sends them: it fires a debounce after the latest event,
// and at most maxDebounceWait after the batch's first.
type batch struct {
	timer   *time.Timer
	first   time.Time
	pending map[string]bool
}

// fired is the channel the batch's timer fires on; nil (never ready)
// while no event waits.
func (b *batch) fired() <-chan time.Time {
	if b.timer == nil {
		return nil
	}
	return b.timer.C
}

// add records path, changed at now, and (re)arms the timer.
func (b *batch) add(path string, now time.Time, debounce time.Duration) {
	b.pending[path] = true
	if b.timer == nil {
		b.first = now
		b.timer = time.NewTimer(debounce)
		return
	}
	wait := debounce
	if left := maxDebounceWait - now.Sub(b.first); left < wait {
		wait = max(left, 0)
	}
	b.timer.Reset(wait)
}

// take returns the batch's paths, sorted, once its timer has fired, and
// starts a new batch.
func (b *batch) take() []string {
	b.timer = nil
	paths := make([]string, 0, len(b.pending))
	for p := range b.pending {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	clear(b.pending)
	return paths
}

// stop stops the timer of a batch that will not be sent.
func (b *batch) stop() {
	if b.timer != nil {
		b.timer.Stop()
	}
}

// send delivers c, merged with a Change still waiting undelivered, so
// that no changed path is ever lost (a rescan may look at those paths only).
func (w *Watcher) send(c Change) {
	select {
	case w.changes <- c:
		return
	default:
	}
	select {
	case old := <-w.changes:
		c.Paths = mergePaths(old.Paths, c.Paths)
	default: // taken meanwhile: there is room now
	}
	w.changes <- c // only this loop sends, so there is room
}

// mergePaths returns the sorted union of two sorted path lists.
func mergePaths(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// report passes a non-nil error on without ever blocking the loop.
func (w *Watcher) report(err error) {
	if err == nil {
		return
	}
	select {
	case w.errs <- err:
	default:
	}
}

// forget drops the watches on dir and everything under it: the folder was
// removed or renamed away, and a folder created under the same name (even
// one that reuses the inode number) must be watched anew.
func (w *Watcher) forget(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	prefix := dir + string(filepath.Separator)
	for p := range w.watched {
		if p == dir || strings.HasPrefix(p, prefix) {
			_ = w.fs.Remove(p) // fails when the kernel already dropped it
			delete(w.watched, p)
		}
	}
}

// relevant reports whether an event can change what a scan finds.
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	if editorTemp(filepath.Base(ev.Name)) {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	d, ok := w.watched[filepath.Dir(ev.Name)]
	if !ok || d.only == nil {
		return true
	}
	return d.only[filepath.Base(ev.Name)]
}

// wanted lists the folders to watch now, with their child filters.
func (w *Watcher) wanted() map[string]map[string]bool {
	h := w.home
	want := watchSet{}
	for _, root := range []string{h.Agents, h.Skills, h.ConfigDir} {
		want.child(root)
	}
	if !isDir(h.Base) {
		want.child(h.Base)
	}
	want.all(h.Agents)
	want.all(h.FeedsDir())
	for _, feed := range subdirs(h.FeedsDir()) {
		want.all(feed)
	}
	want.all(h.ConfigDir)
	want.skillTree(h.Skills)
	// A parent filter never narrows a folder watched whole.
	for _, root := range []string{h.Agents, h.Skills, h.ConfigDir} {
		if only, ok := want[root]; ok && only != nil && isDir(root) {
			want[root] = nil
		}
	}
	return want
}

// watchSet maps each folder to watch to the names of the children whose
// events count, nil for all of them.
type watchSet map[string]map[string]bool

// all watches dir whole, when it is a folder.
func (want watchSet) all(dir string) {
	if isDir(dir) {
		want[dir] = nil
	}
}

// child watches path through its parent folder, when that is a folder,
// adding path's name to the parent's filter (unless the parent is
// watched whole).
func (want watchSet) child(path string) {
	parent := filepath.Dir(path)
	if parent == path || !isDir(parent) {
		return
	}
	only, seen := want[parent]
	if seen && only == nil {
		return // already watched whole
	}
	if only == nil {
		only = map[string]bool{}
	}
	only[filepath.Base(path)] = true
	want[parent] = only
}

// skillTree watches the skills folder whole and its folders down to the
// depth NetClaw's skill scanner finds skills at: <name>.md,
// <skill>/SKILL.md, <category>/<skill>/SKILL.md (.system a category), and
// the same inside .server-feeds/<feed>: up to four levels. It stops
// adding levels at maxWatchedDirs.
func (want watchSet) skillTree(skills string) {
	level := []string{skills}
	for depth := 0; depth <= 4 && len(level) > 0 && len(want) < maxWatchedDirs; depth++ {
		var next []string
		for _, d := range level {
			if !isDir(d) {
				continue
			}
			want[d] = nil
			if depth < 4 {
				next = append(next, subdirs(d)...)
			}
		}
		level = next
	}
}

// sync registers the folders that exist now and drops those that went. A
// folder replaced by another of the same name (deleted and created again,
// or renamed away and back) is registered anew.
func (w *Watcher) sync() error {
	want := w.wanted()
	w.mu.Lock()
	defer w.mu.Unlock()
	var errs []error
	for dir, d := range w.watched {
		only, keep := want[dir]
		info, err := os.Stat(dir)
		if !keep || err != nil || !os.SameFile(info, d.info) {
			_ = w.fs.Remove(dir) // may already be gone with the folder
			delete(w.watched, dir)
			continue
		}
		d.only = only
		w.watched[dir] = d
	}
	for dir, only := range want {
		if _, ok := w.watched[dir]; ok {
			continue
		}
		if len(w.watched) >= maxWatchedDirs {
			errs = append(errs, fmt.Errorf("watching %s: more than %d folders; the rest are not watched", w.home.Base, maxWatchedDirs))
			break
		}
		info, err := os.Stat(dir)
		if err != nil {
			continue // gone between listing and adding
		}
		if err := w.fs.Add(dir); err != nil {
			errs = append(errs, fmt.Errorf("watching %s: %w (raise fs.inotify.max_user_watches)", dir, err))
			continue
		}
		w.watched[dir] = watchedDir{only: only, info: info}
	}
	return errors.Join(errs...)
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// subdirs lists the folders directly inside dir (following links).
func subdirs(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() || (e.Type()&os.ModeSymlink != 0 && isDir(p)) {
			out = append(out, p)
		}
	}
	return out
}

// editorTemp reports whether a file name is an editor's temporary file,
// which changes nothing a scan finds: vim's write test 4913 and swap files
// (.swp, .swo, .swx, ...), backups ending in ~, sed -i's sedXXXXXX, emacs'
// lock (.#name) and autosave (#name#) files, and atomic-save temporaries
// (name.tmp.NNN, JetBrains' ___jb_tmp___ and ___jb_old___).
func editorTemp(name string) bool {
	switch {
	case name == "4913",
		strings.HasSuffix(name, "~"),
		strings.HasPrefix(name, ".#"),
		len(name) > 2 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"),
		strings.Contains(name, ".tmp."):
		return true
	}
	if ext := filepath.Ext(name); len(ext) == 4 && strings.HasPrefix(ext, ".sw") {
		return true // vim: .swp, .swo, .swn, .swx, ...
	}
	return sedTemp(name)
}

// sedTemp reports whether name is sed -i's temporary file: sedXXXXXX,
// six letters or digits, which sed renames over the file it edits.
func sedTemp(name string) bool {
	rest, ok := strings.CutPrefix(name, "sed")
	if !ok || len(rest) != 6 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
