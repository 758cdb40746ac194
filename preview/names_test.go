package preview

import (
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
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
		{"reviewer", 1, []string{"reviewer"}},
		{"zzz", 5, []string{}},
		{"", 5, nil},
		{"reviewer", 0, nil},
	}
	for _, tt := range tests {
		got := Suggest(tt.name, agents, tt.limit)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Suggest(%q, %d) = %q, want %q", tt.name, tt.limit, got, tt.want)
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
		if got := lint.EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
