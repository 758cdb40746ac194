package lint

import (
	"strings"
	"testing"
)

// BenchmarkParseLargeBody parses a definition whose 1 MB body is counted
// for body-large: the one case where Parse tokenizes.
func BenchmarkParseLargeBody(b *testing.B) {
	data := []byte("---\nname: big\ndescription: d\n---\n\n" + strings.Repeat("Read the files you need and quote paths. ", 25000))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if f := Parse("big.md", data, Runtime); len(f.Diagnostics) != 1 {
			b.Fatalf("diagnostics %v, want one body-large", f.Diagnostics)
		}
	}
}
