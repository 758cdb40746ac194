package lint

import (
	"strings"
	"testing"
)

// TestSecretMasker: a secret of MinSubstringSecretLen characters or more
// is hidden wherever it is; a shorter one only as a whole token (never
// inside another word, so "serve" leaves "server" readable); one under
// MinMaskedSecretLen not at all; longer secrets first.
func TestSecretMasker(t *testing.T) {
	m := NewSecretMasker([]string{"serve", "planted-key-123456", "ab", "  ", "pa55", "planted", "key-1234"}, func(s string) string { return strings.Repeat("*", len(s)) })
	tests := []struct{ name, in, want string }{
		{"inside a word", "my-server observes", "my-server observes"},
		{"a whole token", `"Arguments": ["serve", "--port"]`, `"Arguments": ["*****", "--port"]`},
		{"at both ends", "serve", "*****"},
		{"after a digit", "1serve", "1serve"},
		{"a long one glued", "xplanted-key-123456y", "x******************y"},
		{"longest first", "planted-key-123456 planted key-12345", "****************** ******* ********5"},
		{"a short one inside a word", "unplantedness", "unplantedness"},
		{"too short", "ab cab", "ab cab"},
		{"a short one in a URL", "https://u:pa55@h", "https://u:****@h"},
	}
	for _, tt := range tests {
		if got := m.Replace(tt.in); got != tt.want {
			t.Errorf("%s: %q\n got %q\nwant %q", tt.name, tt.in, got, tt.want)
		}
	}
	var none *SecretMasker
	if none.Replace("serve") != "serve" {
		t.Error("a nil masker changed text")
	}
}

// TestReplaceWholeTokens: the neighbours decide, in a piece of a longer
// text too (wordBefore), with letters outside ASCII as word characters.
func TestReplaceWholeTokens(t *testing.T) {
	tests := []struct {
		in, lit    string
		wordBefore bool
		want       string
	}{
		{"serve server serve", "serve", false, "X server X"},
		{"serve x", "serve", true, "serve x"},
		{"-serve", "-serve", true, "X"},
		{"über überall", "über", false, "X überall"},
		{"a.b.c", ".b.", false, "aXc"},
		{"", "serve", false, ""},
		{"serve", "", false, "serve"},
	}
	for _, tt := range tests {
		if got := ReplaceWholeTokens(tt.in, tt.lit, "X", tt.wordBefore); got != tt.want {
			t.Errorf("%q in %q (after a word %v): got %q, want %q", tt.lit, tt.in, tt.wordBefore, got, tt.want)
		}
	}
}
