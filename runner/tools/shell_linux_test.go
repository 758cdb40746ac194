//go:build linux

package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/preview/request"
)

// leftBehind is a command that leaves `sleep 1000` running in a session
// of its own (out of the command's process group) and writes its pid.
const leftBehind = "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > pid\n"

// clearedBehind is leftBehind with an environment cleared of everything,
// agentdesk's mark included, and a shell in between that exits (so the
// sleep is an orphan).
const clearedBehind = "env -i /bin/sh -c 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > pid'\n"

// waitPid waits (bounded) for the pid file the command writes.
func waitPid(file string) (int, bool) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(file)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			return pid, true
		}
		if time.Now().After(deadline) {
			return 0, false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sleepGone waits (bounded) until pid is no longer a sleep, running or
// zombie.
func sleepGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "sleep" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the left-behind sleep %d outlived the command", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRunCommandLeavesNothing: a shell_execute command that starts a
// process with setsid (out of its group) does not leave it running,
// whether the command ends or the run is cancelled.
func TestRunCommandLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on PATH")
	}
	for _, tc := range []struct {
		name   string
		leave  string
		tail   string
		cancel bool
		want   string
	}{
		{name: "command ends", leave: leftBehind, tail: "echo done", want: "done"},
		{name: "run cancelled", leave: leftBehind, tail: "sleep 1000", cancel: true, want: request.ShellCancelled},
		// No mark in its environment, not in the group: found by parentage
		// (orphans are re-parented to the command's supervisor).
		{name: "env cleared, command ends", leave: clearedBehind, tail: "echo done", want: "done"},
		{name: "env cleared, run cancelled", leave: clearedBehind, tail: "sleep 1000", cancel: true, want: request.ShellCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				go func() {
					waitPid(filepath.Join(dir, "pid"))
					cancel()
				}()
			}
			res := RunCommand(ctx, tc.leave+tc.tail, dir, time.Minute)
			if !strings.Contains(res.Text, tc.want) {
				t.Errorf("result %q, want it to hold %q", res.Text, tc.want)
			}
			pid, ok := waitPid(filepath.Join(dir, "pid"))
			if !ok {
				t.Fatal("the command never wrote its pid file")
			}
			sleepGone(t, pid)
		})
	}
}

// TestShellFileSizeLimit: the disk-fill guard (`ulimit -f`) stops a
// command that writes past it — in the work tree or anywhere else — and
// the model is told; the project gets nothing, and no file grows past the
// limit.
func TestShellFileSizeLimit(t *testing.T) {
	old := shellFileBlocks
	shellFileBlocks = 64 // 32 KiB with dash's 512-byte blocks, 64 KiB with bash's
	t.Cleanup(func() { shellFileBlocks = old })
	outside := t.TempDir()
	for _, tc := range []struct {
		name, command string
		want          []string
		files         []string // files that must be cut at the limit
	}{
		{name: "last command stopped", command: "head -c 200000 /dev/zero > big.bin",
			want:  []string{"Exit code: 153\n", "the write of big.bin was stopped at the file size limit a trial sets (ulimit -f 64)"},
			files: []string{"big.bin"}},
		{name: "the command goes on", command: "head -c 200000 /dev/zero > sub/big.bin; echo done",
			want:  []string{"Exit code: 0\ndone\n", "the write of sub/big.bin was stopped"},
			files: []string{"sub/big.bin"}},
		{name: "a name with a parenthesis", command: "head -c 200000 /dev/zero > 'big (1).bin'",
			want:  []string{"Exit code: 153\n", "the write of big (1).bin was stopped"},
			files: []string{"big (1).bin"}},
		{name: "outside the copy", command: "head -c 200000 /dev/zero > " + outside + "/big.bin",
			want: []string{"Exit code: 153\n", "a process was stopped writing past the file size limit a trial sets (ulimit -f 64)"}},
		{name: "under the limit", command: "head -c 1000 /dev/zero > small.bin; echo fine", want: []string{"Exit code: 0\nfine\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, ws, s := workspace(t, map[string]string{"sub/keep.txt": "keep\n"}, "shell_execute")
			ws.WithSandbox(Sandbox{Off: true}) // the write outside the copy must happen to be cut
			res := call(t, s, ShellExecute, map[string]any{"Command": tc.command})
			for _, w := range tc.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("result %q lacks %q", res.Text, w)
				}
			}
			if len(tc.want) == 1 && strings.Contains(res.Text, "limit") {
				t.Errorf("result %q speaks of a limit nothing reached", res.Text)
			}
			wt, err := ws.Overlay().WorkTree()
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				fi, err := os.Stat(filepath.Join(wt.Dir(), f))
				if err != nil || (fi.Size() != 64*512 && fi.Size() != 64*1024) {
					t.Errorf("%s in the work tree: %v, want it cut at the limit", f, err)
				}
				if b, err := ws.Overlay().ReadFile(f); err != nil || len(b) != int(fi.Size()) {
					t.Errorf("%s in the overlay: %d bytes, %v", f, len(b), err)
				}
			}
			if fi, err := os.Stat(filepath.Join(outside, "big.bin")); err == nil && fi.Size() != 64*512 && fi.Size() != 64*1024 {
				t.Errorf("a file outside the copy grew to %d bytes, not cut at the limit", fi.Size())
			} else if err != nil && strings.Contains(tc.command, outside) {
				t.Errorf("the command outside the copy wrote nothing: %v", err)
			}
			entries, _ := os.ReadDir(filepath.Join(project, "sub"))
			if top, _ := os.ReadDir(project); len(top) != 1 || len(entries) != 1 {
				t.Errorf("the project changed: %v %v", top, entries)
			}
		})
	}
}

// TestShellSeesLinks: the project's symbolic links are in the shell's
// copy as links; one that points into the project by an absolute path
// leads a command's write into the copy, not the project; a link the
// command makes is in the overlay's patch as git shows it.
func TestShellSeesLinks(t *testing.T) {
	project, ws, s := workspace(t, map[string]string{"a.txt": "base\n"}, "shell_execute")
	if err := os.Symlink("a.txt", filepath.Join(project, "rel")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "a.txt"), filepath.Join(project, "abs")); err != nil {
		t.Fatal(err)
	}
	res := call(t, s, ShellExecute, map[string]any{"Command": "readlink rel; cat rel; echo through > abs; ln -s a.txt made"})
	if res.Text != "Exit code: 0\na.txt\nbase\n" {
		t.Errorf("result %q", res.Text)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "a.txt")); string(b) != "base\n" {
		t.Errorf("a write through an absolute link reached the project: %q", b)
	}
	if b, _ := ws.Overlay().ReadFile("a.txt"); string(b) != "through\n" {
		t.Errorf("a.txt in the view = %q", b)
	}
	patch, err := ws.Overlay().Patch()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"diff --git a/made b/made\nnew file mode 120000\n", "+a.txt\n\\ No newline at end of file\n", "-base\n+through\n"} {
		if !strings.Contains(string(patch), want) {
			t.Errorf("patch lacks %q:\n%s", want, patch)
		}
	}
	if strings.Contains(string(patch), "a/abs") || strings.Contains(string(patch), "a/rel") {
		t.Errorf("patch shows an unchanged link:\n%s", patch)
	}
}
