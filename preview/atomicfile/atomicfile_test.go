package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

// noLinks makes link fail as on a file system without hard links.
func noLinks(t *testing.T) {
	t.Helper()
	link = func(_, _ string) error { return &os.LinkError{Op: "link", Err: errors.ErrUnsupported} }
	t.Cleanup(func() { link = os.Link })
}

// assertOnly fails unless dir holds exactly the file name with want.
func assertOnly(t *testing.T, dir, name, want string, perm fs.FileMode) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != name {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("folder holds %q, want only %q (no temporary file left)", names, name)
	}
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s holds %q, want %q", name, got, want)
	}
	fi, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != perm {
		t.Errorf("%s has mode %v, want %v", name, fi.Mode().Perm(), perm)
	}
}

func TestCreate(t *testing.T) {
	for _, links := range []bool{true, false} {
		name := "hard links"
		if !links {
			name = "no hard links"
		}
		t.Run(name, func(t *testing.T) {
			if !links {
				noLinks(t)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "a.md")
			if err := Create(path, []byte("first\n"), 0o640); err != nil {
				t.Fatalf("Create: %v", err)
			}
			assertOnly(t, dir, "a.md", "first\n", 0o640)
			err := Create(path, []byte("second\n"), 0o640)
			if !errors.Is(err, fs.ErrExist) {
				t.Fatalf("Create over a file: %v, want fs.ErrExist", err)
			}
			assertOnly(t, dir, "a.md", "first\n", 0o640)
		})
	}
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	if err := Replace(path, []byte("{}"), 0o600); err != nil {
		t.Fatalf("Replace on nothing: %v", err)
	}
	assertOnly(t, dir, "run.json", "{}", 0o600)
	if err := Replace(path, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	assertOnly(t, dir, "run.json", `{"a":1}`, 0o600)
}

func TestMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "a.md")
	for name, write := range map[string]func(string, []byte, fs.FileMode) error{"Create": Create, "Replace": Replace} {
		err := write(path, []byte("x"), 0o644)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s into a missing folder: %v, want fs.ErrNotExist", name, err)
		}
	}
}

// TestReplaceOverFolder: a folder in the way is an error, and no temporary
// file is left behind.
func TestReplaceOverFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "a.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Replace(filepath.Join(dir, "a.md"), []byte("x"), 0o644); err == nil {
		t.Fatal("Replace over a folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want the folder only", len(entries))
	}
}
