package suitefile

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// Mock is one item of mocks: (on a case or the whole suite): calls of Tool
// whose arguments hold Args (a subset: names matched ignoring case,
// strings as globs with * and ?) are not run; they get Result, or Error as
// an error result.
type Mock struct {
	Tool   string
	Args   map[string]any
	Result string
	Error  string
	// IsError is set when the mock gives error:.
	IsError bool
	Pos     lint.Pos
}

// Change is one item of expect: changes: what the run must have left in
// its overlay of the project. Path is project-relative; one ending in '/'
// is a folder (everything below it).
type Change struct {
	Path string
	// Contains is text the file must hold after the run (it may be
	// unchanged and hold it already), case-sensitive.
	Contains string
	// Unchanged: the run must not change, add or delete the file (or any
	// file below the folder).
	Unchanged bool
	Pos       lint.Pos
}

// mocks reads a mocks: list.
func (r *reader) mocks(v *yaml.Node) []Mock {
	if v.Kind != yaml.SequenceNode {
		r.add(RuleMock, posOf(v), "mocks is "+kindName(v)+"; give a list of {tool, args, result} or {tool, args, error}", `mocks: [{tool: web_fetch, args: {Url: "https://example.test/*"}, result: "..."}]`)
		return nil
	}
	var out []Mock
	for _, item := range v.Content {
		if item.Kind != yaml.MappingNode {
			r.add(RuleMock, posOf(item), "a mocks item is "+kindName(item)+"; give {tool, args, result} or {tool, args, error}", "")
			continue
		}
		if m, ok := r.mock(item); ok {
			out = append(out, m)
		}
	}
	return out
}

// mock reads one {tool, args, result} or {tool, args, error} item of
// mocks:; ok is false when it has no tool, or not exactly one of result
// and error (reported).
func (r *reader) mock(item *yaml.Node) (m Mock, ok bool) {
	m = Mock{Pos: posOf(item)}
	hasResult := false
	r.mapping(item, "a mocks item", mockKeys, func(key string, k, val *yaml.Node) {
		switch key {
		case "tool":
			m.Tool = r.trimmed(val, "tool")
		case "args":
			m.Args = r.args(val, RuleMock, `args: {Url: "https://example.test/*"}`)
		case "result":
			m.Result, _ = r.scalar(val, "result")
			hasResult = true
		case "error":
			m.Error, _ = r.scalar(val, "error")
			m.IsError = true
		}
	})
	switch {
	case m.Tool == "":
		r.add(RuleMock, m.Pos, "a mocks item has no tool", "give tool: the tool's name as the model calls it")
		return m, false
	case hasResult && m.IsError:
		r.add(RuleMock, m.Pos, fmt.Sprintf("the mock of %s gives both result and error", m.Tool), "keep one: result for a success, error for a failure")
		return m, false
	case !hasResult && !m.IsError:
		r.add(RuleMock, m.Pos, fmt.Sprintf("the mock of %s gives neither result nor error", m.Tool), `add result: "..." (what the tool returns) or error: "..."`)
		return m, false
	}
	return m, true
}

// changes reads expect: changes:.
func (r *reader) changes(v *yaml.Node) []Change {
	if v.Kind != yaml.SequenceNode {
		r.add(RuleChange, posOf(v), "changes is "+kindName(v)+"; give a list of {path, contains} or {path, unchanged: true}", "changes: [{path: notes/summary.md, contains: \"Summary\"}]")
		return nil
	}
	var out []Change
	for _, item := range v.Content {
		c := Change{Pos: posOf(item)}
		if item.Kind != yaml.MappingNode {
			r.add(RuleChange, c.Pos, "a changes item is "+kindName(item)+"; give {path, contains} or {path, unchanged: true}", "")
			continue
		}
		hasContains := false
		r.mapping(item, "a changes item", changeKeys, func(key string, k, val *yaml.Node) {
			switch key {
			case "path":
				c.Path = r.trimmed(val, "path")
			case "contains":
				c.Contains, _ = r.scalar(val, "contains")
				hasContains = true
			case "unchanged":
				var b bool
				if val.Kind != yaml.ScalarNode || val.Decode(&b) != nil {
					r.add(RuleChange, posOf(val), "unchanged is "+kindName(val)+"; give true", "unchanged: true")
					return
				}
				c.Unchanged = b
			}
		})
		switch {
		case c.Path == "":
			r.add(RuleChange, c.Pos, "a changes item has no path", "give path: a file (or folder/) relative to the project")
			continue
		case strings.HasPrefix(c.Path, "/") || path.IsAbs(c.Path) || escapesProject(c.Path):
			r.add(RuleChange, c.Pos, fmt.Sprintf("path %q is not inside the project", c.Path), "give a path relative to the case's project, without ..")
			continue
		case hasContains == c.Unchanged:
			r.add(RuleChange, c.Pos, fmt.Sprintf("the changes item of %s gives both or neither of contains and unchanged", c.Path), "keep one: contains: \"text\" or unchanged: true")
			continue
		}
		out = append(out, c)
	}
	return out
}

// escapesProject reports whether the relative path p leads out through "..".
func escapesProject(p string) bool {
	c := path.Clean(strings.TrimSuffix(p, "/"))
	return c == ".." || strings.HasPrefix(c, "../")
}
