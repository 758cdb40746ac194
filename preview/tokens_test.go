package preview

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestCountTokens(t *testing.T) {
	// Expected counts are tiktoken's own for o200k_base.
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"hello  world", 3},
		{"supercalifragilistic", 6},
		{"We know what we are, but know not what we may be.", 14},
	}
	for _, tt := range tests {
		if got := CountTokens(tt.text); got != tt.want {
			t.Errorf("CountTokens(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestCountTokensInvalidUTF8(t *testing.T) {
	// Invalid bytes are counted, not rejected, and never panic.
	if got := CountTokens("ab\xff\xfecd"); got < 2 {
		t.Errorf("CountTokens of invalid UTF-8 = %d, want at least 2", got)
	}
}

// TestLayerTokensAddUp checks that the per-agent counts and the fixed text
// add up to the count of the whole layer, on layers whose descriptions end
// in letters, punctuation, digits, white space and non-Latin text.
func TestLayerTokensAddUp(t *testing.T) {
	odd := handCatalog(agentsDir, nil,
		agentSpec{name: "dots", desc: "Ends with punctuation..."},
		agentSpec{name: "digits", desc: "Ends with digits 12345"},
		agentSpec{name: "newline", desc: "Two\nlines"},
		agentSpec{name: "cjk", desc: "日本語の説明文"},
		agentSpec{name: "emoji", desc: "Rockets 🚀🚀"},
		agentSpec{name: "quote", desc: "He said 'ok'"},
		agentSpec{name: "slash", desc: "path/to/"},
		agentSpec{name: "tabs", desc: "tab\tinside"},
		agentSpec{name: "Mixed Case Name", desc: "x", timeout: 600},
		agentSpec{name: "hidden", desc: "internal", internal: true},
	)
	for name, c := range map[string]*lint.Catalog{
		"odd":   odd,
		"big":   bigCatalog(300, 3),
		"one":   handCatalog(agentsDir, nil, agentSpec{name: "a", desc: "b"}),
		"empty": handCatalog(agentsDir, nil),
	} {
		t.Run(name, func(t *testing.T) {
			cost := LayerTokens(c, Personal)
			if want := CountTokens(Layer(c, Personal)); cost.Total != want {
				t.Errorf("Total = %d, want %d, the count of the whole layer", cost.Total, want)
			}
			sum := cost.Fixed
			for _, a := range cost.Agents {
				if a.Tokens <= 0 {
					t.Errorf("agent %q costs %d tokens", a.Name, a.Tokens)
				}
				sum += a.Tokens
			}
			if sum != cost.Total {
				t.Errorf("Fixed + agents = %d, Total = %d", sum, cost.Total)
			}
			defs := Listed(c, Personal)
			if len(cost.Agents) != len(defs) {
				t.Fatalf("%d agent counts for %d listed agents", len(cost.Agents), len(defs))
			}
			for i, d := range defs {
				if cost.Agents[i].Name != d.Name || cost.Agents[i].Tokens != CountTokens(Block(d)) {
					t.Errorf("agent %d = %+v, want %s with %d tokens", i, cost.Agents[i], d.Name, CountTokens(Block(d)))
				}
			}
		})
	}
}

func TestLayerTokensDisabled(t *testing.T) {
	c := handCatalog(agentsDir, nil, agentSpec{name: "a", desc: "b"})
	if got := LayerTokens(c, Public); got.Total != 0 || got.Fixed != 0 || len(got.Agents) != 0 {
		t.Errorf("Public layer costs %+v, want nothing", got)
	}
}

func TestLayerTokensLongDescriptionCostsMore(t *testing.T) {
	c := handCatalog(agentsDir, nil,
		agentSpec{name: "short", desc: "Summarises logs."},
		agentSpec{name: "verbose", desc: strings.Repeat("Summarises logs with great care and attention to detail. ", 20)},
	)
	cost := LayerTokens(c, Personal)
	if cost.Agents[0].Name != "short" || cost.Agents[1].Name != "verbose" || cost.Agents[1].Tokens < 5*cost.Agents[0].Tokens {
		t.Errorf("the verbose agent should cost far more: %+v", cost.Agents)
	}
}

// TestCountTokensConcurrent counts from many goroutines at once; run with
// -race it checks the shared encoder is safe for concurrent use.
func TestCountTokensConcurrent(t *testing.T) {
	texts := []string{"hello world", Layer(bigCatalog(20, 5), Personal), "日本語の説明文", "We know what we are."}
	want := make([]int, len(texts))
	for i, s := range texts {
		want[i] = CountTokens(s)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 20 {
				i := (g + k) % len(texts)
				if got := CountTokens(texts[i]); got != want[i] {
					t.Errorf("goroutine %d: CountTokens = %d, want %d", g, got, want[i])
				}
			}
		})
	}
	wg.Wait()
}

// FuzzLayerTokens checks, for any names and descriptions, that the per-agent
// counts plus the fixed text add up to the count of the whole layer.
func FuzzLayerTokens(f *testing.F) {
	f.Add("reviewer", "Reviews diffs.", "Écrivain", "Écrit 日本語 🚀", 60)
	f.Add("a", "ends with newline\n", "b", "  spaced  ", 5)
	f.Add("x", "'s", "y", "\r\n", 600)
	f.Fuzz(func(t *testing.T, n1, d1, n2, d2 string, timeout int) {
		c := handCatalog(agentsDir, nil,
			agentSpec{name: n1, desc: d1, timeout: timeout},
			agentSpec{name: n2, desc: d2},
		)
		cost := LayerTokens(c, Personal)
		if want := CountTokens(Layer(c, Personal)); cost.Total != want {
			t.Fatalf("Total %d, whole layer %d", cost.Total, want)
		}
	})
}

func resetBlockCache() {
	blockCache.Lock()
	clear(blockCache.counts)
	blockCache.Unlock()
}

// TestLayerTokensCache checks that remembered counts equal fresh ones, and
// that an edited description is recounted.
func TestLayerTokensCache(t *testing.T) {
	c := bigCatalog(200, 11)
	resetBlockCache()
	cold := LayerTokens(c, Personal)
	warm := LayerTokens(c, Personal)
	if cold.Total != warm.Total || !slices.Equal(cold.Agents, warm.Agents) {
		t.Fatalf("cached counts differ: %d vs %d", cold.Total, warm.Total)
	}
	d := Listed(c, Personal)[0]
	d.Description += " And now it also writes a long and detailed report about everything it did."
	edited := LayerTokens(c, Personal)
	if edited.Agents[0].Tokens <= cold.Agents[0].Tokens || edited.Agents[0].Tokens != CountTokens(Block(d)) {
		t.Errorf("edited block counts %d, was %d, fresh count %d", edited.Agents[0].Tokens, cold.Agents[0].Tokens, CountTokens(Block(d)))
	}
	if edited.Total != CountTokens(Layer(c, Personal)) {
		t.Errorf("edited total %d, whole layer %d", edited.Total, CountTokens(Layer(c, Personal)))
	}
}

// TestLayerTokensConcurrent counts layers from several goroutines while the
// cache fills; run with -race.
func TestLayerTokensConcurrent(t *testing.T) {
	resetBlockCache()
	cats := []*lint.Catalog{bigCatalog(150, 21), bigCatalog(150, 22), bigCatalog(150, 21)}
	var wg sync.WaitGroup
	totals := make([]int, len(cats))
	for i, c := range cats {
		wg.Go(func() { totals[i] = LayerTokens(c, Personal).Total })
	}
	wg.Wait()
	for i, c := range cats {
		if want := CountTokens(Layer(c, Personal)); totals[i] != want {
			t.Errorf("catalog %d: total %d, want %d", i, totals[i], want)
		}
	}
}

func TestLayerCostByCost(t *testing.T) {
	lc := LayerCost{Agents: []AgentTokens{{"a", 5}, {"b", 9}, {"c", 5}, {"d", 1}, {"e", 9}}}
	var got []string
	for _, at := range lc.ByCost() {
		got = append(got, at.Name)
	}
	if strings.Join(got, " ") != "b e a c d" {
		t.Errorf("ByCost order %v, want b e a c d (ties in layer order)", got)
	}
	if lc.Agents[0].Name != "a" {
		t.Error("ByCost must not reorder the layer's own list")
	}
}
