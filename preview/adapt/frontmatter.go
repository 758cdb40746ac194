package adapt

import "strings"

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
