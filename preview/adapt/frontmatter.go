package adapt

import (
	"regexp"
	"strings"
)

// importFrontmatter reads a markdown agent file of a target with YAML
// frontmatter (Claude Code, OpenCode, Gemini CLI) into x.agent: the body,
// the description, the name and the '# netclaw:' comment. The name is the
// name key's, else fileName (for a format that names an agent by its file
// when the frontmatter does not). Every other key goes to field, and
// x.beforeCarry, when set, runs after the last field. A sub-agent of these tools runs on its caller's model, so
// the role is Main unless field or the comment says otherwise.
func (x *importCtx) importFrontmatter(data []byte, fileName string, field func(yamlField) error) error {
	doc, err := parseFrontmatter(data)
	if err != nil && x.target.ID == "claude-code" {
		if d := x.claudeColonValues(data); d != nil {
			doc, err = d, nil
		}
	}
	if err != nil {
		return err
	}
	carry, ws := findCarried(doc.comments)
	x.warnings = append(x.warnings, ws...)
	x.agent.Body = doc.body
	x.agent.ModelRole = "Main"
	name := fileName
	for _, f := range doc.fields {
		switch {
		case f.key == "name":
			name, err = yamlString(f)
		case f.key == "description":
			x.agent.Description, err = yamlString(f)
		default:
			err = field(f)
		}
		if err != nil {
			return err
		}
	}
	if x.beforeCarry != nil {
		x.beforeCarry()
	}
	x.finishName(name, carry, sameName)
	x.agent.applyCarried(carry)
	return nil
}

// claudeColonValues reads a Claude Code frontmatter that YAML refuses
// for a value holding an unquoted ': ', as Claude Code loads it: the
// whole rest of the value's line (checked with Claude Code 2.1.197), and
// warns of each such value. nil when that does not make it read.
func (x *importCtx) claudeColonValues(data []byte) *frontmatterDoc {
	fixed, keys := quoteColonValues(data)
	if len(keys) == 0 {
		return nil
	}
	d, err := parseFrontmatter(fixed)
	if err != nil {
		return nil
	}
	for _, k := range keys {
		x.warn("%s holds ': ', which YAML refuses: read as Claude Code reads it, the whole rest of its line; quote it in the source to make it YAML", k)
	}
	return d
}

// frontmatterWriter builds a markdown agent file: YAML frontmatter, a blank
// line, the body.
type frontmatterWriter struct {
	b strings.Builder
}

// newFrontmatter starts a file; comment, when not "", is the first line of
// the frontmatter.
func newFrontmatter(comment string) *frontmatterWriter {
	w := &frontmatterWriter{}
	w.b.WriteString("---\n")
	if comment != "" {
		w.b.WriteString(comment + "\n")
	}
	return w
}

// scalar writes "key: value" with value quoted as needed.
func (w *frontmatterWriter) scalar(key, value string) {
	w.b.WriteString(key + ": " + yamlScalar(value) + "\n")
}

// raw writes "key: text" with text as it is (a number or a boolean).
func (w *frontmatterWriter) raw(key, text string) {
	w.b.WriteString(key + ": " + text + "\n")
}

// list writes a block sequence.
func (w *frontmatterWriter) list(key string, items []string) {
	w.b.WriteString(key + ":\n")
	for _, it := range items {
		w.b.WriteString("  - " + yamlScalar(it) + "\n")
	}
}

// restored writes metadata entries back as the target's own keys.
func (w *frontmatterWriter) restored(rs []restored) {
	for _, r := range rs {
		if r.kind == kindString {
			w.scalar(r.key, r.text)
		} else {
			w.raw(r.key, r.text)
		}
	}
}

// done closes the frontmatter and appends the body verbatim.
func (w *frontmatterWriter) done(body string) []byte {
	w.b.WriteString("---\n\n")
	w.b.WriteString(body)
	return []byte(w.b.String())
}

// takeRestored removes the entry for key from rs and returns it.
func takeRestored(rs []restored, key string) ([]restored, *restored) {
	for i, r := range rs {
		if r.key == key {
			return append(rs[:i:i], rs[i+1:]...), &r
		}
	}
	return rs, nil
}

// plainKeyLine is a top-level "key: value" line of a frontmatter.
var plainKeyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(.*?)[ \t\r]*$`)

// quoteColonValues rewrites, in the frontmatter of data, each top-level
// plain value holding ': ' as a single-quoted YAML string, and returns
// the keys it quoted (none: data as it was).
func quoteColonValues(data []byte) ([]byte, []string) {
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r\ufeff") != "---" && strings.TrimRight(strings.TrimPrefix(lines[0], "\ufeff"), " \t\r") != "---" {
		return data, nil
	}
	var keys []string
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t\r") == "---" {
			break
		}
		m := plainKeyLine.FindStringSubmatch(lines[i])
		if m == nil || !strings.Contains(m[2], ": ") || strings.ContainsAny(m[2][:1], "'\"|>[{&*!#") {
			continue
		}
		lines[i] = m[1] + ": '" + strings.ReplaceAll(m[2], "'", "''") + "'"
		keys = append(keys, m[1])
	}
	return []byte(strings.Join(lines, "\n")), keys
}
