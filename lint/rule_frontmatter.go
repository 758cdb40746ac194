package lint

// This file holds the check of the rule frontmatter (RuleFrontmatter):
// frontmatter missing, unclosed, empty, or not at byte 0.

import (
	"strings"
	"unicode"
)

// checkFrontmatter finds the frontmatter as the runtime's loader does and
// reports one that is missing, not at byte 0, never closed or empty; ok is
// false then, and the runtime skips the file.
func (ps *parser) checkFrontmatter(text string) (fm string, closeAt int, body string, ok bool) {
	if !strings.HasPrefix(text, "---") {
		msg, hint := "the file does not start with a '---' line, so the runtime finds no frontmatter", "start the file with '---', the YAML keys, then a closing '---' line"
		pos := Pos{1, 1}
		switch trimmed := strings.TrimLeftFunc(text, unicode.IsSpace); {
		case text == "":
			msg = "the file is empty"
		case strings.HasPrefix(trimmed, "---"):
			pos = posAt(text, len(text)-len(trimmed))
			msg = "the frontmatter must begin at the first byte of the file"
			hint = "remove the whitespace before '---'"
		}
		ps.add(RuleFrontmatter, pos, msg, hint)
		return "", 0, "", false
	}
	fm, closeAt, body, ok = splitFrontmatter(text)
	if !ok {
		if _, rest, found := strings.Cut(text, "\n"); found {
			ps.f.DeclaredName = declaredName(rest)
		}
		ps.add(RuleFrontmatter, Pos{1, 1}, "the frontmatter opened on line 1 is never closed", "add a line '---' after the last frontmatter key")
		return "", 0, "", false
	}
	if strings.TrimSpace(fm) == "" {
		ps.add(RuleFrontmatter, Pos{1, 1}, "the frontmatter is empty", "add at least 'name' and 'description' between the '---' lines")
		return fm, closeAt, body, false
	}
	return fm, closeAt, body, true
}

// splitFrontmatter splits text the way the runtime's loader does: the
// frontmatter runs from the end of the first line to the first "\n---" after
// offset 3 (closeAt is the offset of that newline), and the body is what
// follows the newline ending the closing line, leading whitespace trimmed.
// ok is false when there is no closed frontmatter at byte 0.
func splitFrontmatter(text string) (fm string, closeAt int, body string, ok bool) {
	if !strings.HasPrefix(text, "---") {
		return "", 0, "", false
	}
	closeAt = strings.Index(text[3:], "\n---")
	if closeAt < 0 {
		return "", 0, "", false
	}
	closeAt += 3
	if start := strings.IndexByte(text, '\n') + 1; start <= closeAt {
		fm = text[start:closeAt]
	}
	if nl := strings.IndexByte(text[closeAt+1:], '\n'); nl >= 0 {
		body = strings.TrimLeftFunc(text[closeAt+1+nl+1:], unicode.IsSpace)
	}
	return fm, closeAt, body, true
}
