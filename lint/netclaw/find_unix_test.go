//go:build unix

package netclaw

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFindPassesOverSpecialFiles: a FIFO and a folder named like the
// binaries or the DLL are passed over, never opened (a FIFO would block).
func TestFindPassesOverSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, CLIBinary), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{DaemonBinary, AssemblyFile} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Find(Options{Dir: dir, Getenv: noEnv, LookPath: noPath})
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "holds none of them") {
		t.Fatalf("Find = %v; want the folder's error saying it holds none of the files", err)
	}
	// The home's bin with only special files: the search goes on to PATH.
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(home, "bin", DaemonBinary), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := Find(Options{Home: home, Getenv: noEnv, LookPath: pathOf(fixtureDevDir)})
	if err != nil || in.Via != ViaPath || in.Kind != KindAssembly {
		t.Fatalf("Find = %+v, %v; want the developer build found on PATH", in, err)
	}
}
