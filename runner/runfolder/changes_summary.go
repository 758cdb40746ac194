package runfolder

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/runner/approve"
)

// ChangesLine is the one line that says what a finished run changed and
// how to make the same changes, for the run's stderr:
//
//	changed 2 files in the run's copy (project untouched): git -C /src/app apply /runs/3f9a…/changes.patch
//
// "" when the run changed nothing.
func ChangesLine(rec *Record) string {
	n := len(rec.Changes)
	if n == 0 {
		return ""
	}
	what := "changed 1 file in the run's copy (project untouched)"
	if n != 1 {
		what = fmt.Sprintf("changed %d files in the run's copy (project untouched)", n)
	}
	if rec.Replay != nil {
		what = strings.Replace(what, "changed", "the recorded run changed", 1)
		what = strings.Replace(what, "in the run's copy", "in its copy", 1)
	}
	if cmd := applyCommand(rec); cmd != "" {
		return what + ": " + cmd
	}
	return what + ": see " + termsafe.Escape(filepath.Join(rec.Dir, RunFile))
}

// applyCommand is the command that makes the run's changes in the
// project, or "" when the run folder keeps no patch.
func applyCommand(rec *Record) string {
	if !slices.Contains(rec.Files, PatchFile) || rec.Dir == "" {
		return ""
	}
	patch := shellWord(filepath.Join(rec.Dir, PatchFile))
	if rec.Project != "" {
		return termsafe.Escape("git -C " + shellWord(rec.Project) + " apply " + patch)
	}
	return termsafe.Escape("git apply " + patch)
}

// shellWord is s as one word of a shell command: as it is when it holds
// only characters no shell reads specially, else quoted.
func shellWord(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+=:,@%", c)) {
			return approve.ShellQuote(s)
		}
	}
	if s == "" {
		return approve.ShellQuote(s)
	}
	return s
}

// writeChangesSection writes result.md's list of the files the run
// changed, with the command that makes the same changes; nothing when it
// changed none.
func writeChangesSection(b *strings.Builder, rec *Record) {
	if len(rec.Changes) == 0 {
		return
	}
	b.WriteString("\n## Changes\n\n")
	if rec.Replay != nil {
		b.WriteString("The recorded run made these changes in its copy of the project. The project is untouched.\n")
	} else {
		b.WriteString("The run made these changes in its copy of the project. The project is untouched.\n")
	}
	if cmd := applyCommand(rec); cmd != "" {
		fmt.Fprintf(b, "To make them in the project: `%s`\n", cmd)
	}
	b.WriteString("\n")
	for _, c := range rec.Changes {
		fmt.Fprintf(b, "- %s %s\n", termsafe.Escape(c.Kind), termsafe.Escape(c.Path))
	}
}
