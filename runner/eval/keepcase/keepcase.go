// Package keepcase turns a trial run into a case of its agent's test
// suite: the run's task, context, project and audience, with expectations
// taken from what the run did. It appends the case to the suite file as
// text, after the last case, so the file's comments and formatting stay
// as they were, and writes the file atomically.
package keepcase

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview/atomicfile"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Case is a suite case made from a run.
type Case struct {
	Name     string
	Task     string
	Context  string
	Project  string // relative to the suite's folder; "" offers no tools
	Skill    string
	Audience string // "" for the suite's
	// Outcome and Reason are expected when the run did not complete.
	Outcome, Reason string
	// Tools are the tools the run called, in the order of their first call.
	Tools []string
	// Contains is a phrase of the output the author edits.
	Contains string
}

// FromRun makes a case of the run rec for the suite at suitePath: its
// task, context, project (relative to the suite), skill and audience, and
// what it did as expectations. name "" names it from the task.
func FromRun(rec *runfolder.Record, suitePath, name string) Case {
	c := Case{Name: name, Task: rec.Task, Context: rec.Context, Skill: rec.Skill}
	if c.Name == "" {
		c.Name = nameFromTask(rec.Task)
	}
	if rec.Project != "" {
		if rel, err := filepath.Rel(filepath.Dir(absOr(suitePath)), rec.Project); err == nil {
			c.Project = filepath.ToSlash(rel)
		} else {
			c.Project = rec.Project
		}
	}
	if rec.Prompt != nil && rec.Prompt.Audience != "" && !strings.EqualFold(rec.Prompt.Audience, "Personal") {
		c.Audience = strings.ToLower(rec.Prompt.Audience)
	}
	if rec.Outcome != "" && string(rec.Outcome) != "Completed" {
		c.Outcome, c.Reason = string(rec.Outcome), rec.Reason
	}
	seen := map[string]bool{}
	for _, tc := range rec.ToolCalls {
		if tc.Result != nil && !tc.Result.Refused && !seen[tc.Name] {
			seen[tc.Name] = true
			c.Tools = append(c.Tools, tc.Name)
		}
	}
	c.Contains = phrase(rec.Output)
	return c
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// nameFromTask is the task's first line, cut at 60 characters on a word.
func nameFromTask(task string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(task), "\n")
	return cutWords(strings.Join(strings.Fields(line), " "), 60)
}

// phrase is the output's first non-empty line, cut at 60 characters on a
// word: something the author narrows to what the reply must say.
func phrase(output string) string {
	for _, line := range strings.Split(output, "\n") {
		line = strings.Join(strings.Fields(strings.Trim(line, " \t#*->`")), " ")
		if line != "" {
			return cutWords(line, 60)
		}
	}
	return ""
}

func cutWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexByte(string(r), ' '); i > n/2 {
		return string(r)[:i]
	}
	return string(r)
}

// ErrNameTaken is returned when the suite has a case of that name.
var ErrNameTaken = errors.New("a case of that name is in the suite already")

// NameTakenError is Append's answer to a case whose name the suite has
// already; it wraps ErrNameTaken. The command line words it with the flag
// that names the case.
type NameTakenError struct {
	// Path is the suite file; Name the case's name.
	Path, Name string
}

// Error names the suite and the case.
func (e *NameTakenError) Error() string {
	return fmt.Sprintf("%s: %q: %v; give it another name", e.Path, e.Name, ErrNameTaken)
}

// Unwrap returns ErrNameTaken.
func (e *NameTakenError) Unwrap() error { return ErrNameTaken }

// BrokenError is returned for a suite that does not parse: the file is
// not touched.
type BrokenError struct {
	Path        string
	Diagnostics []lint.Diagnostic
}

func (e *BrokenError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s has errors; fix them first (agentdesk lint %s), the file was not touched:", e.Path, e.Path)
	for _, d := range e.Diagnostics {
		fmt.Fprintf(&b, "\n  %s:%d:%d: %s [%s]", d.Path, d.Line, d.Column, d.Message, d.Rule)
	}
	return b.String()
}

// Append adds c at the end of the suite file path's cases, creating the
// file when there is none. The rest of the file is kept byte for byte.
// It refuses a suite that has errors, a taken name, and a cases: list
// written in flow style, and writes nothing then.
func Append(path string, c Case) error {
	if strings.TrimSpace(c.Name) == "" || strings.TrimSpace(c.Task) == "" {
		return fmt.Errorf("a case needs a name and a task")
	}
	data, err := os.ReadFile(path)
	perm := fs.FileMode(0o644)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return fmt.Errorf("reading the suite %s: %w", path, err)
	default:
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
		if err := canTake(path, data, c.Name); err != nil {
			return err
		}
	}
	text, err := insert(data, c)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// What is written must read back as a suite with the new case and no
	// new error.
	s := suitefile.Parse(path, text)
	if errs := errorsOf(s.Diagnostics); len(errs) > 0 {
		return &BrokenError{Path: path, Diagnostics: errs}
	}
	if data == nil {
		return atomicfile.Create(path, text, perm)
	}
	return atomicfile.Replace(path, text, perm)
}

// canTake checks that the suite file path, holding data, can take a case
// called name: it has no error (but having no cases, which the new case
// mends), and no case of that name.
func canTake(path string, data []byte, name string) error {
	s := suitefile.Parse(path, data)
	errs := errorsOf(s.Diagnostics)
	if len(s.Cases) == 0 {
		// "The suite has no cases" is what the new case mends.
		errs = slices.DeleteFunc(errs, func(d lint.Diagnostic) bool { return d.Rule == suitefile.RuleMissing })
	}
	if len(errs) > 0 {
		return &BrokenError{Path: path, Diagnostics: errs}
	}
	for _, x := range s.Cases {
		if x.Name == name {
			return &NameTakenError{Path: path, Name: name}
		}
	}
	return nil
}

// errorsOf are the errors among ds.
func errorsOf(ds []lint.Diagnostic) []lint.Diagnostic {
	var out []lint.Diagnostic
	for _, d := range ds {
		if d.Severity == lint.Error {
			out = append(out, d)
		}
	}
	return out
}

// insert returns data with c added to its cases: after the last item of
// the block list, or as a new cases: list at the end.
func insert(data []byte, c Case) ([]byte, error) {
	item, err := render(c)
	if err != nil {
		return nil, err
	}
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return []byte("cases:\n" + indent(item, 2)), nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("the suite is not a YAML mapping")
	}
	root := doc.Content[0]
	lines := strings.SplitAfter(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines[len(lines)-1] += "\n"
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "cases" {
			return insertItem(lines, root, i, item)
		}
	}
	sep := ""
	if !strings.HasSuffix(text, "\n") {
		sep = "\n"
	}
	return []byte(text + sep + "cases:\n" + indent(item, 2)), nil
}

// insertItem returns the lines of a suite file with item added to the
// cases: list, whose key is root.Content[i]: after its last item, before
// the blank lines and top-level comments that lead to the next key.
func insertItem(lines []string, root *yaml.Node, i int, item string) ([]byte, error) {
	seq := root.Content[i+1]
	switch {
	case seq.Kind == yaml.ScalarNode && seq.Tag == "!!null":
		// "cases:" with nothing under it: the items go right after.
		at := root.Content[i].Line
		return []byte(strings.Join(lines[:at], "") + indent(item, root.Content[i].Column+1) + strings.Join(lines[at:], "")), nil
	case seq.Kind != yaml.SequenceNode:
		return nil, errors.New("cases: is not a list")
	case seq.Style&yaml.FlowStyle != 0 || len(seq.Content) == 0:
		return nil, errors.New("cases: is written in flow style ([…]); write it as a block list (one '- name: …' a case), then try again")
	}
	col := seq.Content[0].Column - 3 // where "- " starts, from 0
	end := len(lines)
	if i+2 < len(root.Content) {
		end = root.Content[i+2].Line - 1
	}
	// Leave the blank lines and top-level comments before the next key
	// where they are.
	for end > seq.Content[len(seq.Content)-1].Line {
		l := strings.TrimSpace(lines[end-1])
		if l != "" && !(strings.HasPrefix(lines[end-1], "#") && strings.HasPrefix(l, "#")) {
			break
		}
		end--
	}
	return []byte(strings.Join(lines[:end], "") + indent(item, col) + strings.Join(lines[end:], "")), nil
}

// expectNode is the case's expect: mapping: outcome and reason, the
// output it contains (with a comment to narrow it), the tools called.
func expectNode(c Case) *yaml.Node {
	exp := &yaml.Node{Kind: yaml.MappingNode}
	if c.Outcome != "" {
		addKey(exp, "outcome", strNode(c.Outcome))
		if c.Reason != "" {
			addKey(exp, "reason", strNode(c.Reason))
		}
	}
	if c.Contains != "" {
		n := strNode(c.Contains)
		n.LineComment = "# from the run's output: narrow it to what the reply must say"
		addKey(exp, "contains", n)
	}
	if len(c.Tools) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, t := range c.Tools {
			seq.Content = append(seq.Content, strNode(t))
		}
		addKey(exp, "tools", seq)
	}
	return exp
}

// addKey adds the key and its value v to the mapping parent.
func addKey(parent *yaml.Node, key string, v *yaml.Node) {
	parent.Content = append(parent.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

// strNode is a string scalar; one of several lines is written as a
// literal block.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// indent turns a rendered mapping into a list item at column col.
func indent(item string, col int) string {
	pad := strings.Repeat(" ", max(col, 0))
	var b strings.Builder
	for i, l := range strings.SplitAfter(item, "\n") {
		if l == "" {
			continue
		}
		if i == 0 {
			b.WriteString(pad + "- " + l)
		} else {
			b.WriteString(pad + "  " + l)
		}
	}
	return b.String()
}

// render writes the case as a YAML mapping, two spaces a level.
func render(c Case) (string, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	addKey(m, "name", strNode(c.Name))
	addKey(m, "task", strNode(c.Task))
	if c.Context != "" {
		addKey(m, "context", strNode(c.Context))
	}
	if c.Project != "" {
		addKey(m, "project", strNode(c.Project))
	}
	if c.Skill != "" {
		addKey(m, "skill", strNode(c.Skill))
	}
	if c.Audience != "" {
		addKey(m, "audience", strNode(c.Audience))
	}
	if exp := expectNode(c); len(exp.Content) > 0 {
		addKey(m, "expect", exp)
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return "", fmt.Errorf("writing the case: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}
