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
	at := max(column-1, 0)
	if len(line) <= maxSourceWidth && termsafe.IsSafe(line) && !strings.ContainsRune(line, '\t') {
		// Fast path: no rune is wider than its bytes, so the line fits.
		return line, caretLead(line[:runeOffset(line, at)])
	}
	runes := []rune(line)
	at = min(at, len(runes))
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
		start, end = windowAround(widths, at)
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

// runeOffset returns the byte offset of the at'th rune of line (0-based),
// or len(line) when it has no more runes.
func runeOffset(line string, at int) int {
	for i := range line {
		if at == 0 {
			return i
		}
		at--
	}
	return len(line)
}

// windowAround picks the runes [start, end) of a line, whose runes are
// widths wide, that fit maxSourceWidth and hold the caret's rune at:
// from the start when the caret is within the first two thirds, else with
// the caret about a third of the way in.
func windowAround(widths []int, at int) (start, end int) {
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
	for end < len(widths) && width+widths[end] <= maxSourceWidth {
		width += widths[end]
		end++
	}
	if end <= at && at < len(widths) {
		end = at + 1
	}
	return start, end
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
