package rundiff

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Span operations of a word diff.
const (
	SpanEqual   = "="
	SpanAdded   = "+"
	SpanRemoved = "-"
)

// OutputDiff is the reply's word-level diff.
type OutputDiff struct {
	Same        bool `json:"same"`
	BeforeWords int  `json:"before_words"`
	AfterWords  int  `json:"after_words"`
	// Added and Removed count words.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Spans are the texts in order, each equal, added or removed; joined
	// without their removed spans they are the after output, without
	// their added ones the before output.
	Spans []Span `json:"spans"`
}

// Span is a stretch of text with its operation.
type Span struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// compareOutputs diffs two outputs word by word: words and the spaces
// between them are the units, so a change of line breaks shows too. Lines
// are diffed first and words only inside the lines that changed, which
// keeps a megabyte of output cheap.
func compareOutputs(a, b string) OutputDiff {
	d := OutputDiff{Same: a == b, BeforeWords: countWords(a), AfterWords: countWords(b), Spans: []Span{}}
	if d.Same {
		if a != "" {
			d.Spans = append(d.Spans, Span{SpanEqual, a})
		}
		return d
	}
	la, lb := lineOffsets(a), lineOffsets(b)
	lines := func(s string, off []int, from, to int) string { return s[off[from]:off[to]] }
	i := 0
	for _, e := range diffAnchored(splitAt(a, la), splitAt(b, lb)) {
		d.emit(SpanEqual, lines(a, la, i, e.Start))
		d.words(lines(a, la, e.Start, e.End), lines(b, lb, e.ReplStart, e.ReplEnd))
		i = e.End
	}
	d.emit(SpanEqual, lines(a, la, i, len(la)-1))
	return d
}

// lineOffsets returns where each line of s starts, and len(s) last.
func lineOffsets(s string) []int {
	off := make([]int, 1, strings.Count(s, "\n")+2)
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			off = append(off, i+1)
		}
	}
	return append(off, len(s))
}

// splitAt cuts s at the offsets.
func splitAt(s string, off []int) []string {
	out := make([]string, len(off)-1)
	for i := range out {
		out[i] = s[off[i]:off[i+1]]
	}
	return out
}

// words diffs two stretches of changed lines word by word.
func (d *OutputDiff) words(a, b string) {
	ta, tb := tokens(a), tokens(b)
	i := 0
	for _, e := range lcs.DiffLines(ta, tb) {
		d.emit(SpanEqual, strings.Join(ta[i:e.Start], ""))
		removed := strings.Join(ta[e.Start:e.End], "")
		added := strings.Join(tb[e.ReplStart:e.ReplEnd], "")
		d.Removed += countWords(removed)
		d.Added += countWords(added)
		d.emit(SpanRemoved, removed)
		d.emit(SpanAdded, added)
		i = e.End
	}
	d.emit(SpanEqual, strings.Join(ta[i:], ""))
}

// emit appends text as a span of op, merged into the last span when it
// has the same op.
func (d *OutputDiff) emit(op, text string) {
	if text == "" {
		return
	}
	if last := len(d.Spans) - 1; last >= 0 && d.Spans[last].Op == op {
		d.Spans[last].Text += text
		return
	}
	d.Spans = append(d.Spans, Span{op, text})
}

// tokens splits s into runs of spaces and runs of other characters.
func tokens(s string) []string {
	out := make([]string, 0, len(s)/5+1)
	start := 0
	inSpace := false
	for i := 0; i < len(s); {
		sp, n := spaceAt(s, i)
		if i > start && sp != inSpace {
			out = append(out, s[start:i])
			start = i
		}
		inSpace = sp
		i += n
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// asciiSpace marks the ASCII characters unicode.IsSpace calls spaces.
var asciiSpace = [utf8.RuneSelf]bool{' ': true, '\n': true, '\t': true, '\r': true, '\v': true, '\f': true}

// spaceAt reports whether the character at s[i] is a space, and its
// length; ASCII without decoding.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiSpace[c], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r), n
}
