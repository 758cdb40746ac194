package lint

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeText turns a file's bytes into the text NetClaw reads, as .NET's
// StreamReader (File.ReadAllText) decodes them: a UTF-8 byte-order mark is
// dropped, a UTF-16 one (either byte order) selects UTF-16, and each byte
// that is not valid UTF-8 becomes U+FFFD. Agent files, skills and the
// configuration files are all read through it, so every Pos lint
// reports is a position in the text DecodeText returns.
func DecodeText(data []byte) string {
	switch {
	case len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF:
		data = data[3:]
	case len(data) >= 2 && data[0] == 0xFF && data[1] == 0xFE:
		return decodeUTF16(data[2:], false)
	case len(data) >= 2 && data[0] == 0xFE && data[1] == 0xFF:
		return decodeUTF16(data[2:], true)
	}
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	b.Grow(len(data) + 16)
	for len(data) > 0 {
		c, size := utf8.DecodeRune(data)
		b.WriteRune(c) // RuneError for each invalid byte
		data = data[size:]
	}
	return b.String()
}

// LineOf returns line n (1-based) of text without its line ending ("\n"
// or "\r\n"), and whether text has such a line.
func LineOf(text string, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r"), true
}

// decodeUTF16 decodes UTF-16 text; an odd last byte becomes U+FFFD.
func decodeUTF16(data []byte, bigEndian bool) string {
	units := make([]uint16, 0, len(data)/2)
	for i := 0; i+1 < len(data); i += 2 {
		if bigEndian {
			units = append(units, uint16(data[i])<<8|uint16(data[i+1]))
		} else {
			units = append(units, uint16(data[i+1])<<8|uint16(data[i]))
		}
	}
	s := string(utf16.Decode(units))
	if len(data)%2 == 1 {
		s += string(utf8.RuneError)
	}
	return s
}

// posAt returns the 1-based line and rune column of byte offset off in
// text; offsets outside the text are clamped to it.
func posAt(text string, off int) Pos {
	off = min(max(off, 0), len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	start := strings.LastIndexByte(before, '\n') + 1
	return Pos{Line: line, Column: utf8.RuneCountInString(before[start:]) + 1}
}
