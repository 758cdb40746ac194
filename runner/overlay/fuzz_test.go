package overlay

import (
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

// FuzzRel checks that no path leads out of the project through Rel.
func FuzzRel(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "a/../../x", "/etc/passwd", "", ".", "a/./b/", "..", "a\x00"} {
		f.Add(s)
	}
	project := f.TempDir()
	o, err := New(project, filepath.Join(f.TempDir(), "o"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := o.Rel(p)
		if err != nil {
			return
		}
		if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			t.Errorf("Rel(%q) = %q leads out", p, rel)
		}
		full := filepath.Join(project, filepath.FromSlash(rel))
		if r, ok := within(project, full); !ok {
			t.Errorf("Rel(%q) = %q, %q outside", p, rel, r)
		}
	})
}
