package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tabWidth is how many columns a tab expands to in file text.
const tabWidth = 4

// Sanitize makes one line of text from a file or a model safe to put on a
// terminal: control characters (C0, DEL, C1), escape sequences and Unicode
// bidirectional overrides are shown escaped (`\x1b`, `\u202e`) instead of
// being sent raw, invalid UTF-8 bytes become `\xNN`, and a tab becomes
// spaces. A line break is escaped too: Sanitize returns exactly one line.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
			col += 4
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
			col += 4
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
			col += 6
		case isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
			col += 6
		default:
			b.WriteRune(r)
			col++
		}
		i += size
	}
	return b.String()
}

// SanitizeText is Sanitize for text of many lines: it splits on "\n" (a
// "\r" before it is dropped) and sanitises each line.
func SanitizeText(s string) string {
	if isPlainText(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Sanitize(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n")
}

// isPlain reports whether s is printable ASCII, the common case that needs
// no work.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return isCleanUTF8(s)
		}
	}
	return true
}

// isCleanUTF8 reports whether s is valid UTF-8 with no character Sanitize
// would change.
func isCleanUTF8(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
			return false
		}
	}
	return utf8.ValidString(s)
}

func isPlainText(s string) bool {
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if r == utf8.RuneError || r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// isBidiControl reports the Unicode bidirectional formatting characters that
// can make text display in an order other than the one it is read in.
func isBidiControl(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
