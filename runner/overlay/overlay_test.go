package overlay

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// fingerprint hashes every name, mode and content under dir (links not
// followed), to prove a folder did not change.
func fingerprint(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, _ := d.Info()
		fmt.Fprintf(h, "%s %v\n", p, fi.Mode())
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			l, _ := os.Readlink(p)
			h.Write([]byte(l))
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

// setup makes a project, a folder outside it, and an overlay.
func setup(t *testing.T, files map[string]string) (project, outsideDir string, o *Overlay) {
	t.Helper()
	root := t.TempDir()
	project = filepath.Join(root, "project")
	outsideDir = filepath.Join(root, "outside")
	hometest.Write(t, outsideDir, map[string]string{"secret.txt": "secret\n"})
	for p, c := range files {
		files[p] = strings.ReplaceAll(c, "$OUT", outsideDir)
	}
	hometest.Write(t, project, files)
	var err error
	o, err = New(project, filepath.Join(root, "run", "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return project, outsideDir, o
}

func TestReadThroughAndWriteToOverlay(t *testing.T) {
	project, _, o := setup(t, map[string]string{"a.txt": "one\n", "src/b.go": "package b\n"})
	before := fingerprint(t, project)

	if got, err := o.ReadFile("a.txt"); err != nil || string(got) != "one\n" {
		t.Fatalf("read through: %q %v", got, err)
	}
	if err := o.WriteFile("a.txt", []byte("two\n")); err != nil {
		t.Fatal(err)
	}
	if err := o.WriteFile("notes/new/summary.md", []byte("# sum\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.ReadFile("a.txt"); string(got) != "two\n" {
		t.Errorf("later read sees %q, want the write", got)
	}
	if err := o.Remove("src"); err != nil {
		t.Fatal(err)
	}
	if _, err := o.ReadFile("src/b.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("deleted file read: %v", err)
	}
	ents, err := o.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "a.txt,notes" {
		t.Errorf("listing = %v", names)
	}
	// A file written under a deleted folder brings the folder back with
	// only the new file.
	if err := o.WriteFile("src/c.go", []byte("package c\n")); err != nil {
		t.Fatal(err)
	}
	ents, _ = o.ReadDir("src")
	if len(ents) != 1 || ents[0].Name != "c.go" {
		t.Errorf("src after delete and write = %+v", ents)
	}
	if err := o.Rename("a.txt", "docs/a-moved.txt"); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.ReadFile("docs/a-moved.txt"); string(got) != "two\n" {
		t.Errorf("renamed file holds %q", got)
	}
	if _, err := o.ReadFile("a.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("old name after rename: %v", err)
	}
	if after := fingerprint(t, project); after != before {
		t.Error("the project changed")
	}
	cs, err := o.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, string(c.Kind)+" "+c.Path)
	}
	want := "deleted a.txt,added docs/a-moved.txt,added notes/new/summary.md,deleted src/b.go,added src/c.go"
	if strings.Join(got, ",") != want {
		t.Errorf("changes = %v\nwant %s", got, want)
	}
}

func TestEscapes(t *testing.T) {
	project, outsideDir, o := setup(t, map[string]string{
		"a.txt":        "a\n",
		"out-link":     "->$OUT/secret.txt",
		"out-dir":      "->$OUT",
		"in-link":      "->a.txt",
		"sub/dot-link": "->../../outside/secret.txt",
		"loop1":        "->loop2",
		"loop2":        "->loop1",
	})
	before, beforeOut := fingerprint(t, project), fingerprint(t, outsideDir)

	for _, p := range []string{"../outside/secret.txt", "sub/../../outside/secret.txt", outsideDir + "/secret.txt", "/etc/passwd", "a\x00b"} {
		if _, err := o.Rel(p); !errors.Is(err, ErrOutside) {
			t.Errorf("Rel(%q) = %v, want a refusal", p, err)
		}
	}
	if r, err := o.Rel(filepath.Join(project, "sub/../a.txt")); err != nil || r != "a.txt" {
		t.Errorf("absolute inside = %q %v", r, err)
	}
	for _, p := range []string{"out-link", "out-dir/secret.txt", "sub/dot-link"} {
		if _, err := o.ReadFile(p); !errors.Is(err, ErrOutside) {
			t.Errorf("read %s = %v, want refused", p, err)
		}
	}
	if _, err := o.ReadFile("loop1"); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("loop read: %v", err)
	}
	if got, err := o.ReadFile("in-link"); err != nil || string(got) != "a\n" {
		t.Errorf("link inside: %q %v", got, err)
	}
	// Writing through a link that leads out is refused, as reading is:
	// the runtime would write outside the project, and a patch holding
	// such a path is one `git apply` refuses ("beyond a symbolic link").
	for _, p := range []string{"out-dir/secret.txt", "out-dir/new/deeper.txt", "out-link", "sub/dot-link"} {
		if err := o.WriteFile(p, []byte("pwned")); !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("write %s = %v, want refused as leading out through a symbolic link", p, err)
		}
	}
	if err := o.Rename("a.txt", "out-dir/a.txt"); !errors.Is(err, ErrOutside) {
		t.Errorf("rename into a link that leads out = %v, want refused", err)
	}
	if ch, err := o.Changes(); err != nil || len(ch) != 0 {
		t.Errorf("refused writes left changes: %+v %v", ch, err)
	}
	// A link planted in the overlay (as a shell command could) leads
	// nowhere.
	upper := filepath.Join(o.Dir(), Upper)
	if err := os.Symlink(outsideDir, filepath.Join(upper, "planted")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outsideDir, "secret.txt"), filepath.Join(upper, "planted-file")); err != nil {
		t.Fatal(err)
	}
	if _, err := o.ReadFile("planted/secret.txt"); err == nil {
		t.Error("read through a planted link worked")
	}
	if _, err := o.ReadFile("planted-file"); !errors.Is(err, ErrOutside) {
		t.Errorf("read of a planted file link: %v", err)
	}
	if err := o.WriteFile("planted/new.txt", []byte("x")); err == nil {
		t.Error("write through a planted folder link worked")
	}
	if err := o.WriteFile("planted-file", []byte("x")); err != nil {
		t.Errorf("writing over a planted link (replacing it): %v", err)
	}
	if err := o.Rename("a.txt", "../outside/a.txt"); err == nil {
		// Rename takes checked paths; give it one the model could.
		t.Log("Rename takes Rel-checked paths")
	}
	if _, err := o.Rel("../outside/a.txt"); err == nil {
		t.Error("rename target outside accepted by Rel")
	}
	if err := o.Rename("sub", "sub/inner"); err == nil {
		t.Error("a folder moved into itself")
	}
	if fingerprint(t, project) != before || fingerprint(t, outsideDir) != beforeOut {
		t.Error("the project or the folder outside changed")
	}
}

func TestOverlayInsideProjectRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := New(dir, filepath.Join(dir, "runs", "x")); err == nil || !strings.Contains(err.Error(), "inside the project") {
		t.Errorf("overlay inside the project: %v", err)
	}
}

func TestTwoOverlaysOfOneProject(t *testing.T) {
	project, _, o1 := setup(t, map[string]string{"a.txt": "base\n"})
	o2, err := New(project, filepath.Join(t.TempDir(), "o2"))
	if err != nil {
		t.Fatal(err)
	}
	defer o2.Close()
	o1.WriteFile("a.txt", []byte("one\n"))
	o2.WriteFile("a.txt", []byte("two\n"))
	o2.Remove("a.txt")
	if got, _ := o1.ReadFile("a.txt"); string(got) != "one\n" {
		t.Errorf("o1 sees %q", got)
	}
	if _, err := o2.ReadFile("a.txt"); err == nil {
		t.Error("o2 still sees its deleted file")
	}
	if got, _ := os.ReadFile(filepath.Join(project, "a.txt")); string(got) != "base\n" {
		t.Errorf("project file = %q", got)
	}
}

func TestPatchAppliesWithGit(t *testing.T) {
	project, _, o := setup(t, map[string]string{
		"a.txt":           "one\ntwo\nthree\n",
		"no-newline.txt":  "x\ny",
		"gone/one.txt":    "1\n",
		"gone/two.txt":    "2\n",
		"keep.txt":        "same\n",
		"with space.md":   "old\n",
		"run.sh":          "#!/bin/sh\necho hi\n",
		"img.bin":         "\x00\x01\x02",
		"old.bin":         "\x00gone\xff",
		"text-to-bin.txt": "text\n",
	})
	os.Chmod(filepath.Join(project, "run.sh"), 0o755)
	o.WriteFile("a.txt", []byte("one\nTWO\nthree\n"))
	o.WriteFile("no-newline.txt", []byte("x\nz"))
	o.Remove("gone")
	o.WriteFile("keep.txt", []byte("same\n")) // no change
	o.WriteFile("with space.md", []byte("new\n"))
	o.WriteFile("run.sh", []byte("#!/bin/sh\necho bye\n"))
	o.WriteFile("new/dir/file.md", []byte("hello\n"))
	o.WriteFile("empty.txt", nil)
	o.WriteFile("img.bin", []byte("\x00\x09"))
	o.WriteFile("ünï.txt", []byte("u\n"))
	// Binary files: one of many patch lines (incompressible bytes), one
	// deleted, one that was text.
	noise := make([]byte, 3000)
	for i := range noise {
		noise[i] = byte(i*7919>>3 ^ i*31)
	}
	o.WriteFile("pics/noise.bin", noise)
	o.Remove("old.bin")
	o.WriteFile("text-to-bin.txt", []byte("now\x00binary"))

	patch, err := o.Patch()
	if err != nil {
		t.Fatal(err)
	}
	s := string(patch)
	for _, want := range []string{"diff --git a/a.txt b/a.txt", "-two\n+TWO\n", "deleted file mode 100644", "+++ /dev/null",
		"new file mode 100644\n--- /dev/null\n+++ b/new/dir/file.md", "\\ No newline at end of file",
		"diff --git a/img.bin b/img.bin\nindex ", "GIT binary patch\nliteral 2\n", "diff --git a/old.bin b/old.bin\ndeleted file mode 100644\nindex "} {
		if !strings.Contains(s, want) {
			t.Errorf("patch lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "keep.txt") {
		t.Errorf("an unchanged write is in the patch:\n%s", s)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the patch was checked by its text only")
	}
	pf := filepath.Join(t.TempDir(), PatchFile)
	os.WriteFile(pf, patch, 0o644)
	check := exec.Command(git, "apply", "--check", "-v", pf)
	check.Dir = project
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("git apply --check: %v\n%s\npatch:\n%s", err, out, s)
	}
	// Applied to a copy, it makes the view.
	cp := t.TempDir()
	exec.Command("cp", "-a", project+"/.", cp).Run()
	apply := exec.Command(git, "apply", pf)
	apply.Dir = cp
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	if strings.Contains(s, "does not carry") {
		t.Errorf("the patch leaves a change out:\n%s", s)
	}
	for _, p := range []string{"a.txt", "no-newline.txt", "with space.md", "run.sh", "new/dir/file.md", "ünï.txt", "img.bin", "pics/noise.bin", "text-to-bin.txt"} {
		want, _ := o.ReadFile(p)
		got, _ := os.ReadFile(filepath.Join(cp, p))
		if string(got) != string(want) {
			t.Errorf("%s after git apply = %q, want %q", p, got, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(cp, "old.bin")); err == nil {
		t.Error("old.bin survived git apply")
	}
	if _, err := os.Stat(filepath.Join(cp, "gone")); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(cp, "gone")); len(ents) > 0 {
			t.Errorf("gone/ still holds %d files", len(ents))
		}
	}
}

func TestWorkTree(t *testing.T) {
	project, _, o := setup(t, map[string]string{"a.txt": "a\n", "src/b.txt": "b\n", "link": "->a.txt"})
	before := fingerprint(t, project)
	o.WriteFile("written.txt", []byte("w\n"))
	w, err := o.WorkTree()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(w.Dir(), "written.txt")); string(got) != "w\n" {
		t.Errorf("work tree lacks an earlier write: %q", got)
	}
	if l, err := os.Readlink(filepath.Join(w.Dir(), "link")); len(w.Skipped) != 0 || l != "a.txt" {
		t.Errorf("skipped = %v, link copied as %q (%v)", w.Skipped, l, err)
	}
	o.WriteFile("later.txt", []byte("l\n")) // mirrored
	if got, _ := os.ReadFile(filepath.Join(w.Dir(), "later.txt")); string(got) != "l\n" {
		t.Errorf("work tree lacks a later write: %q", got)
	}
	// What a command would do.
	os.WriteFile(filepath.Join(w.Dir(), "a.txt"), []byte("changed by shell\n"), 0o644)
	os.WriteFile(filepath.Join(w.Dir(), "made.txt"), []byte("made\n"), 0o644)
	os.Remove(filepath.Join(w.Dir(), "src/b.txt"))
	os.Symlink("/etc/passwd", filepath.Join(w.Dir(), "evil"))
	c, err := w.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Written, ",") != "a.txt,evil,made.txt" || strings.Join(c.Deleted, ",") != "src/b.txt" || len(c.Skipped) != 0 {
		t.Errorf("collected %+v", c)
	}
	if got, _ := o.ReadFile("a.txt"); string(got) != "changed by shell\n" {
		t.Errorf("overlay after collect: %q", got)
	}
	if _, err := o.ReadFile("evil"); err == nil {
		t.Error("a link made by the command is readable")
	}
	if c2, _ := w.Collect(); len(c2.Written)+len(c2.Deleted) != 0 {
		t.Errorf("a second collect brought back %+v", c2)
	}
	if fingerprint(t, project) != before {
		t.Error("the project changed")
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the work tree outlived Close: %v", err)
	}
}

func TestWalkOrder(t *testing.T) {
	_, _, o := setup(t, map[string]string{"b/x": "", "a": "", "b/a": ""})
	o.WriteFile("b/c", nil)
	var got []string
	o.Walk(".", func(rel string, e Entry) error { got = append(got, rel); return nil })
	sort.Strings(got) // Walk is lexical already; sorting must not change it
	if strings.Join(got, ",") != "a,b,b/a,b/c,b/x" {
		t.Errorf("walk = %v", got)
	}
}

// BenchmarkNew10k measures an overlay of a 10,000-file project made
// ready and read once: nothing is copied.
func BenchmarkNew10k(b *testing.B) {
	project := b.TempDir()
	files := map[string]string{}
	for i := 0; i < 10_000; i++ {
		files[fmt.Sprintf("d%02d/f%05d.txt", i%100, i)] = "content\n"
	}
	hometest.Write(b, project, files)
	runs := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o, err := New(project, filepath.Join(runs, fmt.Sprint(i)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := o.ReadFile("d07/f00007.txt"); err != nil {
			b.Fatal(err)
		}
		o.Close()
	}
}

// BenchmarkWriteRead measures one overlay write and the read that sees it.
func BenchmarkWriteRead(b *testing.B) {
	project := b.TempDir()
	hometest.Write(b, project, map[string]string{"a.txt": "x\n"})
	o, err := New(project, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	data := []byte(strings.Repeat("line\n", 200))
	for i := 0; i < b.N; i++ {
		if err := o.WriteFile("notes/a.md", data); err != nil {
			b.Fatal(err)
		}
		if _, err := o.ReadFile("notes/a.md"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWorkTreeLinks: the work tree copies the project's symbolic links as
// links, never following them, and never letting one lead a command's
// writes into the project; what a command does to links comes back into
// the overlay, and changes.patch shows it as git does (`git apply` makes
// the view from the project).
func TestWorkTreeLinks(t *testing.T) {
	project, out, o := setup(t, map[string]string{
		"a.txt":     "a\n",
		"src/b.txt": "b\n",
		"rel":       "->a.txt",
		"dirlink":   "->src",
		"abs_in":    "->PROJECT/a.txt",
		"out_rel":   "->../outside/secret.txt",
		"out_abs":   "->$OUT/secret.txt",
		"dangling":  "->nowhere",
		"keep":      "->src/b.txt",
	})
	// tree cannot know the project's path before it is made: re-point abs_in.
	os.Remove(filepath.Join(project, "abs_in"))
	os.Symlink(filepath.Join(project, "a.txt"), filepath.Join(project, "abs_in"))
	before, outBefore := fingerprint(t, project), fingerprint(t, out)
	w, err := o.WorkTree()
	if err != nil {
		t.Fatal(err)
	}
	wt := func(p string) string { return filepath.Join(w.Dir(), p) }
	for _, tc := range []struct{ link, want string }{
		{"rel", "a.txt"},                              // stays inside: as it is
		{"dirlink", "src"},                            //
		{"abs_in", wt("a.txt")},                       // into the project: into the copy
		{"out_rel", filepath.Join(out, "secret.txt")}, // out of the project: the same place, absolutely
		{"out_abs", filepath.Join(out, "secret.txt")}, //
		{"dangling", "nowhere"},                       //
	} {
		if got, err := os.Readlink(wt(tc.link)); err != nil || got != tc.want {
			t.Errorf("%s in the work tree -> %q (%v), want -> %q", tc.link, got, err, tc.want)
		}
	}
	if len(w.Skipped) != 0 {
		t.Errorf("skipped %v", w.Skipped)
	}

	// What a command does.
	os.WriteFile(wt("abs_in"), []byte("through the absolute link\n"), 0o644) // lands in the copy's a.txt
	os.WriteFile(wt("dirlink/new.txt"), []byte("n\n"), 0o644)                // lands in src/new.txt
	os.Remove(wt("rel"))
	os.Symlink("src/b.txt", wt("rel")) // retargeted
	os.Symlink("a.txt", wt("made"))    // a new link
	os.Symlink(wt("src/b.txt"), wt("abs_new"))
	os.Remove(wt("dangling"))
	os.Remove(wt("out_rel"))
	os.WriteFile(wt("out_rel"), []byte("now a file\n"), 0o644) // a link become a file
	c, err := w.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Written, ","); got != "a.txt,abs_new,made,out_rel,rel,src/new.txt" || strings.Join(c.Deleted, ",") != "dangling" {
		t.Errorf("collected %+v", c)
	}
	if fingerprint(t, project) != before || fingerprint(t, out) != outBefore {
		t.Fatal("the project or the folder outside it changed")
	}
	if got, _ := o.ReadFile("a.txt"); string(got) != "through the absolute link\n" {
		t.Errorf("a.txt in the view = %q", got)
	}
	if c2, _ := w.Collect(); len(c2.Written)+len(c2.Deleted) != 0 {
		t.Errorf("a second collect brought back %+v", c2)
	}

	patch, err := o.Patch()
	if err != nil {
		t.Fatal(err)
	}
	s := string(patch)
	for _, want := range []string{
		"diff --git a/made b/made\nnew file mode 120000\n--- /dev/null\n+++ b/made\n@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n",
		"diff --git a/abs_new b/abs_new\nnew file mode 120000\n", "+" + filepath.Join(project, "src/b.txt") + "\n",
		"diff --git a/dangling b/dangling\ndeleted file mode 120000\n",
		"--- a/rel\n+++ b/rel\n@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+src/b.txt\n\\ No newline at end of file\n",
		"diff --git a/out_rel b/out_rel\ndeleted file mode 120000\n", "diff --git a/out_rel b/out_rel\nnew file mode 100644\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("patch lacks %q:\n%s", want, s)
		}
	}
	for _, unchanged := range []string{"a/keep", "a/dirlink", "a/out_abs", "a/abs_in"} {
		if strings.Contains(s, unchanged+" ") {
			t.Errorf("patch shows the unchanged %s:\n%s", unchanged, s)
		}
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the patch was checked by its text only")
	}
	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", project, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	pf := filepath.Join(t.TempDir(), PatchFile)
	os.WriteFile(pf, patch, 0o644)
	apply := exec.Command(git, "apply", pf)
	apply.Dir = cp
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\npatch:\n%s", err, out, s)
	}
	for link, want := range map[string]string{"rel": "src/b.txt", "made": "a.txt", "abs_new": filepath.Join(project, "src/b.txt"), "keep": "src/b.txt"} {
		if got, err := os.Readlink(filepath.Join(cp, link)); err != nil || got != want {
			t.Errorf("%s after git apply -> %q (%v), want -> %q", link, got, err, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(cp, "dangling")); err == nil {
		t.Error("dangling is still there after git apply")
	}
	if got, _ := os.ReadFile(filepath.Join(cp, "out_rel")); string(got) != "now a file\n" {
		t.Errorf("out_rel after git apply = %q", got)
	}
}
