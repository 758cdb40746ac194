package report

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// maxSourceWidth is the widest a quoted source line is printed, in terminal
// cells; longer lines are cut around the caret and marked with "…".
const maxSourceWidth = 120

// tabWidth is what a tab is assumed to take when deciding where to cut a
// long line. The caret itself lines up whatever the terminal's tab stops,
// because the caret line repeats the tabs of the source line.
const tabWidth = 8

// sourceWindow returns the part of line to print, escaped, and the
// whitespace that puts a caret under the column'th character (1-based,
// counting runes; past the end of the line, it points just after it).
func sourceWindow(line string, column int) (shown, lead string) {
	at := column - 1
	if len(line) <= maxSourceWidth && termsafe.IsSafe(line) && !strings.ContainsRune(line, '\t') {
		// Fast path: no rune is wider than its bytes, so the line fits.
		if at < 0 {
			at = 0
		}
		off := len(line)
		for i := range line {
			if at == 0 {
				off = i
				break
			}
			at--
		}
		return line, caretLead(line[:off])
	}
	runes := []rune(line)
	if at < 0 {
		at = 0
	}
	if at > len(runes) {
		at = len(runes)
	}
	pieces := make([]string, len(runes))
	widths := make([]int, len(runes))
	total := 0
	for i, r := range runes {
		pieces[i] = termsafe.Escape(string(r))
		if r == '\t' {
			widths[i] = tabWidth
		} else {
			widths[i] = ansi.StringWidth(pieces[i])
		}
		total += widths[i]
	}
	start, end := 0, len(runes)
	if total > maxSourceWidth {
		// Keep the caret about a third of the way in when the line must be
		// cut before it.
		before := 0
		for i := 0; i < at; i++ {
			before += widths[i]
		}
		if before > maxSourceWidth*2/3 {
			budget := maxSourceWidth / 3
			start = at
			for start > 0 && budget-widths[start-1] >= 0 {
				budget -= widths[start-1]
				start--
			}
		}
		width := 0
		end = start
		for end < len(runes) && width+widths[end] <= maxSourceWidth {
			width += widths[end]
			end++
		}
		if end <= at && at < len(runes) {
			end = at + 1
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(strings.Join(pieces[start:end], ""))
	if end < len(runes) {
		b.WriteString("…")
	}
	prefix := strings.Join(pieces[start:at], "")
	if start > 0 {
		prefix = "…" + prefix
	}
	return b.String(), caretLead(prefix)
}

// caretLead returns the whitespace as wide as prefix on a terminal: the tabs
// of prefix kept, everything else turned into spaces, measured by display
// width so that wide characters count twice.
func caretLead(prefix string) string {
	var b strings.Builder
	for i, seg := range strings.Split(prefix, "\t") {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(strings.Repeat(" ", ansi.StringWidth(seg)))
	}
	return b.String()
}
