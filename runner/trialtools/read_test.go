package trialtools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// numbered returns n lines "line 1\n" … "line n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestFileReadRanges(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.root, "ten.txt"), numbered(10))
	writeFile(t, filepath.Join(f.root, "open-end.txt"), "one\ntwo\nthree")
	writeFile(t, filepath.Join(f.root, "crlf.txt"), "one\r\ntwo\r\n")
	writeFile(t, filepath.Join(f.root, "empty.txt"), "")
	tests := []struct {
		name, args, want string
		isError          bool
	}{
		{"whole file", `{"path":"ten.txt"}`, numbered(10), false},
		{"a range", `{"path":"ten.txt","start_line":3,"end_line":5}`, "line 3\nline 4\nline 5\n", false},
		{"one line", `{"path":"ten.txt","start_line":7,"end_line":7}`, "line 7\n", false},
		{"from a line to the end", `{"path":"ten.txt","start_line":9}`, "line 9\nline 10\n", false},
		{"up to a line", `{"path":"ten.txt","end_line":2}`, "line 1\nline 2\n", false},
		{"zero means not set", `{"path":"ten.txt","start_line":0,"end_line":0}`, numbered(10), false},
		{"numbers as strings and floats", `{"path":"ten.txt","start_line":"2","end_line":3.0}`, "line 2\nline 3\n", false},
		{"end past the end", `{"path":"ten.txt","start_line":9,"end_line":50}`, "line 9\nline 10\n[file_read: ten.txt ends at line 10]", false},
		{"start past the end", `{"path":"ten.txt","start_line":11}`, "file_read: ten.txt has 10 lines; start_line 11 is past its end", true},
		{"last line without newline", `{"path":"open-end.txt","start_line":3}`, "three", false},
		{"last line without newline, end past it", `{"path":"open-end.txt","start_line":2,"end_line":9}`, "two\nthree\n[file_read: open-end.txt ends at line 3]", false},
		{"start just past a file without final newline", `{"path":"open-end.txt","start_line":4}`, "file_read: open-end.txt has 3 lines; start_line 4 is past its end", true},
		{"CRLF kept verbatim", `{"path":"crlf.txt","start_line":2}`, "two\r\n", false},
		{"empty file", `{"path":"empty.txt"}`, "[file_read: empty.txt is empty]", false},
		{"empty file from line 2", `{"path":"empty.txt","start_line":2}`, "file_read: empty.txt is empty; start_line 2 is past its end", true},
		{"a folder", `{"path":"docs"}`, "file_read: docs is a folder, not a file; list it with file_list", true},
		{"the project folder", `{"path":"."}`, "file_read: the project folder is a folder, not a file; list it with file_list", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, f.tb, FileRead, tt.args)
			if r.Text != tt.want || r.IsError != tt.isError || r.Refused || r.Cut {
				t.Fatalf("got %+v\nwant text %q, error %v", r, tt.want, tt.isError)
			}
		})
	}
}

func TestFileReadCaps(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.root, "many.txt"), numbered(5000))
	wide := strings.Repeat("x", 99) + "\n" // 100 bytes a line
	writeFile(t, filepath.Join(f.root, "wide.txt"), strings.Repeat(wide, 1000))
	long := "short\n" + strings.Repeat("é", 50_000) + "\nafter\n" // a 100,000-byte line
	writeFile(t, filepath.Join(f.root, "long.txt"), long)
	writeFile(t, filepath.Join(f.root, "longfirst.txt"), strings.Repeat("y", 200_000)+"\nsecond\n")

	t.Run("line cap", func(t *testing.T) {
		r := call(t, f.tb, FileRead, `{"path":"many.txt"}`)
		want := numbered(MaxReadLines) + "[file_read: cut at 2000 lines: this shows lines 1-2000 of many.txt (" +
			byteCount(int64(len(numbered(5000)))) + "); call file_read with start_line 2001 to read on]"
		if !r.Cut || r.IsError || r.Text != want {
			t.Fatalf("got cut=%v error=%v, text ending %q", r.Cut, r.IsError, tail(r.Text))
		}
	})
	t.Run("line cap from a start line", func(t *testing.T) {
		r := call(t, f.tb, FileRead, `{"path":"many.txt","start_line":4001}`)
		if r.Cut || r.IsError || r.Text != strings.TrimPrefix(numbered(5000), numbered(4000)) {
			t.Fatalf("got cut=%v error=%v, text ending %q", r.Cut, r.IsError, tail(r.Text))
		}
		r = call(t, f.tb, FileRead, `{"path":"many.txt","start_line":2001,"end_line":4500}`)
		if !r.Cut || !strings.HasSuffix(r.Text, "this shows lines 2001-4000 of many.txt (47.7 KiB); call file_read with start_line 4001 to read on]") {
			t.Fatalf("got cut=%v, text ending %q", r.Cut, tail(r.Text))
		}
	})
	t.Run("byte cap cuts at a whole line", func(t *testing.T) {
		r := call(t, f.tb, FileRead, `{"path":"wide.txt"}`)
		fit := MaxReadBytes / len(wide) // 655 whole lines fit
		want := strings.Repeat(wide, fit) + fmt.Sprintf("[file_read: cut at 64 KiB: this shows lines 1-%d of wide.txt (97.7 KiB); call file_read with start_line %d to read on]", fit, fit+1)
		if !r.Cut || r.Text != want {
			t.Fatalf("got cut=%v, %d bytes, ending %q", r.Cut, len(r.Text), tail(r.Text))
		}
	})
	t.Run("byte cap on a long line after a short one", func(t *testing.T) {
		r := call(t, f.tb, FileRead, `{"path":"long.txt"}`)
		want := "short\n[file_read: cut at 64 KiB: this shows line 1 of long.txt (97.7 KiB); call file_read with start_line 2 to read on]"
		if !r.Cut || r.Text != want {
			t.Fatalf("got %q", tail(r.Text))
		}
	})
	t.Run("a line longer than the cap is cut on a rune boundary", func(t *testing.T) {
		r := call(t, f.tb, FileRead, `{"path":"long.txt","start_line":2}`)
		body, note, _ := strings.Cut(r.Text, "\n[file_read: ")
		if !r.Cut || body != strings.Repeat("é", MaxReadBytes/2) {
			t.Fatalf("got cut=%v, body of %d bytes", r.Cut, len(body))
		}
		if note != "line 2 is longer than 64 KiB and was cut: this shows line 2 of long.txt (97.7 KiB); call file_read with start_line 3 to read on]" {
			t.Fatalf("note %q", note)
		}
		r = call(t, f.tb, FileRead, `{"path":"long.txt","start_line":3}`)
		if r.Text != "after\n" {
			t.Fatalf("reading on: %q", r.Text)
		}
	})
	t.Run("a first line longer than the cap", func(t *testing.T) {
		r := call(t, f.tb, FileRead, `{"path":"longfirst.txt"}`)
		if !r.Cut || !strings.HasPrefix(r.Text, strings.Repeat("y", MaxReadBytes)+"\n[file_read: line 1 is longer") {
			t.Fatalf("got cut=%v, %q", r.Cut, tail(r.Text))
		}
	})
}

// tail is the end of s, for messages.
func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

func TestFileReadBinary(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.root, "nul.bin"), "PK\x03\x04\x00\x00rest")
	writeFile(t, filepath.Join(f.root, "latin1.txt"), "caf\xe9\n")
	writeFile(t, filepath.Join(f.root, "late-nul.txt"), strings.Repeat("text line\n", 1000)+"\x00binary tail\n")
	// a multi-byte rune straddling the 8 KiB sniff window is still text
	writeFile(t, filepath.Join(f.root, "straddle.txt"), strings.Repeat("a", sniffBytes-1)+"é\n")
	writeFile(t, filepath.Join(f.root, "late-invalid.txt"), strings.Repeat("ok\n", 4000)+"bad \xff byte\n")
	tests := []struct {
		path, want string
		isError    bool
	}{
		{"nul.bin", "file_read: nul.bin is a binary file (10 bytes); file_read returns text only", true},
		{"latin1.txt", "file_read: latin1.txt is a binary file (5 bytes); file_read returns text only", true},
		{"late-nul.txt", "file_read: late-nul.txt holds binary data (a NUL byte at line 1001); file_read returns text only", true},
	}
	for _, tt := range tests {
		r := call(t, f.tb, FileRead, readArgsJSON(tt.path))
		if r.Text != tt.want || r.IsError != tt.isError || r.Refused {
			t.Errorf("%s: got %+v", tt.path, r)
		}
	}
	if r := call(t, f.tb, FileRead, `{"path":"straddle.txt"}`); r.IsError || !strings.HasSuffix(r.Text, "é\n") {
		t.Errorf("straddle.txt: got error=%v %q", r.IsError, tail(r.Text))
	}
	if r := call(t, f.tb, FileRead, `{"path":"late-invalid.txt","start_line":4001}`); r.IsError || r.Text != "bad \uFFFD byte\n" {
		t.Errorf("late-invalid.txt: got %+v", r)
	}
}

func TestFileReadHonoursCancellation(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := f.tb.Call(ctx, FileRead, []byte(`{"path":"a.txt"}`))
	if !r.IsError || !strings.Contains(r.Text, "context canceled") {
		t.Fatalf("got %+v", r)
	}
}
