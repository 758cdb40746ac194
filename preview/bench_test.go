package preview

import (
	"strconv"
	"testing"
)

// BenchmarkLayer10000 builds the layer of 10,000 agents (the target is under
// 50 ms an operation).
func BenchmarkLayer10000(b *testing.B) {
	c := bigCatalog(10_000, 1)
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(Layer(c, Personal))
	}
	b.SetBytes(int64(n))
}

// BenchmarkCountTokensLayer10000 counts the tokens of a 10,000-agent layer
// in one piece.
func BenchmarkCountTokensLayer10000(b *testing.B) {
	text := Layer(bigCatalog(10_000, 1), Personal)
	CountTokens("warm up the encoder")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		CountTokens(text)
	}
}

// BenchmarkLayerTokens10000 counts a 10,000-agent layer in total and per
// agent from a cold cache, as the first `agentdesk preview` does.
func BenchmarkLayerTokens10000(b *testing.B) {
	c := bigCatalog(10_000, 1)
	CountTokens("warm up the encoder")
	for b.Loop() {
		resetBlockCache()
		LayerTokens(c, Personal)
	}
}

// BenchmarkLayerTokensAfterEdit10000 recounts a 10,000-agent layer after
// one description changed, as the browser does after an edit.
func BenchmarkLayerTokensAfterEdit10000(b *testing.B) {
	c := bigCatalog(10_000, 1)
	LayerTokens(c, Personal)
	d := c.Files[0].Def
	base := d.Description
	i := 0
	for b.Loop() {
		i++
		d.Description = base + strconv.Itoa(i)
		LayerTokens(c, Personal)
	}
}

// BenchmarkDiffLayers10000 diffs two 10,000-agent layers that differ the way
// an edit session leaves them: 100 descriptions changed, 10 agents added and
// 10 removed.
func BenchmarkDiffLayers10000(b *testing.B) {
	c := bigCatalog(10_000, 1)
	before := Layer(c, Personal)
	for i := 0; i < 10_000; i += 100 {
		c.Files[i].Def.Description += " Now with one more sentence."
	}
	c.Files = c.Files[10:]
	c.Files = append(c.Files, bigCatalog(10, 9).Files...)
	after := Layer(c, Personal)
	b.SetBytes(int64(len(before) + len(after)))
	for b.Loop() {
		Diff(before, after)
	}
}

// BenchmarkDiffUnrelatedLayers10000 diffs two 10,000-agent layers with no
// agent in common, the worst case for the shared lines of every block.
func BenchmarkDiffUnrelatedLayers10000(b *testing.B) {
	before := Layer(bigCatalog(10_000, 1), Personal)
	after := Layer(bigCatalog(10_000, 2), Personal)
	b.SetBytes(int64(len(before) + len(after)))
	for b.Loop() {
		Diff(before, after)
	}
}
