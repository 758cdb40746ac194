package preview

import (
	"cmp"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
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
		d := lint.EditDistance(want, lc)
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
