package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The meta properties NetClaw adds to every tool's schema.
const (
	MetaRationale  = "_rationale"
	MetaTimeout    = "_timeout_seconds"
	MetaBackground = "_background"
)

// Meta holds the meta arguments of one call.
type Meta struct {
	// Rationale is the _rationale argument ("" when absent or not a
	// string).
	Rationale string
	// TimeoutSeconds is _timeout_seconds (0 when absent or not a number).
	TimeoutSeconds int
	// Background is _background.
	Background bool
}

// SplitMeta separates the meta properties from a call's JSON arguments:
// it returns them and the arguments without them (an object, re-encoded
// with its keys sorted). Meta names are matched ignoring case, as the
// runtime matches argument names. Arguments that are not a JSON object are
// an error that says so.
func SplitMeta(args json.RawMessage) (Meta, json.RawMessage, error) {
	var m Meta
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return m, json.RawMessage("{}"), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return m, nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	for k, v := range obj {
		switch strings.ToLower(k) {
		case MetaRationale:
			_ = json.Unmarshal(v, &m.Rationale)
		case MetaTimeout:
			var f float64
			if json.Unmarshal(v, &f) == nil && f > 0 && f < 1<<31 {
				m.TimeoutSeconds = int(f)
			}
		case MetaBackground:
			_ = json.Unmarshal(v, &m.Background)
		default:
			continue
		}
		delete(obj, k)
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return m, nil, fmt.Errorf("re-encoding the arguments: %w", err)
	}
	return m, out, nil
}

// sprintf is fmt.Sprintf, without arguments when there are none (so a
// text holding % is kept as it is).
func sprintf(format string, a ...any) string {
	if len(a) == 0 {
		return format
	}
	return fmt.Sprintf(format, a...)
}
