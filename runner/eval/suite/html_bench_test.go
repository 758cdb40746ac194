package suite

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// BenchmarkHTML writes the HTML report of a suite of 1,000 cases, each
// with a sample holding a transcript of two tool calls.
//
//	go test -run '^$' -bench BenchmarkHTML ./runner/suite/
func BenchmarkHTML(b *testing.B) {
	var src strings.Builder
	src.WriteString("cases:\n")
	for i := range 1000 {
		fmt.Fprintf(&src, "  - name: case %d\n    task: find port %d\n", i, i)
	}
	s := suitefile.Parse("agents/a.test.yaml", []byte(src.String()))
	r := &SuiteResult{Suite: s}
	for i, c := range s.Cases {
		st := Pass
		if i%10 == 0 {
			st = Fail
		}
		r.Cases = append(r.Cases, &CaseResult{Case: c, Status: st, Passed: 1, Samples: []*SampleResult{{N: 1, Status: st, How: "replay", Duration: time.Second,
			Output: strings.Repeat("The server listens on port 8080. ", 20),
			ToolCalls: []runfolder.ToolCall{{Name: "file_read", Arguments: `{"path":"main.go"}`, Result: &runfolder.ToolResult{Text: strings.Repeat("x", 2000)}},
				{Name: "file_list", Arguments: `{"path":"."}`, Result: &runfolder.ToolResult{Text: "main.go\n"}}}}}})
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := HTML(io.Discard, []*SuiteResult{r}, HTMLOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunCommand runs a check program (a shell script reading its
// stdin) on a run's record, as every replayed sample with command: does.
//
//	go test -run '^$' -bench BenchmarkRunCommand ./runner/suite/
func BenchmarkRunCommand(b *testing.B) {
	dir := b.TempDir()
	script(b, dir, "check.sh", "grep -q 8080\n")
	rec := checkRecord()
	for b.Loop() {
		res, err := RunCommand(b.Context(), []string{"./check.sh"}, dir, rec, CommandFacts{}, 0)
		if err != nil || res.Failure != nil {
			b.Fatal(err, res.Failure)
		}
	}
}
