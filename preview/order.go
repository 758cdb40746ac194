package preview

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
)

// CompareNames orders two agent names the way the runtime sorts the layer,
// with .NET's StringComparer.OrdinalIgnoreCase: each character is mapped to
// upper case (simple, culture-invariant mapping) and the results are compared
// as UTF-16 code units. It returns a negative number when a sorts first, zero
// when the names are equal ignoring case, and a positive number otherwise.
//
// Mapping to upper rather than lower case matters for the six characters
// between 'Z' and 'a': "ab" sorts before "a_b" because 'B' < '_'. Comparing
// UTF-16 code units rather than code points puts characters above U+FFFF
// before those from U+E000 to U+FFFF, as .NET does.
func CompareNames(a, b string) int {
	for len(a) > 0 && len(b) > 0 {
		ca, cb := a[0], b[0]
		if ca < utf8.RuneSelf && cb < utf8.RuneSelf {
			ua, ub := upperASCII(ca), upperASCII(cb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		ka, kb := utf16Key(unicode.ToUpper(ra)), utf16Key(unicode.ToUpper(rb))
		if ka != kb {
			if ka < kb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case len(a) > 0:
		return 1
	case len(b) > 0:
		return -1
	}
	return 0
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// utf16Key maps a code point to a number that orders code points as their
// UTF-16 encodings order: U+0000–U+D7FF, then the supplementary planes
// (encoded with lead surrogates D800–DBFF), then U+E000–U+FFFF.
func utf16Key(r rune) rune {
	switch {
	case r < 0xD800:
		return r
	case r >= 0x10000:
		return 0xD800 + (r - 0x10000)
	default: // U+E000–U+FFFF (surrogates never reach here: they decode as U+FFFD)
		return 0xD800 + 0x100000 + (r - 0xE000)
	}
}

// appendUpper appends name upper-cased to buf. slow says the name has a
// character from U+E000 up (before or after upper-casing), whose UTF-8
// byte order is not its UTF-16 order.
func appendUpper(buf []byte, name string) (out []byte, slow bool) {
	for j := 0; j < len(name); {
		c := name[j]
		if c < utf8.RuneSelf {
			buf = append(buf, upperASCII(c))
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(name[j:])
		u := unicode.ToUpper(r)
		if r >= 0xE000 || u >= 0xE000 {
			slow = true
		}
		buf = utf8.AppendRune(buf, u)
		j += n
	}
	return buf, slow
}

// sortByName sorts defs by CompareNames, keeping the input order of names
// that compare equal. It upper-cases every name once into one buffer, so
// that most comparisons are a plain byte comparison: for characters below
// U+E000, UTF-8 byte order is UTF-16 code unit order. Names with a character
// from U+E000 up (or an invalid byte) are compared with CompareNames.
func sortByName(defs []*lint.Definition) {
	type entry struct {
		def    *lint.Definition
		lo, hi int  // the upper-cased name in keys
		slow   bool // needs CompareNames
		index  int
	}
	size := 0
	for _, d := range defs {
		size += len(d.Name)
	}
	buf := make([]byte, 0, size+size/8)
	entries := make([]entry, len(defs))
	for i, d := range defs {
		e := entry{def: d, lo: len(buf), index: i}
		buf, e.slow = appendUpper(buf, d.Name)
		e.hi = len(buf)
		entries[i] = e
	}
	keys := string(buf)
	slices.SortFunc(entries, func(a, b entry) int {
		var c int
		if a.slow || b.slow {
			c = CompareNames(a.def.Name, b.def.Name)
		} else {
			c = strings.Compare(keys[a.lo:a.hi], keys[b.lo:b.hi])
		}
		if c != 0 {
			return c
		}
		return a.index - b.index
	})
	for i, e := range entries {
		defs[i] = e.def
	}
}
