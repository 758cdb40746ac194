// Package golden is the one place agentdesk's tests keep golden files:
// the -update flag (go test ./... -update rewrites every golden file) and
// Check, which compares output with its file or rewrites it. It sits in
// lint so that every package's tests can import it; only tests do. A
// package whose tests have no golden files imports it for its flag alone
// (import _ ".../lint/golden"), so that go test ./... -update runs there.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Update reports whether the tests run with -update: golden files are
// rewritten, not compared.
func Update() bool { return *update }

// Check compares got with the file at path; with -update it writes got
// there instead (making its folder). A missing file or a difference fails
// t, naming the file and the command that rewrites it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it; review the diff):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
