package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/overlay"
)

// The built-in tools' names.
const (
	FileRead     = "file_read"
	FileList     = "file_list"
	FileWrite    = "file_write"
	FileEdit     = "file_edit"
	ShellExecute = "shell_execute"
)

// Caps of the file tools.
const (
	// MaxReadChars caps the characters file_read returns in one call.
	MaxReadChars = 50_000
	// MaxListEntries caps the entries file_list shows.
	MaxListEntries = request.MaxListEntries
)

// Workspace is the project a run's file tools work in: an overlay of it,
// so reads see the run's writes and the project never changes.
type Workspace struct {
	ov *overlay.Overlay
	// session is the overlay of the run's session storage envelope, when
	// it has one: absolute paths inside it reach it.
	session *overlay.Overlay
	// sessionDir is session_dir's path inside the session overlay ("" for
	// its root): where spilled results and fetched pages go.
	sessionDir string
	// tempDir is temp_dir, the real folder shell commands get as TMPDIR,
	// TMP and TEMP ("" for none: they keep agentdesk's).
	tempDir string
	// box is how commands are confined.
	box Sandbox
}

// Sandbox is how the workspace's shell commands are confined (see
// runner/sandbox): the zero value sandboxes them with the network off.
type Sandbox struct {
	// Off runs commands unsandboxed, on the real filesystem
	// (--no-sandbox).
	Off bool
	// Network lets sandboxed commands and stdio MCP servers reach the
	// network (--allow-network).
	Network bool
	// NetworkServers names the stdio MCP servers that may reach the
	// network when Network is off (--allow-network-mcp).
	NetworkServers []string
	// PassEnv names secret-looking variables commands still get
	// (--pass-env).
	PassEnv []string
}

// WithSandbox sets how the workspace's commands are confined; it
// returns w.
func (w *Workspace) WithSandbox(s Sandbox) *Workspace {
	w.box = s
	return w
}

// Sandbox returns how the workspace's commands are confined.
func (w *Workspace) Sandbox() Sandbox { return w.box }

// NewWorkspace returns the workspace of an overlay of the project.
func NewWorkspace(ov *overlay.Overlay) *Workspace { return &Workspace{ov: ov} }

// WithSession adds the overlay of the run's session storage envelope and
// the folders the first message names in it (storage): absolute paths
// inside the envelope reach it, spilled results and fetched pages go to
// storage.SessionDir, and shell commands get storage.TempDir as their
// temporary folder (made when a command runs), as NetClaw's
// ManagedTemporaryEnvironment gives them. A folder outside the envelope
// is left out. It returns w.
func (w *Workspace) WithSession(s *overlay.Overlay, storage request.SessionStorage) *Workspace {
	w.session, w.sessionDir, w.tempDir = s, "", ""
	if s == nil {
		return w
	}
	if rel, err := s.Rel(storage.SessionDir); err == nil && storage.SessionDir != "" {
		w.sessionDir = rel
	}
	if _, err := s.Rel(storage.TempDir); err == nil && storage.TempDir != "" {
		w.tempDir = storage.TempDir
	}
	return w
}

// sessionFile returns the path in the session overlay of a file name
// relative to session_dir.
func (w *Workspace) sessionFile(name string) string {
	return path.Join(w.sessionDir, name)
}

// Overlay returns the workspace's overlay of the project.
func (w *Workspace) Overlay() *overlay.Overlay { return w.ov }

// Session returns the overlay of the session folder, or nil.
func (w *Workspace) Session() *overlay.Overlay { return w.session }

// place is a checked path: the overlay it lives in and its path there.
type place struct {
	ov  *overlay.Overlay
	rel string
}

// show returns the absolute path the runtime would show.
func (p place) show() string {
	return filepath.Join(p.ov.Project(), filepath.FromSlash(p.rel))
}

// resolve checks a path argument: relative paths are the project's, an
// absolute one must lie in the project or the session folder. The error
// Result words a refusal.
func (w *Workspace) resolve(p string) (place, *Result) {
	if w.session != nil && filepath.IsAbs(filepath.FromSlash(p)) {
		if rel, err := w.session.Rel(p); err == nil {
			return place{w.session, rel}, nil
		}
	}
	rel, err := w.ov.Rel(p)
	if err != nil {
		r := Refusef("Error: Access denied: %s is outside the project folder this trial runs in (%s). Give a path inside it.", safe(p), w.ov.Project())
		return place{}, &r
	}
	return place{w.ov, rel}, nil
}

// fileError words an overlay error as the runtime does.
func (w *Workspace) fileError(pl place, err error, dir bool) Result {
	shown := pl.show()
	switch {
	case errors.Is(err, overlay.ErrOutside):
		return Refusef("Error: Access denied: %s leads outside the project folder this trial runs in.", shown)
	case errors.Is(err, fs.ErrNotExist):
		if dir {
			return Errorf("%s", request.DirectoryNotFound(shown))
		}
		return Errorf("%s", request.FileNotFound(shown))
	case errors.Is(err, fs.ErrPermission):
		return Errorf("%s", request.PermissionDenied(shown))
	}
	return Errorf("Error: %s", err.Error())
}

// safe shows a string from a model on one line, Go-quoted when it holds
// control characters, at most 200 bytes.
func safe(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			b, _ := json.Marshal(s)
			return string(b)
		}
	}
	return s
}

// builtin is a tool defined by a function.
type builtin struct {
	spec Spec
	call func(ctx context.Context, a args, m Meta) Result
}

func (b *builtin) Spec() Spec { return b.spec }

func (b *builtin) Call(ctx context.Context, raw json.RawMessage) Result {
	m, _, _ := SplitMeta(raw)
	a, err := parseArgs(raw)
	if err != nil {
		return Errorf("Error: Invalid arguments for %s: %v", b.spec.Name, err)
	}
	if err := ctx.Err(); err != nil {
		return Errorf("Error: %s was cancelled.", b.spec.Name)
	}
	return b.call(ctx, a, m)
}

// schema builds a parameter schema in the generator's shape: the
// parameters, then the three meta properties; required lists req and
// _rationale.
func schema(props [][3]string, req ...string) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for _, p := range props {
		name, _ := json.Marshal(p[0])
		desc, _ := json.Marshal(p[2])
		b.Write(name)
		b.WriteString(`:{"type":"` + p[1] + `","description":`)
		b.Write(desc)
		b.WriteString(`},`)
	}
	b.WriteString(`"_rationale":{"type":"string","description":"State your intent for this tool call in one sentence — what are you trying to accomplish and why?"},`)
	b.WriteString(`"_timeout_seconds":{"type":"integer","description":"Requested timeout in seconds. Only set when the default is insufficient."},`)
	b.WriteString(`"_background":{"type":"boolean","description":"Set to true to run this tool in the background and receive results later."}},"required":[`)
	for _, r := range req {
		b.WriteString(`"` + r + `",`)
	}
	b.WriteString(`"_rationale"]}`)
	return b.Bytes()
}

// FileTools returns file_read, file_list, file_write and file_edit on the
// workspace.
func (w *Workspace) FileTools() []Tool {
	return []Tool{
		&builtin{spec: Spec{Name: FileRead, Description: "Read text files or inspect non-text files. For large text files, use StartLine and Limit to read sections.",
			Parameters: schema([][3]string{{"Path", "string", "Absolute path to the file to read"}, {"StartLine", "integer", "Line number to start reading at, 1-based."}, {"Limit", "integer", "Maximum number of lines to read."}}, "Path")},
			call: w.fileRead},
		&builtin{spec: Spec{Name: FileList, Description: "Use for a known local directory listing. List its immediate files and subdirectories without shell.",
			Parameters: schema([][3]string{{"Path", "string", "Absolute path to the directory to list"}}, "Path")},
			call: w.fileList},
		&builtin{spec: Spec{Name: FileWrite, Description: "Use for creating or replacing a known local file without shell. Write content and create parent directories when needed.",
			Parameters: schema([][3]string{{"Path", "string", "Absolute path to the file to write"}, {"Content", "string", "Content to write to the file"}}, "Path", "Content")},
			call: w.fileWrite},
		&builtin{spec: Spec{Name: FileEdit, Description: "Use for changing a known local file without shell. Apply targeted text replacement with OldString/NewString, or write entire content with Content.",
			Parameters: schema([][3]string{{"Path", "string", "Absolute path to the file"}, {"OldString", "string", "The exact text to find in the file"}, {"NewString", "string", "The text to replace OldString with"}, {"ReplaceAll", "boolean", "Replace all occurrences instead of just the first (default: false)"}, {"Content", "string", "Full content to write to the file"}}, "Path")},
			call: w.fileEdit},
	}
}

func (w *Workspace) fileRead(_ context.Context, a args, _ Meta) Result {
	p, _, err := a.str("Path")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if strings.TrimSpace(p) == "" {
		return Errorf("%s", request.PathRequired(FileRead))
	}
	start, hasStart, err := a.integer("StartLine")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	limit, hasLimit, err := a.integer("Limit")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	pl, refused := w.resolve(p)
	if refused != nil {
		return *refused
	}
	_, fi, err := pl.ov.Lookup(pl.rel)
	if err != nil {
		return w.fileError(pl, err, false)
	}
	shown := pl.show()
	if fi.IsDir() {
		return Errorf("Error: %s is a directory (use file_list for directories)", shown)
	}
	data, err := pl.ov.ReadFile(pl.rel)
	if err != nil {
		return w.fileError(pl, err, false)
	}
	if res, binary := notText(shown, data, fi.Size()); binary {
		return res
	}
	text := string(data)
	if !hasStart && !hasLimit {
		return readWhole(text)
	}
	if !hasStart || start < 1 {
		start = 1
	}
	if !hasLimit {
		limit = 0
	}
	return readRange(text, start, limit)
}

// notText is file_read's answer for the file shown, holding data (size
// bytes), when it is not UTF-8 text (a NUL in its first 8,000 bytes, or
// not valid UTF-8): its type and size. binary is false for text.
func notText(shown string, data []byte, size int64) (res Result, binary bool) {
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) < 0 && utf8.Valid(data) {
		return Result{}, false
	}
	mime := http.DetectContentType(head)
	cat := strings.SplitN(mime, "/", 2)[0]
	return Result{Text: request.NotText(shown, strings.SplitN(mime, ";", 2)[0], cat, humanSize(size),
		"File is not readable as UTF-8 text. Raw binary output is not returned by file_read.")}, true
}

// readWhole is file_read's result for a whole text: the text, cut at
// MaxReadChars characters with the runtime's note.
func readWhole(text string) Result {
	if n := utf8.RuneCountInString(text); n > MaxReadChars {
		return Result{Text: string([]rune(text)[:MaxReadChars]) + request.FileReadHeadCut(MaxReadChars), Label: LabelReal, Cut: true}
	}
	return Result{Text: text, Label: LabelReal}
}

// readRange is file_read's result for a range of lines of text: from
// line start (from 1), limit lines (0: to the end), each numbered, cut
// before the line that would pass MaxReadChars characters, with the
// runtime's note.
func readRange(text string, start, limit int) Result {
	res := Result{Label: LabelReal}
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n")
	end := len(lines)
	if limit > 0 && start-1+limit < end {
		end = start - 1 + limit
	}
	var b strings.Builder
	chars := 0
	for i := start - 1; i < end; i++ {
		line := request.NumberedLine(i+1, lines[i])
		if chars+utf8.RuneCountInString(line) > MaxReadChars {
			b.WriteString(request.FileReadRangeCut(i + 1))
			res.Cut = true
			break
		}
		if i > start-1 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		chars += utf8.RuneCountInString(line) + 1
	}
	res.Text = b.String()
	return res
}

func (w *Workspace) fileList(_ context.Context, a args, _ Meta) Result {
	p, _, err := a.str("Path")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if strings.TrimSpace(p) == "" {
		return Errorf("%s", request.PathRequired(FileList))
	}
	pl, refused := w.resolve(p)
	if refused != nil {
		return *refused
	}
	_, fi, err := pl.ov.Lookup(pl.rel)
	if err != nil {
		return w.fileError(pl, err, true)
	}
	if !fi.IsDir() {
		return Errorf("%s", request.NotADirectory(pl.show()))
	}
	ents, err := pl.ov.ReadDir(pl.rel)
	if err != nil {
		return w.fileError(pl, err, true)
	}
	var dirs, files []string
	for _, e := range ents {
		name := safe(e.Name)
		if w.listedAsDir(pl, e) {
			dirs = append(dirs, name)
		} else {
			files = append(files, name)
		}
	}
	return Result{Text: request.FileListing(pl.show(), dirs, files), Label: LabelReal, Cut: len(dirs)+len(files) > MaxListEntries}
}

// listedAsDir reports whether file_list lists the entry e of the folder
// pl as a folder: it is one, or a link to one.
func (w *Workspace) listedAsDir(pl place, e overlay.Entry) bool {
	if e.Mode.IsDir() {
		return true
	}
	if e.Mode&fs.ModeSymlink == 0 {
		return false
	}
	_, fi, err := w.ov.Lookup(path.Join(pl.rel, e.Name))
	return err == nil && fi.IsDir()
}

func (w *Workspace) fileWrite(_ context.Context, a args, _ Meta) Result {
	p, _, err := a.str("Path")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if strings.TrimSpace(p) == "" {
		return Errorf("%s", request.PathRequired(FileWrite))
	}
	content, ok, err := a.str("Content")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if !ok {
		return Errorf("Error: 'Content' parameter is required.")
	}
	pl, refused := w.resolve(p)
	if refused != nil {
		return *refused
	}
	if err := pl.ov.WriteFile(pl.rel, []byte(content)); err != nil {
		return w.fileError(pl, err, false)
	}
	return Result{Text: request.Wrote(len(content), pl.show()), Label: LabelOverlay}
}

func (w *Workspace) fileEdit(_ context.Context, a args, _ Meta) Result {
	p, _, err := a.str("Path")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if strings.TrimSpace(p) == "" {
		return Errorf("%s", request.PathRequired(FileEdit))
	}
	e, err := readEditArgs(a)
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if msg := e.problem(); msg != "" {
		return Errorf("%s", msg)
	}
	pl, refused := w.resolve(p)
	if refused != nil {
		return *refused
	}
	if e.hasContent {
		if err := pl.ov.WriteFile(pl.rel, []byte(e.content)); err != nil {
			return w.fileError(pl, err, false)
		}
		return Result{Text: request.Wrote(len(e.content), pl.show()), Label: LabelOverlay}
	}
	return w.replaceIn(pl, e)
}

// editArgs are file_edit's arguments after Path, each with whether it
// was given.
type editArgs struct {
	oldS, newS, content                string
	all                                bool
	hasOld, hasNew, hasAll, hasContent bool
}

// readEditArgs reads file_edit's arguments after Path.
func readEditArgs(a args) (editArgs, error) {
	var e editArgs
	var err1, err2, err3, err4 error
	e.oldS, e.hasOld, err1 = a.str("OldString")
	e.newS, e.hasNew, err2 = a.str("NewString")
	e.all, e.hasAll, err3 = a.boolean("ReplaceAll")
	e.content, e.hasContent, err4 = a.str("Content")
	return e, errors.Join(err1, err2, err3, err4)
}

// problem is the runtime's message for arguments that do not make an
// edit: Content with a replacement's arguments, or a replacement without
// OldString, without NewString, or with both the same; "" when they do.
func (e editArgs) problem() string {
	switch {
	case e.hasContent && (e.hasOld || e.hasNew || e.hasAll):
		return request.EditExclusive
	case !e.hasContent && (!e.hasOld || e.oldS == ""):
		return request.EditNeedsOldOrContent
	case !e.hasContent && !e.hasNew:
		return request.EditNeedsNew
	case !e.hasContent && e.oldS == e.newS:
		return request.EditSame
	}
	return ""
}

// replaceIn replaces e's OldString with its NewString in the file pl:
// the one occurrence, or all of them with ReplaceAll.
func (w *Workspace) replaceIn(pl place, e editArgs) Result {
	data, err := pl.ov.ReadFile(pl.rel)
	if err != nil {
		return w.fileError(pl, err, false)
	}
	text := string(data)
	n := strings.Count(text, e.oldS)
	switch {
	case n == 0:
		return Errorf("%s", request.EditNotFound(pl.show()))
	case n > 1 && !e.all:
		return Errorf("%s", request.EditAmbiguous(pl.show(), n))
	}
	if e.all {
		text = strings.ReplaceAll(text, e.oldS, e.newS)
	} else {
		text = strings.Replace(text, e.oldS, e.newS, 1)
		n = 1
	}
	if err := pl.ov.WriteFile(pl.rel, []byte(text)); err != nil {
		return w.fileError(pl, err, false)
	}
	return Result{Text: request.Edited(pl.show(), n), Label: LabelOverlay}
}

// isNotExist reports a path the view does not hold.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
