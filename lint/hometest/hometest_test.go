package hometest

import (
	"os"
	"path/filepath"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

// TestNew: files land at their paths with their text, folders made; a
// "->" value is a symbolic link; WriteFile replaces a file.
func TestNew(t *testing.T) {
	base := New(t, map[string]string{
		"agents/tester.md":    "tester\n",
		"config/netclaw.json": "{}",
		"agents/link.md":      "->tester.md",
	})
	for rel, want := range map[string]string{"agents/tester.md": "tester\n", "config/netclaw.json": "{}", "agents/link.md": "tester\n"} {
		if b, err := os.ReadFile(filepath.Join(base, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", rel, b, err, want)
		}
	}
	if target, err := os.Readlink(filepath.Join(base, "agents", "link.md")); err != nil || target != "tester.md" {
		t.Errorf("link = %q, %v", target, err)
	}
	WriteFile(t, filepath.Join(base, "agents", "tester.md"), "again\n")
	if b, _ := os.ReadFile(filepath.Join(base, "agents", "tester.md")); string(b) != "again\n" {
		t.Errorf("rewritten: %q", b)
	}
}

// TestCopy: every file of the tree arrives with its text, in its folder.
func TestCopy(t *testing.T) {
	src := New(t, map[string]string{"agents/a.md": "a\n", "agents/.server-feeds/f/b.md": "b\n", "config/netclaw.json": "{}"})
	dst := filepath.Join(t.TempDir(), "netclaw")
	Copy(t, src, dst)
	for rel, want := range map[string]string{"agents/a.md": "a\n", "agents/.server-feeds/f/b.md": "b\n", "config/netclaw.json": "{}"} {
		if b, err := os.ReadFile(filepath.Join(dst, rel)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", rel, b, err, want)
		}
	}
}
