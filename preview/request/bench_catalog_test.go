package request

import (
	"testing"

	"github.com/agentdesk/agentdesk/preview"
)

// Building the first-party catalogue (every schema generated), resolving a
// sub-agent's tools and rendering the index: the work a spawn preview does
// when nothing is cached.
func BenchmarkCatalogAndIndex(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c := newNetClaw()
		o := c.SubAgentTools(preview.Personal, DefaultPolicy())
		if o.Index() == "" {
			b.Fatal("no index")
		}
	}
}

// Resolving a sub-agent's tools and index from the built catalogue, as
// each run does.
func BenchmarkSubAgentTools(b *testing.B) {
	b.ReportAllocs()
	p := DefaultPolicy()
	for b.Loop() {
		o := NetClaw().SubAgentTools(preview.Team, p)
		_ = o.Index()
	}
}

// Checking and stripping a call's meta arguments.
func BenchmarkExtractMeta(b *testing.B) {
	tool, _ := NetClaw().Tool("file_edit")
	text := []byte(`{"Path":"/p/main.go","OldString":"a","NewString":"b","_rationale":"Fix the typo.","_timeout_seconds":30}`)
	b.ReportAllocs()
	for b.Loop() {
		a, err := ParseArgs(text)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, refusal := ExtractMeta(tool, a); refusal != "" {
			b.Fatal(refusal)
		}
	}
}
