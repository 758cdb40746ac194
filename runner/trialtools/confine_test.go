package trialtools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEscapesAreRefused(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, tool, args, says string
	}{
		{"dotdot", FileRead, `{"path":"../secret.txt"}`, "'..'"},
		{"dotdot inside a path", FileRead, `{"path":"a/../../secret.txt"}`, "'..'"},
		{"dotdot after a real folder", FileRead, `{"path":"docs/deep/../../../secret.txt"}`, "'..'"},
		{"dotdot alone", FileList, `{"path":".."}`, "'..'"},
		{"absolute outside", FileRead, readArgsJSON(f.secret), "outside the project folder"},
		{"absolute root of the disk", FileList, `{"path":"/"}`, "outside the project folder"},
		{"absolute sibling with the root as prefix", FileRead, readArgsJSON(f.root + "-evil/x"), "outside the project folder"},
		{"symlink to an outside file", FileRead, `{"path":"link-out"}`, "symbolic link"},
		{"absolute symlink to an outside file", FileRead, `{"path":"link-out-abs"}`, "symbolic link"},
		{"symlink to an outside folder, then a file", FileRead, `{"path":"linkdir-out/inner.txt"}`, "symbolic link"},
		{"symlink to an outside folder, listed", FileList, `{"path":"linkdir-out"}`, "symbolic link"},
		{"symlink chain leading out", FileRead, `{"path":"chain1"}`, "symbolic link"},
		{"symlink in a subfolder leading out", FileRead, `{"path":"docs/up"}`, "symbolic link"},
		{"dev null through a symlink", FileRead, `{"path":"devnull"}`, "symbolic link"},
		{"symlink loop", FileRead, `{"path":"loop1"}`, "loop"},
		{"NUL byte", FileRead, `{"path":"a.txt\u0000../../secret.txt"}`, "NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, f.tb, tt.tool, tt.args)
			if !r.Refused || !r.IsError {
				t.Fatalf("not refused: %+v", r)
			}
			if !strings.Contains(r.Text, tt.says) {
				t.Errorf("result %q does not say %q", r.Text, tt.says)
			}
			if !strings.HasPrefix(r.Text, tt.tool+" refused: ") {
				t.Errorf("result %q does not start with %q", r.Text, tt.tool+" refused: ")
			}
			if strings.Contains(r.Text, f.outer) && !strings.Contains(tt.args, f.outer) {
				t.Errorf("result names the user's folders: %q", r.Text)
			}
		})
	}
}

func TestInsidePathsAreAllowed(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, path, want string
	}{
		{"top-level file", "a.txt", "alpha\nbeta\ngamma\n"},
		{"nested file", "docs/deep/c.md", "# C\n"},
		{"dot slash", "./docs/b.md", "# B\n\nbody of b\n"},
		{"dotdot that stays inside", "docs/deep/../b.md", "# B\n\nbody of b\n"},
		{"relative symlink inside", "link-inside", "# B\n\nbody of b\n"},
		{"absolute symlink inside", "link-abs-inside", "# B\n\nbody of b\n"},
		{"symlinked folder inside", "linkdir-inside/deep/c.md", "# C\n"},
		{"absolute path inside", filepath.Join(f.root, "docs", "b.md"), "# B\n\nbody of b\n"},
		{"absolute path inside, unclean", f.root + "/docs//deep/../b.md", "# B\n\nbody of b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, f.tb, FileRead, readArgsJSON(tt.path))
			if r.IsError || r.Refused || r.Text != tt.want {
				t.Fatalf("got %+v, want text %q", r, tt.want)
			}
		})
	}
}

func TestNotFoundIsAnErrorNotARefusal(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"missing.txt", "docs/missing/x", "a.txt/under-a-file", "broken"} {
		r := call(t, f.tb, FileRead, readArgsJSON(p))
		if !r.IsError || r.Refused || !strings.Contains(r.Text, "does not exist") {
			t.Errorf("%s: got %+v", p, r)
		}
	}
}

func TestRootReachedThroughASymlink(t *testing.T) {
	f := newFixture(t)
	via := filepath.Join(f.outer, "via")
	if err := os.Symlink(f.root, via); err != nil {
		t.Skip(err)
	}
	tb, err := New(via)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if tb.Root() != via {
		t.Errorf("Root() = %q, want %q", tb.Root(), via)
	}
	for _, p := range []string{"a.txt", filepath.Join(via, "a.txt"), filepath.Join(f.root, "a.txt")} {
		r := call(t, tb, FileRead, readArgsJSON(p))
		if r.IsError || r.Text != "alpha\nbeta\ngamma\n" {
			t.Errorf("%s: got %+v", p, r)
		}
	}
	if r := call(t, tb, FileRead, `{"path":"link-out"}`); !r.Refused {
		t.Errorf("link-out through a symlinked root: got %+v", r)
	}
}

func TestNewRejectsWhatIsNotAFolder(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{filepath.Join(f.root, "a.txt"), filepath.Join(f.root, "missing")} {
		if tb, err := New(p); err == nil {
			tb.Close()
			t.Errorf("New(%s) succeeded", p)
		} else if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "--project") {
			t.Errorf("New(%s) error %q does not name the path and the fix", p, err)
		}
	}
}

func TestNewDefaultsToTheWorkingDirectory(t *testing.T) {
	f := newFixture(t)
	t.Chdir(f.root)
	tb, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if r := call(t, tb, FileRead, `{"path":"a.txt"}`); r.IsError {
		t.Fatalf("got %+v", r)
	}
}

// swapAfterCheck makes the next open find path replaced by what swap
// leaves there.
func swapAfterCheck(t *testing.T, swap func()) {
	t.Cleanup(func() { testHookChecked = nil })
	testHookChecked = func(string) {
		testHookChecked = nil
		swap()
	}
}

func TestSwapAfterCheckIsRefused(t *testing.T) {
	tests := []struct {
		name string
		swap func(t *testing.T, f *fixture, victim string)
	}{
		{"file swapped for a symlink leading out", func(t *testing.T, f *fixture, victim string) {
			replace(t, victim, func(p string) error { return os.Symlink(f.secret, p) })
		}},
		{"file swapped for a relative symlink leading out", func(t *testing.T, f *fixture, victim string) {
			replace(t, victim, func(p string) error { return os.Symlink("../../secret.txt", p) })
		}},
		{"file swapped for a symlink to another file inside", func(t *testing.T, f *fixture, victim string) {
			replace(t, victim, func(p string) error { return os.Symlink("../a.txt", p) })
		}},
		{"file replaced by renaming another one over it", func(t *testing.T, f *fixture, victim string) {
			other := filepath.Join(f.root, "other.txt")
			writeFile(t, other, "other\n")
			if err := os.Rename(other, victim); err != nil {
				t.Fatal(err)
			}
		}},
		{"folder swapped for a symlink leading out", func(t *testing.T, f *fixture, victim string) {
			dir := filepath.Dir(victim)
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(f.outer, "outside"), dir); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			victim := filepath.Join(f.root, "docs", "swap.txt")
			writeFile(t, victim, "checked content\n")
			writeFile(t, filepath.Join(f.outer, "outside", "swap.txt"), secretText+"\n")
			swapAfterCheck(t, func() { tt.swap(t, f, victim) })
			r := call(t, f.tb, FileRead, `{"path":"docs/swap.txt"}`)
			if !r.Refused {
				t.Fatalf("not refused: %+v", r)
			}
		})
	}
}

// replace removes path and makes a new thing there.
func replace(t *testing.T, path string, make func(string) error) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := make(path); err != nil {
		t.Fatal(err)
	}
}
