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
func CountTokens(text string) int {
	if text == "" {
		return 0
	}
	enc, err := encoder()
	if err == nil {
		var n int
		if n, err = enc.Count(text); err == nil {
			return n
		}
	}
	return (len(text) + 3) / 4
}
