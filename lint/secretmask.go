package lint

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinMaskedSecretLen is the length (in characters) under which a
// configured secret is not hidden in text at all: hiding every "ab" would
// wreck messages, and a secret that short protects nothing.
const MinMaskedSecretLen = 4

// MinSubstringSecretLen is the length (in characters) from which a
// configured secret is hidden wherever it appears, inside a longer word
// too: a key, token or password that long is not part of ordinary words,
// and hiding it where it is glued to other text (a URL, a JSON string, a
// header) matters more than the word around it. A shorter one (from
// MinMaskedSecretLen) is hidden only as a whole token, where no word
// character (letter, digit, _) runs on into it from either side: an MCP
// server's argument "serve" is hidden in "serve --port 80" and in
// "ARG=serve", not in "server".
const MinSubstringSecretLen = 8

// SecretMasker hides configured secrets in text (see Config.Secrets):
// longest first, each by what its with function returns for it; a secret
// of MinSubstringSecretLen characters or more wherever it appears, a
// shorter one only as a whole token, one under MinMaskedSecretLen not at
// all.
type SecretMasker struct {
	secrets []string
	short   []bool
	with    func(secret string) string
}

// NewSecretMasker returns a masker of secrets (duplicates, blank and too
// short values dropped) that replaces each by with(secret).
func NewSecretMasker(secrets []string, with func(secret string) string) *SecretMasker {
	m := &SecretMasker{with: with}
	seen := map[string]bool{}
	for _, s := range secrets {
		if utf8.RuneCountInString(s) < MinMaskedSecretLen || strings.TrimSpace(s) == "" || seen[s] {
			continue
		}
		seen[s] = true
		m.secrets = append(m.secrets, s)
	}
	slices.SortFunc(m.secrets, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a, b)) })
	for _, s := range m.secrets {
		m.short = append(m.short, utf8.RuneCountInString(s) < MinSubstringSecretLen)
	}
	return m
}

// Replace returns s with the secrets hidden.
func (m *SecretMasker) Replace(s string) string {
	if m == nil {
		return s
	}
	for k, secret := range m.secrets {
		if !strings.Contains(s, secret) {
			continue
		}
		if m.short[k] {
			s = ReplaceWholeTokens(s, secret, m.with(secret), false)
		} else {
			s = strings.ReplaceAll(s, secret, m.with(secret))
		}
	}
	return s
}

// ReplaceWholeTokens replaces each occurrence of lit in s that is a whole
// token, as a regular expression's \b on both ends would find it: at each
// end, lit's character and its neighbour in s are not both word characters
// (IsWordRune). wordBefore says a word character precedes s (s is a piece
// of a longer text).
func ReplaceWholeTokens(s, lit, repl string, wordBefore bool) string {
	if lit == "" {
		return s
	}
	var b strings.Builder
	from, done := 0, 0
	for {
		i := strings.Index(s[from:], lit)
		if i < 0 {
			break
		}
		start, end := from+i, from+i+len(lit)
		if wholeToken(s, start, end, wordBefore) {
			b.WriteString(s[done:start])
			b.WriteString(repl)
			done, from = end, end
			continue
		}
		_, size := utf8.DecodeRuneInString(s[start:])
		from = start + size
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// wholeToken reports whether s[start:end] is a whole token.
func wholeToken(s string, start, end int, wordBefore bool) bool {
	first, _ := utf8.DecodeRuneInString(s[start:end])
	last, _ := utf8.DecodeLastRuneInString(s[start:end])
	before := wordBefore
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:start])
		before = IsWordRune(r)
	}
	after := false
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		after = IsWordRune(r)
	}
	return !(before && IsWordRune(first)) && !(after && IsWordRune(last))
}

// IsWordRune reports whether r is a word character: a letter, a digit or _.
func IsWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
