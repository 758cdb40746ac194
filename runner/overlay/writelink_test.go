package overlay

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFollowsProjectLinks: a write onto a symbolic link of the
// project lands on its target in the view, as the runtime's write does on
// disk; the link stays a link; a link that leads out is refused; the
// project and the folder outside do not change; git applies the patch.
func TestWriteFollowsProjectLinks(t *testing.T) {
	project, out, o := setup(t, map[string]string{
		"real.md":     "old\n",
		"real2.md":    "old2\n",
		"src/a.md":    "a\n",
		"link.md":     "->real.md",
		"chain.md":    "->link.md",
		"dangling.md": "->made/new.md",
		"dirlink":     "->src",
		"out.md":      "->../outside/secret.txt",
		"outabs.md":   "->$OUT/secret.txt",
		"loop1":       "->loop2",
		"loop2":       "->loop1",
		"sub/up.md":   "->../real2.md",
		"sub/.keep":   "",
	})
	// An absolute link into the project, made after setup knows its path.
	if err := os.Symlink(filepath.Join(project, "real2.md"), filepath.Join(project, "abs.md")); err != nil {
		t.Fatal(err)
	}
	before, beforeOut := fingerprint(t, project), fingerprint(t, out)

	writes := map[string]string{"link.md": "via link\n", "abs.md": "via abs\n", "dangling.md": "made\n", "dirlink/a.md": "A\n"}
	for p, c := range writes {
		if err := o.WriteFile(p, []byte(c)); err != nil {
			t.Fatalf("write %s: %v", p, err)
		}
	}
	if err := o.WriteFile("chain.md", []byte("via chain\n")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"real.md": "via chain\n", "link.md": "via chain\n", "real2.md": "via abs\n",
		"made/new.md": "made\n", "src/a.md": "A\n", "dirlink/a.md": "A\n"} {
		if got, err := o.ReadFile(p); err != nil || string(got) != want {
			t.Errorf("view %s = %q, %v; want %q", p, got, err, want)
		}
	}
	for _, bad := range []string{"out.md", "outabs.md"} {
		if err := o.WriteFile(bad, []byte("escaped\n")); !errors.Is(err, ErrOutside) {
			t.Errorf("write %s: %v, want a refusal (outside)", bad, err)
		}
	}
	if err := o.WriteFile("loop1", []byte("x")); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("write through a loop: %v", err)
	}
	if fingerprint(t, project) != before || fingerprint(t, out) != beforeOut {
		t.Fatal("a write through a link changed the project or the folder outside")
	}
	cs, err := o.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range cs {
		paths = append(paths, c.Path+":"+string(c.Kind))
	}
	if got := strings.Join(paths, " "); got != "made/new.md:added real.md:modified real2.md:modified src/a.md:modified" {
		t.Errorf("changes %s", got)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	patch, _ := o.Patch()
	pf := filepath.Join(t.TempDir(), PatchFile)
	os.WriteFile(pf, patch, 0o644)
	cp := t.TempDir()
	exec.Command("cp", "-a", project+"/.", cp).Run()
	apply := exec.Command(git, "apply", pf)
	apply.Dir = cp
	if b, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, b, patch)
	}
	if fi, err := os.Lstat(filepath.Join(cp, "link.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("link.md is no longer a link after git apply")
	}
	if b, _ := os.ReadFile(filepath.Join(cp, "real.md")); string(b) != "via chain\n" {
		t.Errorf("real.md after git apply = %q", b)
	}
}
