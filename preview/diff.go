package preview

import (
	"strconv"
	"strings"
)

// diffContext is the number of unchanged lines a hunk shows around a change.
const diffContext = 3

// Diff returns a unified diff that turns before into after: a "--- before"
// and a "+++ after" line, then hunks headed "@@ -l,s +l,s @@" with three
// lines of context, as `diff -u` prints them. A last line without a newline
// is followed by "\ No newline at end of file", so a layer (which has no
// trailing newline) diffs and patches correctly. Equal texts give "".
//
// The diff is a shortest edit script (Myers' algorithm in linear space),
// except on inputs so different that finding the shortest one would take
// too long; then it may hold a few more changed lines than necessary, but it
// is always correct.
func Diff(before, after string) string {
	return UnifiedDiff("before", "after", before, after)
}

// UnifiedDiff is Diff with the names the "---" and "+++" lines carry.
func UnifiedDiff(beforeName, afterName, before, after string) string {
	return unifiedDiff(beforeName, afterName, before, after, 0)
}

// unifiedDiff is UnifiedDiff with the cost limit of diffLines.
func unifiedDiff(beforeName, afterName, before, after string, limit int) string {
	if before == after {
		return ""
	}
	a, b := splitLines(before), splitLines(after)
	e := diffLines(a, b, limit)
	var out strings.Builder
	out.Grow(len(beforeName) + len(afterName) + 10 + e.size(a, b))
	out.WriteString("--- ")
	out.WriteString(beforeName)
	out.WriteString("\n+++ ")
	out.WriteString(afterName)
	out.WriteString("\n")
	writeHunks(&out, a, b, e)
	return out.String()
}

// splitLines cuts s into lines, each with its "\n" except perhaps the last.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// change is one run of deleted lines a[A0:A1] replaced by inserted lines
// b[B0:B1]; either run may be empty, not both.
type change struct{ A0, A1, B0, B1 int }

// edits is an edit script: the changes in order, unchanged lines between.
type edits []change

// size estimates the bytes of the hunks: the changed lines plus context.
func (e edits) size(a, b []string) int {
	n := 0
	for _, c := range e {
		for _, l := range a[c.A0:c.A1] {
			n += len(l) + 1
		}
		for _, l := range b[c.B0:c.B1] {
			n += len(l) + 1
		}
		n += 2*diffContext*80 + 32
	}
	return n
}

// writeHunks prints the changes of e grouped into hunks: changes closer than
// twice the context share a hunk.
func writeHunks(out *strings.Builder, a, b []string, e edits) {
	for start := 0; start < len(e); {
		end := start + 1
		for end < len(e) && e[end].A0-e[end-1].A1 <= 2*diffContext {
			end++
		}
		first, last := e[start], e[end-1]
		a0 := max(0, first.A0-diffContext)
		a1 := min(len(a), last.A1+diffContext)
		b0 := first.B0 - (first.A0 - a0)
		b1 := last.B1 + (a1 - last.A1)

		out.WriteString("@@ -")
		writeRange(out, a0, a1)
		out.WriteString(" +")
		writeRange(out, b0, b1)
		out.WriteString(" @@\n")

		i := a0
		for _, c := range e[start:end] {
			writeLines(out, ' ', a[i:c.A0])
			writeLines(out, '-', a[c.A0:c.A1])
			writeLines(out, '+', b[c.B0:c.B1])
			i = c.A1
		}
		writeLines(out, ' ', a[i:a1])
		start = end
	}
}

// writeRange prints a hunk's line range [l0, l1) (0-based) as diff -u does:
// "l,count" counting from 1, "l" alone for one line, and "l,0" naming the
// line before an empty range.
func writeRange(out *strings.Builder, l0, l1 int) {
	var num [20]byte
	switch n := l1 - l0; n {
	case 0:
		out.Write(strconv.AppendInt(num[:0], int64(l0), 10))
		out.WriteString(",0")
	case 1:
		out.Write(strconv.AppendInt(num[:0], int64(l0+1), 10))
	default:
		out.Write(strconv.AppendInt(num[:0], int64(l0+1), 10))
		out.WriteByte(',')
		out.Write(strconv.AppendInt(num[:0], int64(n), 10))
	}
}

func writeLines(out *strings.Builder, prefix byte, lines []string) {
	for _, l := range lines {
		out.WriteByte(prefix)
		out.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}
