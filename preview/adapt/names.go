package adapt

import (
	"regexp"
	"strings"
)

var (
	// kebabRE is lowercase kebab-case: SkillServer's name format, and what
	// Claude Code, OpenCode, MaxClaw and the JIT tools take as a file name.
	kebabRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// snakeRE is what Codex CLI takes: lowercase, digits and underscores.
	snakeRE = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)
	// slugRE is Gemini CLI's agent name: lowercase letters, digits, '-', '_'.
	slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
)

// kebabName turns a name into lowercase kebab-case: an upper-case letter
// after a lower-case one starts a new word (CodeAnalyst → code-analyst), and
// every run of other characters becomes one hyphen. It returns "" when no
// letter or digit is left.
func kebabName(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			if prevLower {
				b.WriteByte('-')
			}
			b.WriteRune(r + 'a' - 'A')
			prevLower = false
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			prevLower = true
		default:
			b.WriteByte('-')
			prevLower = false
		}
	}
	return strings.Join(strings.FieldsFunc(b.String(), func(r rune) bool { return r == '-' }), "-")
}

// snakeName is kebabName with underscores: the form Codex CLI accepts.
func snakeName(s string) string {
	return strings.ReplaceAll(kebabName(s), "-", "_")
}

// fileSafe reports whether name can be used as a file name as it is: no
// separators, no dot-only names, nothing hidden.
func fileSafe(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\`) && !strings.HasPrefix(name, ".") && !strings.ContainsRune(name, 0)
}

// kebabValid reports whether name is lowercase kebab-case of at most 64
// characters: SkillServer's name format.
func kebabValid(name string) bool { return len(name) <= 64 && kebabRE.MatchString(name) }

// snakeValid reports whether name is a Codex CLI name.
func snakeValid(name string) bool { return len(name) <= 64 && snakeRE.MatchString(name) }

// slugValid reports whether name is a Gemini CLI agent name.
func slugValid(name string) bool { return len(name) <= 64 && slugRE.MatchString(name) }

// sameName returns name unchanged: the back conversion of targets that
// take NetClaw names as they are.
func sameName(name string) string { return name }

// unsnake turns a Codex name back into kebab-case.
func unsnake(name string) string { return strings.ReplaceAll(name, "_", "-") }
