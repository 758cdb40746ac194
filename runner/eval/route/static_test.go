package route

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func defs(pairs ...string) []*lint.Definition {
	var out []*lint.Definition
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, &lint.Definition{Name: pairs[i], Description: pairs[i+1]})
	}
	return out
}

func TestTerms(t *testing.T) {
	for in, want := range map[string]string{
		"Reviews the git diffs for security issues": "review git diff security issue",
		"Summarizes logs; patches boxes, classes":   "summarize log patch box class",
		"Reading failed services' status":           "read fail service status",
		"code-analyst and web_search":               "code analyst web search",
		"":                                          "",
	} {
		if got := strings.Join(Terms(in), " "); got != want {
			t.Errorf("Terms(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRank(t *testing.T) {
	idx := NewIndex(defs(
		"reviewer", "Reviews a git diff for bugs and security issues before a push.",
		"log-analyst", "Reads service logs and explains why a deployment failed.",
		"summarizer", "Summarizes long documents into a few bullet points.",
	))
	for _, tc := range []struct {
		request, top string
		terms        string
	}{
		{"Please review my diff before I push", "reviewer", "review diff push"},
		{"Why did the deployment fail? Here are the logs.", "log-analyst", "deployment fail log"},
		{"Summarize this document", "summarizer", "summarize document"},
		{"analyst, read this", "log-analyst", "analyst read"},
	} {
		got := idx.Rank(tc.request)
		if got[0].Agent != tc.top || got[0].Score <= got[1].Score || strings.Join(got[0].Terms, " ") != tc.terms {
			t.Errorf("%q: ranked %+v, want %s first with %q", tc.request, got, tc.top, tc.terms)
		}
	}
	if got := idx.Rank("hello there"); got[0].Score != 0 || got[0].Agent != "reviewer" {
		t.Errorf("no shared word: %+v (want all 0, in index order)", got)
	}
	if got := NewIndex(nil).Rank("x"); len(got) != 0 {
		t.Errorf("empty index: %+v", got)
	}
}

func TestSimilar(t *testing.T) {
	idx := NewIndex(defs(
		"code-reviewer", "Reviews code changes for bugs and style problems.",
		"pr-reviewer", "Reviews code changes in pull requests for bugs and style.",
		"summarizer", "Summarizes long documents into a few bullet points.",
	))
	got := idx.Similar(0)
	if len(got) != 1 || got[0].A != "code-reviewer" || got[0].B != "pr-reviewer" || got[0].Similarity < SimilarThreshold {
		t.Fatalf("similar %+v", got)
	}
	if !slices.Contains(got[0].Shared, "code") || !slices.Contains(got[0].Shared, "bug") {
		t.Errorf("shared %v", got[0].Shared)
	}
	if got := idx.Similar(0.99); len(got) != 0 {
		t.Errorf("threshold 0.99: %+v", got)
	}
}

// benchDefs is n agents with descriptions of 12–36 words.
func benchDefs(n int) []*lint.Definition {
	words := strings.Fields("review diff security bug log service deployment failure summarize document release note plan test flaky go code refactor search web cite source ticket triage incident database query slow index migrate schema")
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]*lint.Definition, n)
	for i := range out {
		var b strings.Builder
		for range 12 + r.IntN(25) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		out[i] = &lint.Definition{Name: fmt.Sprintf("agent-%03d", i), Description: b.String()}
	}
	return out
}

func BenchmarkRank(b *testing.B) {
	idx := NewIndex(benchDefs(200))
	b.ReportAllocs()
	for b.Loop() {
		idx.Rank("Why did the deployment fail? The service logs show a slow database query after the migration.")
	}
}

func BenchmarkNewIndex(b *testing.B) {
	d := benchDefs(200)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(d)
	}
}

func BenchmarkSimilar(b *testing.B) {
	idx := NewIndex(benchDefs(200))
	b.ReportAllocs()
	for b.Loop() {
		idx.Similar(0.95)
	}
}

// TestSimilarComparesDescriptionsOnTheirOwn: identical and nearly
// identical descriptions are warned about however different the names
// (issue 20 item 10); different descriptions are not.
func TestSimilarComparesDescriptionsOnTheirOwn(t *testing.T) {
	const d = "Reads service logs and explains why a deployment failed."
	for _, tt := range []struct {
		name    string
		b       string
		alike   bool
		atLeast float64
	}{
		{"identical", d, true, 0.999},
		{"near-identical", "Reads service logs and explains why a release failed.", true, SimilarThreshold},
		{"different", "Reviews a git diff for bugs and security issues before a push.", false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := NewIndex(defs("deploy-doctor", d, "incident-summariser-bot", tt.b)).Similar(0)
			if tt.alike != (len(got) == 1) || tt.alike && got[0].Similarity < tt.atLeast {
				t.Fatalf("similar %+v", got)
			}
			if tt.alike && !slices.Contains(got[0].Shared, "log") {
				t.Errorf("shared %v", got[0].Shared)
			}
		})
	}
}
