package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/demo"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// demoMain is the main.go the demo's code-analyst reads.
const demoMain = `package main

import (
	"log"
	"net/http"
)

func main() {
	http.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s", r.Method, r.URL.Path)
		w.Write([]byte("ok"))
	})
	log.Fatal(http.ListenAndServe(":8080", nil))
}
`

// demoRun is one demo cassette: what it records and what it must replay to.
type demoRun struct {
	file, agent, task string
	scripts           []modeltest.Script
	limits            Limits
	maxTokens         int
	tools             bool
	outcome           Outcome
	reason            string
}

func words(gap time.Duration, usage *modeltest.Usage, text string, end modeltest.Step) modeltest.Script {
	var st []modeltest.Step
	for _, w := range modeltest.Words(text) {
		st = append(st, modeltest.Text(w))
	}
	return modeltest.Script{Steps: append(st, end), Gap: gap, Usage: usage}
}

var demoRuns = []demoRun{
	{
		file: demo.CompletedToolCall, agent: "code-analyst", task: "Explain what main.go does.", tools: true,
		scripts: []modeltest.Script{
			{Steps: steps(modeltest.Thinking("The user wants main.go explained. "), modeltest.Thinking("I should read it before I say anything."),
				modeltest.Text("I'll read main.go first."), modeltest.ToolCall("call_demo_1", "file_read", `{"path": "main.go"}`),
				modeltest.Finish(modeltest.FinishTools)), Gap: 120 * ms, Usage: &modeltest.Usage{InputTokens: 412, OutputTokens: 38}},
			words(45*ms, &modeltest.Usage{InputTokens: 640, OutputTokens: 96},
				"main.go starts a small HTTP server on port 8080.\n\n"+
					"- It registers one handler, `/health`, which logs the method and path of each request and answers `ok`.\n"+
					"- `http.ListenAndServe` blocks while the server runs; if it fails (the port is taken, say), `log.Fatal` prints the error and exits.\n\n"+
					"There is no graceful shutdown and no other route: anything but `/health` gets the default 404.",
				modeltest.Stop()),
		},
		outcome: Completed,
	},
	{
		file: demo.OutputTruncated, agent: "summarizer", task: "Summarise the release notes of the last three versions.", maxTokens: 120,
		scripts: []modeltest.Script{words(35*ms, &modeltest.Usage{InputTokens: 980, OutputTokens: 120},
			"## Release notes, summarised\n\n"+
				"### 2.3.0\n"+
				"- The scheduler now retries failed jobs with exponential backoff, capped at ten minutes.\n"+
				"- `config reload` picks up new secrets without a restart.\n\n"+
				"### 2.2.0\n"+
				"- A new `--dry-run` flag prints the plan of a deployment without applying it.\n"+
				"- Logs carry a request id from the edge to the workers, so one request can be followed through\n",
			modeltest.Length())},
		outcome: Failed, reason: ReasonOutputTruncated,
	},
	{
		file: demo.ThinkingOnly, agent: "research-assistant", task: "Compare every Go web framework and pick the best one for us.",
		scripts: []modeltest.Script{{Steps: repeat(200, modeltest.Thinking("Let me weigh another framework against the criteria… ")), Gap: 100 * ms}},
		limits:  Limits{ThinkingOnly: 4 * time.Second},
		outcome: Failed, reason: ReasonThinkingOnlyTimeout,
	},
}

// demoFixture is a home with the demo's agents, whose model is the test
// server under the name modeltest.
func demoFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, wire.Ollama)
	for _, a := range []string{"code-analyst", "summarizer", "research-assistant"} {
		writeFile(t, filepath.Join(f.home.Agents, a+".md"), fmt.Sprintf("---\nname: %s\ndescription: The demo's %s.\n---\nYou are the %s.\n", a, a, a))
	}
	writeFile(t, f.home.ConfigFile(), fmt.Sprintf(`{
  "Models": {"Roles": {"Main": "demo"}, "Definitions": {"demo": {"Provider": "modeltest", "ModelId": "scripted-demo"}}},
  "Providers": {"modeltest": {"Type": "ollama", "Endpoint": %q}}
}`, f.srv.Endpoint(wire.Ollama)))
	os.Remove(f.home.SecretsFile())
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	f.cat = cat
	return f
}

// TestGenerateDemo records the demo cassettes with -update (into
// demo/cassettes, embedded by package demo); without it, it replays each
// embedded one and checks its outcome.
//
//	go test ./runner -run TestGenerateDemo -update
func TestGenerateDemo(t *testing.T) {
	if *update {
		generateDemo(t)
		return
	}
	if got, want := strings.Join(demo.Names(), ","), strings.Join(sorted([]string{demo.CompletedToolCall, demo.OutputTruncated, demo.ThinkingOnly}), ","); got != want {
		t.Fatalf("demo cassettes %s, want %s (go test ./runner -run TestGenerateDemo -update)", got, want)
	}
	for _, d := range demoRuns {
		t.Run(d.file, func(t *testing.T) {
			t.Parallel()
			c, err := demo.Load(d.file)
			if err != nil {
				t.Fatal(err)
			}
			if c.Header.Agent != d.agent || c.Header.Task != d.task {
				t.Errorf("header %+v", c.Header)
			}
			f := newFixture(t, wire.Ollama)
			_, rec := f.run(t, Spec{Replay: c, ReplaySource: "demo/" + d.file, Fast: true})
			if rec.Outcome != d.outcome || rec.Reason != d.reason {
				t.Fatalf("replays to %s/%s (%s), want %s/%s", rec.Outcome, rec.Reason, rec.Error, d.outcome, d.reason)
			}
			switch d.file {
			case demo.CompletedToolCall:
				if len(rec.ToolCalls) != 1 || rec.ToolCalls[0].Result == nil || !strings.Contains(rec.ToolCalls[0].Result.Text, "ListenAndServe") || !strings.Contains(rec.Output, "port 8080") {
					t.Errorf("tool calls %+v, output %q", rec.ToolCalls, rec.Output)
				}
			case demo.OutputTruncated:
				if !strings.Contains(strings.Join(rec.Files, ","), TruncatedOutputFile) {
					t.Errorf("files %v", rec.Files)
				}
			case demo.ThinkingOnly:
				if rec.Timings.TotalMS < 3500 || rec.Output != "" {
					t.Errorf("thought for %d ms, output %q", rec.Timings.TotalMS, rec.Output)
				}
			}
		})
	}
}

// generateDemo records every demo run and writes its cassette.
func generateDemo(t *testing.T) {
	dir := filepath.Join("demo", "cassettes")
	old, _ := filepath.Glob(filepath.Join(dir, "*.cassette"))
	for _, p := range old {
		os.Remove(p)
	}
	for _, d := range demoRuns {
		t.Run(d.file, func(t *testing.T) {
			t.Parallel()
			f := demoFixture(t)
			f.srv.Enqueue(d.scripts...)
			s := Spec{Agent: f.cat.Agent(d.agent), Config: f.cat.Config, Task: d.task, Limits: d.limits, MaxTokens: d.maxTokens, Record: true}
			if d.tools {
				proj := t.TempDir()
				writeFile(t, filepath.Join(proj, "main.go"), demoMain)
				writeFile(t, filepath.Join(proj, "README.md"), "# health\n\nA tiny health-check server.\n")
				s.Project = proj
			}
			r, err := f.runner.Start(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := r.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Outcome != d.outcome || rec.Reason != d.reason {
				t.Fatalf("recorded %s/%s (%s), want %s/%s", rec.Outcome, rec.Reason, rec.Error, d.outcome, d.reason)
			}
			data, err := os.ReadFile(filepath.Join(rec.Dir, StreamFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, d.file), data, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
