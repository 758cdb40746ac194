package trialtools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCall throws arbitrary arguments at both tools in a project with an
// outside world: no call panics, no result is empty, no result holds the
// content of a file outside the project, every result is UTF-8.
func FuzzCall(f *testing.F) {
	fx := newFixture(f)
	for _, s := range []string{
		`{"path":"a.txt"}`, `{"path":"../secret.txt"}`, `{"path":"link-out"}`, `{"path":"linkdir-out/inner.txt"}`,
		`{"path":"docs","glob":"**/*.md"}`, `{"path":"a.txt","start_line":2,"end_line":"3"}`, `"{\"path\":\"chain1\"}"`,
		`{"path":"` + fx.secret + `"}`, `{"glob":"[a"}`, `{"path":"/"}`, `{"path":"a.txt\u0000"}`, `null`, ``, `[]`,
		`{"path":"docs/up"}`, `{"path":"loop1"}`, `{"path":".","glob":"../*"}`, `{"path":"a.txt","start_line":1e999}`,
	} {
		f.Add(true, s)
		f.Add(false, s)
	}
	f.Fuzz(func(t *testing.T, read bool, args string) {
		name := FileList
		if read {
			name = FileRead
		}
		r := fx.tb.Call(context.Background(), name, json.RawMessage(args))
		checkResult(t, r)
		if !utf8.ValidString(r.Text) {
			t.Fatalf("result is not UTF-8: %q", r.Text)
		}
	})
}

// FuzzReadText checks file_read's line ranges against a plain reference:
// whenever the lines asked for fit the caps, the result is exactly those
// lines, plus the note when end_line is past the end.
func FuzzReadText(f *testing.F) {
	f.Add("a\nb\nc\n", 0, 0)
	f.Add("a\nb\nc", 2, 9)
	f.Add("", 1, 0)
	f.Add("\n\n\n", 3, 3)
	f.Add("x\r\ny\r\n", 2, 0)
	f.Add(strings.Repeat("long line\n", 3000), 1500, 0)
	f.Fuzz(func(t *testing.T, content string, start, end int) {
		a := readArgs{Path: "f.txt", StartLine: start, EndLine: end}
		if start < 0 || end < 0 || (end != 0 && end < max(start, 1)) {
			return // the argument parser refuses these
		}
		r := readText(context.Background(), strings.NewReader(content), int64(len(content)), "f.txt", a)
		if !utf8.ValidString(r.Text) || r.Text == "" {
			t.Fatalf("bad result %q", r.Text)
		}
		if !utf8.ValidString(content) || strings.IndexByte(content, 0) >= 0 {
			return // binary or mended: checked in TestFileReadBinary
		}
		lines := strings.SplitAfter(content, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		s := max(start, 1)
		if content == "" {
			if s > 1 != r.IsError {
				t.Fatalf("empty file from line %d: %+v", s, r)
			}
			return
		}
		if s > len(lines) {
			if !r.IsError || !strings.Contains(r.Text, fmt.Sprintf("has %d lines", len(lines))) {
				t.Fatalf("start %d past %d lines: %+v", s, len(lines), r)
			}
			return
		}
		e := len(lines)
		if end != 0 && end < e {
			e = end
		}
		want := strings.Join(lines[s-1:e], "")
		if e-s+1 > MaxReadLines || len(want) > MaxReadBytes {
			if !r.Cut {
				t.Fatalf("%d lines, %d bytes, not cut", e-s+1, len(want))
			}
			body, _, _ := strings.Cut(r.Text, "[file_read: ")
			if !strings.HasPrefix(want, strings.TrimSuffix(body, "\n")) {
				t.Fatalf("the cut text is not a prefix of the lines asked for")
			}
			return
		}
		if end > len(lines) {
			if !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			want += fmt.Sprintf("[file_read: f.txt ends at line %d]", len(lines))
		}
		if r.IsError || r.Cut || r.Text != want {
			t.Fatalf("lines %d-%d of %q:\ngot  %+v\nwant %q", start, end, content, r, want)
		}
	})
}

// FuzzCanonical checks that canonical JSON is valid, a fixed point, and
// blind to indentation.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1.0,2e1,"x"]}`, `{}`, ``, `null`, `"s"`, `{"a":{"b":{"c":-0.0}}}`, `[1e400]`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, ok := Canonical(json.RawMessage(in))
		if !ok {
			if json.Valid([]byte(in)) && utf8.ValidString(in) && strings.TrimSpace(in) != "" {
				t.Fatalf("valid JSON %q not canonicalised", in)
			}
			return
		}
		if !json.Valid([]byte(c)) {
			t.Fatalf("Canonical(%q) = %q, not JSON", in, c)
		}
		if c2, _ := Canonical(json.RawMessage(c)); c2 != c {
			t.Fatalf("not a fixed point: %q -> %q -> %q", in, c, c2)
		}
		var indented bytes.Buffer
		if json.Indent(&indented, []byte(in), "  ", "\t") == nil {
			if c3, _ := Canonical(indented.Bytes()); c3 != c {
				t.Fatalf("indentation changed the key: %q vs %q", c3, c)
			}
		}
	})
}

// FuzzGlob checks that any pattern compiles or is refused without
// panicking, and that one-segment patterns match as path.Match does.
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{{"*.md", "a.md"}, {"**/*.go", "a/b/c.go"}, {"[a-", "x"}, {"a/**/b", "a/x/b"}, {"\\*", "*"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		g, err := compileGlob(pattern)
		if err != nil {
			return
		}
		segs := strings.Split(p, "/")
		got := g.match(segs)
		if g != nil && !g.deep && len(g.segs) == 1 && pattern == g.segs[0] && !strings.Contains(p, "/") {
			if want, _ := path.Match(pattern, p); got != want {
				t.Fatalf("%q matches %q: %v, path.Match says %v", pattern, p, got, want)
			}
		}
		if got && g != nil && !g.deep && len(segs) != len(g.segs) {
			t.Fatalf("%q matched %q with a different number of segments", pattern, p)
		}
	})
}
