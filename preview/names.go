package preview

import (
	"cmp"
	"slices"
	"strings"
)

// Suggest returns up to limit candidates close to name, closest first (ties
// in the order of CompareNames): those within an edit distance of a third of
// the name's length (at least 2), ignoring case, and those that contain the
// name or are contained in it. It is how an unknown agent or skill name is
// answered with "did you mean".
func Suggest(name string, candidates []string, limit int) []string {
	type scored struct {
		name string
		dist int
	}
	want := strings.ToLower(strings.TrimPrefix(name, "/"))
	if want == "" || limit <= 0 {
		return nil
	}
	maxDist := max(2, len([]rune(want))/3)
	var near []scored
	seen := make(map[string]bool, len(candidates))
	for _, c := range candidates {
		if seen[c] || c == "" {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := editDistance(want, lc)
		if d <= maxDist || strings.Contains(lc, want) || strings.Contains(want, lc) {
			near = append(near, scored{c, d})
		}
	}
	slices.SortFunc(near, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), CompareNames(a.name, b.name), strings.Compare(a.name, b.name))
	})
	out := make([]string, 0, min(limit, len(near)))
	for _, s := range near[:min(limit, len(near))] {
		out = append(out, s.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
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
