package adapt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A small, strict reader for the TOML that Codex CLI agent files use. It
// reads TOML 1.0 documents made of comments, key/value pairs, table headers
// and these values: the four kinds of strings, integers, floats, booleans,
// arrays and inline tables. It refuses dates and times (no agent key uses
// them), and anything else that is not TOML, with the line and column.

// tomlKind is the type of a TOML value.
type tomlKind int

const (
	tomlString tomlKind = iota
	tomlInteger
	tomlFloat
	tomlBool
	tomlArray
	tomlInlineTable
)

// tomlValue is one value. str holds a string's decoded text, or the source
// text of a number or boolean.
type tomlValue struct {
	kind  tomlKind
	str   string
	items []tomlValue
	line  int
}

// source describes the value for keepField.
func (v tomlValue) source() sourceValue {
	out := sourceValue{text: v.str, scalar: v.kind <= tomlBool}
	switch v.kind {
	case tomlInteger:
		out.kind = kindInt
	case tomlFloat:
		out.kind = kindNumber
	case tomlBool:
		out.kind = kindBool
	}
	return out
}

// tomlEntry is a key/value pair at the top level of a document (table
// empty) or under a table header.
type tomlEntry struct {
	table string
	key   string
	value tomlValue
	line  int
}

// tomlDoc is a parsed document.
type tomlDoc struct {
	entries []tomlEntry
	// tables lists the table headers in order, with their lines.
	tables []tomlEntry
	// comments holds the text of every comment, without its '#'.
	comments []string
}

// tomlMaxDepth bounds nesting of arrays and inline tables.
const tomlMaxDepth = 64

// tomlError is a syntax error at a position.
type tomlError struct {
	line, col int
	msg       string
}

func (e *tomlError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

// tomlReader walks the text.
type tomlReader struct {
	s      string
	i      int
	line   int
	lineAt int // offset where the current line starts
	depth  int
}

func (r *tomlReader) fail(format string, args ...any) error {
	col := utf8.RuneCountInString(r.s[r.lineAt:min(r.i, len(r.s))]) + 1
	return &tomlError{line: r.line, col: col, msg: fmt.Sprintf(format, args...)}
}

func (r *tomlReader) eof() bool { return r.i >= len(r.s) }

func (r *tomlReader) peek() byte {
	if r.eof() {
		return 0
	}
	return r.s[r.i]
}

// newline consumes LF or CRLF at the cursor, reporting whether it did.
func (r *tomlReader) newline() bool {
	switch {
	case strings.HasPrefix(r.s[r.i:], "\n"):
		r.i++
	case strings.HasPrefix(r.s[r.i:], "\r\n"):
		r.i += 2
	default:
		return false
	}
	r.line++
	r.lineAt = r.i
	return true
}

// spaces skips spaces and tabs.
func (r *tomlReader) spaces() {
	for !r.eof() && (r.s[r.i] == ' ' || r.s[r.i] == '\t') {
		r.i++
	}
}

// comment reads a comment at the cursor, if any.
func (r *tomlReader) comment(doc *tomlDoc) error {
	if r.peek() != '#' {
		return nil
	}
	start := r.i + 1
	for !r.eof() && r.s[r.i] != '\n' && !strings.HasPrefix(r.s[r.i:], "\r\n") {
		c, size := utf8.DecodeRuneInString(r.s[r.i:])
		if tomlControl(c) {
			return r.fail("control character U+%04X in a comment", c)
		}
		r.i += size
	}
	doc.comments = append(doc.comments, strings.TrimSpace(r.s[start:r.i]))
	return nil
}

// tomlControl reports whether c is a control character TOML forbids in
// comments and strings (tab is allowed).
func tomlControl(c rune) bool {
	return c < 0x20 && c != '\t' || c == 0x7f
}

// endOfLine expects optional spaces, an optional comment and a line break
// or the end of the text.
func (r *tomlReader) endOfLine(doc *tomlDoc) error {
	r.spaces()
	if err := r.comment(doc); err != nil {
		return err
	}
	if r.eof() || r.newline() {
		return nil
	}
	return r.fail("expected the end of the line, found %q", r.runeAt())
}

func (r *tomlReader) runeAt() string {
	c, _ := utf8.DecodeRuneInString(r.s[r.i:])
	return string(c)
}

// parseTOML reads a whole document. A UTF-8 byte-order mark is dropped.
func parseTOML(data []byte) (*tomlDoc, error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	if !utf8.ValidString(text) {
		return nil, errors.New("the file is not valid UTF-8")
	}
	r := &tomlReader{s: text, line: 1}
	doc := &tomlDoc{}
	table := ""
	defined := map[string]string{} // full key → "value", "table" or "array"
	arrays := map[string]int{}     // elements of each array of tables so far
	for !r.eof() {
		r.spaces()
		switch c := r.peek(); {
		case c == '#':
			if err := r.endOfLine(doc); err != nil {
				return nil, err
			}
		case c == '\n' || c == '\r':
			if !r.newline() {
				return nil, r.fail("a carriage return must be followed by a line feed")
			}
		case c == 0 && r.eof():
		case c == '[':
			line := r.line
			name, array, err := r.tableHeader()
			if err != nil {
				return nil, err
			}
			if prev, ok := defined[name]; ok && (prev == "value" || !array || prev != "array") {
				return nil, &tomlError{line: line, col: 1, msg: fmt.Sprintf("[%s] is defined twice", name)}
			}
			table = name
			if array {
				defined[name] = "array"
				// Each [[name]] starts a new table: its keys are its own.
				arrays[name]++
				table = fmt.Sprintf("%s[%d]", name, arrays[name])
			} else {
				defined[name] = "table"
			}
			doc.tables = append(doc.tables, tomlEntry{key: name, line: line})
			if err := r.endOfLine(doc); err != nil {
				return nil, err
			}
		default:
			line := r.line
			keys, err := r.key()
			if err != nil {
				return nil, err
			}
			r.spaces()
			if r.peek() != '=' {
				return nil, r.fail("expected '=' after the key %s", strings.Join(keys, "."))
			}
			r.i++
			r.spaces()
			v, err := r.value(doc)
			if err != nil {
				return nil, err
			}
			key := strings.Join(keys, ".")
			full := key
			if table != "" {
				full = table + "." + key
			}
			if _, dup := defined[full]; dup {
				return nil, &tomlError{line: line, col: 1, msg: fmt.Sprintf("%s is defined twice", full)}
			}
			defined[full] = "value"
			doc.entries = append(doc.entries, tomlEntry{table: table, key: key, value: v, line: line})
			if err := r.endOfLine(doc); err != nil {
				return nil, err
			}
		}
	}
	return doc, nil
}

// tableHeader reads [a.b] or [[a.b]].
func (r *tomlReader) tableHeader() (name string, array bool, err error) {
	r.i++
	if r.peek() == '[' {
		array = true
		r.i++
	}
	r.spaces()
	keys, err := r.key()
	if err != nil {
		return "", false, err
	}
	r.spaces()
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(r.s[r.i:], closing) {
		return "", false, r.fail("expected %q to close the table header", closing)
	}
	r.i += len(closing)
	return strings.Join(keys, "."), array, nil
}

// key reads a dotted key: simple keys (bare, "basic" or 'literal') joined by
// dots. Quoted parts keep their text (a dot inside one is not a separator,
// but this reader only compares keys, so that does not matter).
func (r *tomlReader) key() ([]string, error) {
	var keys []string
	for {
		r.spaces()
		var k string
		switch c := r.peek(); {
		case c == '"':
			s, err := r.basicString()
			if err != nil {
				return nil, err
			}
			k = s
		case c == '\'':
			s, err := r.literalString()
			if err != nil {
				return nil, err
			}
			k = s
		default:
			start := r.i
			for !r.eof() && isBareKeyChar(r.s[r.i]) {
				r.i++
			}
			if r.i == start {
				if r.eof() {
					return nil, r.fail("expected a key, found the end of the file")
				}
				return nil, r.fail("expected a key, found %q", r.runeAt())
			}
			k = r.s[start:r.i]
		}
		keys = append(keys, k)
		r.spaces()
		if r.peek() != '.' {
			return keys, nil
		}
		r.i++
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value reads one value at the cursor.
func (r *tomlReader) value(doc *tomlDoc) (tomlValue, error) {
	line := r.line
	switch {
	case strings.HasPrefix(r.s[r.i:], `"""`):
		s, err := r.multilineBasic()
		return tomlValue{kind: tomlString, str: s, line: line}, err
	case strings.HasPrefix(r.s[r.i:], `'''`):
		s, err := r.multilineLiteral()
		return tomlValue{kind: tomlString, str: s, line: line}, err
	case r.peek() == '"':
		s, err := r.basicString()
		return tomlValue{kind: tomlString, str: s, line: line}, err
	case r.peek() == '\'':
		s, err := r.literalString()
		return tomlValue{kind: tomlString, str: s, line: line}, err
	case r.peek() == '[':
		return r.array(doc)
	case r.peek() == '{':
		return r.inlineTable(doc)
	case r.eof():
		return tomlValue{}, r.fail("expected a value, found the end of the file")
	}
	start := r.i
	for !r.eof() && (isBareKeyChar(r.s[r.i]) || strings.IndexByte("+.:", r.s[r.i]) >= 0) {
		r.i++
	}
	tok := r.s[start:r.i]
	switch {
	case tok == "true" || tok == "false":
		return tomlValue{kind: tomlBool, str: tok, line: line}, nil
	case tomlIntRE(tok):
		return tomlValue{kind: tomlInteger, str: tok, line: line}, nil
	case tomlFloatRE(tok):
		return tomlValue{kind: tomlFloat, str: tok, line: line}, nil
	case tok != "" && tok[0] >= '0' && tok[0] <= '9' && (strings.Contains(tok, "-") || strings.Contains(tok, ":")):
		r.i = start
		return tomlValue{}, r.fail("dates and times are not supported here")
	}
	r.i = start
	if tok == "" {
		return tomlValue{}, r.fail("expected a value, found %q", r.runeAt())
	}
	return tomlValue{}, r.fail("%q is not a TOML value (strings need quotes)", tok)
}

// tomlIntRE reports whether tok is a TOML integer.
func tomlIntRE(tok string) bool {
	for _, p := range []string{"0x", "0o", "0b"} {
		if rest, ok := strings.CutPrefix(tok, p); ok {
			base := map[string]int{"0x": 16, "0o": 8, "0b": 2}[p]
			return underscoredDigits(rest, base)
		}
	}
	digits := strings.TrimLeft(tok, "+-")
	if len(tok)-len(digits) > 1 || !underscoredDigits(digits, 10) {
		return false
	}
	return digits == "0" || digits[0] != '0'
}

// underscoredDigits reports whether s is digits of base with single
// underscores between digits.
func underscoredDigits(s string, base int) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for _, c := range strings.ReplaceAll(s, "_", "") {
		if _, err := strconv.ParseUint(string(c), base, 8); err != nil {
			return false
		}
	}
	return true
}

// tomlFloatRE reports whether tok is a TOML float.
func tomlFloatRE(tok string) bool {
	body := strings.TrimLeft(tok, "+-")
	if len(tok)-len(body) > 1 {
		return false
	}
	if body == "inf" || body == "nan" {
		return true
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	intPart, frac, hasFrac := strings.Cut(mant, ".")
	if !hasExp && !hasFrac {
		return false
	}
	if !underscoredDigits(intPart, 10) || intPart != "0" && intPart[0] == '0' {
		return false
	}
	if hasFrac && !underscoredDigits(frac, 10) {
		return false
	}
	if hasExp {
		e := strings.TrimLeft(exp, "+-")
		if len(exp)-len(e) > 1 || !underscoredDigits(e, 10) {
			return false
		}
	}
	return true
}

// array reads [v, v, ...], newlines and comments allowed between values.
func (r *tomlReader) array(doc *tomlDoc) (tomlValue, error) {
	v := tomlValue{kind: tomlArray, line: r.line}
	if r.depth++; r.depth > tomlMaxDepth {
		return v, r.fail("arrays and tables are nested too deeply")
	}
	defer func() { r.depth-- }()
	r.i++
	for {
		if err := r.arraySpace(doc); err != nil {
			return v, err
		}
		if r.peek() == ']' {
			r.i++
			return v, nil
		}
		item, err := r.value(doc)
		if err != nil {
			return v, err
		}
		v.items = append(v.items, item)
		if err := r.arraySpace(doc); err != nil {
			return v, err
		}
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return v, nil
		default:
			if r.eof() {
				return v, r.fail("the array is never closed with ']'")
			}
			return v, r.fail("expected ',' or ']' in the array, found %q", r.runeAt())
		}
	}
}

// arraySpace skips white space, line breaks and comments inside an array.
func (r *tomlReader) arraySpace(doc *tomlDoc) error {
	for {
		r.spaces()
		if err := r.comment(doc); err != nil {
			return err
		}
		if r.peek() == '\r' && !strings.HasPrefix(r.s[r.i:], "\r\n") {
			return r.fail("a carriage return must be followed by a line feed")
		}
		if !r.newline() {
			return nil
		}
	}
}

// inlineTable reads { k = v, ... } on one line.
func (r *tomlReader) inlineTable(doc *tomlDoc) (tomlValue, error) {
	v := tomlValue{kind: tomlInlineTable, line: r.line}
	if r.depth++; r.depth > tomlMaxDepth {
		return v, r.fail("arrays and tables are nested too deeply")
	}
	defer func() { r.depth-- }()
	r.i++
	r.spaces()
	if r.peek() == '}' {
		r.i++
		return v, nil
	}
	seen := map[string]bool{}
	for {
		keys, err := r.key()
		if err != nil {
			return v, err
		}
		k := strings.Join(keys, ".")
		if seen[k] {
			return v, r.fail("%s is defined twice in the inline table", k)
		}
		seen[k] = true
		r.spaces()
		if r.peek() != '=' {
			return v, r.fail("expected '=' after the key %s", k)
		}
		r.i++
		r.spaces()
		item, err := r.value(doc)
		if err != nil {
			return v, err
		}
		v.items = append(v.items, item)
		r.spaces()
		switch r.peek() {
		case ',':
			r.i++
			r.spaces()
		case '}':
			r.i++
			return v, nil
		default:
			return v, r.fail("expected ',' or '}' in the inline table")
		}
	}
}

// basicString reads "..." with escapes.
func (r *tomlReader) basicString() (string, error) {
	r.i++
	var b strings.Builder
	for {
		if r.eof() || r.s[r.i] == '\n' || r.s[r.i] == '\r' {
			return "", r.fail("the string is never closed with '\"'")
		}
		c, size := utf8.DecodeRuneInString(r.s[r.i:])
		switch {
		case c == '"':
			r.i++
			return b.String(), nil
		case c == '\\':
			if err := r.escape(&b); err != nil {
				return "", err
			}
		case tomlControl(c):
			return "", r.fail("control character U+%04X in a string: write it as an escape", c)
		default:
			b.WriteRune(c)
			r.i += size
		}
	}
}

// escape reads one escape sequence at the cursor (on the backslash).
func (r *tomlReader) escape(b *strings.Builder) error {
	if r.i+1 >= len(r.s) {
		return r.fail("the string ends in the middle of an escape")
	}
	c := r.s[r.i+1]
	var n int
	switch c {
	case 'b', 't', 'n', 'f', 'r', '"', '\\':
		b.WriteString(tomlSimpleEscapes[c])
		r.i += 2
		return nil
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return r.fail("invalid escape \\%c", c)
	}
	if r.i+2+n > len(r.s) {
		return r.fail("\\%c needs %d hex digits", c, n)
	}
	hex := r.s[r.i+2 : r.i+2+n]
	code, err := strconv.ParseUint(hex, 16, 32)
	if err != nil {
		return r.fail("\\%c needs %d hex digits, found %q", c, n, hex)
	}
	if code > utf8.MaxRune || code >= 0xd800 && code <= 0xdfff {
		return r.fail("\\%c%s is not a Unicode scalar value", c, hex)
	}
	b.WriteRune(rune(code))
	r.i += 2 + n
	return nil
}

// tomlSimpleEscapes maps the letter of a one-letter escape to its text.
var tomlSimpleEscapes = map[byte]string{'b': "\b", 't': "\t", 'n': "\n", 'f': "\f", 'r': "\r", '"': "\"", '\\': "\\"}

// literalString reads '...' with no escapes.
func (r *tomlReader) literalString() (string, error) {
	r.i++
	start := r.i
	for {
		if r.eof() || r.s[r.i] == '\n' || r.s[r.i] == '\r' {
			return "", r.fail("the string is never closed with \"'\"")
		}
		c, size := utf8.DecodeRuneInString(r.s[r.i:])
		if c == '\'' {
			s := r.s[start:r.i]
			r.i++
			return s, nil
		}
		if tomlControl(c) {
			return "", r.fail("control character U+%04X in a string", c)
		}
		r.i += size
	}
}

// multilineBasic reads """...""" with escapes and line-ending backslashes.
func (r *tomlReader) multilineBasic() (string, error) {
	r.i += 3
	r.newline() // a line break right after the opening quotes is dropped
	var b strings.Builder
	for {
		if r.eof() {
			return "", r.fail("the string is never closed with '\"\"\"'")
		}
		if strings.HasPrefix(r.s[r.i:], `"""`) {
			n := 3
			for r.i+n < len(r.s) && r.s[r.i+n] == '"' {
				n++
			}
			if n > 5 {
				return "", r.fail("too many quotes at the end of the string")
			}
			b.WriteString(strings.Repeat(`"`, n-3))
			r.i += n
			return b.String(), nil
		}
		c, size := utf8.DecodeRuneInString(r.s[r.i:])
		switch {
		case c == '\\' && r.lineEndingBackslash():
		case c == '\\':
			if err := r.escape(&b); err != nil {
				return "", err
			}
		case c == '\n' || c == '\r':
			start := r.i
			if !r.newline() {
				return "", r.fail("a carriage return must be followed by a line feed")
			}
			b.WriteString(r.s[start:r.i])
		case tomlControl(c):
			return "", r.fail("control character U+%04X in a string: write it as an escape", c)
		default:
			b.WriteRune(c)
			r.i += size
		}
	}
}

// lineEndingBackslash consumes a backslash followed by optional spaces, a
// line break and all white space after it, reporting whether it did.
func (r *tomlReader) lineEndingBackslash() bool {
	j := r.i + 1
	for j < len(r.s) && (r.s[j] == ' ' || r.s[j] == '\t') {
		j++
	}
	if !strings.HasPrefix(r.s[j:], "\n") && !strings.HasPrefix(r.s[j:], "\r\n") {
		return false
	}
	r.i = j
	for {
		r.spaces()
		if !r.newline() {
			return true
		}
	}
}

// multilineLiteral reads a multi-line literal string (between triple
// single quotes) with no escapes.
func (r *tomlReader) multilineLiteral() (string, error) {
	r.i += 3
	r.newline()
	end := strings.Index(r.s[r.i:], "'''")
	if end < 0 {
		// Report the first bad character, if any, before the missing end.
		end = len(r.s) - r.i
	}
	text := r.s[r.i : r.i+end]
	for j, c := range text {
		switch {
		case c == '\n':
			r.line++
			r.lineAt = r.i + j + 1
		case c == '\r':
			if !strings.HasPrefix(text[j:], "\r\n") {
				r.i += j
				return "", r.fail("a carriage return must be followed by a line feed")
			}
		case tomlControl(c):
			r.i += j
			return "", r.fail("control character U+%04X in a string", c)
		}
	}
	r.i += end
	if r.eof() {
		return "", r.fail("the string is never closed with \"'''\"")
	}
	n := 3
	for r.i+n < len(r.s) && r.s[r.i+n] == '\'' {
		n++
	}
	if n > 5 {
		return "", r.fail("too many quotes at the end of the string")
	}
	r.i += n
	return text + strings.Repeat("'", n-3), nil
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
