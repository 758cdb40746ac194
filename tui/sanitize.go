package tui

import (
	"strings"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// tabWidth is how many columns a tab expands to in file text.
const tabWidth = 4

// Sanitize makes one line of text from a file or a model safe to put on a
// terminal. It escapes what termsafe.Escape escapes for every other output of
// agentdesk — control characters (C0, DEL, C1) and so escape sequences,
// Unicode line separators and bidirectional overrides, invalid UTF-8 —
// shown as `\x1b`, `\n`, `\u202e`, `\xff`, and it expands tabs to spaces,
// which a pane cannot measure. Sanitize returns exactly one line.
func Sanitize(s string) string {
	s = termsafe.Escape(s)
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return expandTabs(s)
}

// expandTabs replaces each tab with the spaces up to the next tab stop,
// columns measured with ansi.StringWidth.
func expandTabs(s string) string { return expandTabsFrom(s, 0) }

// SanitizeText is Sanitize for text of many lines: termsafe.EscapeLines
// escapes it, then a CRLF becomes a plain line break (a pane draws its own
// rows) and tabs expand. Text that needs no change is returned as it is.
func SanitizeText(s string) string {
	s = strings.ReplaceAll(termsafe.EscapeLines(s), "\r\n", "\n")
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.IndexByte(l, '\t') >= 0 {
			lines[i] = expandTabs(l)
		}
	}
	return strings.Join(lines, "\n")
}
