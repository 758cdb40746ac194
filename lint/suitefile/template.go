package suitefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// placeholder is {{name}} in a template's value (spaces inside allowed);
// anything else between braces ({{ .Values.port }}) is plain text.
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// maxNameRunes caps a case name made from a row's values; maxValueRunes
// each value in it.
const (
	maxNameRunes  = 80
	maxValueRunes = 40
)

// templated is a suite's cases from data as read: the template case and
// the rows it is filled with.
type templated struct {
	// template is the template: node, nil without one; varsKey and
	// fileKey where vars: and vars-file: are (zero without).
	template         *yaml.Node
	vars, varsFile   *yaml.Node
	varsKey, fileKey lint.Pos
}

// key takes a suite's key that belongs to its template (template, vars,
// vars-file) with its value v, and says whether it was one.
func (t *templated) key(key string, v *yaml.Node) bool {
	switch key {
	case "vars":
		t.vars, t.varsKey = v, posOf(v)
	case "vars-file":
		t.varsFile, t.fileKey = v, posOf(v)
	case "template":
		t.template = v
	default:
		return false
	}
	return true
}

// varsFilePath is the vars-file's path, resolved against the folder of
// the suite at path, or "" when none is named.
func (t *templated) varsFilePath(path string) string {
	if t.varsFile == nil || t.varsFile.Kind != yaml.ScalarNode || strings.TrimSpace(t.varsFile.Value) == "" {
		return ""
	}
	return Resolve(filepath.Dir(path), strings.TrimSpace(t.varsFile.Value))
}

// withGenerated returns the suite's written case nodes followed by the
// nodes of the cases generated from rows.
func withGenerated(nodes []*yaml.Node, gens []generated) []*yaml.Node {
	all := slices.Clip(nodes)
	for _, g := range gens {
		all = append(all, g.node)
	}
	return all
}

// generated is one case made from a row: its node (the template with the
// row's values) and the row.
type generated struct {
	node *yaml.Node
	row  Row
	// missing are the template's variables this row does not define.
	missing []string
}

// expand fills the template with each row (vars: or the vars-file,
// relative to the suite path) and names each case from its values, unique
// among taken (the names of the suite's other cases, lower case) and each
// other. What is wrong is a diagnostic: a variable no row defines (at its
// use in the template), a row without a variable the template uses (at
// the row), a template with no rows or rows with no template.
func (r *reader) expand(t templated, path string, taken map[string]bool) []generated {
	rows := r.templateRows(t, path)
	if len(rows) == 0 {
		return nil
	}
	if t.template.Kind != yaml.MappingNode {
		r.add(RuleYAML, posOf(t.template), "template is "+kindName(t.template)+"; give a case: a mapping of task, expect, ...", "")
		return nil
	}
	defined, names := rowVariables(rows)
	used, undefined := r.templateVariables(t.template, defined, names)
	if undefined {
		return nil
	}
	hasName := false
	for i := 0; i+1 < len(t.template.Content); i += 2 {
		hasName = hasName || t.template.Content[i].Value == "name"
	}
	out := make([]generated, 0, len(rows))
	for i, row := range rows {
		g := generated{row: row, missing: row.missing(names, used)}
		g.node = fill(t.template, row.Values)
		name := ""
		if hasName {
			name = filledName(g.node)
		}
		if name == "" {
			name = rowName(row, i+1)
		}
		name = unique(name, i+1, taken)
		setName(g.node, name, hasName)
		out = append(out, g)
	}
	return out
}

// missing returns those of names (in their order) that the template
// uses and the row does not define.
func (row Row) missing(names []string, used map[string]bool) []string {
	var out []string
	for _, n := range names {
		if _, ok := row.Values[n]; !ok && used[n] {
			out = append(out, n)
		}
	}
	return out
}

// templateRows returns the rows to fill t's template with, from vars: or
// the vars-file (relative to the suite path). It reports rows without a
// template, a template without rows and rows given twice, and returns none
// for them.
func (r *reader) templateRows(t templated, path string) []Row {
	if t.template == nil {
		for _, k := range []struct {
			n   *yaml.Node
			pos lint.Pos
		}{{t.vars, t.varsKey}, {t.varsFile, t.fileKey}} {
			if k.n != nil {
				r.add(RuleTemplate, k.pos, "the suite has rows but no template: to fill with them", "add template: a case whose values use {{name}}")
			}
		}
		return nil
	}
	switch {
	case t.vars != nil && t.varsFile != nil:
		r.add(RuleTemplate, t.fileKey, "the suite has both vars: and vars-file:", "give the rows in one of them")
		return nil
	case t.vars != nil:
		return r.inlineRows(t.vars)
	case t.varsFile != nil:
		return r.fileRows(t.varsFile, path)
	default:
		r.add(RuleTemplate, posOf(t.template), "the template has no rows to fill it with", "add vars: (a list of rows) or vars-file: cases.jsonl or cases.csv")
		return nil
	}
}

// rowVariables returns the variables any of rows defines, as a set and in
// the order they first appear.
func rowVariables(rows []Row) (defined map[string]bool, names []string) {
	defined = map[string]bool{}
	for _, row := range rows {
		for _, n := range row.Names {
			if !defined[n] {
				defined[n] = true
				names = append(names, n)
			}
		}
	}
	return defined, names
}

// templateVariables returns the variables template uses, and reports each
// use of one that no row defines (defined; names in order, for the hint),
// where the template uses it. undefined says whether there was one.
func (r *reader) templateVariables(template *yaml.Node, defined map[string]bool, names []string) (used map[string]bool, undefined bool) {
	used = map[string]bool{}
	walkScalars(template, func(n *yaml.Node) {
		for _, m := range placeholder.FindAllStringSubmatchIndex(n.Value, -1) {
			name := n.Value[m[2]:m[3]]
			used[name] = true
			if defined[name] {
				continue
			}
			undefined = true
			hint := "the rows define " + strings.Join(names, ", ")
			if s := suggest(name, names); s != "" {
				hint = fmt.Sprintf("did you mean '%s'?", s)
			}
			r.add(RuleTemplate, placeholderPos(n, m[0]), fmt.Sprintf("the template uses {{%s}}, which no row defines", name), hint)
		}
	})
	return used, undefined
}

// filledName returns the name: a filled case mapping gives itself
// (trimmed; the last, if given twice), or "" without a text one.
func filledName(node *yaml.Node) string {
	name := ""
	for j := 0; j+1 < len(node.Content); j += 2 {
		if k, v := node.Content[j], node.Content[j+1]; k.Value == "name" && v.Kind == yaml.ScalarNode {
			name = strings.TrimSpace(v.Value)
		}
	}
	return name
}

// inlineRows reads vars: a list of mappings of values.
func (r *reader) inlineRows(v *yaml.Node) []Row {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		r.add(RuleVars, posOf(v), "vars is "+kindName(v)+"; give a list of rows, each a mapping of names to values", "vars: [{port: 8080, file: main.go}]")
		return nil
	}
	if len(v.Content) > MaxVarRows {
		r.add(RuleVars, posOf(v.Content[MaxVarRows]), fmt.Sprintf("vars holds %d rows; at most %d cases are made from data", len(v.Content), MaxVarRows), "")
		return nil
	}
	var rows []Row
	ok := true
	for i, n := range v.Content {
		if n.Kind != yaml.MappingNode {
			r.add(RuleVars, posOf(n), fmt.Sprintf("row %d of vars is %s; give a mapping of names to values", i+1, kindName(n)), "- {port: 8080, file: main.go}")
			ok = false
			continue
		}
		row, rowOK := r.inlineRow(n, i+1)
		ok = ok && rowOK
		rows = append(rows, row)
	}
	if !ok {
		return nil
	}
	return rows
}

// inlineRow reads row number i of vars:, a mapping of variable names to
// text or numbers. ok is false when a name, a value or a repeated name
// was reported.
func (r *reader) inlineRow(n *yaml.Node, i int) (row Row, ok bool) {
	row = Row{Path: r.path, Pos: posOf(n)}
	ok = true
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, val := n.Content[j], n.Content[j+1]
		if !varName.MatchString(k.Value) {
			r.add(RuleVars, posOf(k), fmt.Sprintf("row %d of vars names a variable %q; names are letters, digits and _ (not first a digit)", i, k.Value), "")
			ok = false
			continue
		}
		if val.Kind != yaml.ScalarNode {
			r.add(RuleVars, posOf(val), fmt.Sprintf("%s in row %d of vars is %s; give text or a number", k.Value, i, kindName(val)), "")
			ok = false
			continue
		}
		text := val.Value
		if val.Tag == "!!null" {
			text = ""
		}
		if !row.set(k.Value, text) {
			r.add(RuleVars, posOf(k), fmt.Sprintf("row %d of vars has %s twice", i, k.Value), "keep one of them")
			ok = false
		}
	}
	return row, ok
}

// fileRows reads vars-file: the rows of a .jsonl or .csv file relative to
// the suite at path.
func (r *reader) fileRows(v *yaml.Node, path string) []Row {
	name, ok := r.scalar(v, "vars-file")
	if !ok {
		return nil
	}
	name = strings.TrimSpace(name)
	if name == "" {
		r.add(RuleVars, posOf(v), "vars-file is empty", "give a .jsonl or .csv file, relative to the suite")
		return nil
	}
	file := Resolve(filepath.Dir(path), name)
	data, err := readVarsFile(file)
	if err != nil {
		r.add(RuleVars, posOf(v), fmt.Sprintf("vars-file %s: %v", name, err), "paths are relative to the suite's folder")
		return nil
	}
	rows, ds := ReadVars(file, data)
	r.diags = append(r.diags, ds...)
	return rows
}

// readVarsFile reads a vars-file with the checks of a suite file: a
// regular file of at most MaxFileSize bytes, never opened blocking.
func readVarsFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
			// Not a dangling link (which DescribeStatError assumes of
			// a listed path): the file is not there.
			return nil, errors.New("there is no such file")
		}
		return nil, lint.DescribeStatError(err)
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("is a folder, not a file")
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("is %s, not a file", typeName(fi.Mode()))
	case fi.Size() > MaxFileSize:
		return nil, fmt.Errorf("is larger than %d MiB", MaxFileSize>>20)
	}
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// walkScalars calls visit for every scalar value under n (mapping keys
// are not values; aliases are not followed).
func walkScalars(n *yaml.Node, visit func(*yaml.Node)) {
	switch n.Kind {
	case yaml.ScalarNode:
		visit(n)
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			walkScalars(n.Content[i], visit)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			walkScalars(c, visit)
		}
	}
}

// fill returns a copy of the template n with {{name}} replaced by the
// row's values in every scalar value (positions are the template's).
func fill(n *yaml.Node, values map[string]string) *yaml.Node {
	c := *n
	if n.Kind == yaml.ScalarNode {
		c.Value = placeholder.ReplaceAllStringFunc(n.Value, func(m string) string {
			name := placeholder.FindStringSubmatch(m)[1]
			if v, ok := values[name]; ok {
				return v
			}
			return m
		})
		return &c
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, x := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				c.Content[i] = x // keys are not filled
				continue
			}
			c.Content[i] = fill(x, values)
		}
	}
	return &c
}

// placeholderPos is where the placeholder at byte offset off of scalar n
// is: exact for a value on one line (plain or quoted), else the value's
// start.
func placeholderPos(n *yaml.Node, off int) lint.Pos {
	p := posOf(n)
	if strings.Contains(n.Value, "\n") {
		return p
	}
	switch n.Style {
	case 0:
		p.Column += utf8.RuneCountInString(n.Value[:off])
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		if !strings.ContainsAny(n.Value[:off], `\'"`) {
			p.Column += 1 + utf8.RuneCountInString(n.Value[:off])
		}
	}
	return p
}

// rowName names a case from its row's values, in order: "8080, main.go";
// each value cut, the whole cut, a row of empty values "row 3".
func rowName(row Row, n int) string {
	var parts []string
	for _, k := range row.Names {
		v := strings.Join(strings.Fields(row.Values[k]), " ")
		if v == "" {
			v = `""`
		}
		parts = append(parts, cutName(v, maxValueRunes))
	}
	name := strings.Join(parts, ", ")
	if strings.Trim(name, `", `) == "" {
		return "row " + strconv.Itoa(n)
	}
	return cutName(name, maxNameRunes)
}

// cutName cuts s to n runes with an ellipsis.
func cutName(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// unique returns name, or name with the row's number (then a count) when
// taken holds it (any case), and adds what it returns to taken.
func unique(name string, row int, taken map[string]bool) string {
	out := name
	for k := 1; taken[strings.ToLower(out)]; k++ {
		out = fmt.Sprintf("%s #%d", name, row)
		if k > 1 {
			out = fmt.Sprintf("%s #%d.%d", name, row, k)
		}
	}
	taken[strings.ToLower(out)] = true
	return out
}

// setName sets the name of a filled template: the value of its name key
// when it has one, else a new key.
func setName(n *yaml.Node, name string, has bool) {
	if has {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" {
				v := *n.Content[i+1]
				v.Kind, v.Tag, v.Value, v.Content = yaml.ScalarNode, "!!str", name, nil
				n.Content[i+1] = &v
			}
		}
		return
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name", Line: n.Line, Column: n.Column}
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: n.Line, Column: n.Column}
	n.Content = append([]*yaml.Node{k, v}, n.Content...)
}

// caseNames returns the names of the case nodes (lower case), as written.
func caseNames(nodes []*yaml.Node) map[string]bool {
	taken := map[string]bool{}
	for _, n := range nodes {
		if n.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" && n.Content[i+1].Kind == yaml.ScalarNode {
				taken[strings.ToLower(strings.TrimSpace(n.Content[i+1].Value))] = true
			}
		}
	}
	return taken
}

// dedupe drops diagnostics equal to one before them (a template's finding
// is made once a row).
func dedupe(ds []lint.Diagnostic) []lint.Diagnostic {
	type key struct {
		path      string
		pos       lint.Pos
		rule, msg string
	}
	seen := map[key]bool{}
	return slices.DeleteFunc(ds, func(d lint.Diagnostic) bool {
		k := key{d.Path, d.Pos, d.Rule, d.Message}
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

// missingVars reports, at the row, each variable the template uses that
// the row of g does not define: the case made from it cannot run.
func (r *reader) missingVars(g generated) {
	for _, name := range g.missing {
		r.diags = append(r.diags, lint.Diagnostic{Path: g.row.Path, Pos: g.row.Pos, Rule: RuleTemplate, Severity: lint.Error,
			Message: fmt.Sprintf("the row on line %d has no %s, which the template uses", g.row.Pos.Line, name), Hint: "give every row every variable the template uses"})
	}
}
