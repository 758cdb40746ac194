package evalrec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
	"github.com/agentdesk/agentdesk/runner/cassette"
)

// Version is the recording format version this package writes and the
// newest it reads.
const Version = 1

// Extension is a recording file's extension.
const Extension = ".recording"

// FolderSuffix ends the name of a suite's recordings folder.
const FolderSuffix = ".recordings"

// MaxSize caps the recording file Load reads.
const MaxSize = 256 << 20

// Recording is one sample of one case, recorded: what was sent
// (Fingerprint) and the cassettes of its model conversations (Tapes: the
// agent's run, the judge's, …).
type Recording struct {
	// Kind is "test" or "route".
	Kind string
	// Suite is the suite file's name; Case the case's name; Sample the
	// sample, from 1.
	Suite  string
	Case   string
	Sample int
	// RecordedAt is when it was recorded.
	RecordedAt time.Time
	// Fingerprint is what the sample sent.
	Fingerprint Fingerprint
	// Tapes are the recorded model conversations, by name.
	Tapes []Tape
}

// Tape is one named cassette of a recording.
type Tape struct {
	Name     string
	Cassette *cassette.Cassette
}

// Tape returns the cassette named name, or nil.
func (r *Recording) Tape(name string) *cassette.Cassette {
	for _, t := range r.Tapes {
		if t.Name == name {
			return t.Cassette
		}
	}
	return nil
}

// The names of the tapes the suites keep.
const (
	TapeRun   = "run"
	TapeJudge = "judge"
)

type header struct {
	Type        string      `json:"type"`
	Version     int         `json:"version"`
	Kind        string      `json:"kind"`
	Suite       string      `json:"suite"`
	Case        string      `json:"case"`
	Sample      int         `json:"sample"`
	RecordedAt  time.Time   `json:"recorded_at"`
	Fingerprint Fingerprint `json:"fingerprint"`
}

type tapeLine struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Lines int    `json:"lines"`
}

// Encode returns the recording's text.
func (r *Recording) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	fp := r.Fingerprint
	if fp == nil {
		fp = Fingerprint{}
	}
	if err := enc.Encode(header{Type: "recording", Version: Version, Kind: r.Kind, Suite: r.Suite, Case: r.Case, Sample: r.Sample, RecordedAt: r.RecordedAt.UTC(), Fingerprint: fp}); err != nil {
		return nil, err
	}
	for _, t := range r.Tapes {
		if t.Cassette == nil {
			continue
		}
		data, err := t.Cassette.Encode()
		if err != nil {
			return nil, fmt.Errorf("tape %s: %w", t.Name, err)
		}
		n := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
			n++
		}
		if err := enc.Encode(tapeLine{Type: "tape", Name: t.Name, Lines: n}); err != nil {
			return nil, err
		}
		b.Write(data)
	}
	return b.Bytes(), nil
}

// Parse reads a recording's text. Errors name the line.
func Parse(data []byte) (*Recording, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if len(lines) == 0 {
		return nil, errors.New("line 1: empty file, not a recording")
	}
	h, ok := fastHeader(lines[0])
	if !ok {
		if err := json.Unmarshal(lines[0], &h); err != nil {
			return nil, errors.New("line 1: not a recording header")
		}
	}
	if h.Type != "recording" {
		return nil, errors.New("line 1: not a recording header")
	}
	if h.Version < 1 || h.Version > Version {
		return nil, fmt.Errorf("line 1: recording version %d; this agentdesk reads up to %d: update agentdesk, or record again", h.Version, Version)
	}
	r := &Recording{Kind: h.Kind, Suite: h.Suite, Case: h.Case, Sample: h.Sample, RecordedAt: h.RecordedAt, Fingerprint: h.Fingerprint}
	off := len(lines[0]) // where lines[i] starts in data
	for i := 1; i < len(lines); {
		t, ok := fastTapeLine(lines[i])
		if !ok && json.Unmarshal(lines[i], &t) != nil || t.Type != "tape" {
			return nil, fmt.Errorf("line %d: expected a tape line", i+1)
		}
		if t.Lines < 1 || t.Lines > len(lines)-i-1 {
			return nil, fmt.Errorf("line %d: tape %q says %d lines follow, and %d do", i+1, t.Name, t.Lines, len(lines)-i-1)
		}
		// The tape's lines are one stretch of data (SplitAfter keeps the
		// endings): it is parsed where it lies, not copied.
		from := off + len(lines[i])
		to := from
		for _, l := range lines[i+1 : i+1+t.Lines] {
			to += len(l)
		}
		c, err := cassette.Parse(data[from:to:to])
		if err != nil {
			var se *cassette.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("line %d: tape %q: %w", i+1+se.Line, t.Name, se.Err)
			}
			return nil, fmt.Errorf("line %d: tape %q: %w", i+1, t.Name, err)
		}
		r.Tapes = append(r.Tapes, Tape{Name: t.Name, Cassette: c})
		i += 1 + t.Lines
		off = to
	}
	return r, nil
}

// Load reads the recording at path. A missing file is an error that
// errors.Is fs.ErrNotExist.
func Load(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the recording %s: %w", path, err)
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		if fi.IsDir() || fi.Size() > MaxSize {
			return nil, fmt.Errorf("the recording %s is a folder or larger than %d MiB", path, MaxSize>>20)
		}
		size = fi.Size()
	}
	buf := readBufs.Get().(*bytes.Buffer)
	defer putReadBuf(buf)
	data, err := readAll(f, size, buf)
	if err != nil {
		return nil, fmt.Errorf("reading the recording %s: %w", path, err)
	}
	r, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("the recording %s: %w", path, err)
	}
	return r, nil
}

// readBufs hold the buffers Load reads files into: Parse keeps no byte
// of its data (TestParseKeepsNoData), so a suite's replay reads its
// recordings into a few buffers, not one each.
var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledRead bounds the buffers kept in readBufs.
const maxPooledRead = 1 << 20

// putReadBuf hands buf back to readBufs, unless it grew past
// maxPooledRead.
func putReadBuf(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledRead {
		buf.Reset()
		readBufs.Put(buf)
	}
}

// readAll reads f whole into b (empty), grown first to size (f's, 0
// when unknown).
func readAll(f *os.File, size int64, b *bytes.Buffer) ([]byte, error) {
	if size > 0 && size <= MaxSize {
		b.Grow(int(size) + bytes.MinRead)
	}
	_, err := b.ReadFrom(f)
	return b.Bytes(), err
}

// Save writes r to path atomically, making its folder when needed.
func Save(path string, r *Recording) error {
	data, err := r.Encode()
	if err != nil {
		return fmt.Errorf("encoding the recording %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making the recordings folder %s: %w", dir, err)
	}
	if err := atomicfile.Replace(path, data, 0o644); err != nil {
		return fmt.Errorf("saving the recording: %w", err)
	}
	return nil
}

// Folder returns the recordings folder of the suite at suitePath:
// beside it, named after it (agents/x.test.yaml: agents/x.test.recordings).
func Folder(suitePath string) string {
	base := filepath.Base(suitePath)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
	return filepath.Join(filepath.Dir(suitePath), stem+FolderSuffix)
}

// FileName returns the file name of a case's sample (from 1): the case
// name made safe for a file name (lowercase letters, digits and dashes),
// with a short digest of the name when that changed it, so two names
// never share a file: "finds-the-port-3f9a1c.2.recording".
func FileName(caseName string, sample int) string {
	return fmt.Sprintf("%s.%d%s", slug(caseName), sample, Extension)
}

// slug is a name made safe for a file name: lowercase letters, digits and
// dashes, with a short digest of the name when that changed it.
func slug(caseName string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(caseName) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 && separates(r) {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug != caseName || slug == "" {
		d := NewPart("", caseName, "").SHA256[:6]
		if slug == "" {
			slug = d
		} else {
			slug += "-" + d
		}
	}
	return slug
}

// separates reports whether r, in a case name, becomes a dash in its
// slug: a space, punctuation, a symbol or any letter beyond ASCII.
func separates(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsPunct(r) || r == '-' || unicode.IsSymbol(r) || r > unicode.MaxASCII
}

// Path returns where the recording of a case's sample lives.
func Path(suitePath, caseName string, sample int) string {
	return filepath.Join(Folder(suitePath), FileName(caseName, sample))
}

// ModelPath returns where the recording of a case's sample on a model
// named by agentdesk test --models (or a suite's models:) lives: in a
// folder of that model's own within the suite's recordings, so that each
// model of a matrix keeps its recordings.
func ModelPath(suitePath, model, caseName string, sample int) string {
	return filepath.Join(Folder(suitePath), "model-"+slug(model), FileName(caseName, sample))
}
