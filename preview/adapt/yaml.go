package adapt

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// yamlScalar returns s as a YAML scalar for a block mapping value or block
// sequence item: plain when that reads back as the same string in every
// YAML parser (YAML 1.1 and 1.2 alike), else double-quoted with escapes. The
// result is always one line.
func yamlScalar(s string) string {
	if plainSafe(s, false) {
		return s
	}
	return yamlQuoted(s)
}

// yamlFlowItem returns s as an item of a flow sequence ([a, b]).
func yamlFlowItem(s string) string {
	if plainSafe(s, true) {
		return s
	}
	return yamlQuoted(s)
}

// plainSafe reports whether s can be written as a plain scalar and read back
// as the same string. It is deliberately conservative.
func plainSafe(s string, flow bool) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	if strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`<=+.~0123456789", rune(s[0])) {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null":
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	if flow && strings.ContainsAny(s, ",[]{}:#?") {
		return false
	}
	for _, r := range s {
		if r == '\t' || yamlNeedsEscape(r) {
			return false
		}
	}
	return true
}

// yamlNeedsEscape reports whether r must be escaped inside a double-quoted
// YAML scalar: it is outside YAML's printable set, or it would break a line.
func yamlNeedsEscape(r rune) bool {
	switch {
	case r == utf8.RuneError:
		return true
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff:
		return true
	case r >= 0xd800 && r <= 0xdfff:
		return true
	}
	return false
}

// yamlQuoted returns s as a double-quoted YAML scalar.
func yamlQuoted(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && size == 1:
			// Not valid UTF-8: the byte cannot be kept; write what the
			// runtime reads in its place.
			b.WriteString(`\uFFFD`)
		case yamlNeedsEscape(r):
			if r <= 0xff {
				fmt.Fprintf(&b, `\x%02X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// frontmatterDoc is a markdown file split into its YAML frontmatter and body.
type frontmatterDoc struct {
	// fields are the top-level keys in file order.
	fields []yamlField
	// comments are the text of every comment in the frontmatter.
	comments []string
	// body follows the closing line, leading white space trimmed.
	body string
}

// yamlField is one top-level key of a frontmatter mapping.
type yamlField struct {
	key   string
	value *yaml.Node
	// line is the line of the key in the file (1-based).
	line int
}

// errNoFrontmatter is wrapped when a markdown agent file does not start
// with a '---' line and a closing '---' line.
var errNoFrontmatter = errors.New("no YAML frontmatter")

// parseFrontmatter reads a markdown agent file: a UTF-8 byte-order mark is
// dropped, the first line must be '---', the frontmatter ends at the next
// line that is '---' (trailing white space allowed), and it must be a YAML
// mapping. Every parser error carries the file line.
func parseFrontmatter(data []byte) (*frontmatterDoc, error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	if !utf8.ValidString(text) {
		return nil, errors.New("the file is not valid UTF-8")
	}
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimRight(first, " \t\r") != "---" {
		return nil, fmt.Errorf("%w: the first line must be '---'", errNoFrontmatter)
	}
	fm, body, closed := cutFrontmatter(rest)
	if !closed {
		return nil, fmt.Errorf("%w: the frontmatter opened on line 1 is never closed by a '---' line", errNoFrontmatter)
	}
	doc := &frontmatterDoc{body: strings.TrimLeftFunc(body, unicode.IsSpace)}
	var root yaml.Node
	if err := safeYAML(fm, &root); err != nil {
		return nil, fmt.Errorf("the frontmatter is not valid YAML: %s%s", shiftYAMLError(err, fm, 1), colonHint(err, fm))
	}
	collectComments(&root, &doc.comments, 0)
	if root.Kind == 0 || len(root.Content) == 0 {
		return doc, nil
	}
	m := lint.ResolveAlias(root.Content[0])
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, errors.New("the frontmatter is not a mapping of keys")
	}
	fields, err := frontmatterFields(m)
	if err != nil {
		return nil, err
	}
	doc.fields = fields
	return doc, nil
}

// cutFrontmatter splits rest, what follows the opening '---' line, at the
// next line that is '---' (trailing white space allowed): the frontmatter
// (each line ending in '\n') and the body after it. closed is false when
// no such line comes.
func cutFrontmatter(rest string) (fm, body string, closed bool) {
	var b strings.Builder
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		if strings.TrimRight(line, " \t\r") == "---" {
			return b.String(), after, true
		}
		b.WriteString(line)
		b.WriteByte('\n')
		rest = after
	}
	return b.String(), "", false
}

// frontmatterFields returns the fields of the frontmatter's mapping m, in
// order. A key that is not a plain string, or is set twice, is an error.
func frontmatterFields(m *yaml.Node) ([]yamlField, error) {
	var fields []yamlField
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := lint.ResolveAlias(m.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a frontmatter key must be a plain string", m.Content[i].Line+1)
		}
		if at, dup := seen[k.Value]; dup {
			return nil, fmt.Errorf("line %d: '%s' is set twice (first on line %d)", k.Line+1, k.Value, at)
		}
		seen[k.Value] = k.Line + 1
		fields = append(fields, yamlField{key: k.Value, value: lint.ResolveAlias(m.Content[i+1]), line: k.Line + 1})
	}
	return fields, nil
}

// safeYAML parses text into a node tree, turning a parser panic into an
// error: no input may crash an import.
func safeYAML(text string, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the YAML parser failed (%v)", r)
		}
	}()
	return yaml.Unmarshal([]byte(text), n)
}

// shiftYAMLError rewrites "yaml: line N: msg" so that N counts from the top
// of the file, the frontmatter (text) starting after `offset` lines.
func shiftYAMLError(err error, text string, offset int) string {
	y := lint.YAMLErrorPos(err, text)
	if y.Line == 0 {
		return y.Message
	}
	return fmt.Sprintf("line %d: %s", y.Line+offset, y.Text(offset))
}

// colonHint says how to fix a plain value that holds ': ' (which YAML
// reads as a second mapping: "mapping values are not allowed"), naming
// its key; "" for another error.
func colonHint(err error, text string) string {
	if !strings.Contains(err.Error(), "mapping values are not allowed") {
		return ""
	}
	y := lint.YAMLErrorPos(err, text)
	lines := strings.Split(text, "\n")
	if y.Line < 1 || y.Line > len(lines) {
		return ""
	}
	key, value, ok := strings.Cut(lines[y.Line-1], ":")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.ContainsAny(key, " \t\"'") || !strings.Contains(value, ": ") {
		return ""
	}
	return fmt.Sprintf("; the %s holds ': ', which YAML reads as a new key: quote the value (%s: \"…\"), or use a block scalar (%s: > and the text indented on the next lines)", key, key, key)
}

// collectComments appends the text of every comment in the tree, one entry
// per comment line, without the leading '#'.
func collectComments(n *yaml.Node, out *[]string, depth int) {
	if n == nil || depth > 64 {
		return
	}
	for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
		for _, line := range strings.Split(c, "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
				*out = append(*out, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			}
		}
	}
	if n.Kind == yaml.AliasNode {
		return
	}
	for _, c := range n.Content {
		collectComments(c, out, depth+1)
	}
}

// isYAMLNull reports whether n is a null value (or absent).
func isYAMLNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// yamlString reads a string-like scalar (any scalar but null).
func yamlString(f yamlField) (string, error) {
	switch {
	case isYAMLNull(f.value):
		return "", nil
	case f.value.Kind == yaml.ScalarNode:
		return f.value.Value, nil
	}
	return "", fmt.Errorf("line %d: '%s' must be a string, not %s", f.line, f.key, lint.YAMLKind(f.value))
}

// yamlStrings reads a list of scalars, or one scalar split at commas (the
// Claude Code tools style).
func yamlStrings(f yamlField) ([]string, error) {
	switch {
	case isYAMLNull(f.value):
		return nil, nil
	case f.value.Kind == yaml.ScalarNode:
		return splitList(f.value.Value), nil
	case f.value.Kind == yaml.SequenceNode:
		var out []string
		for _, item := range f.value.Content {
			item = lint.ResolveAlias(item)
			if isYAMLNull(item) {
				continue
			}
			if item.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: '%s' must be a list of names, but an item is %s", f.line, f.key, lint.YAMLKind(item))
			}
			if v := strings.TrimSpace(item.Value); v != "" {
				out = append(out, v)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("line %d: '%s' must be a list of names, not %s", f.line, f.key, lint.YAMLKind(f.value))
}

// splitList splits "Read, Grep, Bash(git add:*, git commit:*)" into its
// names: a comma inside parentheses (a permission rule) does not split.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	add := func(p string) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				add(s[start:i])
				start = i + 1
			}
		}
	}
	add(s[start:])
	return out
}

// yamlValue describes a YAML value for keepField: its text and type when
// it is a scalar (null is not).
func yamlValue(n *yaml.Node) sourceValue {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return sourceValue{}
	}
	v := sourceValue{text: n.Value, scalar: true}
	switch n.Tag {
	case "!!int":
		v.kind = kindInt
	case "!!float":
		v.kind = kindNumber
	case "!!bool":
		v.kind = kindBool
	}
	return v
}
