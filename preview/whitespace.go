package preview

import "strings"

// IsDotNetSpace reports whether .NET's char.IsWhiteSpace is true for r, the
// test String.Trim and String.TrimEnd use: the Unicode White_Space
// characters, that is U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680,
// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000. A zero-width
// space (U+200B) and a byte-order mark (U+FEFF) are not white space.
func IsDotNetSpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20, r == 0x85, r == 0xA0, r == 0x1680:
		return true
	case r >= 0x2000 && r <= 0x200A:
		return true
	case r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}

// dotNetTrim is .NET's String.Trim(): white space removed from both ends.
func dotNetTrim(s string) string { return strings.TrimFunc(s, IsDotNetSpace) }

// dotNetTrimEnd is .NET's String.TrimEnd(): white space removed from the end.
func dotNetTrimEnd(s string) string { return strings.TrimRightFunc(s, IsDotNetSpace) }
