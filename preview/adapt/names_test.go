package adapt

import "testing"

func TestFileSafe(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"code-analyst", true},
		{"Release_Notes", true},
		{"café menu", true},
		{"", false},
		{".hidden", false},
		{"a/b", false},
		{`a\b`, false},
		{"evil\x1b[31mred", false},
		{"bell\a", false},
		{"nul\x00", false},
		{"del\x7f", false},
		{"c1\u0085", false},
		{"bidi\u202egnp.exe", false},
		{"bad\xffutf8", false},
	} {
		if got := fileSafe(tt.name); got != tt.ok {
			t.Errorf("fileSafe(%q) = %v, want %v", tt.name, got, tt.ok)
		}
	}
}
