package rundiff

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// benchFolder writes a run folder with a 1 MB output and 200 tool calls;
// edit changes every editEvery-th word and every tenth call.
func benchFolder(b *testing.B, dir, id string, edit bool) {
	var out strings.Builder
	for i := 0; out.Len() < 1<<20; i++ {
		w := fmt.Sprintf("word%d", i)
		if edit && i%1000 == 0 {
			w = "edited"
		}
		out.WriteString(w)
		if i%17 == 16 {
			out.WriteString("\n")
		} else {
			out.WriteString(" ")
		}
	}
	rec := runfolder.Record{RunID: id, Agent: "tester", State: vocab.StateCompleted, Outcome: vocab.Outcome("Completed"), Output: out.String(),
		StartedAt: time.Unix(1_700_000_000, 0)}
	for i := range 200 {
		args := fmt.Sprintf(`{"Path":"file%d.txt"}`, i)
		if edit && i%10 == 0 {
			args = fmt.Sprintf(`{"Path":"other%d.txt"}`, i)
		}
		rec.ToolCalls = append(rec.ToolCalls, runfolder.ToolCall{Call: i + 1, Name: []string{"file_read", "shell_execute", "file_search"}[i%3],
			Arguments: args, Complete: true, Result: &runfolder.ToolResult{Text: "ok", Label: "overlay"}})
	}
	data, err := rec.MarshalIndent()
	if err != nil {
		b.Fatal(err)
	}
	hometest.WriteFile(b, filepath.Join(dir, runfolder.RunFile), string(data))
	line, _ := json.Marshal(runfolder.TranscriptEntry{Type: "request", System: strings.Repeat("You are a tester.\n", 500), Message: "Task:\nfind the port"})
	hometest.WriteFile(b, filepath.Join(dir, runfolder.TranscriptFile), string(line)+"\n")
}

// BenchmarkCompare loads, compares and renders two runs with 1 MB outputs
// and 200 tool calls each (target: under 50 ms).
func BenchmarkCompare(b *testing.B) {
	base := b.TempDir()
	da, db := filepath.Join(base, "a"), filepath.Join(base, "b")
	benchFolder(b, da, strings.Repeat("a", 32), false)
	benchFolder(b, db, strings.Repeat("b", 32), true)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		ra, err := Load(da)
		if err != nil {
			b.Fatal(err)
		}
		rb, err := Load(db)
		if err != nil {
			b.Fatal(err)
		}
		c := Compare(ra, rb)
		if c.Output.Added == 0 || c.ToolCalls.Changed != 20 {
			b.Fatalf("added %d, changed calls %d", c.Output.Added, c.ToolCalls.Changed)
		}
		_ = Text(c, false)
	}
	// The CPU time the process spent per comparison (GC included): on a
	// loaded machine the wall time per op says more about the load.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}
