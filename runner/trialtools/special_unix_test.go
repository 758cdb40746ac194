//go:build unix

package trialtools

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// callOrHang runs a call, failing the test if it has not returned after a
// generous wait (a FIFO opened for reading without O_NONBLOCK would block
// for ever).
func callOrHang(t *testing.T, tb *Toolbox, name, args string) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- tb.Call(context.Background(), name, json.RawMessage(args)) }()
	select {
	case r := <-done:
		checkResult(t, r)
		return r
	case <-time.After(30 * time.Second):
		t.Fatalf("%s %s blocked", name, args)
	}
	return Result{}
}

func TestSpecialFilesAreRefused(t *testing.T) {
	f := newFixture(t)
	if err := syscall.Mkfifo(filepath.Join(f.root, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("fifo", filepath.Join(f.root, "link-to-fifo")); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(f.root, "sock"))
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	tests := []struct{ path, says string }{
		{"fifo", "named pipe"},
		{"link-to-fifo", "named pipe"},
		{"sock", "socket"},
	}
	for _, tt := range tests {
		r := callOrHang(t, f.tb, FileRead, readArgsJSON(tt.path))
		if !r.Refused || !strings.Contains(r.Text, tt.says) {
			t.Errorf("%s: got %+v, want a refusal naming %q", tt.path, r, tt.says)
		}
	}
	if r := callOrHang(t, f.tb, FileList, `{"path":"fifo"}`); !r.Refused {
		t.Errorf("listing a FIFO: got %+v", r)
	}
	r := callOrHang(t, f.tb, FileList, `{"glob":"[fls]*"}`)
	want := "fifo  (a named pipe; not readable)\n" +
		"link-abs-inside  (symbolic link to docs/b.md)\n" +
		"link-inside  (symbolic link to docs/b.md)\n" +
		"link-out  (symbolic link leading outside the project folder; not readable)\n" +
		"link-out-abs  (symbolic link leading outside the project folder; not readable)\n" +
		"link-to-fifo  (symbolic link to a named pipe; not readable)\n" +
		"linkdir-inside/  (symbolic link to docs/)\n" +
		"linkdir-out  (symbolic link leading outside the project folder; not readable)\n" +
		"loop1  (loop of symbolic links; not readable)\n" +
		"loop2  (loop of symbolic links; not readable)\n" +
		"sock  (a socket; not readable)"
	if r.IsError || r.Text != want {
		t.Errorf("listing:\n%s\nwant:\n%s", r.Text, want)
	}
}

func TestFileSwappedForAFIFODoesNotBlock(t *testing.T) {
	f := newFixture(t)
	victim := filepath.Join(f.root, "docs", "swap.txt")
	writeFile(t, victim, "checked content\n")
	swapAfterCheck(t, func() {
		replace(t, victim, func(p string) error { return syscall.Mkfifo(p, 0o644) })
	})
	r := callOrHang(t, f.tb, FileRead, `{"path":"docs/swap.txt"}`)
	if !r.Refused || !strings.Contains(r.Text, "changed while it was being opened") {
		t.Fatalf("got %+v", r)
	}
}

func TestDeviceFilesInsideTheRootAreRefused(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	tb, err := New("/dev")
	if err != nil {
		t.Skip(err)
	}
	defer tb.Close()
	for _, p := range []string{"null", "/dev/null", "zero"} {
		r := callOrHang(t, tb, FileRead, readArgsJSON(p))
		if !r.Refused || !strings.Contains(r.Text, "character device") {
			t.Errorf("%s: got %+v", p, r)
		}
	}
}
