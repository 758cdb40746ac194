package preview

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/agentdesk/agentdesk/lint"
)

func TestCompareNames(t *testing.T) {
	tests := []struct {
		a, b string
		want int // sign
	}{
		{"abc", "abc", 0},
		{"ABC", "abc", 0},
		{"Code-Analyst", "code-analyst", 0},
		{"a", "b", -1},
		{"B", "a", 1},
		{"ab", "a_b", -1}, // 'B' (0x42) < '_' (0x5F): upper-case mapping
		{"a_b", "aB", 1},  // same, whatever the case of the letter
		{"a-b", "ab", -1}, // '-' (0x2D) < 'B'
		{"a", "ab", -1},   // a prefix sorts first
		{"ab", "a", 1},
		{"", "a", -1},
		{"", "", 0},
		{"z", "\u00e9", -1}, // 'Z' < 'É'
		{"\u00e9a", "\u00c9A", 0},
		{"\u00ff", "\u0178", 0},         // ÿ upper-cases to Ÿ
		{"\U0001F600", "\uFF21", -1},    // above U+FFFF (D83D…) before U+FF21
		{"\U0001F600", "\u4E00", 1},     // but after U+4E00
		{"\U00010428", "\U00010400", 0}, // Deseret small and capital long I
		{"\u01C5", "\u01C6", 0},         // title case and small both upper-case to U+01C4
		{"agent-\u212A", "agent-k", 1},  // KELVIN SIGN upper-cases to itself: not 'K'
		{"\u0131", "i", 0},              // dotless i upper-cases to 'I'
		{"stra\u00dfe", "STRASSE", 1},   // ß has no simple upper-case mapping
		{"x\uFFFD", "x\U0001F600", 1},   // U+FFFD after the supplementary planes
		{"reviewer2", "reviewer10", 1},  // ordinal, not natural order
		{"Research-Assistant", "research-assistants", -1},
	}
	for _, tt := range tests {
		got := CompareNames(tt.a, tt.b)
		if sign(got) != tt.want {
			t.Errorf("CompareNames(%q, %q) = %d, want sign %d", tt.a, tt.b, got, tt.want)
		}
		if back := CompareNames(tt.b, tt.a); sign(back) != -tt.want {
			t.Errorf("CompareNames(%q, %q) = %d, want sign %d", tt.b, tt.a, back, -tt.want)
		}
		if ref := referenceCompare(tt.a, tt.b); sign(ref) != tt.want {
			t.Errorf("reference compare of %q, %q = %d, want sign %d (the table is wrong?)", tt.a, tt.b, ref, tt.want)
		}
	}
}

func TestCompareNamesSorts(t *testing.T) {
	names := []string{"zeta", "Gamma-ray", "a_b", "beta", "AB2", "Alpha", "ab"}
	slices.SortStableFunc(names, CompareNames)
	want := []string{"ab", "AB2", "Alpha", "a_b", "beta", "Gamma-ray", "zeta"}
	if !slices.Equal(names, want) {
		t.Errorf("sorted %q, want %q", names, want)
	}
}

// referenceCompare is the slow, obvious form of OrdinalIgnoreCase: map each
// rune to upper case, encode as UTF-16, compare the code units.
func referenceCompare(a, b string) int {
	enc := func(s string) []uint16 {
		rs := []rune(s)
		for i, r := range rs {
			rs[i] = unicode.ToUpper(r)
		}
		return utf16.Encode(rs)
	}
	return slices.Compare(enc(a), enc(b))
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func FuzzCompareNames(f *testing.F) {
	for _, s := range [][2]string{{"ab", "a_b"}, {"Alpha", "alpha"}, {"\U0001F600", "\uFF21"}, {"", "x"}, {"\xff", "\xfe"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := sign(CompareNames(a, b))
		if back := sign(CompareNames(b, a)); back != -got {
			t.Fatalf("not antisymmetric: %q vs %q gives %d, reversed %d", a, b, got, back)
		}
		if ref := sign(referenceCompare(a, b)); ref != got {
			t.Fatalf("CompareNames(%q, %q) = %d, reference %d", a, b, got, ref)
		}
		if CompareNames(a, a) != 0 {
			t.Fatalf("%q does not equal itself", a)
		}
	})
}

// TestSortByName checks the fast sort against a stable sort by CompareNames
// on names mixing ASCII, Latin-1, title-case digraphs, characters above
// U+E000 and above U+FFFF, and invalid bytes.
func TestSortByName(t *testing.T) {
	alphabet := []string{"a", "A", "b", "_", "-", "z", "é", "É", "ǅ", "ǆ", "Ǆ", "\uFF21", "\uFF41", "\U0001F600", "\U00010428", "\U00010400", "\uE000", "\xff", "ß", "K"}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		defs := make([]*lint.Definition, 1+r.IntN(40))
		for i := range defs {
			var name strings.Builder
			for range 1 + r.IntN(4) {
				name.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			defs[i] = &lint.Definition{Name: name.String(), Description: strconv.Itoa(i)}
		}
		want := slices.Clone(defs)
		slices.SortStableFunc(want, func(x, y *lint.Definition) int { return CompareNames(x.Name, y.Name) })
		sortByName(defs)
		for i := range defs {
			if defs[i] != want[i] {
				t.Fatalf("round %d: position %d holds %q (#%s), want %q (#%s)", round, i,
					defs[i].Name, defs[i].Description, want[i].Name, want[i].Description)
			}
		}
	}
}
