package evalrec

import (
	"slices"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestCaseFilter(t *testing.T) {
	names := []string{"finds the port", "finds the file", "names/the file", "Greets", "a*b", "x.y"}
	for _, tt := range []struct {
		patterns  []string
		want      []string
		unmatched []string
	}{
		{nil, names, nil},
		{[]string{"finds the port"}, []string{"finds the port"}, nil},
		{[]string{"finds *"}, []string{"finds the port", "finds the file"}, nil},
		{[]string{"*file"}, []string{"finds the file", "names/the file"}, nil},
		{[]string{"greets"}, nil, []string{"greets"}},
		{[]string{"Greet?", "x.y"}, []string{"Greets", "x.y"}, nil},
		{[]string{"x?y"}, []string{"x.y"}, nil},
		{[]string{"x.z*"}, nil, []string{"x.z*"}},
		{[]string{"a*b"}, []string{"a*b"}, nil},
		{[]string{"[a]", "finds the port"}, []string{"finds the port"}, []string{"[a]"}},
	} {
		f := NewCaseFilter(tt.patterns)
		var got []string
		for _, n := range names {
			if f.Match(n) {
				got = append(got, n)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q selects %q, want %q", tt.patterns, got, tt.want)
		}
		if u := f.Unmatched(names); !slices.Equal(u, tt.unmatched) {
			t.Errorf("%q: unmatched %q, want %q", tt.patterns, u, tt.unmatched)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"finds-the-port": "finds-the-port", "finds the port": "'finds the port'", "it's": `'it'\''s'`, "": "''", "$HOME": "'$HOME'"} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzCaseFilter: any pattern compiles, and a name with no wildcard
// selects itself.
func FuzzCaseFilter(f *testing.F) {
	for _, s := range []string{"finds the port", "*", "a?b", `\(`, "[x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		flt := NewCaseFilter([]string{s})
		if !strings.ContainsAny(s, "*?") && !flt.Match(s) {
			t.Errorf("%q does not select itself", s)
		}
		if !NewCaseFilter([]string{"*"}).Match(s) {
			t.Errorf("* does not select %q", s)
		}
	})
}

// BenchmarkCaseFilter selects among 1,000 case names with three
// patterns, as --case and --failed do over a large suite.
func BenchmarkCaseFilter(b *testing.B) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = "case number " + strings.Repeat("x", i%40) + " finds the port"
	}
	f := NewCaseFilter([]string{"finds *", "case number x?x*", "nothing"})
	b.ResetTimer()
	for range b.N {
		for _, n := range names {
			f.Match(n)
		}
	}
}
