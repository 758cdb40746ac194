package lint

// This file holds the check of the rule unreadable (RuleUnreadable): a file
// that cannot be read.

import "fmt"

// unreadable is the File for a path the runtime cannot read: skipped.
func unreadable(path string, src Source, err error, p Profile) *File {
	f := &File{Path: path, Source: src, Status: Rejected,
		Reason: fmt.Sprintf("Agent definition at %s could not be read (%v) — skipping", path, err)}
	r, _ := RuleByID(RuleUnreadable)
	f.Diagnostics = []Diagnostic{{Path: path, Rule: RuleUnreadable, Severity: r.Severity(p),
		Message: fmt.Sprintf("cannot read the file: %v; the runtime skips it", err),
		Hint:    "fix or remove the file"}}
	return f
}
