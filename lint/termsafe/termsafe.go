// Package termsafe makes text taken from a file or a model safe to print on
// a terminal: Escape for one line, EscapeLines for text of many lines. It is
// the one place agentdesk decides which characters a terminal must never
// see raw; lint/report, runner, tui and cmd print through it, and it sits in
// lint so that every package can.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every character that could move the cursor, change
// the terminal's state or reorder text made visible instead: C0 controls
// other than tab (ESC becomes `\x1b`, a newline `\n`), DEL, C1 controls
// (`\u009b`), Unicode line and paragraph separators and bidirectional
// formatting characters (`\u202e`), and bytes that are not valid UTF-8
// (`\xff`). Tabs are kept, so a quoted source line keeps its layout. Other
// text, backslashes included, is returned unchanged; the result is meant to
// be safe to print, not to be parsed back.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		writeRune(&b, r)
		i += size
	}
	return b.String()
}

// EscapeLines is Escape for text of many lines: each line is escaped and
// the line breaks stay as they are, "\n" and "\r\n" alike (a CRLF file keeps
// its line endings). A carriage return anywhere else, the last line's
// included, is escaped as `\r`. Text that needs no change is returned as it
// is.
func EscapeLines(s string) string {
	if firstUnsafeLines(s) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			b.WriteString(Escape(s))
			return b.String()
		}
		line, crlf := strings.CutSuffix(s[:i], "\r")
		b.WriteString(Escape(line))
		if crlf {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
		s = s[i+1:]
	}
}

// firstUnsafeLines is firstUnsafe for EscapeLines: a line break, "\n" or
// "\r\n", is safe.
func firstUnsafeLines(s string) int {
	for off := 0; ; {
		i := firstUnsafe(s[off:])
		if i < 0 {
			return -1
		}
		i += off
		switch {
		case s[i] == '\n':
			off = i + 1
		case s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n':
			off = i + 2
		default:
			return i
		}
	}
}

// IsSafe reports whether Escape returns s unchanged.
func IsSafe(s string) bool { return firstUnsafe(s) < 0 }

// UnsafeRune reports whether Escape changes r: a control character other
// than tab, a Unicode line or paragraph separator, or a bidirectional
// formatting character.
func UnsafeRune(r rune) bool { return unsafeRune(r) }

// firstUnsafe returns the byte offset of the first character Escape changes,
// or -1 when there is none.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeASCII(c) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

func unsafeASCII(c byte) bool {
	return (c < 0x20 && c != '\t') || c == 0x7f
}

func unsafeRune(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return unsafeASCII(byte(r))
	case r >= 0x80 && r <= 0x9f: // C1 controls, CSI (0x9b) among them
		return true
	case r == 0x061c, // Arabic letter mark
		r == 0x200e, r == 0x200f, // left-to-right and right-to-left marks
		r == 0x2028, r == 0x2029, // line and paragraph separators
		r >= 0x202a && r <= 0x202e, // embeddings and overrides
		r >= 0x2066 && r <= 0x2069: // isolates
		return true
	}
	return false
}

// writeRune writes r to b, escaped when it is unsafe.
func writeRune(b *strings.Builder, r rune) {
	if !unsafeRune(r) {
		b.WriteRune(r)
		return
	}
	switch r {
	case '\a':
		b.WriteString(`\a`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\v':
		b.WriteString(`\v`)
	default:
		if r < utf8.RuneSelf {
			fmt.Fprintf(b, `\x%02x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}

// Visible reports whether s has a character a reader would see: anything
// but white space and invisible format and control characters.
func Visible(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) && !unicode.IsControl(r) {
			return true
		}
	}
	return false
}
