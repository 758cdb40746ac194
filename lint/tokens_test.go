package lint

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestCountTokensMemo checks that a remembered count is the encoder's count,
// the first time and the next, for short texts, a text over the memo's size
// limit (never remembered) and invalid UTF-8, from concurrent callers.
func TestCountTokensMemo(t *testing.T) {
	cases := []struct {
		name, text string
		want       int
	}{
		{"empty", "", 0},
		{"two words", "hello world", 2},
		{"invalid utf-8", "a\xffb", -1},
		{"prompt part", strings.Repeat("Never invent runtime facts; cite the tool result you used.\n", 50), -1},
		{"over the memo's limit", strings.Repeat("word ", memoMaxText/5+1), -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want < 0 {
				want = countTokens(c.text)
			}
			var wg sync.WaitGroup
			got := make([]int, 4)
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = CountTokens(c.text)
				}()
			}
			wg.Wait()
			for i, n := range append(got, CountTokens(c.text)) {
				if n != want {
					t.Errorf("call %d counted %d tokens, want %d", i, n, want)
				}
			}
			memo.mu.RLock()
			_, kept := memo.counts[c.text]
			memo.mu.RUnlock()
			if wantKept := c.text != "" && len(c.text) <= memoMaxText; kept != wantKept {
				t.Errorf("remembered = %v, want %v", kept, wantKept)
			}
		})
	}
}

// TestCountTokensMemoBound checks that the memo stops growing at its bound
// and that texts past it are still counted right.
func TestCountTokensMemoBound(t *testing.T) {
	for i := 0; i < memoMaxEntries+20; i++ {
		text := fmt.Sprintf("text number %d", i)
		if got, want := CountTokens(text), countTokens(text); got != want {
			t.Fatalf("%q: %d tokens, want %d", text, got, want)
		}
	}
	memo.mu.RLock()
	n := len(memo.counts)
	memo.mu.RUnlock()
	if n > memoMaxEntries {
		t.Errorf("memo holds %d texts, bound is %d", n, memoMaxEntries)
	}
}

// BenchmarkCountTokensRepeated counts the same 3 KB prompt part again and
// again, as composing each sample of a suite does.
func BenchmarkCountTokensRepeated(b *testing.B) {
	text := strings.Repeat("Never invent runtime facts; cite the tool result you used.\n", 50)
	for b.Loop() {
		CountTokens(text)
	}
}
