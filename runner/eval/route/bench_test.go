package route

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// BenchmarkSuiteOffline replays a routing suite of 100 recorded cases as
// agentdesk route --suite --offline does: each a frontline run from its
// recording, classified, then the confusion table.
func BenchmarkSuiteOffline(b *testing.B) {
	f := newFixture(b, wire.OpenAI, "")
	f.srv.SetDefault(modeltest.Script{Steps: []modeltest.Step{
		modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer","task":"t","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools),
	}})
	var sb strings.Builder
	sb.WriteString("samples: 1\ncases:\n")
	for i := range 100 {
		fmt.Fprintf(&sb, "  - {name: case %d, request: review change %d, expect: reviewer}\n", i, i)
	}
	path := filepath.Join(f.home.Agents, "bench.route.yaml")
	hometest.WriteFile(b, path, sb.String())
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	run := func(mode evalrec.Mode) *SuiteResult {
		s := suitefile.LoadRoute(path)
		suitefile.CheckRoute(s, cat)
		return RunSuite(context.Background(), s, SuiteOptions{Runner: f.runner, Catalog: cat, Mode: mode, Jobs: 4})
	}
	if r := run(evalrec.Record); r.Status() != Pass {
		b.Fatalf("recording: %s", r.Status())
	}
	f.srv.Close()
	b.ResetTimer()
	for b.Loop() {
		r := run(evalrec.Offline)
		if r.Status() != Pass {
			b.Fatalf("offline: %s", r.Status())
		}
		Confusions([]*SuiteResult{r}, cat)
	}
}

// BenchmarkClassify reads a first reply that spawns an agent.
func BenchmarkClassify(b *testing.B) {
	f := newFixture(b, wire.OpenAI, "")
	rec := &runfolder.Record{Outcome: vocab.Completed, ToolCalls: []runfolder.ToolCall{{Call: 1, Name: "spawn_agent", Arguments: `{"agent":"reviewer","task":"Review the staged diff","context":"PR 42","_rationale":"review"}`, Complete: true}}}
	b.ReportAllocs()
	for b.Loop() {
		Classify(f.cat, preview.Personal, rec)
	}
}
