//go:build linux

package suite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRunCommandLeavesNothing: an `expect: command:` check that starts a
// process with setsid (out of its group) does not leave it running.
func TestRunCommandLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on PATH")
	}
	dir := t.TempDir()
	script(t, dir, "leave.sh", "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > pid\n")
	if _, err := RunCommand(context.Background(), []string{"./leave.sh"}, dir, checkRecord(), CommandFacts{}, 0); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	if _, err := strconv.Atoi(pid); err != nil {
		t.Fatalf("pid file holds %q", pid)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		comm, err := os.ReadFile("/proc/" + pid + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "sleep" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the check's left-behind sleep %s outlived it", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
