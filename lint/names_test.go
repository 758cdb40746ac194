package lint

import (
	"slices"
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	agents := []string{"reviewer", "code-reviewer", "Research-Assistant", "summarizer", "release-notes", "reviewer"}
	tests := []struct {
		name  string
		limit int
		want  []string
	}{
		{"revewer", 5, []string{"reviewer"}},
		{"REVIEWER", 5, []string{"reviewer", "code-reviewer"}},
		{"review", 5, []string{"reviewer", "code-reviewer"}},
		{"research-assistent", 5, []string{"Research-Assistant"}},
		{"summariser", 5, []string{"summarizer"}},
		{"/release-note", 5, []string{"release-notes"}},
		{"release_notes", 5, []string{"release-notes"}},
		{"reviewer", 1, []string{"reviewer"}},
		{"zzz", 5, []string{}},
		{"", 5, nil},
		{"reviewer", 0, nil},
		{strings.Repeat("r", 101), 5, nil},
	}
	for _, tt := range tests {
		got := Suggest(tt.name, agents, tt.limit)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Suggest(%q, %d) = %q, want %q", tt.name, tt.limit, got, tt.want)
		}
	}
}

// TestSuggestFrontmatterKeys: an unknown frontmatter key and the known key
// it most likely meant.
func TestSuggestFrontmatterKeys(t *testing.T) {
	for in, want := range map[string]string{
		"ModelRole": "modelRole", "model_role": "modelRole", "descripton": "description",
		"Name": "name", "timeout_seconds": "timeoutSeconds", "visiblity": "visibility",
		"color": "", "x": "",
	} {
		got := ""
		if s := Suggest(in, frontmatterKeys, 1); len(s) > 0 {
			got = s[0]
		}
		if got != want {
			t.Errorf("Suggest(%q, frontmatterKeys) = %q, want %q", in, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"reviewer", "revewer", 1}, {"héllo", "hello", 1}, {"abc", "abc", 0},
	}
	for _, tt := range tests {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func BenchmarkSuggest(b *testing.B) {
	var names []string
	for i := range 200 {
		names = append(names, "agent-number-"+strings.Repeat("x", i%20))
	}
	for b.Loop() {
		Suggest("agent-nmber-xxxxx", names, 5)
	}
}

// TestSuggestTransliterates: accented letters match their plain spelling,
// so a name typed with accents finds the kebab-case one.
func TestSuggestTransliterates(t *testing.T) {
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"résumé-writer", []string{"resume-writers", "resume-writer", "reviewer"}, "resume-writer"},
		{"àéîõü", []string{"aeiou", "zzzzz"}, "aeiou"},
	} {
		if got := Suggest(tc.name, tc.candidates, 1); len(got) != 1 || got[0] != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
