package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
)

// listRow is one agent file in the list.
type listRow struct {
	file   *lint.File
	name   string // sanitised display name: the definition's name, else the file name
	source string // "local" or "feed:<name>"
	search string // lower-cased text the filter matches against
}

// listPane is the agent list on the left: loaded files first, then
// rejected ones, then those the runtime does not read (feed folders no
// enabled SkillFeeds entry names), each in runtime order, narrowed by a
// filter.
type listPane struct {
	rows     []listRow
	loaded   int   // rows[:loaded] are loaded
	rejected int   // rows[loaded:loaded+rejected] are rejected, the rest not loaded
	visible  []int // indexes into rows that pass the filter
	visLoad  int   // visible[:visLoad] are loaded
	visRej   int   // visible[visLoad:visLoad+visRej] are rejected
	sel      int   // index into visible
	offset   int   // first line shown
	filter   string
}

// setCatalog rebuilds the rows from a catalog, keeping the selection on the
// same file path when it is still there.
func (l *listPane) setCatalog(c *lint.Catalog) {
	keep := l.selectedPath()
	l.rows = l.rows[:0]
	l.loaded, l.rejected = 0, 0
	if c != nil {
		l.rows = appendRows(l.rows, c.Files, lint.Loaded)
		l.loaded = len(l.rows)
		l.rows = appendRows(l.rows, c.Files, lint.Rejected)
		l.rejected = len(l.rows) - l.loaded
		l.rows = appendRows(l.rows, c.Files, lint.NotLoaded)
	}
	old := l.sel
	l.applyFilter()
	l.sel = old
	if i := l.visibleIndex(keep); keep != "" && i >= 0 {
		l.sel = i
	}
	l.clamp()
}

// appendRows appends a row for each of files whose status is status, in
// their order.
func appendRows(rows []listRow, files []*lint.File, status lint.Status) []listRow {
	for _, f := range files {
		if f.Status == status {
			rows = append(rows, newListRow(f))
		}
	}
	return rows
}

// visibleIndex is the index among the visible rows of the first row of
// the file at path, or -1.
func (l *listPane) visibleIndex(path string) int {
	for i, ri := range l.visible {
		if l.rows[ri].file.Path == path {
			return i
		}
	}
	return -1
}

func newListRow(f *lint.File) listRow {
	name := f.Name()
	if strings.TrimSpace(name) == "" {
		name = filepath.Base(f.Path)
	}
	name = Sanitize(name)
	src := Sanitize(f.Source.String())
	return listRow{
		file:   f,
		name:   name,
		source: src,
		search: strings.ToLower(name + " " + filepath.Base(f.Path) + " " + src + " " + f.Status.String()),
	}
}

// setFilter narrows the list to rows whose name, file name, source or
// status contain every space-separated word of q (case-insensitive).
func (l *listPane) setFilter(q string) {
	keep := l.selectedPath()
	l.filter = q
	l.applyFilter()
	l.sel = 0
	for i, ri := range l.visible {
		if l.rows[ri].file.Path == keep {
			l.sel = i
		}
	}
	l.clamp()
}

func (l *listPane) applyFilter() {
	l.visible = l.visible[:0]
	l.visLoad, l.visRej = 0, 0
	words := strings.Fields(strings.ToLower(l.filter))
	for i := range l.rows {
		if matchesAll(l.rows[i].search, words) {
			l.visible = append(l.visible, i)
			switch {
			case i < l.loaded:
				l.visLoad++
			case i < l.loaded+l.rejected:
				l.visRej++
			}
		}
	}
}

func matchesAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// selected returns the selected file, or nil when the list is empty.
func (l *listPane) selected() *lint.File {
	if l.sel < 0 || l.sel >= len(l.visible) {
		return nil
	}
	return l.rows[l.visible[l.sel]].file
}

func (l *listPane) selectedPath() string {
	if f := l.selected(); f != nil {
		return f.Path
	}
	return ""
}

// selectPath moves the selection to the file at path, if it is visible.
func (l *listPane) selectPath(path string) bool {
	for i, ri := range l.visible {
		if l.rows[ri].file.Path == path {
			l.sel = i
			return true
		}
	}
	return false
}

// move moves the selection by n rows.
func (l *listPane) move(n int) {
	l.sel += n
	l.clamp()
}

func (l *listPane) clamp() {
	if l.sel >= len(l.visible) {
		l.sel = len(l.visible) - 1
	}
	if l.sel < 0 {
		l.sel = 0
	}
}

// sections returns where each non-empty section (loaded, rejected, not
// loaded) starts in visible, and its size.
func (l *listPane) sections() (starts, sizes []int) {
	for _, sz := range []struct{ start, n int }{
		{0, l.visLoad}, {l.visLoad, l.visRej}, {l.visLoad + l.visRej, len(l.visible) - l.visLoad - l.visRej},
	} {
		if sz.n > 0 {
			starts, sizes = append(starts, sz.start), append(sizes, sz.n)
		}
	}
	return starts, sizes
}

// lineOf returns the line (0-based, headings included) the visible row i
// is drawn on: each section has a heading, and a blank line before it
// when another comes first.
func (l *listPane) lineOf(i int) int {
	line := i
	starts, _ := l.sections()
	for k, start := range starts {
		if i < start {
			break
		}
		line++ // the heading
		if k > 0 {
			line++ // the blank line between the sections
		}
	}
	return line
}

// lines is how many lines the list takes in all.
func (l *listPane) lines() int {
	n := len(l.visible)
	if n == 0 {
		return 0
	}
	return l.lineOf(n-1) + 1
}

// scrollTo keeps the selected row within a window of h lines.
func (l *listPane) scrollTo(h int) {
	if h <= 0 {
		return
	}
	line := l.lineOf(l.sel)
	if l.sel == 0 {
		line = 0 // show the heading above the first row
	}
	if line < l.offset {
		l.offset = line
	}
	if line >= l.offset+h {
		l.offset = line - h + 1
	}
	if maxOff := l.lines() - h; l.offset > maxOff {
		l.offset = max(maxOff, 0)
	}
	if l.offset < 0 {
		l.offset = 0
	}
}

// render draws the list in exactly h lines of w columns. Only the lines on
// screen are built, so the cost does not grow with the catalog.
func (l *listPane) render(st *Styles, w, h int, focused bool) []string {
	if len(l.visible) == 0 {
		msg := "No agent definitions."
		if l.filter != "" {
			msg = "Nothing matches the filter."
		}
		var out []string
		for _, l := range wrap(msg, w) {
			out = append(out, st.Dim.Render(l))
		}
		return box(out, w, h)
	}
	l.scrollTo(h)
	out := make([]string, 0, h)
	line := l.offset
	for i := l.rowAtLine(l.offset); i < len(l.visible) && line < l.offset+h; i++ {
		for want := l.lineOf(i); line < want && line < l.offset+h; line++ {
			out = append(out, l.headingAt(st, line, w))
		}
		if line >= l.offset+h {
			break
		}
		out = append(out, l.renderRow(st, i, w, focused))
		line++
	}
	return box(out, w, h)
}

// rowAtLine returns the first visible row drawn on or after line.
func (l *listPane) rowAtLine(line int) int {
	lo, hi := 0, len(l.visible)
	for lo < hi {
		mid := (lo + hi) / 2
		if l.lineOf(mid) < line {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// headingAt renders the non-row line at line: a section heading or the
// blank line between sections.
func (l *listPane) headingAt(st *Styles, line, w int) string {
	starts, sizes := l.sections()
	for k, start := range starts {
		if line != l.lineOf(start)-1 {
			continue
		}
		title := "Loaded"
		switch {
		case start >= l.visLoad+l.visRej:
			title = "Not loaded"
		case start >= l.visLoad:
			title = "Rejected"
		}
		return st.ListSection.Render(cut(fmt.Sprintf("%s (%d)", title, sizes[k]), w))
	}
	return ""
}

func (l *listPane) renderRow(st *Styles, i, w int, focused bool) string {
	r := &l.rows[l.visible[i]]
	mark, markStyle := "✓", st.MarkLoaded
	switch {
	case r.file.Status == lint.NotLoaded:
		mark, markStyle = "○", st.Dim
	case r.file.Status != lint.Loaded:
		mark, markStyle = "✗", st.MarkRejected
	case hasFindings(r.file):
		mark, markStyle = "!", st.MarkWarning
	}
	// Layout: "›✓ name ... source": a cursor column, the mark, the name,
	// and the source right-aligned.
	cursor := " "
	if i == l.sel {
		cursor = "›"
	}
	// The source label shows in full when the name fits beside it, else
	// as "feed". A feed row keeps "feed", its name cut if need be (two
	// agents of one name, local and feed, stay apart), while the name
	// keeps 4 columns; a local row drops "local" rather than cut its name
	// (the Definition pane says it).
	avail := w - 3
	src := r.source
	nameNeed := ansi.StringWidth(r.name)
	if nameNeed+1+ansi.StringWidth(src) > avail {
		src = ""
		if r.file.Source.IsFeed() && avail-1-len("feed") >= 4 {
			src = "feed"
		}
	}
	srcW := ansi.StringWidth(src)
	nameW := avail
	if src != "" {
		nameW = avail - srcW - 1
	}
	text := fit(r.name, nameW)
	if src != "" {
		text += " " + src
	}
	if i == l.sel {
		sel := st.ListCursor
		if focused {
			sel = st.ListSelected
		}
		return sel.Render(cursor + mark + " " + text)
	}
	if src != "" {
		text = st.ListItem.Render(fit(r.name, nameW)) + " " + st.Source.Render(src)
	} else {
		text = st.ListItem.Render(text)
	}
	return cursor + markStyle.Render(mark) + " " + text
}

// hasFindings reports whether a file carries any warning or error. A
// loaded file can carry errors the runtime does not reject it for (an
// encoding error, say), so "loaded" alone is not "clean".
func hasFindings(f *lint.File) bool {
	for _, d := range f.Diagnostics {
		if d.Severity != lint.Off {
			return true
		}
	}
	return false
}
