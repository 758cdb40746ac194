package wire

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAllLines(t *testing.T, r io.Reader, max int) ([]string, error) {
	t.Helper()
	lr := NewLineReader(r, max)
	var out []string
	for {
		l, err := lr.ReadLine()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(l))
	}
}

func TestLineReaderEndings(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"lf", "a\nb\n", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"cr", "a\rb\r", []string{"a", "b"}},
		{"mixed", "a\rb\nc\r\nd", []string{"a", "b", "c", "d"}},
		{"blank lines", "\n\r\n\r\n", []string{"", "", ""}},
		{"cr cr is two endings", "a\r\rb", []string{"a", "", "b"}},
		{"lf cr is two endings", "a\n\rb", []string{"a", "", "b"}},
		{"no final ending", "a\nlast", []string{"a", "last"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		for _, oneByte := range []bool{false, true} {
			name := tt.name
			var r io.Reader = strings.NewReader(tt.in)
			if oneByte {
				// Every read returns one byte, so a CRLF is always split.
				name += "/one byte reads"
				r = iotest.OneByteReader(r)
			}
			t.Run(name, func(t *testing.T) {
				got, err := readAllLines(t, r, 0)
				if err != nil {
					t.Fatal(err)
				}
				equalLines(t, got, tt.want)
			})
		}
	}
}

func TestLineReaderCap(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		max     int
		want    []string
		wantErr error
	}{
		{"at the cap", "12345678\nx\n", 8, []string{"12345678", "x"}, nil},
		{"past the cap", "123456789\nx\n", 8, nil, ErrLineTooLong},
		{"past the cap without ending", "123456789", 8, nil, ErrLineTooLong},
		{"long line after short ones", "ok\n" + strings.Repeat("x", 100) + "\n", 64, []string{"ok"}, ErrLineTooLong},
		{"long input of short lines", strings.Repeat("abc\n", 1000), 8, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAllLines(t, iotest.HalfReader(strings.NewReader(tt.in)), tt.max)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if tt.want != nil {
				equalLines(t, got, tt.want)
			}
			if tt.name == "long input of short lines" && len(got) != 1000 {
				t.Errorf("got %d lines, want 1000", len(got))
			}
		})
	}
}

func TestLineReaderDefaultCapIs16MiB(t *testing.T) {
	line := strings.Repeat("x", MaxLine)
	got, err := readAllLines(t, strings.NewReader(line+"\nok\n"), 0)
	if err != nil {
		t.Fatalf("a line of exactly 16 MiB: %v", err)
	}
	if len(got) != 2 || len(got[0]) != MaxLine {
		t.Fatalf("got %d lines", len(got))
	}
	_, err = readAllLines(t, strings.NewReader(line+"x\n"), 0)
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a line one byte past 16 MiB: %v, want ErrLineTooLong", err)
	}
}

func TestLineReaderBrokenConnection(t *testing.T) {
	// A line cut by a dropped connection is not returned as a line.
	r := io.MultiReader(strings.NewReader("whole\ncut"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := readAllLines(t, r, 0)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error %v, want unexpected EOF", err)
	}
	equalLines(t, got, []string{"whole"})
}
