package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// streamText is text a model streams in pieces, kept sanitised and
// wrapped at one width so that each piece costs only what it adds: the
// piece is sanitised on its own (a character cut between two pieces, or a
// \r that may start a \r\n, waits for the next), finished lines are kept as
// wrapped rows, and only the last row of the open line is wrapped again.
// The rows are always those of wrap(SanitizeText(text), width), with the
// text trimmed of newlines at both ends when trim is set (thinking).
type streamText struct {
	raw   strings.Builder // every byte so far, to wrap again at a new width
	runes int             // characters so far

	trim bool
	// The state of sanitising and wrapping, reset for a new width.
	width    int
	held     string // an incomplete character held back
	cr       bool   // a \r held back: dropped before \n, escaped otherwise
	started  bool   // trim: something other than a newline came
	newlines int    // trim: line ends held back until more text comes
	col      int    // width of the open line so far, for tab stops
	rows     []string
	tail     string // the open line from the start of its last row
	shown    string // tail as shown: wrapped, spaces past the width dropped
}

// add appends a piece of text.
func (s *streamText) add(piece string) {
	s.raw.WriteString(piece)
	s.runes += utf8.RuneCountInString(piece)
	if s.width > 0 {
		s.feed(piece)
	}
}

// text is everything streamed so far.
func (s *streamText) text() string { return s.raw.String() }

// lines returns the rows at width w: the finished rows and the open one.
// A new width wraps the text again, once.
func (s *streamText) lines(w int) (rows []string, open string) {
	if w != s.width {
		s.rewrap(w)
	}
	if w <= 0 {
		return nil, ""
	}
	return s.rows, s.shown
}

// rewrap starts again at width w from the raw text.
func (s *streamText) rewrap(w int) {
	trim := s.trim
	*s = streamText{raw: s.raw, runes: s.runes, trim: trim, width: w}
	if w > 0 {
		s.feed(s.raw.String())
	}
}

// feed sanitises and wraps a piece.
func (s *streamText) feed(piece string) {
	p := s.held + piece
	s.held = ""
	if n := incompleteSuffix(p); n > 0 {
		p, s.held = p[:len(p)-n], p[len(p)-n:]
	}
	for p != "" {
		i := strings.IndexByte(p, '\n')
		if i < 0 {
			s.segment(p, false)
			break
		}
		s.segment(p[:i], true)
		s.endLine()
		p = p[i+1:]
	}
}

// segment adds one line's worth of a piece: the text up to a newline
// (ended) or to the piece's end. A carriage return held from the last
// piece is text unless a newline follows it at once; one at the end of
// the piece is held until what follows shows whether it ends a line.
func (s *streamText) segment(seg string, ended bool) {
	if s.cr {
		s.cr = false
		if seg != "" || !ended {
			s.appendLine("\r")
		}
	}
	if strings.HasSuffix(seg, "\r") {
		seg = seg[:len(seg)-1]
		s.cr = !ended // at the end: wait for what follows
	}
	s.appendLine(seg)
}

// appendLine adds raw text with no newline to the open line.
func (s *streamText) appendLine(seg string) {
	if seg == "" {
		return
	}
	s.begin()
	e := expandTabsFrom(termsafe.Escape(seg), s.col)
	s.col += ansi.StringWidth(e)
	t := s.tail + e
	if len(t) <= s.width || ansi.StringWidth(t) <= s.width {
		s.tail, s.shown = t, t
		return
	}
	rows := wrapLine(nil, t, s.width)
	s.rows = append(s.rows, rows[:len(rows)-1]...)
	// The open row, as it is in t: Wrap drops spaces at the end of a row
	// that overflow it, and the next piece must still break there.
	s.shown = rows[len(rows)-1]
	s.tail = t[strings.LastIndex(t, s.shown):]
}

// begin notes that text other than a newline came: in trim mode the
// line ends held back are real.
func (s *streamText) begin() {
	if !s.trim {
		return
	}
	s.started = true
	for ; s.newlines > 0; s.newlines-- {
		s.closeLine()
	}
}

// endLine ends the open line (a newline arrived).
func (s *streamText) endLine() {
	if s.trim {
		if s.started {
			s.newlines++
		}
		return
	}
	s.closeLine()
}

func (s *streamText) closeLine() {
	s.rows = append(s.rows, s.shown)
	s.tail, s.shown, s.col = "", "", 0
}

// incompleteSuffix is the length of an unfinished UTF-8 character at the
// end of p (0 when it ends whole).
func incompleteSuffix(p string) int {
	for n := 1; n <= 3 && n <= len(p); n++ {
		c := p[len(p)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRuneInString(p[len(p)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

// expandTabsFrom is expandTabs for text that starts at column col.
func expandTabsFrom(s string, col int) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '\t')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		col += ansi.StringWidth(s[:i])
		n := tabWidth - col%tabWidth
		b.WriteString(strings.Repeat(" ", n))
		col += n
		s = s[i+1:]
	}
}
