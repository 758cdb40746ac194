package route

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/agentdesk/agentdesk/lint"
)

// The static ranking is a heuristic: it scores words, while the frontline
// model reads meaning. It catches a description that shares no words with
// the requests it should win, and two descriptions that share most of
// theirs; it cannot say what a model will pick.

// BM25 parameters: the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// nameWeight counts the words of an agent's name this many times: a
	// name is short and chosen with care.
	nameWeight = 2
)

// SimilarThreshold is the cosine similarity of two agents' word counts
// (names and descriptions, common words left out) from which Similar
// reports them as hard to tell apart.
const SimilarThreshold = 0.6

// Index is the listed agents' names and descriptions, ready to rank
// requests against: an inverted index of their words.
type Index struct {
	names []string
	lens  []int
	vocab map[string]int
	post  [][]posting // by term id: the agents holding it
	vecs  [][]posting // by agent: its terms, by term id (term in posting.at)
	// dvecs are the agents' description terms alone, which Similar
	// compares: names weigh in the ranking, and two agents whose
	// descriptions say the same thing are alike whatever their names.
	dvecs  [][]posting
	avgLen float64
}

// posting is a term's count in an agent (or, in vecs, an agent's count of
// a term): at is the agent (or the term id).
type posting struct{ at, n int }

// Score is one agent's lexical match with a request.
type Score struct {
	Agent string  `json:"agent"`
	Score float64 `json:"score"`
	// Terms are the request's words the agent's name or description holds,
	// in the request's order.
	Terms []string `json:"terms"`
}

// nameSplitter turns a name's separators into spaces.
var nameSplitter = strings.NewReplacer("-", " ", "_", " ", ".", " ")

// sortedPostings turns term counts (term id to count) into a vector of
// postings, by term id.
func sortedPostings(counts map[int]int) []posting {
	vec := make([]posting, 0, len(counts))
	for id, c := range counts {
		vec = append(vec, posting{id, c})
	}
	sort.Slice(vec, func(a, b int) bool { return vec[a].at < vec[b].at })
	return vec
}

// NewIndex indexes the definitions (the layer's agents, see
// preview.Listed).
func NewIndex(defs []*lint.Definition) *Index {
	idx := &Index{vocab: map[string]int{}, names: make([]string, len(defs)), lens: make([]int, len(defs)), vecs: make([][]posting, len(defs)), dvecs: make([][]posting, len(defs))}
	desc := map[int]int{}
	total := 0
	counts := map[int]int{}
	for i, d := range defs {
		clear(counts)
		n := 0
		add := func(t string) {
			id, ok := idx.vocab[t]
			if !ok {
				id = len(idx.post)
				idx.vocab[t] = id
				idx.post = append(idx.post, nil)
			}
			counts[id]++
			n++
		}
		name := Terms(nameSplitter.Replace(d.Name))
		for range nameWeight {
			for _, t := range name {
				add(t)
			}
		}
		clear(desc)
		for _, t := range Terms(d.Description) {
			add(t)
			desc[idx.vocab[t]]++
		}
		idx.dvecs[i] = sortedPostings(desc)
		vec := sortedPostings(counts)
		for _, p := range vec {
			idx.post[p.at] = append(idx.post[p.at], posting{i, p.n})
		}
		idx.names[i], idx.lens[i], idx.vecs[i] = d.Name, n, vec
		total += n
	}
	if len(defs) > 0 {
		idx.avgLen = float64(total) / float64(len(defs))
	}
	return idx
}

// Rank scores every indexed agent for request with BM25 and returns them
// best first (ties in index order). An agent that shares no word with the
// request scores 0.
func (idx *Index) Rank(request string) []Score {
	out := make([]Score, len(idx.names))
	for i, name := range idx.names {
		out[i].Agent = name
	}
	n := float64(len(idx.names))
	seen := map[int]bool{}
	for _, t := range Terms(request) {
		id, ok := idx.vocab[t]
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		df := float64(len(idx.post[id]))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range idx.post[id] {
			f := float64(p.n)
			norm := 1 - bm25B + bm25B*float64(idx.lens[p.at])/idx.avgLen
			s := &out[p.at]
			s.Score += idf * f * (bm25K1 + 1) / (f + bm25K1*norm)
			s.Terms = append(s.Terms, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// Pair is two agents whose descriptions are too alike.
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
	// Similarity is the cosine of their word counts, 0 to 1.
	Similarity float64 `json:"similarity"`
	// Shared are the words both hold, most frequent first.
	Shared []string `json:"shared"`
}

// Similar returns the pairs of indexed agents whose descriptions, on
// their own, are at least threshold alike (cosine of their word counts; 0
// means SimilarThreshold), most alike first. Names are left out: the
// ranking weighs them, but two descriptions that say the same thing leave
// a request nothing to tell the agents apart by.
func (idx *Index) Similar(threshold float64) []Pair {
	if threshold <= 0 {
		threshold = SimilarThreshold
	}
	norms := make([]float64, len(idx.dvecs))
	for i, v := range idx.dvecs {
		for _, p := range v {
			norms[i] += float64(p.n * p.n)
		}
		norms[i] = math.Sqrt(norms[i])
	}
	var out []Pair
	for i := range idx.dvecs {
		for j := i + 1; j < len(idx.dvecs); j++ {
			if norms[i] == 0 || norms[j] == 0 {
				continue
			}
			dot := 0
			common(idx.dvecs[i], idx.dvecs[j], func(a, b posting) { dot += a.n * b.n })
			sim := float64(dot) / (norms[i] * norms[j])
			if sim < threshold {
				continue
			}
			out = append(out, idx.pair(i, j, sim))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Similarity > out[j].Similarity })
	return out
}

// common calls f for each term two agents' vectors (sorted by term) share.
func common(a, b []posting, f func(a, b posting)) {
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x].at < b[y].at:
			x++
		case a[x].at > b[y].at:
			y++
		default:
			f(a[x], b[y])
			x++
			y++
		}
	}
}

// pair describes agents i and j, sim alike.
func (idx *Index) pair(i, j int, sim float64) Pair {
	words := make([]string, len(idx.vocab))
	for w, id := range idx.vocab {
		words[id] = w
	}
	type shared struct {
		w string
		n int
	}
	var sh []shared
	common(idx.dvecs[i], idx.dvecs[j], func(a, b posting) { sh = append(sh, shared{words[a.at], a.n + b.n}) })
	sort.Slice(sh, func(x, y int) bool {
		if sh[x].n != sh[y].n {
			return sh[x].n > sh[y].n
		}
		return sh[x].w < sh[y].w
	})
	p := Pair{A: idx.names[i], B: idx.names[j], Similarity: sim}
	for _, s := range sh {
		p.Shared = append(p.Shared, s.w)
	}
	return p
}

// Terms splits text into the words the ranking compares: lower case,
// letters and digits, common English words left out, a plural or -ing/-ed
// ending taken off a longer word.
func Terms(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopWords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// stem takes a common ending off a word: -s off one of four letters or
// more (not -ss, -us, -is); off a longer one also -ies (y), -es after ss,
// x, ch or sh, -ing, -ed.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	switch {
	case len(w) == 4:
		if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
			return w[:3]
		}
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		return w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		return w[:len(w)-2]
	}
	return w
}

// stopWords are words too common to tell agents apart.
var stopWords = wordSet(`a an the and or but if of to in on at by for with from into onto about
	as is are was were be been being do does did done have has had it its this that these those
	i me my we our you your he she they them their what which who whom when where why how
	can could should would will shall may might must not no nor so than too very just also
	any all each every some such only own same other more most less few up down out over under
	use used uses using when then there here one ones please before after again`)

// wordSet is the set of the white-space separated words of s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}
