package tui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"", ""},
		{"héllo — ✓ 日本", "héllo — ✓ 日本"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"title\x1b]0;pwned\x07", `title\x1b]0;pwned\x07`},
		{"a\rb", `a\x0db`},
		{"line\nbreak", `line\x0abreak`},
		{"del\x7f", `del\x7f`},
		{"c1\u009bcsi", `c1\u009bcsi`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"isolate\u2066x\u2069", `isolate\u2066x\u2069`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"a\tb", "a   b"},
		{"\tx", "    x"},
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

// unsafeRune reports a character that must never reach the terminal raw.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r)
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b[31m", "\xff\xfe", "a\tb\r\n", "\u202e", "日本\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) is not valid UTF-8: %q", s, out)
		}
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("Sanitize(%q) = %q keeps %U", s, out, r)
			}
		}
		text := SanitizeText(s)
		for _, line := range strings.Split(text, "\n") {
			for _, r := range line {
				if unsafeRune(r) {
					t.Fatalf("SanitizeText(%q) = %q keeps %U", s, text, r)
				}
			}
		}
	})
}
