package lint

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// suggestMaxLen bounds the names Suggest compares, in runes: past it an edit
// distance costs too much and no typo is likely.
const suggestMaxLen = 100

// Suggest is every "did you mean" in agentdesk: it returns up to limit
// candidates close to name, closest first, ties in the order given. Names
// are compared ignoring case, a leading "/" (a skill) and the separators
// "-", "_" and " " (maxTokens, max_tokens and max-tokens are one name).
// A candidate is close when its edit distance to name is at most a third of
// name's length, but at least 2, or when one contains the other and the
// shorter has at least 3 characters. Names longer than 100 characters are
// not compared.
func Suggest(name string, candidates []string, limit int) []string {
	want := suggestForm(name)
	n := utf8.RuneCountInString(want)
	if n == 0 || n > suggestMaxLen || limit <= 0 {
		return nil
	}
	maxDist := max(2, n/3)
	type scored struct {
		name      string
		dist, idx int
	}
	var near []scored
	seen := make(map[string]bool, len(candidates))
	for i, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		key := suggestForm(c)
		m := utf8.RuneCountInString(key)
		if m == 0 || m > suggestMaxLen {
			continue
		}
		d := EditDistance(want, key)
		if d <= maxDist || min(n, m) >= 3 && (strings.Contains(key, want) || strings.Contains(want, key)) {
			near = append(near, scored{c, d, i})
		}
	}
	slices.SortFunc(near, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.idx, b.idx))
	})
	out := make([]string, 0, min(limit, len(near)))
	for _, s := range near[:min(limit, len(near))] {
		out = append(out, s.name)
	}
	return out
}

// suggestForm is the form of a name Suggest compares: transliterated
// (résumé → resume), lower-case, without separators.
func suggestForm(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "/")
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ':
			return -1
		}
		return r
	}, strings.ToLower(Transliterate(s)))
}

// EditDistance is the Levenshtein distance between a and b, counted in
// runes. Suggest ranks candidates by it.
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

// Kebab turns a name into the lowercase kebab-case SkillServer accepts: a
// Latin letter with a diacritic becomes its plain letter (résumé → resume,
// Straße → strasse), an upper-case letter after a lower-case one starts a
// new word (CodeAnalyst → code-analyst), and every run of other characters
// becomes one hyphen. It returns "" when no letter or digit is left. The
// result may still be over 64 characters; check it with ValidName.
func Kebab(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range Transliterate(s) {
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

// Transliterate replaces each Latin letter with a diacritic (and the
// ligatures æ, œ, ß and the letters ø, ł, đ, þ, ð) by its plain ASCII
// spelling, keeping its case; every other rune is kept as it is.
func Transliterate(s string) string {
	var b strings.Builder
	for _, r := range s {
		if plain, ok := latinPlain[r]; ok {
			b.WriteString(plain)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// latinPlain maps the letters of Latin-1 Supplement and Latin Extended-A to
// their plain spelling.
var latinPlain = func() map[rune]string {
	m := map[rune]string{
		'Æ': "AE", 'æ': "ae", 'Œ': "OE", 'œ': "oe", 'ß': "ss", 'ẞ': "SS",
		'Ø': "O", 'ø': "o", 'Ł': "L", 'ł': "l", 'Đ': "D", 'đ': "d",
		'Þ': "TH", 'þ': "th", 'Ð': "D", 'ð': "d", 'Ħ': "H", 'ħ': "h",
		'ı': "i", 'Ŀ': "L", 'ŀ': "l", 'Ŧ': "T", 'ŧ': "t", 'ĸ': "k",
		'Ĳ': "IJ", 'ĳ': "ij", 'Ŋ': "N", 'ŋ': "n", 'ŉ': "n", 'ſ': "s",
	}
	for plain, marked := range map[string]string{
		"A": "ÀÁÂÃÄÅĀĂĄ", "a": "àáâãäåāăą", "C": "ÇĆĈĊČ", "c": "çćĉċč",
		"D": "Ď", "d": "ď", "E": "ÈÉÊËĒĔĖĘĚ", "e": "èéêëēĕėęě",
		"G": "ĜĞĠĢ", "g": "ĝğġģ", "H": "Ĥ", "h": "ĥ", "I": "ÌÍÎÏĨĪĬĮİ", "i": "ìíîïĩīĭį",
		"J": "Ĵ", "j": "ĵ", "K": "Ķ", "k": "ķ", "L": "ĹĻĽ", "l": "ĺļľ",
		"N": "ÑŃŅŇ", "n": "ñńņň", "O": "ÒÓÔÕÖŌŎŐ", "o": "òóôõöōŏő",
		"R": "ŔŖŘ", "r": "ŕŗř", "S": "ŚŜŞŠ", "s": "śŝşš", "T": "ŢŤ", "t": "ţť",
		"U": "ÙÚÛÜŨŪŬŮŰŲ", "u": "ùúûüũūŭůűų", "W": "Ŵ", "w": "ŵ",
		"Y": "ÝŶŸ", "y": "ýÿŷ", "Z": "ŹŻŽ", "z": "źżž",
	} {
		for _, r := range marked {
			m[r] = plain
		}
	}
	return m
}()
