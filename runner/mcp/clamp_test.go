package mcp

import (
	"strings"
	"testing"
)

// TestClampDescription holds the cut to NetClaw's: UTF-16 code units, as
// a .NET string counts them.
func TestClampDescription(t *testing.T) {
	emoji := "😀" // two UTF-16 units, four UTF-8 bytes
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc [truncated]"},
		{"é" + "abc", 2, "éa [truncated]"},                            // é is one unit, two bytes
		{strings.Repeat(emoji, 3), 4, emoji + emoji + " [truncated]"}, // a pair is two units
		{"a" + emoji + "b", 2, "a\uFFFD [truncated]"},                 // the cut splits the pair
		{"anything", 0, "anything"},
	}
	for _, tt := range tests {
		if got := ClampDescription(tt.in, tt.max); got != tt.want {
			t.Errorf("ClampDescription(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
	// 2048 emoji are 4096 units: the default cap keeps 1024 of them.
	long := strings.Repeat(emoji, DefaultMaxDescription)
	got := ClampDescription(long, DefaultMaxDescription)
	if want := strings.Repeat(emoji, DefaultMaxDescription/2) + " [truncated]"; got != want {
		t.Errorf("the default cap kept %d bytes", len(got))
	}
}

func BenchmarkClampDescription(b *testing.B) {
	desc := strings.Repeat("Reads a page of the wiki. ", 200)
	for b.Loop() {
		ClampDescription(desc, DefaultMaxDescription)
	}
}
