package preview

import (
	udiff "github.com/aymanbagabas/go-udiff"
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

// UnifiedDiff is Diff with the names the "---" and "+++" lines carry. The
// edit script is line-based, from github.com/aymanbagabas/go-udiff (the Go
// team's diff, as gopls uses it): a shortest one on ordinary inputs, and
// on inputs so different that finding the shortest would take too long,
// one with a few more changed lines than necessary, always correct.
func UnifiedDiff(beforeName, afterName, before, after string) string {
	if before == after {
		return ""
	}
	out, err := udiff.ToUnified(beforeName, afterName, before, udiff.Lines(before, after), diffContext)
	if err != nil {
		// Cannot happen (the edits are computed from before), but a diff
		// must not be lost: replace the whole text, which always applies.
		out, _ = udiff.ToUnified(beforeName, afterName, before, []udiff.Edit{{Start: 0, End: len(before), New: after}}, diffContext)
	}
	return out
}
