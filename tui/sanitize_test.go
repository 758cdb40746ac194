package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"", ""},
		{"héllo — ✓ 日本", "héllo — ✓ 日本"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"title\x1b]0;pwned\x07", `title\x1b]0;pwned\a`},
		{"a\rb", `a\rb`},
		{"line\nbreak", `line\nbreak`},
		{"bell\a", `bell\a`},
		{"line\u2028separator\u2029", `line\u2028separator\u2029`},
		{"del\x7f", `del\x7f`},
		{"c1\u009bcsi", `c1\u009bcsi`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"isolate\u2066x\u2069", `isolate\u2066x\u2069`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"a\tb", "a   b"},
		{"\tx", "    x"},
		{"日本\tx", "日本    x"}, // two wide characters fill four columns
		{"\x1b\tx", `\x1b    x`},
		{"U+FFFD \uFFFD kept", "U+FFFD \uFFFD kept"},
	}
	for _, c := range cases {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSanitizeText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a\nb", "a\nb"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"x\x1b[2Jy\nz", "x\\x1b[2Jy\nz"},
	}
	for _, c := range cases {
		if got := SanitizeText(c.in); got != c.want {
			t.Errorf("SanitizeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// rawUnsafe reports a character that must never reach the terminal raw:
// C0 and C1 controls, DEL, the line and paragraph separators, and the
// bidirectional formatting characters.
func rawUnsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b[31m", "\xff\xfe", "a\tb\r\n", "\u202e", "日本\u0085", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) is not valid UTF-8: %q", s, out)
		}
		for _, r := range out {
			if rawUnsafe(r) {
				t.Fatalf("Sanitize(%q) = %q keeps %U", s, out, r)
			}
		}
		text := SanitizeText(s)
		for _, line := range strings.Split(text, "\n") {
			for _, r := range line {
				if rawUnsafe(r) {
					t.Fatalf("SanitizeText(%q) = %q keeps %U", s, text, r)
				}
			}
		}
	})
}

// TestLineInputDropsControls: typed or pasted text keeps no character
// Sanitize would escape; line breaks and tabs become spaces.
func TestLineInputDropsControls(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"a\u2028b", "ab"},
		{"x\x1b[2Jy", "x[2Jy"},
		{"\u202eevil", "evil"},
		{"c\u0085d\x7f", "cd"},
		{"one\ttwo\r\nthree", "one two  three"},
	}
	for _, c := range cases {
		var in lineInput
		in.insert(c.in)
		if in.value != c.want {
			t.Errorf("insert(%q) = %q, want %q", c.in, in.value, c.want)
		}
	}
}

// TestLineInputShowsItsEnd: a value wider than its field shows its end and
// the cursor after it, the start cut off behind an ellipsis.
func TestLineInputShowsItsEnd(t *testing.T) {
	st := NewStyles(true, false)
	cases := []struct {
		value string
		w     int
		want  string
	}{
		{"short", 12, "> short     "},
		{"abcdefghijklmnopqrstuvwxyz", 10, "…stuvwxyz "},
		{"日本語のテキスト", 10, "…テキスト "},
		{"日本語のテキスト", 11, "…テキスト  "}, // half of の does not fit: it goes
	}
	for _, c := range cases {
		in := lineInput{value: c.value}
		got := ansi.Strip(in.view(&st, "> ", c.w))
		if got != c.want {
			t.Errorf("view(%q, %d) = %q, want %q", c.value, c.w, got, c.want)
		}
		if ansi.StringWidth(got) != c.w {
			t.Errorf("view(%q, %d) is %d wide", c.value, c.w, ansi.StringWidth(got))
		}
	}
}
