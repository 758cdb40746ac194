package trialtools

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxShown caps a name or path echoed back in a result.
const maxShown = 256

// show returns s as it can be written into a result: s itself when it is
// non-empty, valid UTF-8 and free of control characters; otherwise quoted
// Go-style, so a newline or an escape sequence in a file name (or in a name
// the model made up) never reaches a transcript raw. Long strings are cut.
func show(s string) string {
	cut := false
	if len(s) > maxShown {
		i := maxShown
		for i > maxShown-utf8.UTFMax && !utf8.RuneStart(s[i]) {
			i--
		}
		s, cut = s[:i], true
	}
	if s == "" || !printable(s) {
		s = strconv.Quote(s)
	}
	if cut {
		s += "…"
	}
	return s
}

// printable reports whether s is valid UTF-8 without control or format
// characters (which includes bidirectional overrides).
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// showName is show for a tool name.
func showName(name string) string { return show(name) }

// showPath is show for a project-relative path; "." reads as "the project
// folder".
func showPath(p string) string {
	if p == "." || p == "" {
		return "the project folder"
	}
	return show(p)
}

// showDir is showPath for a folder: with a trailing slash.
func showDir(p string) string {
	if p == "." || p == "" {
		return "the project folder"
	}
	return show(strings.TrimSuffix(p, "/") + "/")
}
