package preview

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10"
	tests := []struct {
		name, before, after, want string
	}{
		{name: "equal", before: ten, after: ten, want: ""},
		{name: "both empty", before: "", after: "", want: ""},
		{
			name: "one line changed, no newline at end", before: ten, after: strings.Replace(ten, "5\n", "five\n", 1),
			want: "--- before\n+++ after\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
		},
		{
			name: "last line changed", before: ten, after: strings.Replace(ten, "10", "ten", 1),
			want: "--- before\n+++ after\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n\\ No newline at end of file\n+ten\n\\ No newline at end of file\n",
		},
		{
			name: "line inserted at the start", before: "a\nb\nc\nd\ne\n", after: "new\na\nb\nc\nd\ne\n",
			want: "--- before\n+++ after\n@@ -1,3 +1,4 @@\n+new\n a\n b\n c\n",
		},
		{
			name: "insertion at start shows following context", before: "a\nb\n", after: "new\na\nb\n",
			want: "--- before\n+++ after\n@@ -1,2 +1,3 @@\n+new\n a\n b\n",
		},
		{
			name: "line deleted at the end", before: "a\nb\nc\nd\ne\nf\n", after: "a\nb\nc\nd\ne\n",
			want: "--- before\n+++ after\n@@ -3,4 +3,3 @@\n c\n d\n e\n-f\n",
		},
		{
			name: "from empty", before: "", after: "x\ny",
			want: "--- before\n+++ after\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n",
		},
		{
			name: "to empty", before: "x\n", after: "",
			want: "--- before\n+++ after\n@@ -1 +0,0 @@\n-x\n",
		},
		{
			name: "newline added at the end", before: "a\nb", after: "a\nb\n",
			want: "--- before\n+++ after\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		},
		{
			name:   "two changes far apart make two hunks",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n",
			after:  "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\nsixteen\n",
			want:   "--- before\n+++ after\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -13,4 +13,4 @@\n 13\n 14\n 15\n-16\n+sixteen\n",
		},
		{
			name:   "changes six lines apart share a hunk",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
			after:  "1\nB\n3\n4\n5\n6\n7\n8\nI\n10\n",
			want:   "--- before\n+++ after\n@@ -1,10 +1,10 @@\n 1\n-2\n+B\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+I\n 10\n",
		},
		{
			name:   "changes seven lines apart do not",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n",
			after:  "1\nB\n3\n4\n5\n6\n7\n8\n9\nJ\n11\n",
			want:   "--- before\n+++ after\n@@ -1,5 +1,5 @@\n 1\n-2\n+B\n 3\n 4\n 5\n@@ -7,5 +7,5 @@\n 7\n 8\n 9\n-10\n+J\n 11\n",
		},
		{
			name:   "two edits in one hunk, then a later hunk: its new-side start counts the lines between them",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n",
			after:  "1\n2\nC\n4\n5\nI\nJ\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\nD\n18\n19\n20\n",
			want: "--- before\n+++ after\n@@ -1,8 +1,10 @@\n 1\n 2\n-3\n+C\n 4\n 5\n+I\n+J\n 6\n 7\n 8\n" +
				"@@ -14,7 +16,7 @@\n 14\n 15\n 16\n-17\n+D\n 18\n 19\n 20\n",
		},
		{
			name: "CRLF lines differ from LF lines", before: "a\r\nb\r\n", after: "a\r\nb\n",
			want: "--- before\n+++ after\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+b\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(tt.before, tt.after)
			if got != tt.want {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, tt.want)
			}
			if back, err := applyPatch(tt.before, got); err != nil || back != tt.after {
				t.Errorf("patch does not apply: %v; got %q", err, back)
			}
		})
	}
}

func TestUnifiedDiffNames(t *testing.T) {
	got := UnifiedDiff("layer (saved)", "layer (edited)", "a\n", "b\n")
	if want := "--- layer (saved)\n+++ layer (edited)\n@@ -1 +1 @@\n-a\n+b\n"; got != want {
		t.Errorf("UnifiedDiff = %q, want %q", got, want)
	}
}

// TestDiffLayers diffs real layers: an edited description shows as one
// changed line with its block as context.
func TestDiffLayers(t *testing.T) {
	before := handCatalog(agentsDir, nil,
		agentSpec{name: "alpha", desc: "First."},
		agentSpec{name: "beta", desc: "Second."},
	)
	after := handCatalog(agentsDir, nil,
		agentSpec{name: "alpha", desc: "First."},
		agentSpec{name: "beta", desc: "Second, now longer."},
	)
	got := Diff(Layer(before, Personal), Layer(after, Personal))
	want := "--- before\n+++ after\n@@ -6,7 +6,7 @@\n Timeout: 60s\n \n ## beta\n-Second.\n+Second, now longer.\n Tools: inherited from parent audience policy, except denied sub-agent tools\n Timeout: 60s\n \n"
	if got != want {
		t.Errorf("Diff of layers:\n%s\nwant:\n%s", got, want)
	}
}

// TestDiffRandom checks on random texts that every diff applies and
// changes no more lines than necessary.
func TestDiffRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 7))
	for i := range 2000 {
		a, b := randomText(r), randomText(r)
		if r.IntN(3) == 0 {
			b = mutate(r, a)
		}
		patch := Diff(a, b)
		got, err := applyPatch(a, patch)
		if err != nil || got != b {
			t.Fatalf("case %d: patch of %q -> %q does not apply (%v):\n%s", i, a, b, err, patch)
		}
		al, bl := splitLines(a), splitLines(b)
		if changed, want := changedLines(patch), len(al)+len(bl)-2*lcsLen(al, bl); changed != want {
			t.Fatalf("case %d: %d changed lines, shortest is %d:\n%s", i, changed, want, patch)
		}
	}
}

func randomText(r *rand.Rand) string {
	n := r.IntN(14)
	var b strings.Builder
	for i := range n {
		b.WriteString(string(rune('a' + r.IntN(4))))
		if i < n-1 || r.IntN(2) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func mutate(r *rand.Rand, s string) string {
	lines := splitLines(s)
	for range 1 + r.IntN(3) {
		switch k := r.IntN(3); {
		case k == 0 && len(lines) > 0:
			i := r.IntN(len(lines))
			lines = append(lines[:i], lines[i+1:]...)
		case k == 1:
			i := r.IntN(len(lines) + 1)
			lines = append(lines[:i], append([]string{"z\n"}, lines[i:]...)...)
		case len(lines) > 0:
			lines[r.IntN(len(lines))] = "y\n"
		}
	}
	return strings.Join(lines, "")
}

// lcsLen is the length of a longest common subsequence, by dynamic programming.
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func changedLines(patch string) int {
	n := 0
	for i, l := range strings.Split(patch, "\n") {
		if i >= 2 && (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) {
			n++
		}
	}
	return n
}

// splitLines cuts s into lines, each with its "\n" except perhaps the last.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// applyPatch applies a unified diff to before, checking every context and
// deleted line and every hunk's line counts; it is the test's independent
// reading of the format.
func applyPatch(before, patch string) (string, error) {
	if patch == "" {
		return before, nil
	}
	src := splitLines(before)
	lines := splitLines(patch)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no --- and +++ header")
	}
	var out []string
	pos := 0 // next source line to copy
	for i := 2; i < len(lines); {
		m := hunkHeader.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			return "", fmt.Errorf("line %d: %q is not a hunk header", i+1, lines[i])
		}
		num := func(s string, def int) int {
			if s == "" {
				return def
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		aStart, aLen, bStart, bLen := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
		start := aStart - 1
		if aLen == 0 {
			start = aStart
		}
		if start < pos || start > len(src) {
			return "", fmt.Errorf("hunk at line %d starts at %d, source is at %d", i+1, start, pos)
		}
		out = append(out, src[pos:start]...)
		pos = start
		// The new side's start must be where this hunk's lines land.
		if wantB := len(out) + 1; bLen == 0 && bStart != len(out) || bLen != 0 && bStart != wantB {
			return "", fmt.Errorf("hunk %s says the new side starts at %d; its lines land at line %d", m[0], bStart, wantB)
		}
		i++
		var gotA, gotB int
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			body := l[1:]
			if i < len(lines) && lines[i] == "\\ No newline at end of file\n" {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != body {
					return "", fmt.Errorf("line %d: %q does not match source line %d", i, l, pos+1)
				}
				pos++
				gotA++
				if l[0] == ' ' {
					out = append(out, body)
					gotB++
				}
			case '+':
				out = append(out, body)
				gotB++
			default:
				return "", fmt.Errorf("line %d: unexpected %q", i, l)
			}
		}
		if gotA != aLen || gotB != bLen {
			return "", fmt.Errorf("hunk %s counts -%d +%d, holds -%d +%d", m[0], aLen, bLen, gotA, gotB)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("same\n", "same\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\nX\n4\n5\n6\n7\n8\nY\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		patch := Diff(before, after)
		if (patch == "") != (before == after) {
			t.Fatalf("empty patch %v for equal %v", patch == "", before == after)
		}
		got, err := applyPatch(before, patch)
		if err != nil || got != after {
			t.Fatalf("patch does not apply: %v\n%s", err, patch)
		}
	})
}
