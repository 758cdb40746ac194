package rundiff

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Spread is what several runs of the same task did: how often each
// outcome and each tool sequence came up, and how long the outputs were,
// so that one lucky run is not taken for an improvement.
type Spread struct {
	Runs      int `json:"runs"`
	Completed int `json:"completed"`
	// Outcomes count "Outcome (reason)" per run, most frequent first.
	Outcomes []Count `json:"outcomes"`
	// ToolSequences count the sequences of tool names ("file_read →
	// file_search"; "(none)"), most frequent first.
	ToolSequences []Count `json:"tool_sequences"`
	// OutputWords are the outputs' lengths in words: the shortest, the
	// median and the longest.
	OutputWords MinMedMax `json:"output_words"`
}

// Count is a value and how many runs had it.
type Count struct {
	Value string `json:"value"`
	N     int    `json:"n"`
}

// MinMedMax is a least, a median and a greatest value.
type MinMedMax struct {
	Min    int `json:"min"`
	Median int `json:"median"`
	Max    int `json:"max"`
}

// SpreadOf sums up runs of one task.
func SpreadOf(recs []runfolder.Record) Spread {
	sp := Spread{Runs: len(recs), Outcomes: []Count{}, ToolSequences: []Count{}}
	outcomes, seqs := map[string]int{}, map[string]int{}
	var words []int
	for i := range recs {
		r := &recs[i]
		if r.Outcome == vocab.Completed {
			sp.Completed++
		}
		outcomes[withReason(vocab.OutcomeText(r.Outcome), r.Reason)]++
		var names []string
		for _, c := range r.ToolCalls {
			names = append(names, c.Name)
		}
		seq := strings.Join(names, " → ")
		if seq == "" {
			seq = "(none)"
		}
		seqs[seq]++
		words = append(words, countWords(r.Output))
	}
	sp.Outcomes, sp.ToolSequences = counted(outcomes), counted(seqs)
	if len(words) > 0 {
		slices.Sort(words)
		sp.OutputWords = MinMedMax{Min: words[0], Median: words[len(words)/2], Max: words[len(words)-1]}
	}
	return sp
}

// counted orders the counts, most frequent first, then by value.
func counted(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for v, n := range m {
		out = append(out, Count{v, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Value < out[j].Value
	})
	return out
}

// SpreadText renders the spread in a few lines.
func SpreadText(sp Spread) string {
	var b strings.Builder
	fmt.Fprintf(&b, "spread of %d samples: %d completed\n", sp.Runs, sp.Completed)
	b.WriteString("  outcomes:")
	for _, c := range sp.Outcomes {
		fmt.Fprintf(&b, " %s ×%d;", termsafe.Escape(c.Value), c.N)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  tool sequences: %d distinct\n", len(sp.ToolSequences))
	for _, c := range sp.ToolSequences {
		seq := c.Value
		if r := []rune(seq); len(r) > 100 {
			seq = string(r[:99]) + "…"
		}
		fmt.Fprintf(&b, "    ×%d  %s\n", c.N, termsafe.Escape(seq))
	}
	fmt.Fprintf(&b, "  output words: min %s, median %s, max %s\n", thousands(int64(sp.OutputWords.Min)), thousands(int64(sp.OutputWords.Median)), thousands(int64(sp.OutputWords.Max)))
	return b.String()
}
