package preview

import (
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// diffContext is the number of unchanged lines a hunk shows around a change.
const diffContext = 3

// Diff returns a unified diff that turns before into after: a "--- before"
// and a "+++ after" line, then hunks headed "@@ -l,s +l,s @@" with three
// lines of context, as `diff -u` prints them. A last line without a newline
// is followed by "\ No newline at end of file", so a layer (which has no
// trailing newline) diffs and patches correctly. Equal texts give "".
func Diff(before, after string) string {
	return UnifiedDiff("before", "after", before, after)
}

// UnifiedDiff is Diff with the names the "---" and "+++" lines carry.
//
// The edit script is line-based, from the lcs package of
// github.com/aymanbagabas/go-udiff (the Go team's diff, as gopls uses it): a
// shortest one on ordinary inputs, and on inputs so different that finding
// the shortest would take too long, one with a few more changed lines than
// necessary, always correct. The hunks are written here, in one pass:
// go-udiff's own writer recounts the lines from the start of the text for
// every edit (quadratic on a 10,000-agent layer) and leaves the context
// lines between two edits of a hunk out of the new side's line numbers, so
// every later hunk header was wrong.
func UnifiedDiff(beforeName, afterName, before, after string) string {
	if before == after {
		return ""
	}
	a, b := diffLines(before), diffLines(after)
	edits := lcs.DiffLines(a, b)
	if len(edits) == 0 {
		return ""
	}
	var out strings.Builder
	out.Grow(64 * len(edits))
	out.WriteString("--- " + beforeName + "\n+++ " + afterName + "\n")
	for i := 0; i < len(edits); {
		// A hunk takes every following edit whose gap of unchanged lines
		// its context would cover from both sides.
		j := i + 1
		for j < len(edits) && edits[j].Start-edits[j-1].End <= 2*diffContext {
			j++
		}
		writeHunk(&out, a, b, edits[i:j])
		i = j
	}
	return out.String()
}

// writeHunk writes one hunk: its header, the context before the first edit,
// each edit with the unchanged lines between them, the context after the
// last.
func writeHunk(out *strings.Builder, a, b []string, edits []lcs.Diff) {
	first, last := edits[0], edits[len(edits)-1]
	aStart := max(first.Start-diffContext, 0)
	aEnd := min(last.End+diffContext, len(a))
	// The lines before the first edit are the same on both sides, so the
	// new side starts as far before its edit as the old side does.
	bStart := first.ReplStart - (first.Start - aStart)
	bEnd := last.ReplEnd + (aEnd - last.End)

	out.WriteString("@@ -")
	writeRange(out, aStart, aEnd-aStart)
	out.WriteString(" +")
	writeRange(out, bStart, bEnd-bStart)
	out.WriteString(" @@\n")

	at := aStart
	for _, e := range edits {
		writeLines(out, ' ', a[at:e.Start])
		writeLines(out, '-', a[e.Start:e.End])
		writeLines(out, '+', b[e.ReplStart:e.ReplEnd])
		at = e.End
	}
	writeLines(out, ' ', a[at:aEnd])
}

// writeRange writes a hunk header's range as `diff -u` does: "l,n", or "l"
// alone for one line, and "0,0" for an empty side.
func writeRange(out *strings.Builder, start, n int) {
	if n == 0 {
		// An empty side only happens with an empty text: context lines
		// would be there otherwise.
		out.WriteString("0,0")
		return
	}
	out.WriteString(strconv.Itoa(start + 1))
	if n > 1 {
		out.WriteByte(',')
		out.WriteString(strconv.Itoa(n))
	}
}

// writeLines writes lines behind their mark, a last line without a newline
// followed by the "\ No newline at end of file" marker.
func writeLines(out *strings.Builder, mark byte, lines []string) {
	for _, l := range lines {
		out.WriteByte(mark)
		out.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// diffLines splits text into lines that keep their "\n"; a last line
// without one is kept as it is.
func diffLines(text string) []string {
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}
