package suite

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
	var rows []Row
	fail := func(line, col int, msg string) ([]Row, []lint.Diagnostic) {
		return nil, []lint.Diagnostic{{Path: path, Pos: lint.Pos{Line: line, Column: col}, Rule: RuleVars, Severity: lint.Error, Message: msg,
			Hint: `each line is one JSON object: {"port": 8080, "file": "main.go"}`}}
	}
	for n, text := range strings.Split(string(data), "\n") {
		line := n + 1
		text = strings.TrimRight(text, "\r")
		trimmed := strings.TrimSpace(text)
		if trimmed == "" {
			continue
		}
		col := len(text) - len(strings.TrimLeft(text, " \t")) + 1
		if trimmed[0] != '{' {
			return fail(line, col, "line "+strconv.Itoa(line)+" of the vars-file is not a JSON object")
		}
		dec := json.NewDecoder(strings.NewReader(trimmed))
		dec.UseNumber()
		row := Row{Path: path, Pos: lint.Pos{Line: line, Column: col}}
		if _, err := dec.Token(); err != nil {
			return fail(line, col, jsonError(line, err))
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return fail(line, col, jsonError(line, err))
			}
			name, _ := tok.(string)
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return fail(line, col, jsonError(line, err))
			}
			if !varName.MatchString(name) {
				return fail(line, col, fmt.Sprintf("line %d of the vars-file names a variable %q; names are letters, digits and _ (not first a digit)", line, name))
			}
			if !row.set(name, jsonText(raw)) {
				return fail(line, col, fmt.Sprintf("line %d of the vars-file has %s twice", line, name))
			}
		}
		if _, err := dec.Token(); err != nil {
			return fail(line, col, jsonError(line, err))
		}
		if _, err := dec.Token(); err != io.EOF {
			return fail(line, col, fmt.Sprintf("line %d of the vars-file holds more than one JSON object", line))
		}
		rows = append(rows, row)
		if len(rows) > MaxVarRows {
			break
		}
	}
	return rows, nil
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
	fail := func(line, col int, msg, hint string) ([]Row, []lint.Diagnostic) {
		return nil, []lint.Diagnostic{{Path: path, Pos: lint.Pos{Line: line, Column: col}, Rule: RuleVars, Severity: lint.Error, Message: msg, Hint: hint}}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 0 // every row as long as the header
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return csvFail(path, err)
	}
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		line, col := r.FieldPos(i)
		if !varName.MatchString(h) {
			return fail(line, col, fmt.Sprintf("column %d of the header is %q, not a variable name; names are letters, digits and _ (not first a digit)", i+1, h), "the first row names the variables: port,file")
		}
		if seen[h] {
			return fail(line, col, fmt.Sprintf("the header names %s twice", h), "name each column once")
		}
		seen[h] = true
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
