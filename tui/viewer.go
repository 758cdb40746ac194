package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/charmbracelet/x/ansi"
)

// maxViewBytes is the most of one file the viewer reads.
const maxViewBytes = 4 << 20

// viewer shows the files of a run folder (or one file) in a scrollable
// pane: markdown rendered, the transcript as a readable log, JSON as is.
// ViewerKeys move between the files and close it.
type viewer struct {
	keys   KeyMap
	root   string
	title  string   // root as shown
	files  []string // paths, in the order they are offered
	cur    int
	docs   map[string]*viewerDoc
	scroll int
	err    error // listing the folder failed
	loaded bool  // the listing has arrived
	// fullscreen is set for `agentdesk open`: the viewer is the program.
	fullscreen bool
	// inMemory is set for text that is no file (a call to approve): the
	// pager has nothing to open.
	inMemory bool
	md       *markdownCache
	style    string
	environ  []string
	page     int // lines per page, from the last render
	// stGen is the root's count of style changes, and shown the lines of
	// the file last drawn, kept until the file, the width, the styles or
	// its markdown rendering change: a frame only slices them.
	stGen *int
	shown viewerLines
}

// viewerLines is the current file's lines at one width, and what they
// were built from.
type viewerLines struct {
	doc   *viewerDoc
	w     int
	stGen int
	md    bool // built from the markdown rendering
	lines []string
}

// viewerDoc is one file's text, once read.
type viewerDoc struct {
	text   string
	digest string
	err    error
	cut    bool // the file was larger than maxViewBytes
	binary bool
}

// Messages of the viewer.
type (
	viewerListedMsg struct {
		root  string
		files []string
		err   error
	}
	viewerReadMsg struct {
		path string
		doc  *viewerDoc
	}
)

// openViewer opens path (a folder of artifacts or one file) in the viewer.
func (m *Model) openViewer(path string) tea.Cmd {
	v := &viewer{keys: m.keys, root: path, title: m.shortPath(path), docs: map[string]*viewerDoc{}, md: &m.md, style: markdownStyle(&m.st), environ: m.opts.Environ, fullscreen: m.opts.OpenPath != "", stGen: &m.stGen}
	m.overlays.push(v)
	return listArtifactsCmd(path)
}

// listArtifactsCmd lists the files of a folder, or the one file.
func listArtifactsCmd(path string) tea.Cmd {
	return func() tea.Msg {
		files, err := runfolder.ArtifactFiles(path)
		return viewerListedMsg{root: path, files: files, err: err}
	}
}

// readArtifactCmd reads one file for the viewer.
func readArtifactCmd(path string) tea.Cmd {
	return func() tea.Msg {
		doc := &viewerDoc{}
		f, err := os.Open(path)
		if err != nil {
			doc.err = fmt.Errorf("reading %s: %w", path, err)
			return viewerReadMsg{path: path, doc: doc}
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxViewBytes+1))
		if err != nil {
			doc.err = fmt.Errorf("reading %s: %w", path, err)
			return viewerReadMsg{path: path, doc: doc}
		}
		if len(data) > maxViewBytes {
			data, doc.cut = data[:maxViewBytes], true
		}
		doc.binary = bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0
		h := fnv.New64a()
		h.Write(data)
		doc.digest = fmt.Sprintf("%s#%x", path, h.Sum64())
		doc.text = string(data)
		return viewerReadMsg{path: path, doc: doc}
	}
}

// current is the path shown, or "".
func (v *viewer) current() string {
	if v.cur < 0 || v.cur >= len(v.files) {
		return ""
	}
	return v.files[v.cur]
}

// need returns the Cmds the next frame wants: the file read, the markdown
// rendered at width w.
func (v *viewer) need(w int) tea.Cmd {
	p := v.current()
	if p == "" {
		return nil
	}
	doc, ok := v.docs[p]
	if !ok {
		v.docs[p] = nil // reading
		return readArtifactCmd(p)
	}
	if doc == nil || doc.err != nil || doc.binary || !isMarkdown(p) {
		return nil
	}
	return v.md.request(markdownKey{digest: doc.digest, width: w, style: v.style}, doc.text)
}

func isMarkdown(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".md" || ext == ".markdown"
}

func (v *viewer) update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	vk := v.keys.Viewer
	switch {
	case key.Matches(k, vk.Close):
		return nil, true
	case key.Matches(k, vk.NextFile):
		if len(v.files) > 0 {
			v.cur = (v.cur + 1) % len(v.files)
			v.scroll = 0
		}
	case key.Matches(k, vk.PrevFile):
		if len(v.files) > 0 {
			v.cur = (v.cur + len(v.files) - 1) % len(v.files)
			v.scroll = 0
		}
	case key.Matches(k, vk.Pager):
		if p := v.current(); p != "" && !v.inMemory {
			return pagerCmd(v.environ, p), false
		}
	default:
		if d, ok := v.keys.Move.delta(k, max(v.page-1, 1)); ok {
			v.scroll = min(v.scroll+d, 1<<30)
		}
	}
	v.scroll = max(v.scroll, 0)
	return nil, false
}

// lines renders the current file at width w. A file's lines are built
// once per width (and styles, and markdown rendering) and then reused, so
// a frame costs the same for a large file as for a small one.
func (v *viewer) lines(st *Styles, w int) []string {
	switch {
	case !v.loaded:
		return dimLines(st, "Listing "+Sanitize(v.root)+"…", w)
	case v.err != nil:
		return wrap(Sanitize(v.err.Error()), w)
	}
	p := v.current()
	doc := v.docs[p]
	switch {
	case doc == nil:
		return []string{st.Dim.Render("Reading…")}
	case doc.err != nil:
		return wrap(Sanitize(doc.err.Error()), w)
	case doc.binary:
		return dimLines(st, "A binary file: not shown.", w)
	}
	rendered := ""
	if isMarkdown(p) {
		rendered, _ = v.md.get(markdownKey{digest: doc.digest, width: w, style: v.style})
	}
	key := viewerLines{doc: doc, w: w, md: rendered != ""}
	if v.stGen != nil {
		key.stGen = *v.stGen
	}
	if c := v.shown; c.doc == key.doc && c.w == key.w && c.stGen == key.stGen && c.md == key.md {
		return c.lines
	}
	var out []string
	if filepath.Base(p) == runfolder.TruncatedOutputFile {
		for _, l := range wrap("PARTIAL: the reply was cut off at the output limit (output_truncated)", w) {
			out = append(out, st.Warning.Render(l))
		}
		out = append(out, "")
	}
	switch {
	case rendered != "":
		out = append(out, strings.Split(rendered, "\n")...)
	case strings.HasSuffix(p, ".jsonl"):
		out = append(out, transcriptLines(st, doc.text, w)...)
	case strings.HasSuffix(p, ".patch"):
		out = append(out, patchLines(st, doc.text, w)...)
	default:
		out = append(out, wrap(SanitizeText(doc.text), w)...)
	}
	if doc.cut {
		out = append(out, "", st.Warning.Render(fmt.Sprintf("(cut at %d MiB: press %s to read it all in $PAGER)", maxViewBytes>>20, keyName(v.keys.Viewer.Pager))))
	}
	key.lines = out[:len(out):len(out)]
	v.shown = key
	return key.lines
}

func (v *viewer) render(st *Styles, w, h int) []string {
	if !v.fullscreen {
		w, h = max(w-4, 10), max(h-2, 5)
	}
	inner := max(w-4, 6)
	bodyH := max(h-6, 1) // border 2, title, file tabs, rule, footer
	v.page = bodyH
	content := v.lines(st, inner)
	v.scroll = min(v.scroll, max(len(content)-bodyH, 0))
	shown := content[v.scroll:min(v.scroll+bodyH, len(content))]

	var tabs []string
	for i, f := range v.files {
		name := Sanitize(filepath.Base(f))
		if filepath.Base(f) == runfolder.TruncatedOutputFile {
			name += " (partial)"
		}
		if i == v.cur {
			tabs = append(tabs, st.TabActive.Render(" "+name+" "))
		} else {
			tabs = append(tabs, st.TabInactive.Render(" "+name+" "))
		}
	}
	lines := []string{fit(strings.Join(tabs, ""), inner), st.Separator.Render(strings.Repeat("─", inner))}
	lines = append(lines, box(shown, inner, bodyH)...)
	pos := ""
	if len(content) > bodyH {
		pos = fmt.Sprintf("%d–%d of %d · ", v.scroll+1, v.scroll+len(shown), len(content))
	}
	hint := shortHelp(st, " · ", append(v.keys.Viewer.ShortHelp()[1:], v.keys.Move.ShortHelp()...), v.keys.Viewer.ShortHelp()[:1], max(inner-ansi.StringWidth(pos), 1))
	lines = append(lines, st.Dim.Render(pos)+hint)
	return frameExact(st, Sanitize(v.title), lines, inner)
}

// frameExact draws lines in the overlay box at exactly inner columns.
func frameExact(st *Styles, title string, lines []string, inner int) []string {
	body := make([]string, 0, len(lines)+1)
	// Keep the end of a long path: the run folder, the file.
	body = append(body, st.OverlayTitle.Render(fit(cutLeft(title, inner), inner)))
	for _, l := range lines {
		body = append(body, fit(l, inner))
	}
	return strings.Split(st.Overlay.Render(strings.Join(body, "\n")), "\n")
}

// transcriptLines renders transcript.jsonl as a log: one line per event,
// consecutive text or thinking pieces joined.
func transcriptLines(st *Styles, text string, w int) []string {
	var out []string
	var pend transcriptRun
	for _, raw := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		var e runfolder.TranscriptEntry
		if err := json.Unmarshal([]byte(raw), &e); err != nil || e.Type == "" {
			out = pend.flush(st, w, out)
			out = append(out, wrap(Sanitize(raw), w)...)
			continue
		}
		if e.Type == "text" || e.Type == "thinking" {
			if pend.kind != e.Type {
				out = pend.flush(st, w, out)
				pend.kind, pend.at = e.Type, e.TMS
			}
			pend.text.WriteString(e.Text)
			continue
		}
		out = pend.flush(st, w, out)
		detail, more := transcriptDetail(e, w)
		out = append(out, labelledLines(transcriptLabel(e.TMS, e.Type), detail, w)...)
		for _, l := range more {
			out = append(out, st.Dim.Render(strings.Repeat(" ", transcriptIndent+2)+l))
		}
	}
	return pend.flush(st, w, out)
}

// transcriptRun gathers consecutive text or thinking pieces of a
// transcript, which the log shows as one entry.
type transcriptRun struct {
	kind string // "text" or "thinking"; "" when nothing is gathered
	at   int64  // the first piece's time
	text strings.Builder
}

// flush appends the gathered pieces to out as one labelled entry
// (thinking dimmed as such), empties the run, and returns out.
func (r *transcriptRun) flush(st *Styles, w int, out []string) []string {
	if r.kind == "" {
		return out
	}
	for _, l := range labelledLines(transcriptLabel(r.at, r.kind), r.text.String(), w) {
		if r.kind == "thinking" {
			l = st.Thinking.Render(l)
		}
		out = append(out, l)
	}
	r.kind = ""
	r.text.Reset()
	return out
}

// labelledLines wraps text, made safe to show, beside label: the first
// line starts with the label, the others with as many spaces.
func labelledLines(label, text string, w int) []string {
	lines := wrap(Sanitize(text), max(w-len(label), 10))
	for i, l := range lines {
		p := strings.Repeat(" ", len(label))
		if i == 0 {
			p = label
		}
		lines[i] = p + l
	}
	return lines
}

// transcriptDetail is what the log shows of a transcript entry other
// than text or thinking, and the lines under it (a tool result's text,
// wrapped to fit w under the label).
func transcriptDetail(e runfolder.TranscriptEntry, w int) (detail string, more []string) {
	switch e.Type {
	case "request":
		return fmt.Sprintf("%s · %s → %s", e.Protocol, e.Model, e.URL), nil
	case "response":
		return fmt.Sprintf("HTTP %d", e.Status), nil
	case "tool_call":
		if e.Tool != nil {
			return e.Tool.Name + " " + e.Tool.Arguments, nil
		}
	case "tool_result":
		if head, _, ok := toolResultHead(e.Tool); ok {
			return head, toolResultText(e.Tool.Result, max(w-transcriptIndent-2, 10))
		}
	case "finish":
		if e.Finish != nil {
			return *e.Finish, nil
		}
	case "usage":
		if e.Usage != nil {
			return fmt.Sprintf("%d in / %d out / %d reasoning", e.Usage.InputTokens, e.Usage.OutputTokens, e.Usage.ReasoningTokens), nil
		}
	case "outcome", "watchdog":
		return strings.TrimSpace(string(e.Outcome) + " " + e.Reason + " " + e.Text), nil
	default:
		return e.Text, nil
	}
	return "", nil
}

func msDur(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// transcriptIndent is the width of a transcript line's label: the time,
// and the entry type padded to the longest one (tool_result).
const transcriptIndent = 7 + 1 + 11 + 1

// transcriptLabel is "  491ms tool_call   ", transcriptIndent wide.
func transcriptLabel(ms int64, typ string) string {
	return fmt.Sprintf("%7s %-11s ", dur(msDur(ms)), typ)
}

// pagerCmd opens path in $PAGER (else less) and gives the terminal to it.
func pagerCmd(environ []string, path string) tea.Cmd {
	return func() tea.Msg {
		pager := strings.Fields(envLookup(environ, "PAGER"))
		if len(pager) == 0 {
			pager = []string{"less"}
		}
		bin, err := exec.LookPath(pager[0])
		if err != nil {
			return openEditorMsg{err: fmt.Errorf("pager %q not found: set $PAGER: %w", pager[0], err)}
		}
		c := exec.Command(bin, append(pager[1:], path)...)
		c.Env = environ
		return openEditorMsg{cmd: c, path: path, pager: true}
	}
}
