package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// ellipsis ends a line cut to fit.
const ellipsis = "…"

// fit cuts s to at most w columns (ending in an ellipsis when it was cut)
// and pads it with spaces to exactly w columns. s may hold styling.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, ellipsis)
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// cut cuts s to at most w columns without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, ellipsis)
}

// cutLeft cuts s to at most w columns from the left, starting with an
// ellipsis when it was cut, so the end of a long path or input shows. A
// wide character the cut would halve goes too.
func cutLeft(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	out := ansi.TruncateLeft(s, sw-w+1, ellipsis)
	if ansi.StringWidth(out) > w {
		out = ansi.TruncateLeft(s, sw-w+2, ellipsis)
	}
	return out
}

// spread puts left and right on one line of exactly w columns, right
// aligned to the end; when both do not fit, right goes on a line of its
// own under left, so neither is cut (unless it alone is wider than w).
func spread(left, right string, w int) []string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+1+rw <= w {
		return []string{fit(left, w-rw-1) + " " + right}
	}
	// Both do not fit: left on its line, right under it, aligned right.
	if rw >= w {
		return []string{cut(left, w), cut(right, w)}
	}
	return []string{cut(left, w), strings.Repeat(" ", w-rw) + right}
}

// box returns exactly h lines of exactly w columns: lines beyond h are
// dropped, missing ones are blank.
func box(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}

// indentLines puts prefix before each of lines, in place, and returns
// them.
func indentLines(prefix string, lines []string) []string {
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return lines
}

// wrap breaks text into lines of at most w columns at spaces, and only at
// spaces: a path, a flag or a key (--no-tools, agents/code-analyst.md,
// pass -) moves to the next line whole, and is cut only when it is longer
// than a line. Spaces where a line breaks are dropped.
func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = wrapLine(out, para, w)
	}
	return out
}

// wrapLine appends the rows of one line (no newline) wrapped at w > 0.
func wrapLine(out []string, s string, w int) []string {
	if len(s) <= w || ansi.StringWidth(s) <= w {
		return append(out, s)
	}
	var cur strings.Builder
	curW := 0
	pending := 0 // spaces after cur, kept only if a word follows on the row
	for s != "" {
		if s[0] == ' ' {
			n := len(s) - len(strings.TrimLeft(s, " "))
			pending += n
			s = s[n:]
			continue
		}
		end := strings.IndexByte(s, ' ')
		if end < 0 {
			end = len(s)
		}
		word := s[:end]
		s = s[end:]
		ww := ansi.StringWidth(word)
		if curW+pending+ww <= w {
			cur.WriteString(strings.Repeat(" ", pending))
			cur.WriteString(word)
			curW += pending + ww
			pending = 0
			continue
		}
		if curW+pending > 0 {
			out = append(out, cur.String())
			cur.Reset()
			curW, pending = 0, 0
		}
		for ww > w { // longer than a line: cut it
			var head string
			head, word = cutWord(word, w)
			out = append(out, head)
			ww = ansi.StringWidth(word)
		}
		cur.WriteString(word)
		curW = ww
	}
	if pending > 0 && curW < w {
		cur.WriteString(strings.Repeat(" ", min(pending, w-curW)))
	}
	return append(out, cur.String())
}

// cutWord splits a word wider than w into its first w columns and the
// rest, after the last path separator in them when there is one (a path
// breaks between names, never inside one); a character wider than w alone
// goes whole, so the loop ends.
func cutWord(word string, w int) (head, rest string) {
	head = ansi.Truncate(word, w, "")
	if i := strings.LastIndexAny(head, `/\`); i > 0 && i < len(head)-1 && strings.HasPrefix(word, head) {
		return head[:i+1], word[i+1:]
	}
	if head == "" || !strings.HasPrefix(word, head) {
		_, size := utf8.DecodeRuneInString(word)
		if head == "" {
			return word[:size], word[size:]
		}
		return head, ansi.TruncateLeft(word, ansi.StringWidth(head), "")
	}
	return head, word[len(head):]
}

// labelled lays out a label and its text ("Model    qwen3 at …"), the text
// wrapped under itself rather than cut, so a long path or a long list of
// clocks stays readable in a narrow pane.
func labelled(st *Styles, label, text string, w int) []string {
	lw := ansi.StringWidth(label)
	if w-lw < 16 {
		// Too narrow beside the label: the text goes under it.
		out := []string{st.Label.Render(strings.TrimSpace(label))}
		for _, l := range wrap(text, max(w-2, 1)) {
			out = append(out, "  "+l)
		}
		return out
	}
	lines := wrap(text, w-lw)
	if len(lines) == 0 {
		lines = []string{""}
	}
	pad := strings.Repeat(" ", lw)
	for i := range lines {
		p := pad
		if i == 0 {
			p = st.Label.Render(label)
		}
		lines[i] = p + lines[i]
	}
	return lines
}

// splice draws the block over base, its top-left corner at (x, y). Both
// are lists of lines; base lines are at least x+width(block) wide.
func splice(base, block []string, x, y int) []string {
	out := make([]string, len(base))
	copy(out, base)
	for i, bl := range block {
		row := y + i
		if row < 0 || row >= len(out) {
			continue
		}
		line := out[row]
		bw := ansi.StringWidth(bl)
		lw := ansi.StringWidth(line)
		left := ansi.Truncate(line, x, "")
		if pad := x - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		right := ""
		if x+bw < lw {
			right = ansi.Cut(line, x+bw, lw)
		}
		out[row] = left + "\x1b[m" + bl + "\x1b[m" + right
	}
	return out
}
