package adapt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The TOML writer of the Codex CLI export. go-toml (which reads the files)
// has an encoder, but it cannot choose a literal multi-line string, which
// keeps a system prompt as it was written.

// tomlControl reports whether c is a control character TOML forbids in
// comments and strings (tab is allowed).
func tomlControl(c rune) bool {
	return c < 0x20 && c != '\t' || c == 0x7f
}

// tomlBasic returns s as a single-line TOML basic string.
func tomlBasic(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	writeTOMLEscaped(&b, s, false)
	b.WriteByte('"')
	return b.String()
}

// tomlMultiline returns s as a TOML multi-line string that reads back as
// exactly s: a literal string (triple single quotes), which keeps the text
// as written, when s allows it, else a basic string (triple double quotes)
// with escapes. The opening quotes are followed by a line break, which TOML
// drops.
func tomlMultiline(s string) string {
	if literalOK(s) {
		return "'''\n" + s + "'''"
	}
	var b strings.Builder
	b.WriteString("\"\"\"\n")
	writeTOMLEscaped(&b, s, true)
	b.WriteString(`"""`)
	return b.String()
}

// literalOK reports whether s can be a multi-line literal string: no
// triple single quote inside, no control character but tab and line feed,
// and a carriage return only before a line feed. It may end in one or two quotes: TOML
// reads up to two quotes before the closing ones as content.
func literalOK(s string) bool {
	if strings.Contains(s, "'''") || !utf8.ValidString(s) {
		return false
	}
	for i, c := range s {
		switch {
		case c == '\r':
			if !strings.HasPrefix(s[i:], "\r\n") {
				return false
			}
		case c == '\n' || c == '\t':
		case tomlControl(c):
			return false
		}
	}
	return true
}

// writeTOMLEscaped writes s escaped for a basic string; in a multi-line
// one, line feeds stay as they are.
func writeTOMLEscaped(b *strings.Builder, s string, multiline bool) {
	for i, w := 0, 0; i < len(s); i += w {
		c, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case c == utf8.RuneError && size == 1:
			b.WriteString(`\uFFFD`)
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n' && multiline:
			b.WriteByte('\n')
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteByte('\t')
		case c == '\r':
			b.WriteString(`\r`)
		case tomlControl(c):
			fmt.Fprintf(b, `\u%04X`, c)
		default:
			b.WriteRune(c)
		}
	}
}
