package tui

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// batchRows is what the Run pane showed before streaming was linear: the
// whole text sanitised and wrapped at once (thinking without the line
// breaks at its ends, CRLF ones included).
func batchRows(text string, trim bool, w int) []string {
	if trim {
		for {
			if t, ok := strings.CutPrefix(text, "\r\n"); ok {
				text = t
			} else if t, ok := strings.CutPrefix(text, "\n"); ok {
				text = t
			} else {
				break
			}
		}
		for {
			if t, ok := strings.CutSuffix(text, "\r\n"); ok {
				text = t
			} else if t, ok := strings.CutSuffix(text, "\n"); ok {
				text = t
			} else {
				break
			}
		}
	}
	return wrap(SanitizeText(text), w)
}

func streamRows(s *streamText, w int) []string {
	rows, open := s.lines(w)
	return append(append([]string(nil), rows...), open)
}

// TestStreamTextMatchesBatch streams random text in random pieces and
// checks that the rows are those of wrapping the whole text at once, at
// every step and after a change of width.
func TestStreamTextMatchesBatch(t *testing.T) {
	atoms := []string{"a", "bb", "word", "longerwordthanthewidth", " ", "  ", "\n", "\n\n", "\t", "\r\n", "\r", "é", "日本", "\x1b[31m", "\xff", "--no-tools", "path/to/file.go", "\u202e"}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 400; trial++ {
		var b strings.Builder
		for n := rng.IntN(60); n >= 0; n-- {
			b.WriteString(atoms[rng.IntN(len(atoms))])
		}
		text := b.String()
		for _, trim := range []bool{false, true} {
			w := 3 + rng.IntN(20)
			s := &streamText{trim: trim}
			s.lines(w)
			for done := 0; done < len(text); {
				n := min(1+rng.IntN(9), len(text)-done)
				s.add(text[done : done+n])
				done += n
				if !strings.HasSuffix(text[:done], "\r") && incompleteSuffix(text[:done]) == 0 {
					if got, want := streamRows(s, w), batchRows(text[:done], trim, w); strings.Join(got, "|") != strings.Join(want, "|") {
						t.Fatalf("trim=%v w=%d after %q:\n got %q\nwant %q", trim, w, text[:done], got, want)
					}
				}
			}
			w2 := 3 + rng.IntN(20)
			if got, want := streamRows(s, w2), batchRows(text, trim, w2); !strings.HasSuffix(text, "\r") && incompleteSuffix(text) == 0 && strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("trim=%v new width %d of %q:\n got %q\nwant %q", trim, w2, text, got, want)
			}
		}
	}
}
