package rundiff

import (
	"slices"
	"sort"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// diffAnchored is a line diff that holds on long, mostly equal texts: the
// lines that occur once in each text and in the same order (a patience
// diff's anchors) are matched first, and the stretches between them are
// diffed with lcs. lcs alone gives up on a long text with many scattered
// edits and replaces whole halves of it.
func diffAnchored(a, b []string) []lcs.Diff {
	var out []lcs.Diff
	prev := [2]int{0, 0}
	gap := func(ea, eb int) {
		ga, gb := a[prev[0]:ea], b[prev[1]:eb]
		if slices.Equal(ga, gb) {
			return // most gaps between anchors are empty
		}
		if len(ga) == 0 || len(gb) == 0 {
			out = append(out, lcs.Diff{Start: prev[0], End: ea, ReplStart: prev[1], ReplEnd: eb})
			return
		}
		for _, d := range lcs.DiffLines(ga, gb) {
			d.Start += prev[0]
			d.End += prev[0]
			d.ReplStart += prev[1]
			d.ReplEnd += prev[1]
			out = append(out, d)
		}
	}
	for _, p := range anchors(a, b) {
		gap(p[0], p[1])
		prev = [2]int{p[0] + 1, p[1] + 1}
	}
	gap(len(a), len(b))
	return out
}

// anchors returns the pairs (i, j) with a[i] == b[j] where the line
// occurs once in a and once in b, as the longest run increasing in both.
func anchors(a, b []string) [][2]int {
	type seen struct{ na, nb, ia, ib int }
	count := make(map[string]*seen, len(a))
	for i, l := range a {
		s := count[l]
		if s == nil {
			s = &seen{}
			count[l] = s
		}
		s.na++
		s.ia = i
	}
	for j, l := range b {
		if s := count[l]; s != nil {
			s.nb++
			s.ib = j
		}
	}
	var pairs [][2]int
	for _, s := range count {
		if s.na == 1 && s.nb == 1 {
			pairs = append(pairs, [2]int{s.ia, s.ib})
		}
	}
	sort.Slice(pairs, func(x, y int) bool { return pairs[x][0] < pairs[y][0] })
	return increasing(pairs)
}

// increasing returns the longest subsequence of pairs (sorted by their
// first) whose seconds increase (patience sorting).
func increasing(pairs [][2]int) [][2]int {
	if len(pairs) == 0 {
		return nil
	}
	tails := []int{}                // tails[k]: index of the pair ending a run of length k+1
	back := make([]int, len(pairs)) // the pair before, in the run
	for i, p := range pairs {
		k := sort.Search(len(tails), func(k int) bool { return pairs[tails[k]][1] >= p[1] })
		if k > 0 {
			back[i] = tails[k-1]
		} else {
			back[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	run := make([][2]int, len(tails))
	for i, k := tails[len(tails)-1], len(tails)-1; k >= 0; i, k = back[i], k-1 {
		run[k] = pairs[i]
	}
	return run
}
