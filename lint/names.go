package lint

import "strings"

// EditDistance is the Levenshtein distance between a and b, counted in
// runes. Every "did you mean" in agentdesk ranks candidates by it.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Kebab turns a name into the lowercase kebab-case SkillServer accepts: an
// upper-case letter after a lower-case one starts a new word (CodeAnalyst →
// code-analyst), and every run of other characters becomes one hyphen. It
// returns "" when no letter or digit is left. The result may still be over
// 64 characters; check it with ValidName.
func Kebab(s string) string {
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
