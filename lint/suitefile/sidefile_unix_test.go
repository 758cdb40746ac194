//go:build unix

package suitefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// Files a suite names beside it are read without ever blocking: a FIFO, a
// device, a folder or a huge file is an error saying what it is.
func TestReadSideFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "ctx.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 2048)), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.md")
	if err := os.WriteFile(ok, []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{fifo, "it is a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "it is a device, not a regular file"},
		{dir, "it is a folder"},
		{big, "more than the 1 KiB agentdesk reads"},
		{filepath.Join(dir, "nope.md"), "no such file"},
		{ok, ""},
	}
	for _, tt := range tests {
		data, err := ReadSideFile(tt.path, 1024)
		switch {
		case tt.want == "" && (err != nil || string(data) != "fine"):
			t.Errorf("%s: %q, %v", tt.path, data, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err %v, want %q", tt.path, err, tt.want)
		}
	}
}

// A routing suite's preamble-file and a case's context-file that are FIFOs
// are findings of the suite's check, not a check that hangs.
func TestSideFilesThatAreFIFOs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pre.md"), 0o644); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "ctx.md"), 0o644); err != nil {
		t.Skip(err)
	}
	rpath := filepath.Join(dir, "front.route.yaml")
	if err := os.WriteFile(rpath, []byte("preamble-file: pre.md\ncases:\n  - {name: a, request: r, expect: none}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := LoadRoute(rpath)
	CheckRoute(rs, nil)
	if !hasDiag(rs.Diagnostics, "preamble-file pre.md cannot be read: it is a named pipe (FIFO)") {
		t.Errorf("route suite diagnostics %+v", rs.Diagnostics)
	}
	tpath := filepath.Join(dir, "a.test.yaml")
	if err := os.WriteFile(tpath, []byte("cases:\n  - {name: a, task: t, context-file: ctx.md}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := Load(tpath)
	Check(ts, nil)
	if !hasDiag(ts.Diagnostics, "context-file ctx.md cannot be read: it is a named pipe (FIFO)") {
		t.Errorf("test suite diagnostics %+v", ts.Diagnostics)
	}
}

func hasDiag(ds []lint.Diagnostic, sub string) bool {
	for _, d := range ds {
		if strings.Contains(d.Message, sub) {
			return true
		}
	}
	return false
}
