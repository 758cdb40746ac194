package trialtools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listFixture is a project folder for listings: no symlinks, so the
// listings are the same on every system.
func listFixture(t *testing.T) *Toolbox {
	t.Helper()
	root := t.TempDir()
	for _, p := range []string{
		"README.md", "main.go", ".hidden", "Zeta.txt",
		"docs/a.md", "docs/b.txt", "docs/guide/c.md", "docs/guide/deeper/d.md",
		"src/x.go", "src/x_test.go", "src/internal/y.go",
		".git/HEAD", ".git/objects/ab/cdef.md",
	} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(p)), "x\n")
	}
	mkdir(t, filepath.Join(root, "empty"))
	tb, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func TestFileList(t *testing.T) {
	tb := listFixture(t)
	tests := []struct {
		name, args, want string
		isError          bool
	}{
		{"the project folder, sorted, folders marked", `{}`,
			".git/\n.hidden\nREADME.md\nZeta.txt\ndocs/\nempty/\nmain.go\nsrc/", false},
		{"path dot and null glob", `{"path":".","glob":null}`,
			".git/\n.hidden\nREADME.md\nZeta.txt\ndocs/\nempty/\nmain.go\nsrc/", false},
		{"a subfolder, paths from the project folder", `{"path":"docs"}`,
			"docs/a.md\ndocs/b.txt\ndocs/guide/", false},
		{"a subfolder with a trailing slash", `{"path":"docs/"}`,
			"docs/a.md\ndocs/b.txt\ndocs/guide/", false},
		{"a name glob", `{"path":"docs","glob":"*.md"}`, "docs/a.md", false},
		{"a name glob matching folders", `{"glob":"[ds]*"}`, "docs/\nsrc/", false},
		{"a recursive glob in tree order, .git skipped", `{"glob":"**/*.md"}`,
			"README.md\ndocs/a.md\ndocs/guide/c.md\ndocs/guide/deeper/d.md", false},
		{"a recursive glob under a folder", `{"path":"src","glob":"**/*.go"}`,
			"src/internal/y.go\nsrc/x.go\nsrc/x_test.go", false},
		{"a glob with a folder", `{"glob":"docs/*.md"}`, "docs/a.md", false},
		{"a glob with a folder pattern", `{"glob":"*/guide/*"}`, "docs/guide/c.md\ndocs/guide/deeper/", false},
		{"everything below", `{"path":"docs","glob":"**"}`,
			"docs/a.md\ndocs/b.txt\ndocs/guide/\ndocs/guide/c.md\ndocs/guide/deeper/\ndocs/guide/deeper/d.md", false},
		{"a glob naming .git goes into it", `{"glob":".git/**/*.md"}`, ".git/objects/ab/cdef.md", false},
		{"a leading ./ in the glob", `{"glob":"./docs/*.txt"}`, "docs/b.txt", false},
		{"an empty folder", `{"path":"empty"}`, "[file_list: empty/ is empty]", false},
		{"no match", `{"path":"docs","glob":"*.rs"}`, `[file_list: nothing in docs/ matches *.rs]`, false},
		{"a file", `{"path":"main.go"}`, "file_list: main.go is a file, not a folder; read it with file_read", true},
		{"a missing folder", `{"path":"nope"}`, "file_list: nope does not exist in the project folder", true},
		{"a pattern passed as path", `{"path":"docs/*.md"}`,
			`file_list: docs/*.md does not exist in the project folder; for a pattern, pass the folder as path and the pattern as glob, e.g. {"path":"docs","glob":"*.md"}`, true},
		{"a bad glob", `{"glob":"[a"}`,
			"file_list: glob [a is not a valid pattern (syntax error in pattern); use * ? [...] within a name and ** across folders", true},
		{"an absolute glob", `{"glob":"/etc/*"}`,
			`file_list: glob /etc/* starts with '/'; it is matched below path, so write it relative to path (e.g. "*.md" or "**/*.go")`, true},
		{"a glob climbing out", `{"glob":"../*"}`,
			"file_list: glob ../* holds '..'; it is matched below path, so set path to the folder instead", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, tb, FileList, tt.args)
			if r.Text != tt.want || r.IsError != tt.isError || r.Refused || r.Cut {
				t.Fatalf("got %+v\nwant text:\n%s", r, tt.want)
			}
		})
	}
}

func TestFileListCaps(t *testing.T) {
	root := t.TempDir()
	for i := range MaxListEntries + 500 {
		writeFile(t, filepath.Join(root, "big", fmt.Sprintf("f%05d.txt", i)), "")
	}
	tb, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	r := call(t, tb, FileList, `{"path":"big"}`)
	lines := strings.Split(r.Text, "\n")
	if !r.Cut || len(lines) != MaxListEntries+1 {
		t.Fatalf("got cut=%v and %d lines", r.Cut, len(lines))
	}
	if lines[0] != "big/f00000.txt" || lines[MaxListEntries-1] != "big/f00999.txt" {
		t.Errorf("not the first entries in order: %q … %q", lines[0], lines[MaxListEntries-1])
	}
	if want := "[file_list: cut: this shows 1000 of 1500 entries in big/; list a subfolder or pass a narrower glob]"; lines[MaxListEntries] != want {
		t.Errorf("note %q, want %q", lines[MaxListEntries], want)
	}
	r = call(t, tb, FileList, `{"path":"big","glob":"f014*"}`)
	if r.Cut || strings.Count(r.Text, "\n") != 99 {
		t.Errorf("a narrower glob: cut=%v, %d lines", r.Cut, strings.Count(r.Text, "\n")+1)
	}
}

func TestFileListEscapesStrangeNames(t *testing.T) {
	root := t.TempDir()
	names := []string{"new\nline.md", "esc\x1b[31mred.md", "bidi\u202eevil.md"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(root, n), nil, 0o644); err != nil {
			t.Skipf("file system refuses %q: %v", n, err)
		}
	}
	tb, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	r := call(t, tb, FileList, `{}`)
	want := `"bidi\u202eevil.md"` + "\n" + `"esc\x1b[31mred.md"` + "\n" + `"new\nline.md"`
	if r.Text != want {
		t.Fatalf("got:\n%s\nwant:\n%s", r.Text, want)
	}
	// the quoted form is for showing; the real name still reads
	if r := call(t, tb, FileRead, readArgsJSON("new\nline.md")); r.IsError || !strings.Contains(r.Text, `"new\nline.md" is empty`) {
		t.Errorf("reading a strange name: %+v", r)
	}
}

func TestFileListStopsAtTheWalkLimit(t *testing.T) {
	tb := listFixture(t)
	r := tb.list(t.Context(), []byte(`{"path":"docs","glob":"**"}`), 3)
	checkResult(t, r)
	want := "docs/a.md\ndocs/b.txt\ndocs/guide/\n" +
		"[file_list: stopped after looking at 3 entries in docs/; list a subfolder or pass a narrower glob]"
	if !r.Cut || r.Text != want {
		t.Fatalf("got %+v\nwant:\n%s", r, want)
	}
}
