package tools

import (
	"encoding/json"
	"strings"

	"github.com/agentdesk/agentdesk/runner/approve"
)

// Mock is one suite mock: calls of Tool whose arguments contain Args
// (a subset: every key given must be there, compared ignoring case;
// strings are globs as in --approve; objects and arrays compared
// recursively, numbers and booleans exactly) get Result, or Error as an
// error result. The tool does not run.
type Mock struct {
	Tool   string
	Args   map[string]any
	Result string
	Error  string
}

// Mocks answers calls from a list of mocks, the first that matches.
type Mocks []Mock

// Mock returns the result of the first mock that matches the call.
func (ms Mocks) Mock(name string, args json.RawMessage) (Result, bool) {
	var got map[string]any
	_, clean, err := SplitMeta(args)
	if err != nil || json.Unmarshal(clean, &got) != nil {
		got = map[string]any{}
	}
	for _, m := range ms {
		if m.Tool != name || !subset(m.Args, got) {
			continue
		}
		if m.Error != "" {
			return Result{Text: m.Error, IsError: true, Label: LabelMocked}, true
		}
		return Result{Text: m.Result, Label: LabelMocked}, true
	}
	return Result{}, false
}

// subset reports whether every key of want is in got (names compared
// ignoring case and underscores) with a matching value.
func subset(want, got map[string]any) bool {
	for k, wv := range want {
		found := false
		for gk, gv := range got {
			if normKey(gk) == normKey(k) && matchValue(wv, gv) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// matchValue matches one mock value against a call's.
func matchValue(want, got any) bool {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		return ok && approve.Glob(w, g)
	case map[string]any:
		g, ok := got.(map[string]any)
		return ok && subset(w, g)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matchValue(w[i], g[i]) {
				return false
			}
		}
		return true
	case nil:
		return got == nil
	}
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	return strings.EqualFold(string(wb), string(gb)) || numEqual(want, got)
}

// numEqual compares numbers of any Go type by value.
func numEqual(a, b any) bool {
	fa, ok1 := toFloat(a)
	fb, ok2 := toFloat(b)
	return ok1 && ok2 && fa == fb
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}
