package tools

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/preview/request"
)

// file_search's bounds, as NetClaw's FileSearchTool has them
// (src/Netclaw.Actors/Tools/FileSearchTool.cs @d24630df).
const (
	searchDefaultResults = 50
	searchMaxResults     = 200
	searchDefaultEntries = 2_000
	searchMaxEntries     = 10_000
	searchDefaultBytes   = 1 << 20
	searchMaxBytes       = 4 << 20
	searchExcerptChars   = 400
)

// FileSearch is file_search's name.
const FileSearch = "file_search"

// SearchTool returns file_search on the workspace: a walk of the view
// (the run's writes included) in the runtime's order, matching file names
// or text lines ignoring case, with the runtime's bounds and result
// format.
func (w *Workspace) SearchTool() Tool {
	return &builtin{spec: Spec{Name: FileSearch,
		Description: "Recursively search authorized workspace files by literal file name or UTF-8 text without shell.",
		Parameters: schema([][3]string{{"Root", "string", "Authorized directory to search."}, {"Query", "string", "Literal text to find."},
			{"Mode", "string", "Search mode: 'name' or 'content'."}, {"MaxResults", "integer", "Maximum matches returned."},
			{"MaxFiles", "integer", "Maximum filesystem entries inspected."}, {"MaxContentBytes", "integer", "Maximum file-content bytes inspected."}}, "Root", "Query", "Mode")},
		call: w.fileSearch}
}

// bound reads an optional bounded integer argument.
func boundArg(a args, name string, def, max int) (int, string) {
	n, ok, err := a.integer(name)
	if err != nil || ok && (n < 1 || n > max) {
		return 0, fmt.Sprintf("Error: '%s' must be between 1 and %d.", name, max)
	}
	if !ok {
		return def, ""
	}
	return n, ""
}

// fileSearch is file_search: it checks the arguments and the root, walks
// the view from the root, and reports the matches with the walk's
// counts.
func (w *Workspace) fileSearch(ctx context.Context, a args, _ Meta) Result {
	st, bad := searchArgs(a)
	if bad != nil {
		return *bad
	}
	root, _, _ := a.str("Root")
	pl, refused := w.resolve(root)
	if refused != nil {
		return *refused
	}
	if _, fi, err := pl.ov.Lookup(pl.rel); err != nil || !fi.IsDir() {
		if err != nil && !isNotExist(err) {
			return w.fileError(pl, err, true)
		}
		return Errorf("%s", request.DirectoryNotFound(pl.show()))
	}
	if !w.walkSearch(ctx, st, pl) {
		return Errorf("Error: file_search was cancelled.")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mode=%s\nroot=%s\nmatches=%d\nvisited=%d\nskipped=%d\ncontent_bytes=%d\ntruncated=%s\n",
		st.mode, pl.show(), len(st.matches), st.visited, st.skipped, st.contentBytes, strconv.FormatBool(st.truncated))
	for _, m := range st.matches {
		b.WriteString(safe(m) + "\n")
	}
	return Result{Text: strings.TrimRight(b.String(), " \t\r\n"), Label: LabelReal, Cut: st.truncated}
}

// searchArgs reads file_search's query, mode and bounds into the state
// of a search, or returns the error result for the first bad one.
func searchArgs(a args) (*searchState, *Result) {
	query, _, _ := a.str("Query")
	if strings.TrimSpace(query) == "" {
		r := Errorf("Error: 'Query' is required.")
		return nil, &r
	}
	mode, _, _ := a.str("Mode")
	mode = strings.ToLower(strings.TrimSpace(mode))
	if mode != "name" && mode != "content" {
		r := Errorf("Error: 'Mode' must be either 'name' or 'content'.")
		return nil, &r
	}
	results, e1 := boundArg(a, "MaxResults", searchDefaultResults, searchMaxResults)
	entries, e2 := boundArg(a, "MaxFiles", searchDefaultEntries, searchMaxEntries)
	maxBytes, e3 := boundArg(a, "MaxContentBytes", searchDefaultBytes, searchMaxBytes)
	for _, e := range []string{e1, e2, e3} {
		if e != "" {
			r := Errorf("%s", e)
			return nil, &r
		}
	}
	return &searchState{query: strings.ToLower(query), mode: mode, results: results, entries: entries, bytes: maxBytes}, nil
}

// walkSearch walks the view from pl breadth-first, each folder's entries
// in the runtime's order, matching the files it meets, until the walk
// ends or a bound is reached (then st is marked truncated). It returns
// false when ctx ended first.
func (w *Workspace) walkSearch(ctx context.Context, st *searchState, pl place) bool {
	pending := []string{pl.rel}
	for len(pending) > 0 {
		if ctx.Err() != nil {
			return false
		}
		p := pending[0]
		pending = pending[1:]
		if strings.ContainsFunc(p, unicode.IsControl) {
			st.skipped++
			continue
		}
		_, fi, err := pl.ov.Lookup(p)
		if err != nil {
			st.skipped++
			continue
		}
		if fi.IsDir() {
			pending = st.enter(pl, p, pending)
			continue
		}
		if w.searchFile(st, pl, p, len(pending) > 0) {
			break
		}
	}
	if len(pending) > 0 {
		st.truncated = true
	}
	return true
}

// enter adds the entries of the folder p to pending, in order, counting
// each as visited, up to the bound on entries; links are skipped, as
// NetClaw skips reparse points.
func (st *searchState) enter(pl place, p string, pending []string) []string {
	ents, err := pl.ov.ReadDir(p)
	if err != nil {
		st.skipped++
		return pending
	}
	for _, e := range ents {
		if st.visited >= st.entries {
			st.truncated = true
			break
		}
		st.visited++
		if e.Mode&fs.ModeSymlink != 0 {
			st.skipped++ // NetClaw skips reparse points
			continue
		}
		pending = insertSorted(pending, path.Join(p, e.Name))
	}
	return pending
}

// searchFile matches the file p, by name or by its lines, and reports
// whether the search must stop: its content bytes or its results are
// used up (more says whether paths were still pending).
func (w *Workspace) searchFile(st *searchState, pl place, p string, more bool) bool {
	relTo := strings.TrimPrefix(strings.TrimPrefix(p, pl.rel), "/")
	if pl.rel == "." {
		relTo = p
	}
	if st.mode == "name" {
		if strings.Contains(strings.ToLower(path.Base(p)), st.query) {
			st.matches = append(st.matches, relTo)
		}
	} else {
		w.searchContent(st, pl, p, relTo)
		if st.contentBytes >= st.bytes {
			st.truncated = st.truncated || more
			return true
		}
	}
	if len(st.matches) >= st.results {
		st.truncated = true
		return true
	}
	return false
}

// searchState is one file_search's bounds and what it found.
type searchState struct {
	query, mode                    string
	results, entries, bytes        int
	matches                        []string
	visited, skipped, contentBytes int
	truncated                      bool
}

// searchContent matches the lines of one file.
func (w *Workspace) searchContent(st *searchState, pl place, p, relTo string) {
	remaining := st.bytes - st.contentBytes
	if remaining <= 0 {
		st.truncated = true
		return
	}
	data, err := pl.ov.ReadFile(p)
	if err != nil {
		st.skipped++
		return
	}
	if len(data) > remaining {
		data = data[:remaining]
		st.truncated = true
	}
	st.contentBytes += len(data)
	if !utf8.Valid(data) {
		// A cut may split a character; anything else is not UTF-8 text.
		trimmed := data
		for i := 0; i < 3 && len(trimmed) > 0 && !utf8.Valid(trimmed); i++ {
			trimmed = trimmed[:len(trimmed)-1]
		}
		if !utf8.Valid(trimmed) {
			st.skipped++
			return
		}
		data = trimmed
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	for i, line := range strings.Split(text, "\n") {
		if !strings.Contains(strings.ToLower(line), st.query) {
			continue
		}
		st.matches = append(st.matches, fmt.Sprintf("%s:%d: %s", relTo, i+1, excerpt(line)))
		if len(st.matches) >= st.results {
			return
		}
	}
}

// excerpt makes a matched line safe to show: control characters but tab
// become spaces, at most searchExcerptChars characters, trimmed.
func excerpt(line string) string {
	var b strings.Builder
	n := 0
	for _, r := range line {
		if n >= searchExcerptChars {
			break
		}
		if unicode.IsControl(r) && r != '\t' {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// insertSorted inserts s into the sorted slice ss (ordinal order, as the
// runtime's SortedSet).
func insertSorted(ss []string, s string) []string {
	i := sort.SearchStrings(ss, s)
	if i < len(ss) && ss[i] == s {
		return ss
	}
	ss = append(ss, "")
	copy(ss[i+1:], ss[i:])
	ss[i] = s
	return ss
}
