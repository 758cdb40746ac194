package suitefile

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
)

// MaxVarRows caps the rows of vars: and of a vars-file: each row is a
// case.
const MaxVarRows = 10000

// varName is what a template variable may be called: it is also the tail
// of an environment variable (AGENTDESK_VAR_<name>).
var varName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Row is one row of a suite's vars: or vars-file:, which becomes a case.
type Row struct {
	// Names are the row's variables in the order written; Values their
	// values.
	Names  []string
	Values map[string]string
	// Path and Pos are where the row is: the suite (vars:) or the
	// vars-file.
	Path string
	Pos  lint.Pos
}

// set adds a variable to the row; false when the row has it already.
func (r *Row) set(name, value string) bool {
	if r.Values == nil {
		r.Values = map[string]string{}
	}
	if _, ok := r.Values[name]; ok {
		return false
	}
	r.Names = append(r.Names, name)
	r.Values[name] = value
	return true
}

// ReadVars reads the rows of a vars-file: JSON Lines (.jsonl, .ndjson; an
// object a line, blank lines skipped) or CSV (.csv; a header row of names,
// then a row a case, every row as long as the header). What is wrong is a
// diagnostic at the file's line and column; a file with any is no rows.
func ReadVars(path string, data []byte) ([]Row, []lint.Diagnostic) {
	at := func(line, col int, msg, hint string) []lint.Diagnostic {
		return []lint.Diagnostic{{Path: path, Pos: lint.Pos{Line: line, Column: col}, Rule: RuleVars, Severity: lint.Error, Message: msg, Hint: hint}}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 || !utf8.Valid(data) {
		line := 1
		if i >= 0 {
			line += bytes.Count(data[:i], []byte("\n"))
		}
		return nil, at(line, 1, "the vars-file is binary, not text (it holds a NUL byte or bytes that are not UTF-8)", "give a .jsonl or .csv file in UTF-8")
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	var rows []Row
	var ds []lint.Diagnostic
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		rows, ds = readJSONL(path, data)
	case ".csv":
		rows, ds = readCSV(path, data)
	default:
		return nil, at(1, 1, fmt.Sprintf("the vars-file %s is neither .jsonl nor .csv", filepath.Base(path)), "give a .jsonl file (an object a line) or a .csv file (a header row of names)")
	}
	if len(ds) > 0 {
		return nil, ds
	}
	if len(rows) == 0 {
		return nil, at(1, 1, "the vars-file holds no rows", "add a row a case")
	}
	if len(rows) > MaxVarRows {
		return nil, at(rows[MaxVarRows].Pos.Line, 1, fmt.Sprintf("the vars-file holds %d rows; at most %d cases are made from data", len(rows), MaxVarRows), "split it across suites")
	}
	return rows, nil
}

// readJSONL reads JSON Lines: each non-blank line an object whose values
// are text, numbers, booleans or null (as text: 8080, true, "") or
// anything else (as its compact JSON).
func readJSONL(path string, data []byte) ([]Row, []lint.Diagnostic) {
	return readJSONLines(path, data, true)
}

// readJSONLines is readJSONL; fast reads a line that is valid JSON with
// scanObject, and every other line (and, without fast, every line) with
// decodeObject, whose errors say what is wrong. Both give the same rows:
// FuzzReadVarsJSONL compares them.
func readJSONLines(path string, data []byte, fast bool) ([]Row, []lint.Diagnostic) {
	var rows []Row
	fail := func(line, col int, msg string) ([]Row, []lint.Diagnostic) {
		return nil, []lint.Diagnostic{{Path: path, Pos: lint.Pos{Line: line, Column: col}, Rule: RuleVars, Severity: lint.Error, Message: msg,
			Hint: `each line is one JSON object: {"port": 8080, "file": "main.go"}`}}
	}
	var scratch bytes.Buffer
	for line, rest := 1, data; rest != nil; line++ {
		var text []byte
		text, rest = cutLine(rest)
		trimmed := bytes.TrimSpace(text)
		if len(trimmed) == 0 {
			continue
		}
		col := len(text) - len(bytes.TrimLeft(text, " \t")) + 1
		if trimmed[0] != '{' {
			return fail(line, col, "line "+strconv.Itoa(line)+" of the vars-file is not a JSON object")
		}
		row := Row{Path: path, Pos: lint.Pos{Line: line, Column: col}}
		var msg string
		if fast && json.Valid(trimmed) {
			msg = scanObject(trimmed, line, &row, &scratch)
		} else {
			msg = decodeObject(trimmed, line, &row)
		}
		if msg != "" {
			return fail(line, col, msg)
		}
		rows = append(rows, row)
		if len(rows) > MaxVarRows {
			break
		}
	}
	return rows, nil
}

// cutLine splits data at its first newline into the line, without the
// newline and any carriage returns before it, and the rest (nil after
// the last line).
func cutLine(data []byte) (line, rest []byte) {
	line = data
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		line, rest = data[:i], data[i+1:]
	}
	return bytes.TrimRight(line, "\r"), rest
}

// decodeObject reads one line's object into row with a json.Decoder, and
// says what is wrong with it ("" when nothing is).
func decodeObject(obj []byte, line int, row *Row) string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return jsonError(line, err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(line, err)
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return jsonError(line, err)
		}
		if msg := setVar(row, line, name, jsonText(raw)); msg != "" {
			return msg
		}
	}
	if _, err := dec.Token(); err != nil {
		return jsonError(line, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Sprintf("line %d of the vars-file holds more than one JSON object", line)
	}
	return ""
}

// scanObject reads one line's object into row, as decodeObject does, but
// only for an object json.Valid accepts: it finds the members' bounds
// without a decoder, and decodes only what has escapes (a vars-file of
// 10,000 rows reads about as fast as the same rows in CSV). scratch
// holds the compacted JSON of nested values.
func scanObject(obj []byte, line int, row *Row, scratch *bytes.Buffer) string {
	i := skipSpace(obj, 1)
	if obj[i] == '}' {
		return ""
	}
	for {
		i = skipSpace(obj, i)
		end := stringEnd(obj, i)
		name := unquote(obj[i:end])
		i = skipSpace(obj, end) + 1 // the colon
		i = skipSpace(obj, i)
		start := i
		i = valueEnd(obj, i)
		if msg := setVar(row, line, name, scannedText(obj[start:i], scratch)); msg != "" {
			return msg
		}
		i = skipSpace(obj, i)
		if obj[i] != ',' {
			return "" // the closing brace
		}
		i++
	}
}

// setVar adds the variable name to the row read from line; it says what is
// wrong with it ("" when nothing is).
func setVar(row *Row, line int, name, value string) string {
	if !isVarName(name) {
		return fmt.Sprintf("line %d of the vars-file names a variable %q; names are letters, digits and _ (not first a digit)", line, name)
	}
	if !row.set(name, value) {
		return fmt.Sprintf("line %d of the vars-file has %s twice", line, name)
	}
	return ""
}

// isVarName reports whether s matches varName, without the regexp.
func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// skipSpace returns the index of the first byte from i on that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the valid JSON string starting
// at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}

// valueEnd returns the index just past the valid JSON value starting at
// b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	j := i
	for ; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
	}
	return j
}

// unquote is the text of a valid JSON string.
func unquote(quoted []byte) string {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}

// scannedText is jsonText for a valid JSON value.
func scannedText(raw []byte, scratch *bytes.Buffer) string {
	switch raw[0] {
	case '"':
		return unquote(raw)
	case '{', '[':
		scratch.Reset()
		if json.Compact(scratch, raw) == nil {
			return scratch.String()
		}
		return string(raw)
	case 'n':
		return "" // null
	}
	return string(raw) // a number, true or false: compact already
}

// jsonError says what is wrong with a line of JSON.
func jsonError(line int, err error) string {
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "it ends before the object does"
	}
	return fmt.Sprintf("line %d of the vars-file is not valid JSON: %s", line, msg)
}

// jsonText is a JSON value as a variable's text: a string as it is, null
// as "", anything else as its compact JSON.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(bytes.TrimSpace(raw)) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

// readCSV reads CSV with a header row of variable names.
func readCSV(path string, data []byte) ([]Row, []lint.Diagnostic) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 0 // every row as long as the header
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return csvFail(path, err)
	}
	if d, bad := csvHeader(path, r, header); bad {
		return nil, []lint.Diagnostic{d}
	}
	var rows []Row
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvFail(path, err)
		}
		line, col := r.FieldPos(0)
		row := Row{Path: path, Pos: lint.Pos{Line: line, Column: col}}
		for i, v := range rec {
			row.set(header[i], v)
		}
		rows = append(rows, row)
		if len(rows) > MaxVarRows {
			break
		}
	}
	return rows, nil
}

// csvHeader trims the names in a CSV vars-file's header row in place, and
// reports (bad is true) the first that is not a variable name or is
// repeated, at its field in r.
func csvHeader(path string, r *csv.Reader, header []string) (d lint.Diagnostic, bad bool) {
	fail := func(i int, msg, hint string) (lint.Diagnostic, bool) {
		line, col := r.FieldPos(i)
		return lint.Diagnostic{Path: path, Pos: lint.Pos{Line: line, Column: col}, Rule: RuleVars, Severity: lint.Error, Message: msg, Hint: hint}, true
	}
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		if !varName.MatchString(h) {
			return fail(i, fmt.Sprintf("column %d of the header is %q, not a variable name; names are letters, digits and _ (not first a digit)", i+1, h), "the first row names the variables: port,file")
		}
		if seen[h] {
			return fail(i, fmt.Sprintf("the header names %s twice", h), "name each column once")
		}
		seen[h] = true
	}
	return lint.Diagnostic{}, false
}

// csvFail is a CSV parse error at its line and column.
func csvFail(path string, err error) ([]Row, []lint.Diagnostic) {
	d := lint.Diagnostic{Path: path, Pos: lint.Pos{Line: 1, Column: 1}, Rule: RuleVars, Severity: lint.Error, Message: "the vars-file is not valid CSV: " + err.Error()}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		d.Pos = lint.Pos{Line: max(pe.Line, 1), Column: max(pe.Column, 1)}
		switch {
		case errors.Is(pe.Err, csv.ErrFieldCount):
			d.Message = fmt.Sprintf("row %d of the vars-file is ragged: it does not have as many fields as the header", pe.Line)
			d.Hint = "give every row one value per column (an empty value is two commas: a,,c)"
		default:
			d.Message = fmt.Sprintf("the vars-file is not valid CSV at line %d: %v", pe.Line, pe.Err)
			d.Hint = `quote a value holding a comma, a quote or a line break: "a, b"`
		}
	}
	return nil, []lint.Diagnostic{d}
}
