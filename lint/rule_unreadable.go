package lint

// This file holds the check of the rule unreadable (RuleUnreadable): a file
// that cannot be read.

import (
	"errors"
	"fmt"
	"io/fs"
)

// unreadable is the File for a path the runtime cannot read. NetClaw's
// loader (FileSubAgentDefinitionLoader.TryParse, netclaw-dev/netclaw
// febe6522) catches only IOException around File.ReadAllText: a file it
// cannot read for another I/O reason is skipped with a warning, but a
// permission refusal is an UnauthorizedAccessException, which is no
// IOException: it escapes the loader and the whole reload fails, so no
// agent loads at all.
func unreadable(path string, src Source, err error, p Profile) *File {
	r, _ := RuleByID(RuleUnreadable)
	if errors.Is(err, fs.ErrPermission) {
		f := &File{Path: path, Source: src, Status: Rejected,
			Reason: fmt.Sprintf("Agent definition at %s cannot be read (permission denied): NetClaw's reload fails, and no agent loads", path)}
		f.Diagnostics = []Diagnostic{{Path: path, Rule: RuleUnreadable, Severity: r.Severity(p),
			Message: "cannot read the file: permission denied; NetClaw's agent loader catches only I/O errors, so this refusal fails the whole reload: no agent loads, not only this one",
			Hint:    "make the file readable by the user NetClaw runs as (chmod a+r), or move it out of the agents folder"}}
		return f
	}
	f := &File{Path: path, Source: src, Status: Rejected,
		Reason: fmt.Sprintf("Agent definition at %s could not be read (%v) — skipping", path, err)}
	f.Diagnostics = []Diagnostic{{Path: path, Rule: RuleUnreadable, Severity: r.Severity(p),
		Message: fmt.Sprintf("cannot read the file: %v; the runtime skips it", err),
		Hint:    "fix or remove the file"}}
	return f
}
