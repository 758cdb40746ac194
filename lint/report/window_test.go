package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSourceWindow(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30) // 300 columns
	tests := []struct {
		name       string
		line       string
		column     int
		shown      string
		lead       string
		wantPrefix bool // shown starts with … (cut before the caret)
	}{
		{name: "first column", line: "ModelRole: Main", column: 1, shown: "ModelRole: Main", lead: ""},
		{name: "middle", line: "modelRole: Primary", column: 12, shown: "modelRole: Primary", lead: strings.Repeat(" ", 11)},
		{name: "tab kept", line: "\tkey: x", column: 2, shown: "\tkey: x", lead: "\t"},
		{name: "tabs between text", line: "a\tb\tc", column: 5, shown: "a\tb\tc", lead: " \t \t"},
		{name: "wide characters count twice", line: "名前: x", column: 5, shown: "名前: x", lead: strings.Repeat(" ", 6)},
		{name: "escape before caret widens", line: "a\x1bb: x", column: 3, shown: `a\x1bb: x`, lead: strings.Repeat(" ", 5)},
		{name: "combining mark takes no cell", line: "e\u0301x", column: 3, shown: "e\u0301x", lead: " "},
		{name: "past the end", line: "abc", column: 10, shown: "abc", lead: "   "},
		{name: "empty line", line: "", column: 1, shown: "", lead: ""},
		{name: "column zero", line: "abc", column: 0, shown: "abc", lead: ""},
		{name: "long line, caret early", line: long, column: 5, shown: long[:maxSourceWidth] + "…", lead: "    "},
		{name: "long line, caret late", line: long, column: 290, wantPrefix: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown, lead := sourceWindow(tt.line, tt.column)
			if tt.wantPrefix {
				if !strings.HasPrefix(shown, "…") {
					t.Fatalf("shown = %q, want it cut before the caret", shown)
				}
			} else {
				if shown != tt.shown {
					t.Errorf("shown = %q, want %q", shown, tt.shown)
				}
				if lead != tt.lead {
					t.Errorf("lead = %q, want %q", lead, tt.lead)
				}
			}
			if w := ansi.StringWidth(strings.ReplaceAll(shown, "\t", "        ")); w > maxSourceWidth+2 {
				t.Errorf("shown is %d cells wide, more than %d", w, maxSourceWidth+2)
			}
		})
	}
}

// TestSourceWindowCaretUnderColumn checks, over long lines of varied
// characters, that the character above the caret is the one the column names.
func TestSourceWindowCaretUnderColumn(t *testing.T) {
	line := strings.Repeat("ab日c", 80) // 320 runes of widths 1, 1, 2, 1
	runes := []rune(line)
	for col := 1; col <= len(runes); col += 7 {
		shown, lead := sourceWindow(line, col)
		// With no tabs, the caret sits at display width len(lead); find the
		// rune of shown that starts at that width.
		at, width := -1, 0
		for i, r := range []rune(shown) {
			if width == len(lead) {
				at = i
				break
			}
			width += ansi.StringWidth(string(r))
		}
		if at < 0 {
			t.Fatalf("column %d: caret at width %d is past shown %q", col, len(lead), shown)
		}
		if got, want := []rune(shown)[at], runes[col-1]; got != want {
			t.Errorf("column %d: caret under %q, want %q", col, got, want)
		}
	}
}

func FuzzSourceWindow(f *testing.F) {
	f.Add("ModelRole: Main", 1)
	f.Add("a\tb\x1b日", 4)
	f.Add(strings.Repeat("x", 500), 400)
	f.Fuzz(func(t *testing.T, line string, column int) {
		shown, lead := sourceWindow(line, column)
		assertSafe(t, shown)
		if strings.Trim(lead, " \t") != "" {
			t.Fatalf("lead holds more than blanks: %q", lead)
		}
	})
}
