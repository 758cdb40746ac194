package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
)

// catalogMsg carries the result of a scan back to Update.
type catalogMsg struct {
	cat *lint.Catalog
	err error
	// gone, when set, says the home's folder no longer exists (deleted
	// while the browser ran), in the words the notice shows: the catalog
	// is empty for that reason.
	gone error
}

// Rescanner is a CatalogScanner that can also rescan only the paths a
// watcher reported (lint.Scanner does).
type Rescanner interface {
	CatalogScanner
	Rescan(changed []string) (*lint.Catalog, error)
}

// requestScan asks for a full scan.
func (m *Model) requestScan() tea.Cmd { return m.requestRescan(nil, true) }

// requestRescan starts a scan of the changed paths (all of them when full)
// unless one is running; then it remembers what to scan when the running
// one ends, so the last change is never missed and the scanner is never
// used by two goroutines at once.
func (m *Model) requestRescan(changed []string, full bool) tea.Cmd {
	if m.opts.Scanner == nil {
		return nil
	}
	if m.scanning {
		m.rescan = true
		m.rescanFull = m.rescanFull || full
		m.rescanPaths = append(m.rescanPaths, changed...)
		return nil
	}
	m.scanning = true
	sc := m.opts.Scanner
	base, homeFlag := m.opts.Home.Base, m.opts.Words.Home
	if m.opts.NoHome {
		base = "" // never there, so never gone
	}
	rs, incremental := sc.(Rescanner)
	if full || !incremental {
		return func() tea.Msg {
			c, err := sc.Scan()
			return catalogMsg{cat: c, err: err, gone: homeThere(base, homeFlag)}
		}
	}
	paths := slices.Clone(changed)
	return func() tea.Msg {
		c, err := rs.Rescan(paths)
		return catalogMsg{cat: c, err: err, gone: homeThere(base, homeFlag)}
	}
}

// applyCatalog puts a fresh catalog on screen, keeping the selection, and
// flashes what changed since the last one.
func (m *Model) applyCatalog(msg catalogMsg) tea.Cmd {
	m.scanning = false
	var cmds []tea.Cmd
	if m.rescan {
		paths, full := m.rescanPaths, m.rescanFull
		m.rescan, m.rescanPaths, m.rescanFull = false, nil, false
		cmds = append(cmds, m.requestRescan(paths, full))
	}
	if msg.err != nil {
		m.scanErr = msg.err
		return tea.Batch(append(cmds, m.setFlash("scan failed: "+msg.err.Error(), true))...)
	}
	m.scanErr = nil
	wasGone := m.homeGone
	m.homeGone = msg.gone != nil
	old := m.cat
	m.cat = msg.cat
	m.catGen++
	m.countFiles(msg.cat)
	cmds = append(cmds, layerCmd(msg.cat, m.catGen), m.runs.catalogChanged())
	m.loadedAt = m.opts.Now()
	before := m.list.selectedPath()
	m.list.setCatalog(msg.cat)
	created := false
	if pending := m.selectAfterScan; pending != "" && m.list.selectPath(pending) {
		m.selectAfterScan = ""
		created = true
	}
	if m.list.selectedPath() != before {
		m.resetScroll()
	}
	if msg.gone != nil && !wasGone {
		cmds = append(cmds, m.setFlash(msg.gone.Error(), true))
	} else if old != nil {
		cmds = append(cmds, m.flashChanges(old, msg.cat, created))
	}
	return tea.Batch(cmds...)
}

// countFiles counts c's files that load, that the runtime rejects, and
// that it does not read, for the status bar.
func (m *Model) countFiles(c *lint.Catalog) {
	m.loaded, m.rejected, m.notLoaded = 0, 0, 0
	for _, f := range c.Files {
		switch f.Status {
		case lint.Loaded:
			m.loaded++
		case lint.NotLoaded:
			m.notLoaded++
		default:
			m.rejected++
		}
	}
}

// flashChanges flashes the first change from old to cur (and how many
// more), as an error when a file is now rejected; for a file just created
// it names the key that edits it. Nothing changed, nothing flashes.
func (m *Model) flashChanges(old, cur *lint.Catalog, created bool) tea.Cmd {
	changes := describeChanges(old, cur)
	if len(changes) == 0 {
		return nil
	}
	text := changes[0]
	if len(changes) > 1 {
		text += fmt.Sprintf(" (+%d more)", len(changes)-1)
	}
	if created {
		text += " · press " + keyName(m.keys.Author.Edit) + " to edit it"
	}
	return m.setFlash(text, strings.Contains(changes[0], "rejected"))
}

// describeChanges says, one line per file, what changed between two scans:
// new, removed, now rejected (and why), now loaded, saved.
func describeChanges(old, cur *lint.Catalog) []string {
	before := make(map[string]*lint.File, len(old.Files))
	for _, f := range old.Files {
		before[f.Path] = f
	}
	var out []string
	seen := make(map[string]bool, len(cur.Files))
	for _, f := range cur.Files {
		seen[f.Path] = true
		name := fileLabel(f)
		o := before[f.Path]
		switch {
		case f.Status == lint.NotLoaded && (o == nil || o.Status != lint.NotLoaded):
			out = append(out, name+": not loaded — "+Sanitize(f.Reason))
		case f.Status == lint.NotLoaded:
		case o == nil && f.Status == lint.Loaded:
			out = append(out, name+": new, loaded")
		case o == nil:
			out = append(out, name+": new, rejected — "+rejectRule(f))
		case o.Status == lint.Loaded && f.Status != lint.Loaded:
			out = append(out, name+": now rejected — "+rejectRule(f))
		case o.Status != lint.Loaded && f.Status == lint.Loaded:
			out = append(out, name+": now loaded")
		case o.SHA256 != f.SHA256 && f.Status != lint.Loaded:
			out = append(out, name+": saved, still rejected — "+rejectRule(f))
		case o.SHA256 != f.SHA256:
			out = append(out, name+": saved, loaded"+warningSuffix(f))
		}
	}
	for _, f := range old.Files {
		if !seen[f.Path] {
			out = append(out, fileLabel(f)+": removed")
		}
	}
	return out
}

// fileLabel names a file in a notice: its definition name, else its file name.
func fileLabel(f *lint.File) string {
	if n := strings.TrimSpace(f.Name()); n != "" {
		return Sanitize(n)
	}
	return Sanitize(filepath.Base(f.Path))
}

// rejectRule is the rule id that made the runtime reject f.
func rejectRule(f *lint.File) string {
	first := ""
	for _, d := range f.Diagnostics {
		if d.Severity != lint.Error {
			continue
		}
		if r, ok := lint.RuleByID(d.Rule); ok && r.Rejects {
			return d.Rule
		}
		if first == "" {
			first = d.Rule
		}
	}
	if first == "" {
		return "see the Definition pane"
	}
	return first
}

func warningSuffix(f *lint.File) string {
	_, w := lint.Count(f.Diagnostics)
	switch w {
	case 0:
		return ""
	case 1:
		return ", 1 warning"
	}
	return fmt.Sprintf(", %d warnings", w)
}
