package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSweepLeftovers: a folder whose owner lock is held survives a sweep,
// one whose lock is free (its owner died) goes, one without a lock (not a
// run's, or being made) stays.
func TestSweepLeftovers(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	live, release, err := ownedTempDir(overlayTempPrefix)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// A dead owner: its lock file is there, nobody holds it.
	dead, err := os.MkdirTemp("", sessionTempPrefix)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dead, ownerLockFile), []byte("pid 1\n"), 0o600)
	os.MkdirAll(filepath.Join(dead, "work", "ro"), 0o755)
	os.Chmod(filepath.Join(dead, "work", "ro"), 0o500) // a command left it read-only
	unowned, _ := os.MkdirTemp("", overlayTempPrefix)

	removed := SweepLeftovers()
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("removed %v, want %s alone", removed, dead)
	}
	for _, d := range []string{live, unowned} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s went: %v", d, err)
		}
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("%s is still there", dead)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); err == nil {
		t.Error("release left the folder")
	}
}

// BenchmarkSweepLeftoversNothing is the cost every start pays: a
// temporary folder of 500 entries, none a run's.
func BenchmarkSweepLeftoversNothing(b *testing.B) {
	tmp := b.TempDir()
	b.Setenv("TMPDIR", tmp)
	for i := 0; i < 500; i++ {
		os.Mkdir(filepath.Join(tmp, fmt.Sprintf("other-%d", i)), 0o755)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SweepLeftovers()
	}
}
