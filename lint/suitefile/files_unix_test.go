//go:build unix

package suitefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadWhatIsNotAFile: Find lists every entry named like a suite, and
// Load turns one that is not a regular file into a suite-unreadable
// error, without blocking on a FIFO.
func TestLoadWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	makers := map[string]func(string) error{
		"fifo.test.yaml":     func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"dangling.test.yaml": func(p string) error { return os.Symlink(filepath.Join(dir, "gone"), p) },
		"loop.test.yaml":     func(p string) error { return os.Symlink(p, p) },
		"folder.test.yaml":   func(p string) error { return os.Mkdir(p, 0o755) },
		"fifo.route.yaml":    func(p string) error { return syscall.Mkfifo(p, 0o644) },
	}
	want := map[string]string{
		"fifo.test.yaml":     "not a regular file but a named pipe (FIFO)",
		"dangling.test.yaml": "a symbolic link to a file that does not exist",
		"loop.test.yaml":     "a symbolic link loop",
		"folder.test.yaml":   "is a folder",
		"fifo.route.yaml":    "not a regular file but a named pipe (FIFO)",
	}
	for name, mk := range makers {
		if err := mk(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	found, err := FindAll(dir)
	if err != nil || len(found) != len(makers) {
		t.Fatalf("FindAll: %v %v", found, err)
	}
	for _, p := range found {
		done := make(chan string, 1)
		go func() {
			var msgs []string
			if IsRouteSuite(p) {
				s := LoadRoute(p)
				for _, d := range s.Diagnostics {
					msgs = append(msgs, d.Rule+" "+d.Message)
				}
			} else {
				s := Load(p)
				if !s.Broken() {
					msgs = append(msgs, "not broken")
				}
				for _, d := range s.Diagnostics {
					msgs = append(msgs, d.Rule+" "+d.Message)
				}
			}
			done <- strings.Join(msgs, "\n")
		}()
		select {
		case got := <-done:
			if !strings.HasPrefix(got, RuleUnreadable+" ") || !strings.Contains(got, want[filepath.Base(p)]) || strings.Contains(got, "\n") {
				t.Errorf("%s: %s", filepath.Base(p), got)
			}
		case <-time.After(time.Minute):
			t.Fatalf("loading %s did not end (a FIFO opened for reading blocks)", p)
		}
	}
}
