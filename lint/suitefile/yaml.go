package suitefile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// reader collects the diagnostics of one suite file.
type reader struct {
	path  string
	diags []lint.Diagnostic
}

func (r *reader) add(rule string, pos lint.Pos, msg, hint string) {
	r.diags = append(r.diags, lint.Diagnostic{Path: r.path, Pos: pos, Rule: rule, Severity: lint.Error, Message: msg, Hint: hint})
}

func posOf(n *yaml.Node) lint.Pos { return lint.Pos{Line: n.Line, Column: n.Column} }

// document parses data and returns its top-level mapping, or nil with a
// diagnostic.
func (r *reader) document(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		y := lint.YAMLErrorPos(err, string(data))
		pos := lint.Pos{Line: 1, Column: 1}
		if y.Line > 0 {
			pos = lint.Pos{Line: y.Line, Column: y.Column}
		}
		r.add(RuleYAML, pos, "the suite is not valid YAML: "+y.Text(0), "")
		return nil
	}
	if len(doc.Content) == 0 {
		r.add(RuleMissing, lint.Pos{Line: 1, Column: 1}, "the suite is empty", "add cases: a list of cases, each with a name and a task")
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		r.add(RuleYAML, posOf(root), "a suite is a mapping of keys (agent, cases), not "+kindName(root), "")
		return nil
	}
	return root
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "empty"
	}
	return "a single value"
}

// mapping walks the keys of mapping n (what names it in messages), calling
// visit for each known key once; an unknown key is reported with
// did-you-mean, a repeated one as an error. It reports false when n is not
// a mapping.
func (r *reader) mapping(n *yaml.Node, what string, known []string, visit func(key string, k, v *yaml.Node)) bool {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		r.add(RuleYAML, posOf(n), fmt.Sprintf("%s is %s; it must be a mapping of keys", what, kindName(n)), "")
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		if seen[key] {
			r.add(RuleYAML, posOf(k), fmt.Sprintf("%s has the key %q twice", what, key), "keep one of them")
			continue
		}
		seen[key] = true
		if !contains(known, key) {
			hint := ""
			if s := suggest(key, known); s != "" {
				hint = fmt.Sprintf("did you mean '%s'?", s)
			} else {
				hint = "known keys: " + strings.Join(known, ", ")
			}
			r.add(RuleUnknownKey, posOf(k), fmt.Sprintf("unknown key %q in %s", key, what), hint)
			continue
		}
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		visit(key, k, v)
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the candidate closest to name, or "" (lint.Suggest).
func suggest(name string, candidates []string) string {
	if s := lint.Suggest(name, candidates, 1); len(s) > 0 {
		return s[0]
	}
	return ""
}

// scalar returns v's text, or false with a diagnostic when v is not a
// single value. A null is "".
func (r *reader) scalar(v *yaml.Node, key string) (string, bool) {
	if v.Kind != yaml.ScalarNode {
		r.add(RuleYAML, posOf(v), fmt.Sprintf("%s is %s; give a single value", key, kindName(v)), "")
		return "", false
	}
	if v.Tag == "!!null" {
		return "", true
	}
	return v.Value, true
}

// trimmed is scalar's value of v, spaces trimmed ("" when v is not a
// single value, which is reported).
func (r *reader) trimmed(v *yaml.Node, key string) string {
	s, _ := r.scalar(v, key)
	return strings.TrimSpace(s)
}

// list returns v's texts: one value, or a list of values.
func (r *reader) list(v *yaml.Node, key string) ([]string, bool) {
	if v.Kind == yaml.ScalarNode {
		s, ok := r.scalar(v, key)
		if !ok || s == "" {
			return nil, ok
		}
		return []string{s}, true
	}
	if v.Kind != yaml.SequenceNode {
		r.add(RuleYAML, posOf(v), fmt.Sprintf("%s is %s; give a value or a list of values", key, kindName(v)), "")
		return nil, false
	}
	var out []string
	for _, e := range v.Content {
		s, ok := r.scalar(e, key+" item")
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// integer returns v as a whole number.
func (r *reader) integer(v *yaml.Node, key string) (int, bool) {
	s, ok := r.scalar(v, key)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		r.add(RuleYAML, posOf(v), fmt.Sprintf("%s is %q; give a whole number", key, s), "")
		return 0, false
	}
	return n, true
}

// number returns v as a number.
func (r *reader) number(v *yaml.Node, key string) (float64, bool) {
	s, ok := r.scalar(v, key)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != f {
		r.add(RuleYAML, posOf(v), fmt.Sprintf("%s is %q; give a number", key, s), "")
		return 0, false
	}
	return f, true
}

// caseNodes returns the nodes of a suite's list of cases (cases is the
// value of its cases key, nil when there is none); a missing or empty list
// is a finding, and nil. holds says what each case gives.
func (r *reader) caseNodes(root, cases *yaml.Node, holds string) []*yaml.Node {
	if cases == nil {
		r.add(RuleMissing, posOf(root), "the suite has no cases", "add cases: a list of cases, each with "+holds)
		return nil
	}
	switch {
	case cases.Kind == yaml.SequenceNode && len(cases.Content) == 0:
		r.add(RuleMissing, posOf(cases), "the suite has no cases: cases is an empty list", "add cases: a list of cases, each with "+holds)
		return nil
	case cases.Kind == yaml.ScalarNode && cases.Tag == "!!null":
		r.add(RuleMissing, posOf(cases), "the suite has no cases: cases is empty", "add cases: a list of cases, each with "+holds)
		return nil
	case cases.Kind != yaml.SequenceNode:
		r.add(RuleYAML, posOf(cases), "cases is "+kindName(cases)+"; give a list of cases, each with "+holds, "")
		return nil
	}
	return cases.Content
}

// namedCase is a case of either kind of suite, as readCases sees it.
type namedCase interface {
	// caseName is the case's name and where it is.
	caseName() (string, lint.Pos)
	// setProblems keeps the case's own errors.
	setProblems([]lint.Diagnostic)
}

// readCases reads each case node with read (false: not a case at all),
// flags a name used twice (in any case) and gives each case the errors
// reading it added.
func readCases[C namedCase](r *reader, nodes []*yaml.Node, read func(n *yaml.Node, i int) (C, bool)) []C {
	var out []C
	names := map[string]lint.Pos{}
	for i, n := range nodes {
		before := len(r.diags)
		c, ok := read(n, i+1)
		if !ok {
			continue
		}
		name, at := c.caseName()
		if first, ok := names[strings.ToLower(name)]; ok {
			r.add(RuleDuplicateCase, at, fmt.Sprintf("case %q is named twice (first on line %d)", name, first.Line), "give each case a name of its own: the name keys its recordings")
		} else {
			names[strings.ToLower(name)] = at
		}
		c.setProblems(slices.Clone(r.diags[before:]))
		out = append(out, c)
	}
	return out
}

// keyPos is where key's value is in keys, else at.
func keyPos(keys map[string]lint.Pos, key string, at lint.Pos) lint.Pos {
	if p, ok := keys[key]; ok {
		return p
	}
	return at
}

// nameCase names a case that has no name after its number (what, "case
// 3"), with a finding.
func (r *reader) nameCase(name *string, keys map[string]lint.Pos, at lint.Pos, what string) {
	if *name != "" {
		return
	}
	pos := keyPos(keys, "name", at)
	r.add(RuleMissing, pos, what+" has no name", "add name: a short name, unique in the suite")
	*name = what
	keys["name"] = pos
}

// modelRole reads a model-role value, trimmed; one that is not a model
// role is a finding.
func (r *reader) modelRole(v *yaml.Node) string {
	role, ok := r.scalar(v, "model-role")
	if !ok {
		return ""
	}
	trimmed := strings.TrimSpace(role)
	if trimmed != "" && !slices.ContainsFunc([]string{"Main", "Compaction", "Fallback"}, func(x string) bool { return strings.EqualFold(x, trimmed) }) {
		r.add(RuleValue, posOf(v), fmt.Sprintf("model-role %q is not a model role", role), "use Main, Compaction or Fallback")
	}
	return trimmed
}

// models reads models: a list of names, or one value of comma-separated
// names; each with its position.
func (r *reader) models(v *yaml.Node) ([]string, []lint.Pos) {
	var names []string
	var pos []lint.Pos
	add := func(n *yaml.Node) {
		s, ok := r.scalar(n, "models")
		if !ok {
			return
		}
		for _, p := range splitModels([]string{s}) {
			names = append(names, p)
			pos = append(pos, posOf(n))
		}
	}
	switch v.Kind {
	case yaml.ScalarNode:
		add(v)
	case yaml.SequenceNode:
		for _, e := range v.Content {
			add(e)
		}
	default:
		r.add(RuleYAML, posOf(v), fmt.Sprintf("models is %s; give a list of model roles or definitions", kindName(v)), "")
	}
	return names, pos
}
