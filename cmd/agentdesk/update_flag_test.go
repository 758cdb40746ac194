package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites this package's golden files (testdata/*.golden) with the
// current output; review the diff.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file: %v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -run %s -update rewrites it):\n%s", path, t.Name(), got)
	}
}
