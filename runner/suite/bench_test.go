package suite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	lintsuite "github.com/agentdesk/agentdesk/lint/suite"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// benchCases is the number of recorded cases BenchmarkOffline replays.
const benchCases = 200

var benchJobs = 4

// BenchmarkOffline replays a suite of 200 recorded cases offline, as
// agentdesk test --offline does in CI: each case one sample with a tool
// call, two model calls and a judge. One recording is made against the
// test server and copied to every case (they share a task), then every
// iteration replays all 200, each into its own run folder.
func BenchmarkOffline(b *testing.B) {
	t := &testing.T{}
	f := &fixture{t: t, srv: modeltest.NewServer(), replies: map[string][]modeltest.Script{}, turn: map[string]int{}, judge: map[string]string{}, byTurn: map[string]bool{}}
	defer f.srv.Close()
	base := b.TempDir()
	f.home = lint.NewHome(base, "")
	f.runs = filepath.Join(base, "runs")
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(f.home.Agents, "fixture"), 0o755))
	must(os.WriteFile(filepath.Join(f.home.Agents, "tester.md"), []byte(testerMD), 0o644))
	must(os.WriteFile(filepath.Join(f.home.Agents, "fixture", "main.go"), []byte("// listens on 8080\n"), 0o644))
	f.config("test-model", 300)
	f.srv.SetChooser(f.choose)
	f.conversation("find the port", toolScript("c1", "main.go"), modeltest.Script{Gap: time.Millisecond,
		Steps: append(words("The server listens on port 8080, set in main.go on line 1. "+strings.Repeat("More words here. ", 40)), modeltest.Stop())})
	f.judge["names the port"] = "PASS: it names 8080."

	var sb strings.Builder
	sb.WriteString("cases:\n")
	for i := 0; i < benchCases; i++ {
		fmt.Fprintf(&sb, "  - name: case %d\n    task: find the port\n    project: fixture\n    expect:\n      contains: '8080'\n      tools: file_read\n      judge: names the port\n", i)
	}
	path := filepath.Join(f.home.Agents, "tester.test.yaml")
	must(os.WriteFile(path, []byte("cases:\n  - name: case 0\n    task: find the port\n    project: fixture\n    expect:\n      contains: '8080'\n      tools: file_read\n      judge: names the port\n"), 0o644))
	if got := statuses(f.run(evalrec.Record, path)); len(got) != 1 || got[0] != "case 0: pass 1/1" {
		b.Fatalf("recorded %q (%v)", got, t.Failed())
	}
	data, err := os.ReadFile(evalrec.Path(path, "case 0", 1))
	must(err)
	for i := 1; i < benchCases; i++ {
		must(os.WriteFile(evalrec.Path(path, fmt.Sprintf("case %d", i), 1), data, 0o644))
	}
	must(os.WriteFile(path, []byte(sb.String()), 0o644))
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	must(err)
	rn, err := runner.New(runner.Options{RunsDir: f.runs})
	must(err)
	s := lintsuite.Load(path)
	b.ResetTimer()
	for b.Loop() {
		rs := Run(context.Background(), []*lintsuite.Suite{s}, Options{Runner: rn, Catalog: cat, Mode: evalrec.Offline, Jobs: benchJobs})
		if sum := Summarize(rs); sum.Passed != benchCases {
			b.Fatalf("%+v %q", sum, rs[0].Cases[0].Message)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*benchCases)/1000, "ms/case")
}

func words(text string) []modeltest.Step {
	var out []modeltest.Step
	for _, w := range modeltest.Words(text) {
		out = append(out, modeltest.Text(w))
	}
	return out
}
