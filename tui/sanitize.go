package tui

import (
	"strings"

	"github.com/agentdesk/agentdesk/lint/report"
)

// tabWidth is how many columns a tab expands to in file text.
const tabWidth = 4

// Sanitize makes one line of text from a file or a model safe to put on a
// terminal. It escapes what report.Escape escapes for every other output of
// agentdesk — control characters (C0, DEL, C1) and so escape sequences,
// Unicode line separators and bidirectional overrides, invalid UTF-8 —
// shown as `\x1b`, `\n`, `\u202e`, `\xff`, and it expands tabs to spaces,
// which a pane cannot measure. Sanitize returns exactly one line.
func Sanitize(s string) string {
	s = report.Escape(s)
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return expandTabs(s)
}

// expandTabs replaces each tab with the spaces up to the next tab stop,
// columns measured with ansi.StringWidth.
func expandTabs(s string) string { return expandTabsFrom(s, 0) }

// SanitizeText is Sanitize for text of many lines: it splits on "\n" (a
// "\r" before it is dropped) and sanitises each line. Text that needs no
// change is returned as it is.
func SanitizeText(s string) string {
	lines := strings.Split(s, "\n")
	changed := false
	for i, l := range lines {
		if c := Sanitize(strings.TrimSuffix(l, "\r")); c != l {
			lines[i], changed = c, true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(lines, "\n")
}

// unsafeRune reports a character Sanitize would not let through as it is
// (tabs aside): typed and pasted input drops these.
func unsafeRune(r rune) bool {
	s := string(r)
	return report.Escape(s) != s
}
