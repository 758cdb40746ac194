package wire

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func frames(t *testing.T, in string, max int) ([]string, error) {
	t.Helper()
	s := NewSSEReader(iotest.OneByteReader(strings.NewReader(in)), max)
	var out []string
	for {
		f, err := s.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if f.Comment {
			out = append(out, fmt.Sprintf("comment %q", f.Data))
		} else {
			out = append(out, fmt.Sprintf("event=%q data=%q", f.Event, f.Data))
		}
	}
}

func TestSSEFraming(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"one frame", "data: {\"a\":1}\n\n", []string{`event="" data="{\"a\":1}"`}},
		{"crlf", "data: x\r\n\r\ndata: y\r\n\r\n", []string{`event="" data="x"`, `event="" data="y"`}},
		{"cr", "data: x\r\rdata: y\r\r", []string{`event="" data="x"`, `event="" data="y"`}},
		{"multi-line data", "data: a\ndata:b\ndata:  c\n\n", []string{`event="" data="a\nb\n c"`}},
		{"empty data lines", "data\ndata:\ndata: x\n\n", []string{`event="" data="\n\nx"`}},
		{"event name", "event: message_start\ndata: {}\n\n", []string{`event="message_start" data="{}"`}},
		{"event name resets per frame", "event: a\ndata: 1\n\ndata: 2\n\n", []string{`event="a" data="1"`, `event="" data="2"`}},
		{"event without data", "event: ping\n\n", []string{`event="ping" data=""`}},
		{"comments", ": keep-alive\n\n:OPENROUTER PROCESSING\n\n", []string{`comment "keep-alive"`, `comment "OPENROUTER PROCESSING"`}},
		{"comment inside a frame", "data: a\n: ka\ndata: b\n\n", []string{`comment "ka"`, `event="" data="a\nb"`}},
		{"ignored fields", "id: 7\nretry: 100\nfoo: bar\ndata: x\n\n", []string{`event="" data="x"`}},
		{"id alone dispatches nothing", "id: 7\n\n", nil},
		{"blank lines alone", "\n\n\r\n", nil},
		{"last frame without blank line", "data: a\n\ndata: b", []string{`event="" data="a"`, `event="" data="b"`}},
		{"field name is exact", "Data: x\n\ndata : y\n\n", nil},
		{"colon in value", "data: a: b\n\n", []string{`event="" data="a: b"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := frames(t, tt.in, 0)
			if err != nil {
				t.Fatal(err)
			}
			equalLines(t, got, tt.want)
		})
	}
}

func TestSSELineCap(t *testing.T) {
	in := "data: ok\n\ndata: " + strings.Repeat("x", 200) + "\n\n"
	got, err := frames(t, in, 64)
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("error %v, want ErrLineTooLong", err)
	}
	equalLines(t, got, []string{`event="" data="ok"`})
}
