package lint

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// TokenEncoding names the encoding token counts use: OpenAI's o200k_base,
// whose vocabulary github.com/tiktoken-go/tokenizer compiles into the
// program, so counting never needs the network. The count is exact for
// o200k_base models; other models' tokenizers count differently, so for them
// it is an estimate.
const TokenEncoding = "o200k_base"

// encoder is the o200k_base codec, built on first use. The codec's merge
// tables are read-only after construction and its regular expression hands
// each call its own matcher, so one codec serves concurrent callers.
var encoder = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.O200kBase)
})

// CountTokens returns the number of o200k_base tokens in text. Invalid UTF-8
// is counted byte by byte, as the encoder sees it. It never fails on any
// input: should the encoder fail (it cannot, short of a broken build), the
// count falls back to one token per four bytes, rounded up.
//
// Counts of texts up to memoMaxText bytes are remembered, the first
// memoMaxEntries of them for the life of the process: composing a request
// counts the same prompt parts for every sample of a suite (about a third
// of a millisecond each with o200k_base), and the count of a text never
// changes.
func CountTokens(text string) int {
	if text == "" {
		return 0
	}
	if len(text) <= memoMaxText {
		memo.mu.RLock()
		n, ok := memo.counts[text]
		memo.mu.RUnlock()
		if ok {
			return n
		}
	}
	n := countTokens(text)
	if len(text) <= memoMaxText {
		memo.mu.Lock()
		if len(memo.counts) < memoMaxEntries {
			memo.counts[text] = n
		}
		memo.mu.Unlock()
	}
	return n
}

// The memo's bounds: at most memoMaxEntries texts of at most memoMaxText
// bytes each (16 MiB in all, in the worst case), kept once added.
const (
	memoMaxText    = 64 << 10
	memoMaxEntries = 256
)

// memo holds remembered counts by text.
var memo = struct {
	mu     sync.RWMutex
	counts map[string]int
}{counts: map[string]int{}}

// countTokens counts text with the encoder, uncached.
func countTokens(text string) int {
	enc, err := encoder()
	if err == nil {
		var n int
		if n, err = enc.Count(text); err == nil {
			return n
		}
	}
	return (len(text) + 3) / 4
}
