package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestArtifactFilesOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"zeta.txt", "run.json", "transcript.jsonl", "alpha.log", "result.md", "truncated-output.md", ".hidden"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	got, err := ArtifactFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, filepath.Base(p))
	}
	want := "result.md truncated-output.md transcript.jsonl run.json alpha.log zeta.txt"
	if strings.Join(names, " ") != want {
		t.Errorf("order %v, want %s", names, want)
	}
	// Each error names the path and what to open instead.
	empty := t.TempDir()
	runs := t.TempDir()
	if err := os.MkdirAll(filepath.Join(runs, "1111aaaa"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "missing"), filepath.Join(dir, "missing") + " does not exist: give a run folder"},
		{"empty", empty, empty + " holds no files to show"},
		{"the runs folder", runs, "open one run folder, like " + filepath.Join(runs, "1111aaaa")},
	} {
		if _, err := ArtifactFiles(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
