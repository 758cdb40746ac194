package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheck: a golden file equal to the output passes; -update writes one
// (its folder too) that then passes.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	old := *update
	defer func() { *update = old }()
	*update = true
	Check(t, path, []byte("one\n"))
	*update = false
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\n" {
		t.Fatalf("written %q, %v", b, err)
	}
	Check(t, path, []byte("one\n"))
	if !t.Failed() && Update() {
		t.Error("Update() is set without -update")
	}
}
