package adapt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// slugRE is Gemini CLI's agent name (lowercase letters, digits, '-', '_'),
// starting with a letter or digit: Gemini CLI skips a file whose name
// starts with '_'.
var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// fileSafe reports whether name can be used as a file name as it is: no
// separators, no dot-only names, nothing hidden, and nothing a terminal
// would act on when a listing prints it (control and format characters,
// invalid UTF-8).
func fileSafe(name string) bool {
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return false
	}
	for _, r := range name {
		if r == utf8.RuneError || !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}

// slugValid reports whether name is a Gemini CLI agent name; agentdesk
// writes Codex CLI names in the same form (Codex takes hyphens and
// underscores alike).
func slugValid(name string) bool { return len(name) <= 64 && slugRE.MatchString(name) }

// sameName returns name unchanged: the back conversion of targets that
// take NetClaw names as they are.
func sameName(name string) string { return name }
