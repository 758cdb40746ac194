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
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

var benchJobs = 4

// BenchmarkOffline replays suites of 200 and 1,000 recorded cases
// offline, as agentdesk test --offline does in CI: each case one sample
// with a tool call, two model calls and a judge. One recording is made
// against the test server and copied to every case (they share a task),
// then every iteration replays them all: by default only a failed
// sample's run folder is written (none here), with keep-runs every
// sample's.
//
//	go test -run '^$' -bench BenchmarkOffline -benchtime 5x ./runner/suite/
func BenchmarkOffline(b *testing.B) {
	for _, n := range []int{200, 1000} {
		for _, keepRuns := range []bool{false, true} {
			name := fmt.Sprintf("cases=%d", n)
			if keepRuns {
				name += ",keep-runs"
			}
			b.Run(name, func(b *testing.B) { benchOffline(b, n, keepRuns) })
		}
	}
}

func benchOffline(b *testing.B, cases int, keepRuns bool) {
	f := newFixture(b)
	base := f.home.Base
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	hometest.WriteFile(b, filepath.Join(f.home.Agents, "fixture", "main.go"), "// listens on 8080\n")
	f.conversation("find the port", toolScript("c1", "main.go"), modeltest.Script{Gap: time.Millisecond,
		Steps: append(words("The server listens on port 8080, set in main.go on line 1. "+strings.Repeat("More words here. ", 40)), modeltest.Stop())})
	f.judge["names the port"] = "PASS: it names 8080."

	var sb strings.Builder
	sb.WriteString("cases:\n")
	for i := 0; i < cases; i++ {
		fmt.Fprintf(&sb, "  - name: case %d\n    task: find the port\n    project: fixture\n    expect:\n      contains: '8080'\n      tools: file_read\n      judge: names the port\n", i)
	}
	path := filepath.Join(f.home.Agents, "tester.test.yaml")
	must(os.WriteFile(path, []byte("cases:\n  - name: case 0\n    task: find the port\n    project: fixture\n    expect:\n      contains: '8080'\n      tools: file_read\n      judge: names the port\n"), 0o644))
	if got := statuses(f.run(evalrec.Record, path)); len(got) != 1 || got[0] != "case 0: pass 1/1" {
		b.Fatalf("recorded %q", got)
	}
	data, err := os.ReadFile(evalrec.Path(path, "case 0", 1))
	must(err)
	for i := 1; i < cases; i++ {
		must(os.WriteFile(evalrec.Path(path, fmt.Sprintf("case %d", i), 1), data, 0o644))
	}
	must(os.WriteFile(path, []byte(sb.String()), 0o644))
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	must(err)
	runs := filepath.Join(base, "replays")
	rn, err := runner.New(runner.Options{RunsDir: runs})
	must(err)
	s := suitefile.Load(path)
	b.ResetTimer()
	for b.Loop() {
		rs := Run(context.Background(), []*suitefile.Suite{s}, Options{Runner: rn, Catalog: cat, Mode: evalrec.Offline, Jobs: benchJobs, KeepRuns: keepRuns})
		if sum := Summarize(rs); sum.Passed != cases {
			b.Fatalf("%+v %q", sum, rs[0].Cases[0].Message)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*cases)/1000, "ms/case")
	folders, _ := os.ReadDir(runs)
	if want := 0; keepRuns {
		want = b.N * cases
		if len(folders) != want {
			b.Fatalf("%d run folders after %d replays of %d cases with keep-runs", len(folders), b.N, cases)
		}
	} else if len(folders) != want {
		b.Fatalf("%d run folders after replays that all passed", len(folders))
	}
}

// BenchmarkOfflineReply replays suites of 200 and 1,000 cases shaped as
// testdata/bench's: one model call streaming a 60-word answer a word a
// frame, checked with contains, no project, tools or judge. Its ms/case
// between the two sizes is the margin the replay benchmark
// measures, without the process around it.
//
//	go test -run '^$' -bench BenchmarkOfflineReply -benchtime 5x ./runner/eval/suite/
func BenchmarkOfflineReply(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("cases=%d", n), func(b *testing.B) { benchOfflineReply(b, n) })
	}
}

func benchOfflineReply(b *testing.B, cases int) {
	f := newFixture(b)
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	f.conversation("which port?", modeltest.Script{Gap: time.Millisecond,
		Steps: append(words("Service-1 listens on port 10001, set in its main.go on line 1. "+strings.Repeat("More words here. ", 15)), modeltest.Stop())})
	path := filepath.Join(f.home.Agents, "tester.test.yaml")
	one := "cases:\n  - name: case 0\n    task: which port?\n    expect:\n      contains: 'port 10001'\n"
	must(os.WriteFile(path, []byte(one), 0o644))
	if got := statuses(f.run(evalrec.Record, path)); len(got) != 1 || got[0] != "case 0: pass 1/1" {
		b.Fatalf("recorded %q", got)
	}
	data, err := os.ReadFile(evalrec.Path(path, "case 0", 1))
	must(err)
	var sb strings.Builder
	sb.WriteString("cases:\n")
	for i := 0; i < cases; i++ {
		fmt.Fprintf(&sb, "  - name: case %d\n    task: which port?\n    expect:\n      contains: 'port 10001'\n", i)
		if i > 0 {
			must(os.WriteFile(evalrec.Path(path, fmt.Sprintf("case %d", i), 1), data, 0o644))
		}
	}
	must(os.WriteFile(path, []byte(sb.String()), 0o644))
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	must(err)
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(f.home.Base, "replays")})
	must(err)
	s := suitefile.Load(path)
	b.ResetTimer()
	for b.Loop() {
		rs := Run(context.Background(), []*suitefile.Suite{s}, Options{Runner: rn, Catalog: cat, Mode: evalrec.Offline, Jobs: benchJobs})
		if sum := Summarize(rs); sum.Passed != cases {
			b.Fatalf("%+v %q", sum, rs[0].Cases[0].Message)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*cases)/1000, "ms/case")
}

func words(text string) []modeltest.Step {
	var out []modeltest.Step
	for _, w := range modeltest.Words(text) {
		out = append(out, modeltest.Text(w))
	}
	return out
}
