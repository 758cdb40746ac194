package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "reviewer", "reviewer"},
		{"empty", "", ""},
		{"tab kept", "a\tb", "a\tb"},
		{"newline", "a\nb", `a\nb`},
		{"carriage return", "a\r\nb", `a\r\nb`},
		{"escape sequence", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"OSC title", "\x1b]0;pwned\x07", `\x1b]0;pwned\a`},
		{"NUL", "a\x00b", `a\x00b`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 CSI", "a\u009b31mb", `a\u009b31mb`},
		{"NEL", "a\u0085b", `a\u0085b`},
		{"bidi override", "abc\u202edcba", `abc\u202edcba`},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"invalid byte", "a\xffb", `a\xffb`},
		{"truncated rune", "a\xe6\x97", `a\xe6\x97`},
		{"wide characters kept", "日本語", "日本語"},
		{"emoji kept", "ok 👍", "ok 👍"},
		{"replacement char kept", "a\uFFFDb", "a\uFFFDb"},
		{"backslash kept", `C:\path`, `C:\path`},
		{"bell backspace formfeed vtab", "\a\b\f\v", `\a\b\f\v`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscapeLines(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain\ntext", "plain\ntext"},
		{"crlf\r\nline\r\n", "crlf\r\nline\r\n"},
		{"lone\rcr", `lone\rcr`},
		{"ends with cr\r", `ends with cr\r`},
		{"double\r\r\n", "double\\r\r\n"},
		{"trailing\n\n", "trailing\n\n"},
		{"tab\tkept", "tab\tkept"},
		{"esc\x1b[31m\nnext", "esc\\x1b[31m\nnext"},
		{"bidi\u202e", `bidi\u202e`},
		{"separator\u2028x", `separator\u2028x`},
	}
	for _, tt := range tests {
		if got := EscapeLines(tt.in); got != tt.want {
			t.Errorf("EscapeLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// assertSafe fails when s holds anything a terminal could act on.
func assertSafe(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("output is not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if r != '\t' && r != '\n' && unsafeRune(r) {
			t.Fatalf("output holds %U: %q", r, s)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "a\xffb", "\u202e", "\t\n\r", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		assertSafe(t, strings.ReplaceAll(got, "\n", "")) // no newline can survive either
		if strings.ContainsRune(got, '\n') {
			t.Fatalf("newline survived: %q", got)
		}
		if Escape(got) != got {
			t.Fatalf("Escape is not stable on its own output: %q", got)
		}
		if firstUnsafe(s) < 0 && got != s {
			t.Fatalf("safe input changed: %q -> %q", s, got)
		}
	})
}

func FuzzEscapeLines(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\r", "\n\r", "x\x1b[2J\ny", "\u202e\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := EscapeLines(s)
		lines := strings.Split(got, "\n")
		for _, l := range lines[:len(lines)-1] {
			assertSafe(t, strings.TrimSuffix(l, "\r"))
		}
		assertSafe(t, lines[len(lines)-1])
		if want := strings.Count(s, "\n"); len(lines)-1 != want {
			t.Fatalf("EscapeLines(%q) has %d line breaks, want %d", s, len(lines)-1, want)
		}
		if EscapeLines(got) != got {
			t.Fatalf("EscapeLines is not stable on its own output: %q", got)
		}
	})
}

func BenchmarkEscape(b *testing.B) {
	clean := strings.Repeat("You review pull requests carefully. 日本語 ", 20)
	dirty := strings.Repeat("name \x1b[31mred\x1b[0m \u202e ", 20)
	b.Run("clean", func(b *testing.B) {
		b.SetBytes(int64(len(clean)))
		for b.Loop() {
			Escape(clean)
		}
	})
	b.Run("dirty", func(b *testing.B) {
		b.SetBytes(int64(len(dirty)))
		for b.Loop() {
			Escape(dirty)
		}
	})
}

func TestVisible(t *testing.T) {
	for s, want := range map[string]bool{"": false, " \n\t": false, "\u200b\u00a0": false, "\x1b": false, "a": true, " .": true, "é": true} {
		if Visible(s) != want {
			t.Errorf("Visible(%q) = %t", s, !want)
		}
	}
}
