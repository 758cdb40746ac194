package adapt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// benchDefs returns n definitions with realistic bodies and tool lists.
func benchDefs(b *testing.B, n int) []*lint.Definition {
	b.Helper()
	body := strings.Repeat("Read the files you need and explain how the code works, citing lines.\n", 40)
	defs := make([]*lint.Definition, n)
	for i := range defs {
		text := fmt.Sprintf("---\nname: agent-%d\ndescription: Agent number %d explains code.\ntools: [file_read, web_fetch, attach_file]\nmodelRole: Main\n---\n%s", i, i, body)
		f := lint.Parse(fmt.Sprintf("agents/agent-%d.md", i), []byte(text), lint.Runtime)
		if f.Status != lint.Loaded {
			b.Fatal(f.Reason)
		}
		defs[i] = f.Def
	}
	return defs
}

// BenchmarkExport1000 converts 1,000 definitions for each target.
func BenchmarkExport1000(b *testing.B) {
	defs := benchDefs(b, 1000)
	for _, tg := range Targets() {
		b.Run(tg.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range defs {
					if _, err := tg.Export(d); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkImport1000 reads back 1,000 exported files for each importable
// target, lint check of the result included.
func BenchmarkImport1000(b *testing.B) {
	defs := benchDefs(b, 1000)
	for _, id := range TargetIDs(true) {
		tg, _ := Lookup(id)
		files := make([]*Exported, len(defs))
		for i, d := range defs {
			files[i], _ = tg.Export(d)
		}
		b.Run(id, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, e := range files {
					if _, err := tg.Import(e.File, e.Data); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkPlanUnchanged1000 plans a rerun over 1,000 files already
// exported: every file is read and hashed.
func BenchmarkPlanUnchanged1000(b *testing.B) {
	defs := benchDefs(b, 1000)
	tg, _ := Lookup("claude-code")
	dir := b.TempDir()
	d, err := OpenDestination(dir, tg)
	if err != nil {
		b.Fatal(err)
	}
	sources := make([]Source, len(defs))
	for i, def := range defs {
		e, _ := tg.Export(def)
		sources[i] = Source{Name: def.Name, Path: "agents/" + def.Name + ".md", Out: e}
	}
	live := func(StateEntry) bool { return true }
	p, err := d.Plan(sources, live)
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d, err := OpenDestination(dir, tg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Plan(sources, live); err != nil {
			b.Fatal(err)
		}
	}
}
