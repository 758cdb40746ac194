package cassette

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/runner/wire"
)

// MaxLine caps one line of a cassette: a chunk of the longest stream line
// the decoders accept (16 MiB), base64-encoded, with room to spare.
const MaxLine = 32 << 20

// anyLine is any line after the header, as it is read: one decoding per
// line. "error" is a string on response and end lines, a bool on tool lines.
type anyLine struct {
	Type        string          `json:"type"`
	Call        int             `json:"call"`
	TMS         int64           `json:"t_ms"`
	Status      int             `json:"status"`
	ContentType string          `json:"content_type"`
	Error       json.RawMessage `json:"error"`
	Reencoded   bool            `json:"reencoded"`
	Text        *string         `json:"text"`
	B64         *string         `json:"b64"`
	How         string          `json:"how"`
	Index       int             `json:"index"`
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Arguments   string          `json:"arguments"`
	Result      string          `json:"result"`
	Refused     bool            `json:"refused"`
	Cut         bool            `json:"cut"`
	Guard       string          `json:"guard"`
	Label       string          `json:"label"`
	Path        string          `json:"path"`
	Kind        string          `json:"kind"`
	Content     *string         `json:"content"`
}

// errorText reads "error" as a string ("" when absent or null).
func (l *anyLine) errorText() (string, error) {
	if len(l.Error) == 0 || string(l.Error) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(l.Error, &s); err != nil {
		return "", errors.New(`"error" is not a string`)
	}
	return s, nil
}

// errorFlag reads "error" as a bool (false when absent or null).
func (l *anyLine) errorFlag() (bool, error) {
	if len(l.Error) == 0 || string(l.Error) == "null" {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(l.Error, &b); err != nil {
		return false, errors.New(`"error" of a tool line is not true or false`)
	}
	return b, nil
}

// The lines as they are written.
type (
	headerLine struct {
		Type string `json:"type"`
		Header
	}
	responseLine struct {
		Type        string `json:"type"`
		Call        int    `json:"call"`
		TMS         int64  `json:"t_ms"`
		Status      int    `json:"status,omitempty"`
		ContentType string `json:"content_type,omitempty"`
		Error       string `json:"error,omitempty"`
		Reencoded   bool   `json:"reencoded,omitempty"`
	}
	chunkLine struct {
		Type string  `json:"type"`
		Call int     `json:"call"`
		TMS  int64   `json:"t_ms"`
		Text *string `json:"text,omitempty"`
		B64  *string `json:"b64,omitempty"`
	}
	endLine struct {
		Type  string `json:"type"`
		Call  int    `json:"call"`
		TMS   int64  `json:"t_ms"`
		How   string `json:"how"`
		Error string `json:"error,omitempty"`
	}
	toolLine struct {
		Type string `json:"type"`
		Call int    `json:"call"`
		Tool
	}
	changeLine struct {
		Type string `json:"type"`
		Change
	}
	patchLine struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
)

// maxTMS bounds t_ms (about 31 years), so that every time fits a
// time.Duration.
const maxTMS = 1e12

func ms(d time.Duration) int64 { return d.Milliseconds() }

func dur(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// Encode returns the cassette's text.
func (c *Cassette) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	h := c.Header
	h.Version = Version
	if h.Tools == nil {
		h.Tools = []string{}
	}
	if err := enc.Encode(headerLine{Type: "cassette", Header: h}); err != nil {
		return nil, fmt.Errorf("encoding the cassette header: %w", err)
	}
	for i, call := range c.Calls {
		n := i + 1
		lines := []any{responseLine{Type: "response", Call: n, TMS: ms(call.At), Status: call.Status, ContentType: call.ContentType, Error: call.Error, Reencoded: call.Reencoded}}
		for _, ch := range call.Chunks {
			l := chunkLine{Type: "chunk", Call: n, TMS: ms(ch.At)}
			if utf8.Valid(ch.Data) {
				s := string(ch.Data)
				l.Text = &s
			} else {
				s := base64.StdEncoding.EncodeToString(ch.Data)
				l.B64 = &s
			}
			lines = append(lines, l)
		}
		if call.End != nil {
			lines = append(lines, endLine{Type: "end", Call: n, TMS: ms(call.End.At), How: call.End.How, Error: call.End.Error})
		}
		for _, t := range call.Tools {
			lines = append(lines, toolLine{Type: "tool", Call: n, Tool: t})
		}
		for _, l := range lines {
			if err := enc.Encode(l); err != nil {
				return nil, fmt.Errorf("encoding call %d of the cassette: %w", n, err)
			}
		}
	}
	for _, ch := range c.Changes {
		if err := enc.Encode(changeLine{Type: "change", Change: ch}); err != nil {
			return nil, fmt.Errorf("encoding a change of the cassette: %w", err)
		}
	}
	if c.Patch != "" {
		if err := enc.Encode(patchLine{Type: "patch", Text: c.Patch}); err != nil {
			return nil, fmt.Errorf("encoding the patch of the cassette: %w", err)
		}
	}
	return b.Bytes(), nil
}

// SyntaxError says which line of a cassette is wrong and how.
type SyntaxError struct {
	// Line is the 1-based line number.
	Line int
	Err  error
}

// Error says on which line of the cassette what is wrong.
func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the cause.
func (e *SyntaxError) Unwrap() error { return e.Err }

// ErrNewerVersion is returned (wrapped) for a cassette of a format version
// this package does not read.
var ErrNewerVersion = errors.New("the cassette was made by a newer agentdesk")

// Parse reads a cassette from its text, as Read does, splitting the
// lines where they lie.
func Parse(data []byte) (*Cassette, error) {
	p := parser{c: &Cassette{}}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > MaxLine {
			return nil, &SyntaxError{Line: p.n + 1, Err: fmt.Errorf("longer than %d MiB", MaxLine>>20)}
		}
		p.left, p.rest = len(line)+len(data), data
		if err := p.feed(line); err != nil {
			return nil, err
		}
	}
	return p.end()
}

// Read reads a cassette. A line that does not parse, or that breaks the
// order (a chunk before its call's response, calls out of order, time going
// backwards within a call), is a *SyntaxError naming the line.
func Read(r io.Reader) (*Cassette, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	p := parser{c: &Cassette{}}
	for sc.Scan() {
		if err := p.feed(sc.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{Line: p.n + 1, Err: fmt.Errorf("longer than %d MiB", MaxLine>>20)}
		}
		return nil, err
	}
	return p.end()
}

// feed reads the next line (without its LF).
func (p *parser) feed(raw []byte) error {
	p.n++
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	if p.n == 1 {
		raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := p.line(raw); err != nil {
		return &SyntaxError{Line: p.n, Err: err}
	}
	return nil
}

// end checks the cassette once every line is read.
func (p *parser) end() (*Cassette, error) {
	if !p.header {
		return nil, errors.New("empty: a cassette starts with a header line")
	}
	if err := p.closeCall(); err != nil {
		return nil, &SyntaxError{Line: p.responseLine, Err: err}
	}
	return p.c, nil
}

// closeCall checks the current call once its lines are all read: a call
// whose headers never came must say how it ended while waiting.
func (p *parser) closeCall() error {
	n := len(p.c.Calls)
	if n == 0 {
		return nil
	}
	c := p.c.Calls[n-1]
	if c.Status == 0 && c.Error == "" && (c.End == nil || c.End.How != EndCut && c.End.How != EndCancelled) {
		return fmt.Errorf("call %d has neither a status nor an error, and does not end cut or cancelled while waiting for its headers", c.N)
	}
	return nil
}

type parser struct {
	c      *Cassette
	n      int
	header bool
	// responseLine is the line of the current call's response.
	responseLine int
	// last is the time of the last line of the current call.
	last time.Duration
	// text backs the decoded text of chunk lines: they are appended to it
	// (each chunk's Data a capped slice of it), one allocation for many
	// chunks instead of one a chunk. left is how many bytes of the input
	// are not yet read (Parse knows; Read does not, and leaves it 0), and
	// rest those bytes themselves.
	text []byte
	left int
	rest []byte
}

// chunkWrapper is the least a chunk line holds besides its text.
const chunkWrapper = len(`{"type":"chunk","call":1,"t_ms":0,"text":""}`)

// arenaSize is the capacity of a new array for chunk text when one
// needs need bytes: at least need, and when Parse knows what is left,
// room for every later chunk's text too: decoded, a chunk's text is
// never longer than its line less the line's wrapper, and each escape
// (one or two backslashes) is at least a byte shorter than written.
func (p *parser) arenaSize(need int) int {
	if p.left == 0 {
		return max(need, 4<<10)
	}
	lines := bytes.Count(p.rest, []byte{'\n'}) + 1
	escapes := bytes.Count(p.rest, []byte{'\\'}) / 2
	return max(need, p.left-chunkWrapper*lines-escapes)
}

func (p *parser) line(raw []byte) error {
	if !p.header {
		h, ok := fastHeader(raw)
		if !ok {
			if err := json.Unmarshal(raw, &h); err != nil {
				return fmt.Errorf("not a JSON object: %w", err)
			}
		}
		if h.Type != "cassette" {
			return fmt.Errorf("the first line is a %q line, not the cassette header: is this a cassette?", h.Type)
		}
		switch {
		case h.Version > Version:
			return fmt.Errorf("%w (format version %d; this one reads version %d): upgrade agentdesk", ErrNewerVersion, h.Version, Version)
		case h.Version < 1:
			return fmt.Errorf("the header has no format version")
		}
		if _, err := wire.Parse(h.Protocol); err != nil {
			return fmt.Errorf("the header's protocol is %q, not openai, anthropic or ollama", h.Protocol)
		}
		p.c.Header, p.header = h.Header, true
		return nil
	}
	if n, tms, text, arena, ok := appendChunk(p.text, raw, p.arenaSize); ok {
		p.text = arena
		return p.chunk(n, tms, text)
	}
	l, ok := fastCallLine(raw)
	if !ok {
		if err := json.Unmarshal(raw, &l); err != nil {
			return fmt.Errorf("not a JSON object: %w", err)
		}
	}
	switch l.Type {
	case "response":
		msg, err := l.errorText()
		if err != nil {
			return err
		}
		if want := len(p.c.Calls) + 1; l.Call != want {
			return fmt.Errorf("a response for call %d where call %d comes next", l.Call, want)
		}
		if l.TMS < 0 || l.TMS > maxTMS {
			return fmt.Errorf("t_ms %d is not a time within a call", l.TMS)
		}
		if err := p.closeCall(); err != nil {
			return err
		}
		if l.Status != 0 && (l.Status < 100 || l.Status > 999) {
			return fmt.Errorf("status %d is not an HTTP status", l.Status)
		}
		p.c.Calls = append(p.c.Calls, &Call{N: l.Call, At: dur(l.TMS), Status: l.Status, ContentType: l.ContentType, Error: msg, Reencoded: l.Reencoded})
		p.last, p.responseLine = dur(l.TMS), p.n
		return nil
	case "chunk":
		var data []byte
		switch {
		case l.Text != nil && l.B64 == nil:
			data = []byte(*l.Text)
		case l.B64 != nil && l.Text == nil:
			var err error
			if data, err = base64.StdEncoding.DecodeString(*l.B64); err != nil {
				return fmt.Errorf("b64 is not base64: %w", err)
			}
		default:
			return errors.New(`a chunk holds exactly one of "text" and "b64"`)
		}
		return p.chunk(l.Call, l.TMS, data)
	case "end":
		msg, err := l.errorText()
		if err != nil {
			return err
		}
		call, err := p.current(l.Call, "end", l.TMS)
		if err != nil {
			return err
		}
		if call.End != nil {
			return fmt.Errorf("a second end of call %d", l.Call)
		}
		switch l.How {
		case EndEOF, EndDropped, EndError, EndCut, EndCancelled:
		default:
			return fmt.Errorf("end how %q is not eof, unexpected_eof, error, cut or cancelled", l.How)
		}
		call.End = &End{At: dur(l.TMS), How: l.How, Error: msg}
		return nil
	case "tool":
		isErr, err := l.errorFlag()
		if err != nil {
			return err
		}
		if l.Call < 1 || l.Call != len(p.c.Calls) {
			return fmt.Errorf("a tool result of call %d where call %d is the current one", l.Call, len(p.c.Calls))
		}
		switch l.Guard {
		case GuardAllow, GuardRefuse, GuardStop:
		default:
			return fmt.Errorf("tool guard %q is not allow, refuse or stop", l.Guard)
		}
		if l.Index < 0 {
			return fmt.Errorf("tool index %d is negative", l.Index)
		}
		call := p.c.Calls[l.Call-1]
		call.Tools = append(call.Tools, Tool{Index: l.Index, ID: l.ID, Name: l.Name, Arguments: l.Arguments, Result: l.Result,
			IsError: isErr, Refused: l.Refused, Cut: l.Cut, Guard: l.Guard, Label: l.Label})
		return nil
	case "change":
		switch l.Kind {
		case "added", "modified", "deleted":
		default:
			return fmt.Errorf("change kind %q is not added, modified or deleted", l.Kind)
		}
		if l.Path == "" {
			return errors.New("a change without a path")
		}
		ch := Change{Path: l.Path, Kind: l.Kind, Content: l.Content}
		p.c.Changes = append(p.c.Changes, ch)
		return nil
	case "patch":
		switch {
		case p.c.Patch != "":
			return errors.New("a second patch")
		case l.Text == nil || *l.Text == "":
			return errors.New("a patch without text")
		case len(*l.Text) > MaxPatch:
			return fmt.Errorf("a patch larger than %d MiB", MaxPatch>>20)
		}
		p.c.Patch = *l.Text
		return nil
	case "cassette":
		return errors.New("a second header")
	}
	return fmt.Errorf("unknown line type %q", l.Type)
}

// chunk adds a chunk of call n at tms.
func (p *parser) chunk(n int, tms int64, data []byte) error {
	call, err := p.current(n, "chunk", tms)
	if err != nil {
		return err
	}
	switch {
	case call.Status == 0:
		return fmt.Errorf("a chunk of call %d, which has no response", n)
	case call.End != nil:
		return fmt.Errorf("a chunk of call %d after its end", n)
	}
	if call.Chunks == nil && p.left > 0 {
		call.Chunks = make([]Chunk, 0, p.chunksLeft(n)+1)
	}
	call.Chunks = append(call.Chunks, Chunk{At: dur(tms), Data: data})
	return nil
}

// chunksLeft counts the chunk lines of call n after the current line as
// Encode writes them (others, if any, grow the slice as they come): a
// replay's call streams many chunks, and growing a call's slice to them
// one doubling at a time was a tenth of a recording's garbage.
func (p *parser) chunksLeft(n int) int {
	var buf [48]byte
	prefix := strconv.AppendInt(append(buf[:0], chunkPrefix...), int64(n), 10)
	return bytes.Count(p.rest, append(prefix, ','))
}

// current returns the call a chunk or end line belongs to, checking its
// number and that time does not go backwards.
func (p *parser) current(n int, what string, tms int64) (*Call, error) {
	if n < 1 || n != len(p.c.Calls) {
		return nil, fmt.Errorf("a %s of call %d where call %d is the current one", what, n, len(p.c.Calls))
	}
	at := dur(min(max(tms, 0), maxTMS))
	if tms < 0 || tms > maxTMS || at < p.last {
		return nil, fmt.Errorf("t_ms %d goes back before %d", tms, ms(p.last))
	}
	p.last = at
	return p.c.Calls[n-1], nil
}
