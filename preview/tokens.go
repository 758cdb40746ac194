package preview

import (
	"cmp"
	"runtime"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/lint"
)

// TokenEncoding names the encoding token counts use (lint.TokenEncoding):
// exact for o200k_base models, an estimate for others.
const TokenEncoding = lint.TokenEncoding

// CountTokens returns the number of o200k_base tokens in text
// (lint.CountTokens, which lint's body-large rule shares).
func CountTokens(text string) int { return lint.CountTokens(text) }

// AgentTokens is what one agent's block in the layer costs.
type AgentTokens struct {
	// Name is the agent's name as the layer prints it.
	Name string
	// Tokens is the number of tokens of the agent's block (Block), its
	// trailing blank line included.
	Tokens int
}

// LayerCost is what the layer costs the frontline model on every turn.
type LayerCost struct {
	// Total is the number of tokens of the whole layer.
	Total int
	// Agents holds one entry per listed agent, in the layer's order.
	Agents []AgentTokens
	// Fixed is the number of tokens of the text around the blocks: the
	// header and the delegation instructions, or the whole layer when it
	// lists no agent. Total is Fixed plus the sum of the agents' tokens,
	// because the encoder's pre-tokenizer always splits at a block's edges.
	Fixed int
}

// ByCost returns the agents' counts most expensive first; agents that cost
// the same keep the layer's order. It is the order that shows an author
// which description to shorten.
func (lc LayerCost) ByCost() []AgentTokens {
	out := slices.Clone(lc.Agents)
	slices.SortStableFunc(out, func(x, y AgentTokens) int { return cmp.Compare(y.Tokens, x.Tokens) })
	return out
}

// LayerTokens counts the tokens of Layer(c, a), in total and per agent. The
// per-agent numbers show which description is expensive: every turn of every
// session of the audience pays them.
//
// Block counts are remembered (up to blockCacheSize distinct blocks), so a
// browser that recounts after every edit pays only for the blocks that
// changed; a large layer's new blocks are counted on all CPUs.
func LayerTokens(c *lint.Catalog, a Audience) LayerCost {
	if !Enabled(c, a) {
		return LayerCost{}
	}
	defs := Listed(c, a)
	if len(defs) == 0 {
		n := CountTokens(emptyLayer(c.Home.Agents))
		return LayerCost{Total: n, Fixed: n}
	}
	cost := LayerCost{Agents: make([]AgentTokens, len(defs))}
	cost.Fixed = fixedTokens()
	cost.Total = cost.Fixed
	counts := blockTokens(defs)
	for i, d := range defs {
		cost.Agents[i] = AgentTokens{Name: d.Name, Tokens: counts[i]}
		cost.Total += counts[i]
	}
	return cost
}

// fixedTokens is the count of the header and the delegation instructions.
var fixedTokens = sync.OnceValue(func() int {
	return CountTokens(layerHeader+"\n\n") + CountTokens(layerFooter)
})

// blockCacheSize bounds the remembered block counts; the cache starts over
// when it is full.
const blockCacheSize = 1 << 16

var blockCache = struct {
	sync.Mutex
	counts map[string]int
}{counts: map[string]int{}}

// blockTokens returns the token count of each definition's block, from the
// cache where it can, counting the rest in parallel.
func blockTokens(defs []*lint.Definition) []int {
	counts := make([]int, len(defs))
	blocks := make([]string, len(defs))
	var todo []int
	blockCache.Lock()
	for i, d := range defs {
		blocks[i] = Block(d)
		if n, ok := blockCache.counts[blocks[i]]; ok {
			counts[i] = n
		} else {
			todo = append(todo, i)
		}
	}
	blockCache.Unlock()
	if len(todo) == 0 {
		return counts
	}

	workers := min(runtime.GOMAXPROCS(0), (len(todo)+63)/64)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(todo); k += workers {
				i := todo[k]
				counts[i] = CountTokens(blocks[i])
			}
		})
	}
	wg.Wait()

	blockCache.Lock()
	if len(blockCache.counts)+len(todo) > blockCacheSize {
		clear(blockCache.counts)
	}
	if len(todo) <= blockCacheSize {
		for _, i := range todo {
			blockCache.counts[blocks[i]] = counts[i]
		}
	}
	blockCache.Unlock()
	return counts
}
