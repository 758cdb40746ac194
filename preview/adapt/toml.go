package adapt

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The reader of Codex CLI agent files: go-toml's unstable parser, which
// checks the TOML 1.0 syntax and keeps the order of the expressions, the
// comments (on their own line, at the end of a line, inside arrays) and
// the position of every key and value. On top of it, this file refuses
// what the parser leaves to a decoder (a key or table defined twice,
// malformed numbers) and dates and times (no agent key uses them), each
// with the line and column.

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
	// comments holds the text of every comment, without its '#' and the
	// space around it, in the order of the file.
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

// tomlReader turns the parser's expressions into a tomlDoc.
type tomlReader struct {
	p    *unstable.Parser
	text []byte
	doc  *tomlDoc
	// table is the table the next keys belong to ("" for the top level;
	// name[n] for the n'th element of an array of tables).
	table string
	// defined holds each full key: "value", "table" or "array"; arrays
	// the elements of each array of tables so far.
	defined map[string]string
	arrays  map[string]int
}

// at returns the line and column (in characters) of an offset.
func (r *tomlReader) at(offset int) (line, col int) {
	offset = min(max(offset, 0), len(r.text))
	before := r.text[:offset]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte{'\n'}) + 1, utf8.RuneCount(before[lineStart:]) + 1
}

// fail returns an error at the start of node n.
func (r *tomlReader) fail(n *unstable.Node, format string, args ...any) error {
	line, col := r.at(int(n.Raw.Offset))
	return &tomlError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// line returns the line of node n.
func (r *tomlReader) line(n *unstable.Node) int {
	line, _ := r.at(int(n.Raw.Offset))
	return line
}

// parseTOML reads a whole document. A UTF-8 byte-order mark is dropped.
func parseTOML(data []byte) (*tomlDoc, error) {
	text := bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(text) {
		return nil, errors.New("the file is not valid UTF-8")
	}
	p := &unstable.Parser{KeepComments: true}
	p.Reset(text)
	r := &tomlReader{p: p, text: text, doc: &tomlDoc{}, defined: map[string]string{}, arrays: map[string]int{}}
	for p.NextExpression() {
		e := p.Expression()
		var err error
		switch e.Kind {
		case unstable.Comment:
			r.comment(e)
		case unstable.Table, unstable.ArrayTable:
			err = r.header(e)
		case unstable.KeyValue:
			err = r.keyValue(e)
		}
		if err != nil {
			return nil, err
		}
		// A comment at the end of the expression's line follows it.
		if c := e.Next(); c != nil && c.Kind == unstable.Comment {
			r.comment(c)
		}
	}
	if err := p.Error(); err != nil {
		return nil, r.parseError(err)
	}
	return r.doc, nil
}

// header reads a [table] or [[array of tables]] header: the keys after it
// belong to it (to a new element, for an array). A name defined before is
// an error, unless both are arrays of tables.
func (r *tomlReader) header(e *unstable.Node) error {
	first := e.Child()
	name := r.key(e.Key())
	array := e.Kind == unstable.ArrayTable
	if prev, ok := r.defined[name]; ok && (prev == "value" || !array || prev != "array") {
		return &tomlError{line: r.line(first), col: 1, msg: fmt.Sprintf("[%s] is defined twice", name)}
	}
	r.table = name
	if array {
		r.defined[name] = "array"
		// Each [[name]] starts a new table: its keys are its own.
		r.arrays[name]++
		r.table = fmt.Sprintf("%s[%d]", name, r.arrays[name])
	} else {
		r.defined[name] = "table"
	}
	r.doc.tables = append(r.doc.tables, tomlEntry{key: name, line: r.line(first)})
	return nil
}

// keyValue reads a key = value line into the current table. A key defined
// before is an error.
func (r *tomlReader) keyValue(e *unstable.Node) error {
	keyNode := e.Value().Next()
	key := r.key(e.Key())
	v, err := r.value(e.Value(), r.line(keyNode), 0)
	if err != nil {
		return err
	}
	full := key
	if r.table != "" {
		full = r.table + "." + key
	}
	if _, dup := r.defined[full]; dup {
		return &tomlError{line: r.line(keyNode), col: 1, msg: fmt.Sprintf("%s is defined twice", full)}
	}
	r.defined[full] = "value"
	r.doc.entries = append(r.doc.entries, tomlEntry{table: r.table, key: key, value: v, line: r.line(keyNode)})
	return nil
}

// parseError places the parser's error at its line and column, with a
// hint when a string lacks its quotes.
func (r *tomlReader) parseError(err error) error {
	var pe *unstable.ParserError
	if !errors.As(err, &pe) || pe.Highlight == nil {
		return err
	}
	line, col := r.at(int(r.p.Range(pe.Highlight).Offset))
	msg := pe.Message
	if strings.Contains(msg, "at start of value") {
		msg += " (strings need quotes)"
	}
	return &tomlError{line: line, col: col, msg: msg}
}

// comment records a comment's text without its '#'.
func (r *tomlReader) comment(n *unstable.Node) {
	r.doc.comments = append(r.doc.comments, strings.TrimSpace(strings.TrimPrefix(string(n.Data), "#")))
}

// key joins a dotted key's parts. Quoted parts keep their text (a dot
// inside one is not a separator, but this reader only compares keys, so
// that does not matter).
func (r *tomlReader) key(it unstable.Iterator) string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

// value converts one value node; line is the line of its key, for the
// containers, which carry no position of their own.
func (r *tomlReader) value(n *unstable.Node, line, depth int) (tomlValue, error) {
	if n.Raw.Length > 0 {
		line = r.line(n)
	}
	v := tomlValue{line: line, str: string(n.Data)}
	switch n.Kind {
	case unstable.String:
		v.kind = tomlString
	case unstable.Bool:
		v.kind = tomlBool
	case unstable.Integer:
		v.kind = tomlInteger
		if !tomlIntRE(v.str) {
			return v, r.fail(n, "%q is not a TOML integer", v.str)
		}
	case unstable.Float:
		v.kind = tomlFloat
		if !tomlFloatRE(v.str) {
			return v, r.fail(n, "%q is not a TOML float", v.str)
		}
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return v, r.fail(n, "dates and times are not supported here")
	case unstable.Array, unstable.InlineTable:
		return r.container(n, v, depth)
	default:
		return v, r.fail(n, "expected a value")
	}
	return v, nil
}

// container converts an array or inline table node n into v, which has
// its line: its items in order (an inline table's values), its comments
// recorded. Containers nested tomlMaxDepth deep are an error.
func (r *tomlReader) container(n *unstable.Node, v tomlValue, depth int) (tomlValue, error) {
	v.kind, v.str = tomlArray, ""
	if n.Kind == unstable.InlineTable {
		v.kind = tomlInlineTable
	}
	if depth >= tomlMaxDepth {
		return v, &tomlError{line: v.line, col: 1, msg: "arrays and tables are nested too deeply"}
	}
	it := n.Children()
	for it.Next() {
		c := it.Node()
		switch c.Kind {
		case unstable.Comment:
			r.comment(c)
			continue
		case unstable.KeyValue:
			// An inline table's entry: its value is what counts.
			c = c.Value()
		}
		item, err := r.value(c, v.line, depth+1)
		if err != nil {
			return v, err
		}
		v.items = append(v.items, item)
	}
	return v, nil
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
