package adapt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
)

var (
	// snakeRE is what Codex CLI takes: lowercase, digits and underscores.
	snakeRE = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)
	// slugRE is Gemini CLI's agent name: lowercase letters, digits, '-', '_'.
	slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
)

// snakeName is lint.Kebab with underscores: the form Codex CLI accepts.
func snakeName(s string) string {
	return strings.ReplaceAll(lint.Kebab(s), "-", "_")
}

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

// snakeValid reports whether name is a Codex CLI name.
func snakeValid(name string) bool { return len(name) <= 64 && snakeRE.MatchString(name) }

// slugValid reports whether name is a Gemini CLI agent name.
func slugValid(name string) bool { return len(name) <= 64 && slugRE.MatchString(name) }

// sameName returns name unchanged: the back conversion of targets that
// take NetClaw names as they are.
func sameName(name string) string { return name }

// unsnake turns a Codex name back into kebab-case.
func unsnake(name string) string { return strings.ReplaceAll(name, "_", "-") }
