package lint

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the JSON reader behind LoadConfig. It accepts what .NET's
// configuration reader accepts (System.Text.Json with comments skipped and
// trailing commas allowed, nesting up to 64 levels) and keeps the byte
// offset of every name and value, so diagnostics can point at the line.
//
// Why hand-written, when JSON-with-comments libraries exist: it reads
// secrets.json too, and the library candidate weighed in issue 15 quotes
// the offending value in its errors, so a typo next to an API key would
// print the key into a terminal, a CI log or a SARIF file; these errors
// name the line, the column and what was expected, quoting at most the one
// character found or a property name, never a value. That
// library also has no nesting limit, so a hostile or corrupt file could
// recurse without bound, where the runtime stops at 64 levels and so must
// we (cfgMaxDepth). Keep it unless a replacement does both.

// cfgMaxDepth is System.Text.Json's default JsonDocumentOptions.MaxDepth,
// which the .NET configuration reader keeps.
const cfgMaxDepth = 64

// cfgKind is the kind of a JSON value.
type cfgKind uint8

// JSON value kinds.
const (
	cfgObject cfgKind = iota + 1
	cfgArray
	cfgString
	cfgNumber
	cfgBool
	cfgNull
)

// cfgNode is one JSON value.
type cfgNode struct {
	kind cfgKind
	// text is a string's decoded value, a number or boolean as written, ""
	// for null and containers.
	text string
	// off is the byte offset of the value's first character.
	off int
	// members are an object's properties in order (duplicates kept) or an
	// array's elements, named "0", "1", ....
	members []cfgMember
}

// cfgMember is one object property or array element.
type cfgMember struct {
	name string
	// off is the offset of the property name's opening quote, or of the
	// array element.
	off   int
	value *cfgNode
}

// cfgSyntaxError is where and why a text is not JSON.
type cfgSyntaxError struct {
	off int
	msg string
}

func (e *cfgSyntaxError) Error() string { return e.msg }

// cfgSpan is a byte range [start, end).
type cfgSpan struct{ start, end int }

// cfgReader parses one text.
type cfgReader struct {
	text  string
	i     int
	depth int
	// skipped, when not nil, collects the comments and trailing commas the
	// reader skipped (tests check that blanking them leaves plain JSON).
	skipped *[]cfgSpan
}

// cfgParseJSON parses text, a whole file, into its top-level value.
func cfgParseJSON(text string) (*cfgNode, error) {
	r := cfgReader{text: text}
	return r.document()
}

func (r *cfgReader) document() (*cfgNode, error) {
	if err := r.space(); err != nil {
		return nil, err
	}
	if r.i >= len(r.text) {
		return nil, r.fail(0, "the file holds no JSON value (it is empty or only comments)")
	}
	n, err := r.value()
	if err != nil {
		return nil, err
	}
	if err := r.space(); err != nil {
		return nil, err
	}
	if r.i < len(r.text) {
		return nil, r.fail(r.i, "unexpected %s after the end of the top-level value", r.what(r.i))
	}
	return n, nil
}

func (r *cfgReader) fail(off int, format string, args ...any) error {
	return &cfgSyntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

// what names the character at off for a message: one quoted character, never
// more of the text (it may hold a secret), or "end of file".
func (r *cfgReader) what(off int) string {
	if off >= len(r.text) {
		return "end of file"
	}
	c, _ := utf8.DecodeRuneInString(r.text[off:])
	return strconv.QuoteRune(c)
}

// skip records a skipped span for tests.
func (r *cfgReader) skip(start, end int) {
	if r.skipped != nil {
		*r.skipped = append(*r.skipped, cfgSpan{start, end})
	}
}

// space skips whitespace and comments.
func (r *cfgReader) space() error {
	for r.i < len(r.text) {
		switch r.text[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		case '/':
			if ok, err := r.comment(); !ok || err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// comment skips the // or /* comment at r.i, a '/', and says whether
// there was one (a '/' at the end or before anything else is none).
func (r *cfgReader) comment() (bool, error) {
	if r.i+1 >= len(r.text) {
		return false, nil
	}
	start := r.i
	switch r.text[r.i+1] {
	case '/':
		end := strings.IndexAny(r.text[start:], "\r\n")
		if end < 0 {
			r.i = len(r.text)
		} else {
			r.i = start + end
		}
	case '*':
		end := strings.Index(r.text[start+2:], "*/")
		if end < 0 {
			return false, r.fail(start, "a /* comment is never closed")
		}
		r.i = start + 2 + end + 2
	default:
		return false, nil
	}
	r.skip(start, r.i)
	return true, nil
}

func (r *cfgReader) value() (*cfgNode, error) {
	if r.i >= len(r.text) {
		return nil, r.fail(r.i, "unexpected end of file: expected a value")
	}
	start := r.i
	switch c := r.text[r.i]; {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		return &cfgNode{kind: cfgString, text: s, off: start}, nil
	case c == '-' || ('0' <= c && c <= '9'):
		return r.number()
	case c == 't' || c == 'f' || c == 'n':
		if n := r.literal(); n != nil {
			return n, nil
		}
	}
	return nil, r.fail(start, "unexpected %s: expected a value (a \"string\", a number, true, false, null, {an object} or [an array])", r.what(start))
}

// cfgLiterals are the words JSON takes as values.
var cfgLiterals = [...]struct {
	word string
	kind cfgKind
}{{"true", cfgBool}, {"false", cfgBool}, {"null", cfgNull}}

// literal reads true, false or null at r.i (null's text is ""), or
// returns nil, reading nothing, when none is there as a whole word.
func (r *cfgReader) literal() *cfgNode {
	start := r.i
	for _, lit := range cfgLiterals {
		if strings.HasPrefix(r.text[r.i:], lit.word) && !r.wordAt(r.i+len(lit.word)) {
			r.i += len(lit.word)
			text := lit.word
			if lit.kind == cfgNull {
				text = ""
			}
			return &cfgNode{kind: lit.kind, text: text, off: start}
		}
	}
	return nil
}

// wordAt reports whether a letter, digit or underscore is at off, so that
// "trueish" is not read as true.
func (r *cfgReader) wordAt(off int) bool {
	if off >= len(r.text) {
		return false
	}
	c := r.text[off]
	return c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// open enters an object or array.
func (r *cfgReader) open() error {
	r.depth++
	if r.depth > cfgMaxDepth {
		return r.fail(r.i, "nested more than %d levels deep: NetClaw's JSON reader stops there", cfgMaxDepth)
	}
	r.i++
	return r.space()
}

// unclosed is the error for a container the file never closes.
func (r *cfgReader) unclosed(start int, what string) error {
	p := posAt(r.text, start)
	return r.fail(len(r.text), "unexpected end of file: the %s opened at line %d, column %d is never closed", what, p.Line, p.Column)
}

func (r *cfgReader) object() (*cfgNode, error) {
	n := &cfgNode{kind: cfgObject, off: r.i}
	if err := r.open(); err != nil {
		return nil, err
	}
	if r.closes('}') {
		return n, nil
	}
	for {
		m, err := r.member(n)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, m)
		if done, err := r.next(n, '}', m.name); err != nil || done {
			return n, err
		}
	}
}

// member reads one "name": value member of the object n at r.i.
func (r *cfgReader) member(n *cfgNode) (cfgMember, error) {
	if r.i >= len(r.text) {
		return cfgMember{}, r.unclosed(n.off, "object")
	}
	if r.text[r.i] != '"' {
		return cfgMember{}, r.fail(r.i, "expected a property name in double quotes, found %s", r.what(r.i))
	}
	nameOff := r.i
	name, err := r.str()
	if err != nil {
		return cfgMember{}, err
	}
	if err := r.space(); err != nil {
		return cfgMember{}, err
	}
	if r.i >= len(r.text) {
		return cfgMember{}, r.unclosed(n.off, "object")
	}
	if r.text[r.i] != ':' {
		return cfgMember{}, r.fail(r.i, "expected ':' after the property name %s, found %s", cfgShowKey(name), r.what(r.i))
	}
	r.i++
	if err := r.space(); err != nil {
		return cfgMember{}, err
	}
	v, err := r.value()
	if err != nil {
		return cfgMember{}, err
	}
	return cfgMember{name: name, off: nameOff, value: v}, nil
}

func (r *cfgReader) array() (*cfgNode, error) {
	n := &cfgNode{kind: cfgArray, off: r.i}
	if err := r.open(); err != nil {
		return nil, err
	}
	if r.closes(']') {
		return n, nil
	}
	for {
		if r.i >= len(r.text) {
			return nil, r.unclosed(n.off, "array")
		}
		off := r.i
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, cfgMember{name: strconv.Itoa(len(n.members)), off: off, value: v})
		if done, err := r.next(n, ']', ""); err != nil || done {
			return n, err
		}
	}
}

// closes leaves the current object or array when c, its closing bracket, is
// next.
func (r *cfgReader) closes(c byte) bool {
	if r.i < len(r.text) && r.text[r.i] == c {
		r.i++
		r.depth--
		return true
	}
	return false
}

// next reads what follows a member of the container n, whose closing
// bracket is c: a ',' (one before c, a trailing comma, is skipped as .NET
// allows) or c itself, which closes n (done). name is the member's property
// name in an object, for the message when neither comes.
func (r *cfgReader) next(n *cfgNode, c byte, name string) (done bool, err error) {
	what := "array"
	if n.kind == cfgObject {
		what = "object"
	}
	if err := r.space(); err != nil {
		return false, err
	}
	if r.i >= len(r.text) {
		return false, r.unclosed(n.off, what)
	}
	if r.closes(c) {
		return true, nil
	}
	if r.text[r.i] != ',' {
		after := "an array element"
		if n.kind == cfgObject {
			after = "the value of " + cfgShowKey(name)
		}
		return false, r.fail(r.i, "expected ',' or '%c' after %s, found %s", c, after, r.what(r.i))
	}
	comma := r.i
	r.i++
	if err := r.space(); err != nil {
		return false, err
	}
	if r.closes(c) {
		r.skip(comma, comma+1)
		return true, nil
	}
	return false, nil
}

// str reads the string that starts at r.i (a '"') and returns its value.
// Lone UTF-16 surrogates in \u escapes become U+FFFD, as encoding/json does.
func (r *cfgReader) str() (string, error) {
	start := r.i
	i := start + 1
	// Fast path: no escapes.
	for i < len(r.text) {
		c := r.text[i]
		if c == '"' {
			r.i = i + 1
			return r.text[start+1 : i], nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", r.fail(i, "control character %s inside a string: write it as an escape such as \\n", strconv.QuoteRune(rune(c)))
		}
		i++
	}
	var b strings.Builder
	b.WriteString(r.text[start+1 : i])
	for i < len(r.text) {
		c := r.text[i]
		switch {
		case c == '"':
			r.i = i + 1
			return b.String(), nil
		case c < 0x20:
			return "", r.fail(i, "control character %s inside a string: write it as an escape such as \\n", strconv.QuoteRune(rune(c)))
		case c != '\\':
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(r.text) {
			break
		}
		var err error
		if i, err = r.escape(&b, i); err != nil {
			return "", err
		}
	}
	return "", r.fail(start, "a string is never closed")
}

// escape writes to b what the escape at r.text[i] (a backslash with a byte
// after it) stands for, and returns the offset after it. A \u escape of
// half a surrogate pair joins the \u escape of the other half right after
// it; a lone half is U+FFFD.
func (r *cfgReader) escape(b *strings.Builder, i int) (int, error) {
	switch e := r.text[i+1]; e {
	case '"', '\\', '/':
		b.WriteByte(e)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		return r.unicodeEscape(b, i)
	default:
		return 0, r.fail(i, "invalid escape %s inside a string", strconv.Quote(r.text[i:i+2]))
	}
	return i + 2, nil
}

// unicodeEscape writes to b the rune of the \u escape at r.text[i] (with
// the low half after it, for a high surrogate), and returns the offset
// after what it read.
func (r *cfgReader) unicodeEscape(b *strings.Builder, i int) (int, error) {
	c1, ok := cfgHex4(r.text, i+2)
	if !ok {
		return 0, r.fail(i, "invalid \\u escape inside a string: expected four hexadecimal digits")
	}
	i += 6
	if utf16.IsSurrogate(c1) {
		if c2, ok := cfgHex4(r.text, i+2); ok && i+1 < len(r.text) && r.text[i] == '\\' && r.text[i+1] == 'u' {
			if d := utf16.DecodeRune(c1, c2); d != utf8.RuneError {
				b.WriteRune(d)
				return i + 6, nil
			}
		}
		c1 = utf8.RuneError
	}
	b.WriteRune(c1)
	return i, nil
}

// cfgHex4 reads four hexadecimal digits at text[i:].
func cfgHex4(text string, i int) (rune, bool) {
	if i+4 > len(text) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(text[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *cfgReader) number() (*cfgNode, error) {
	start := r.i
	i, ok := cfgNumberEnd(r.text, start)
	if !ok || r.wordAt(i) || (i < len(r.text) && r.text[i] == '.') {
		return nil, r.fail(start, "invalid number: JSON numbers look like 12, -3, 0.5 or 1e3 (no leading zeros, + signs, hex, NaN or a trailing '.')")
	}
	r.i = i
	return &cfgNode{kind: cfgNumber, text: r.text[start:i], off: start}, nil
}

// cfgNumberEnd returns where the JSON number at text[i:] ends: a sign,
// the integer part, a fraction and an exponent. ok is false when a part
// lacks its digits.
func cfgNumberEnd(text string, i int) (end int, ok bool) {
	if text[i] == '-' {
		i++
	}
	if i < len(text) && text[i] == '0' {
		i++
	} else if i, ok = cfgDigits(text, i); !ok {
		return i, false
	}
	if i < len(text) && text[i] == '.' {
		if i, ok = cfgDigits(text, i+1); !ok {
			return i, false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		return cfgDigits(text, i)
	}
	return i, true
}

// cfgDigits returns where the decimal digits at text[i:] end; ok is false
// when there are none.
func cfgDigits(text string, i int) (end int, ok bool) {
	end = i
	for end < len(text) && '0' <= text[end] && text[end] <= '9' {
		end++
	}
	return end, end > i
}

// cfgShowKey returns a key or name for a message: as written when it is
// short and plain, else quoted with Go escapes and cut to 60 characters.
func cfgShowKey(key string) string {
	plain := key != "" && utf8.RuneCountInString(key) <= 60
	for _, c := range key {
		if !strconv.IsPrint(c) || c == '"' || c == '\\' || c == ' ' {
			plain = false
			break
		}
	}
	if plain {
		return key
	}
	return strconv.Quote(cfgCut(key, 60))
}

// cfgCut cuts s to at most n runes, marking a cut with "...".
func cfgCut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "..."
		}
		i++
	}
	return s
}
