package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/overlay"
)

const mocksSuite = `mocks:
  - {tool: web_search, result: "no results"}
cases:
  - name: writes a summary
    task: Summarise the page.
    project: proj
    mocks:
      - {tool: web_fetch, args: {Url: "https://example.test/*"}, result: "The port is 8080."}
    expect:
      tools: [web_fetch, file_write]
      changes:
        - {path: notes/summary.md, contains: "8080"}
        - {path: src/, unchanged: true}
        - {path: README.md, contains: "demo"}
  - name: touches src
    task: Break the source.
    project: proj
    expect:
      changes:
        - {path: src/, unchanged: true}
        - {path: notes/summary.md, contains: "8080"}
`

func TestMocksAndChangesLiveAndOffline(t *testing.T) {
	f := newFixture(t)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "README.md"), "a demo project\n")
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "src", "main.go"), "package main\n")
	f.conversation("Summarise the page.",
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "web_fetch", `{"Url":"https://example.test/page","_rationale":"read"}`), modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c2", "file_write", `{"Path":"notes/summary.md","Content":"Port 8080\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Reply("Saved the summary."),
	)
	f.conversation("Break the source.",
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "file_edit", `{"Path":"src/main.go","OldString":"main","NewString":"broken","_rationale":"break"}`), modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Reply("Done."),
	)
	path := f.suite(mocksSuite)
	for _, mode := range []evalrec.Mode{evalrec.Record, evalrec.Offline} {
		rs := f.run(mode, path)
		if len(rs) != 1 || len(rs[0].Cases) != 2 {
			t.Fatalf("%v: results %+v", mode, rs)
		}
		good, bad := rs[0].Cases[0].Samples[0], rs[0].Cases[1].Samples[0]
		if good.Status != Pass {
			t.Errorf("%v: the mocked, writing case: %s %+v", mode, good.Status, good.Failures)
		}
		if len(good.ToolCalls) < 1 || good.ToolCalls[0].Result.Label != "mocked" || good.ToolCalls[0].Result.Text != "The port is 8080." {
			t.Errorf("%v: the mocked call: %+v", mode, good.ToolCalls[0].Result)
		}
		if bad.Status == Pass || len(bad.Failures) != 2 {
			t.Fatalf("%v: the case that touches src: %s %+v", mode, bad.Status, bad.Failures)
		}
		if f0 := bad.Failures[0]; f0.Expect != "changes: src/ unchanged" || f0.Message != "the run changed src/" || f0.Lines[0] != "modified src/main.go" {
			t.Errorf("%v: failure %+v", mode, f0)
		}
		if f1 := bad.Failures[1]; !strings.Contains(f1.Message, "did not write notes/summary.md, and the project has no such file") {
			t.Errorf("%v: failure %+v", mode, f1)
		}
		f.srv.Close() // offline must not call the model
	}
	if b, err := os.ReadFile(filepath.Join(f.home.Agents, "proj", "src", "main.go")); err != nil || string(b) != "package main\n" {
		t.Errorf("the project changed: %q %v", b, err)
	}
}

func TestCheckChanges(t *testing.T) {
	cs := []overlay.Change{
		{Path: "a/b.md", Kind: overlay.Added, New: []byte("hello world")},
		{Path: "gone.txt", Kind: overlay.Deleted},
	}
	tests := []struct {
		want []suitefile.Change
		fail string
	}{
		{[]suitefile.Change{{Path: "a/b.md", Contains: "world"}}, ""},
		{[]suitefile.Change{{Path: "./a/b.md", Contains: "world"}}, ""},
		{[]suitefile.Change{{Path: "a/b.md", Contains: "moon"}}, "the run wrote a/b.md, but it does not hold the text"},
		{[]suitefile.Change{{Path: "a/", Unchanged: true}}, "the run changed a/"},
		{[]suitefile.Change{{Path: "a", Unchanged: true}}, ""},
		{[]suitefile.Change{{Path: "gone.txt", Contains: "x"}}, "the run deleted gone.txt"},
		{[]suitefile.Change{{Path: "other/", Unchanged: true}}, ""},
	}
	for _, tt := range tests {
		got := CheckChanges(tt.want, cs, "")
		switch {
		case tt.fail == "" && len(got) != 0:
			t.Errorf("%+v: %+v", tt.want, got)
		case tt.fail != "" && (len(got) != 1 || got[0].Message != tt.fail):
			t.Errorf("%+v: %+v, want %q", tt.want, got, tt.fail)
		}
	}
}
