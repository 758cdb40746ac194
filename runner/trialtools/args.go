package trialtools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// readArgs are file_read's arguments.
type readArgs struct {
	Path      string
	StartLine int // 0: from the first line
	EndLine   int // 0: to the end
}

// listArgs are file_list's arguments.
type listArgs struct {
	Path string // "": the project folder
	Glob string
}

// argError is a problem with a call's arguments, worded for the model.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(format string, a ...any) error { return &argError{fmt.Sprintf(format, a...)} }

// parseReadArgs decodes file_read's arguments.
func parseReadArgs(raw json.RawMessage) (readArgs, error) {
	var a readArgs
	m, err := argObject(raw, []string{"path", "start_line", "end_line"})
	if err != nil {
		return a, err
	}
	var ok bool
	if a.Path, ok, err = stringArg(m, "path"); err != nil {
		return a, err
	} else if !ok || a.Path == "" {
		return a, argErrorf(`path is required: the file to read, relative to the project folder, e.g. {"path":"README.md"}`)
	}
	if a.StartLine, err = lineArg(m, "start_line"); err != nil {
		return a, err
	}
	if a.EndLine, err = lineArg(m, "end_line"); err != nil {
		return a, err
	}
	if a.EndLine != 0 && a.EndLine < max(a.StartLine, 1) {
		return a, argErrorf("end_line %d is before start_line %d", a.EndLine, max(a.StartLine, 1))
	}
	return a, nil
}

// parseListArgs decodes file_list's arguments.
func parseListArgs(raw json.RawMessage) (listArgs, error) {
	var a listArgs
	m, err := argObject(raw, []string{"path", "glob"})
	if err != nil {
		return a, err
	}
	if a.Path, _, err = stringArg(m, "path"); err != nil {
		return a, err
	}
	if a.Glob, _, err = stringArg(m, "glob"); err != nil {
		return a, err
	}
	return a, nil
}

// argObject decodes a call's arguments into their members, refusing any
// member not in known. Nothing at all, or null, is an empty object; a JSON
// string holding an object (arguments encoded twice, as some models send
// them) is decoded once more.
func argObject(raw json.RawMessage, known []string) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var inner string
		if err := json.Unmarshal(raw, &inner); err != nil {
			return nil, argErrorf("the arguments are not valid JSON (%v); send a JSON object such as %s", err, example(known))
		}
		raw = bytes.TrimSpace([]byte(inner))
	}
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]json.RawMessage{}, nil
	}
	if raw[0] != '{' {
		return nil, argErrorf("the arguments must be a JSON object such as %s", example(known))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, argErrorf("the arguments are not valid JSON (%v); send a JSON object such as %s", err, example(known))
	}
	var unknown []string
	for k := range m {
		if !contains(known, k) {
			unknown = append(unknown, show(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, argErrorf("unknown argument %s; the arguments are %s", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return m, nil
}

// example is a one-line example of an arguments object.
func example(known []string) string {
	if contains(known, "start_line") {
		return `{"path":"README.md","start_line":1,"end_line":40}`
	}
	return `{"path":"docs","glob":"*.md"}`
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stringArg returns member key as a string; absent and null are not set.
func stringArg(m map[string]json.RawMessage, key string) (string, bool, error) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, argErrorf("%s must be a string, not %s", key, jsonKind(raw))
	}
	return s, true, nil
}

// lineArg returns member key as a line number: a whole number ≥ 1, written
// as a JSON number (1, 1.0, 1e2) or a string holding digits. Absent, null
// and 0 mean not set (0 is what many models send for "no value").
func lineArg(m map[string]json.RawMessage, key string) (int, error) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return 0, nil
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, argErrorf("%s must be a whole number ≥ 1", key)
		}
		text = strings.TrimSpace(text)
		if text == "" {
			return 0, nil
		}
	} else if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return 0, argErrorf("%s must be a whole number ≥ 1, not %s", key, jsonKind(raw))
	}
	n, err := strconv.ParseInt(text, 10, 0)
	if err != nil {
		f, ferr := strconv.ParseFloat(text, 64)
		if ferr != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
			return 0, argErrorf("%s must be a whole number ≥ 1, not %s", key, show(text))
		}
		if f > math.MaxInt32 {
			f = math.MaxInt32
		}
		if f < math.MinInt32 {
			f = math.MinInt32
		}
		n = int64(f)
	}
	if n < 0 {
		return 0, argErrorf("%s must be a whole number ≥ 1, not %d", key, n)
	}
	return int(n), nil
}

// jsonKind names the kind of a JSON value, for messages.
func jsonKind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
