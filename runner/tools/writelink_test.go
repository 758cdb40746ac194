package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileWriteThroughLink: file_write onto a symbolic link of the project
// writes its target in the run's copy and keeps the link, as NetClaw's
// write follows it; a link that leads out of the project is refused with
// the access-denied error, and nothing outside changes.
func TestFileWriteThroughLink(t *testing.T) {
	project, ws, s := workspace(t, map[string]string{"docs/guide.md": "old\n"})
	outside := filepath.Join(filepath.Dir(project), "outside.txt")
	os.WriteFile(outside, []byte("keep\n"), 0o644)
	os.Symlink("docs/guide.md", filepath.Join(project, "GUIDE.md"))
	os.Symlink(outside, filepath.Join(project, "escape.md"))

	res := call(t, s, FileWrite, map[string]any{"Path": "GUIDE.md", "Content": "new\n"})
	if res.IsError || res.Label != LabelOverlay {
		t.Fatalf("file_write through the link: %+v", res)
	}
	if got := call(t, s, FileRead, map[string]any{"Path": "docs/guide.md"}); got.Text != "new\n" {
		t.Errorf("the link's target reads %q, want the write", got.Text)
	}
	cs, err := ws.Overlay().Changes()
	if err != nil || len(cs) != 1 || cs[0].Path != "docs/guide.md" {
		t.Errorf("changes %+v %v: want docs/guide.md alone (the link stays a link)", cs, err)
	}
	res = call(t, s, FileWrite, map[string]any{"Path": "escape.md", "Content": "escaped\n"})
	if !res.IsError || !strings.Contains(res.Text, "Error: Access denied:") || !strings.Contains(res.Text, "leads outside the project folder") {
		t.Errorf("file_write through a link out: %+v", res)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep\n" {
		t.Errorf("the file outside changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "docs/guide.md")); string(b) != "old\n" {
		t.Errorf("the project changed: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(project, "GUIDE.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the project's link changed")
	}
}
