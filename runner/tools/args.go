package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// args is a call's arguments with names matched ignoring case and
// underscores, as the runtime binds them (Path, path and PATH are one).
type args map[string]json.RawMessage

// parseArgs reads a call's JSON arguments, meta properties dropped.
func parseArgs(raw json.RawMessage) (args, error) {
	_, clean, err := SplitMeta(raw)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(clean, &m); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	out := args{}
	for k, v := range m {
		out[normKey(k)] = v
	}
	return out, nil
}

func normKey(k string) string { return strings.ToLower(strings.ReplaceAll(k, "_", "")) }

// str returns the string argument name ("" and false when absent or
// null); a value of another type is an error.
func (a args) str(name string) (string, bool, error) {
	v, ok := a[normKey(name)]
	if !ok || string(v) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false, fmt.Errorf("'%s' must be a string", name)
	}
	return s, true, nil
}

// integer returns the integer argument name (a number or a numeric
// string).
func (a args) integer(name string) (int, bool, error) {
	v, ok := a[normKey(name)]
	if !ok || string(v) == "null" {
		return 0, false, nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return 0, false, fmt.Errorf("'%s' must be an integer", name)
		}
		if _, err := fmt.Sscan(s, &f); err != nil {
			return 0, false, fmt.Errorf("'%s' must be an integer", name)
		}
	}
	if f != float64(int(f)) || f > 1<<31 || f < -(1<<31) {
		return 0, false, fmt.Errorf("'%s' must be an integer", name)
	}
	return int(f), true, nil
}

// boolean returns the boolean argument name (true/false or their
// strings).
func (a args) boolean(name string) (bool, bool, error) {
	v, ok := a[normKey(name)]
	if !ok || string(v) == "null" {
		return false, false, nil
	}
	var b bool
	if err := json.Unmarshal(v, &b); err == nil {
		return b, true, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true":
			return true, true, nil
		case "false":
			return false, true, nil
		}
	}
	return false, false, fmt.Errorf("'%s' must be true or false", name)
}
