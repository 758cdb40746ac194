package demo

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

var generate = flag.Bool("generate", false, "record the demo cassettes again from the test server into cassettes/")

// demoRun is one recorded run of the demo: which agent, what the test
// server plays, and the outcome a replay must reproduce.
type demoRun struct {
	cassette string
	agent    string
	task     string
	limits   runner.Limits
	scripts  []modeltest.Script
	project  map[string]string
	outcome  vocab.Outcome
	reason   string
	output   string // a part of the reply the replay must show
	// approve approves the recorded run's gated calls (--approve).
	approve []string
	// mcp configures the demo's tracker MCP server for the recording.
	mcp bool
	// changes are the files the run changes in its copy of the project.
	changes []string
}

// words streams text one word at a time, gap apart.
func words(kind func(string) modeltest.Step, text string) []modeltest.Step {
	var out []modeltest.Step
	for _, w := range modeltest.Words(text) {
		out = append(out, kind(w))
	}
	return out
}

func demoRuns(t *testing.T) []demoRun {
	answer := "The watcher registers the agents folder, each feed folder, the skills and the config, and their parents. " +
		"Events settle for 100 ms before one rescan, so an editor that saves by renaming a temporary file produces one change, not three. " +
		"A folder deleted and created again is watched anew."
	truncated := "The repository has five packages. lint reads a NetClaw home the way the runtime does: paths, one-file parsing with positions, " +
		"the rules with stable ids, the scan in runtime order. preview renders every view of a definition: the context layer, the composed prompt, " +
		"the first message, the token estimate. runner owns one trial spawn: model resolution, the wire protocols, the watchdog that"
	thinking := "The question is whether to debounce in the watcher or in the model. In the watcher, the model never sees the burst; " +
		"but then the watcher needs a clock of its own. In the model, the timer is a Cmd, which is easy to test, yet every event " +
		"crosses the program's message queue. Which costs more? Let me weigh the queue against the clock again, carefully, "
	return []demoRun{
		{
			cassette: "completed-with-tool.cassette",
			agent:    "code-analyst",
			task:     "Explain how the file watcher turns editor saves into one rescan",
			project:  map[string]string{"watch.md": "# Watcher\n\nEvents settle for 100 ms, then one rescan runs.\n"},
			scripts: []modeltest.Script{
				{Gap: 40 * time.Millisecond, Steps: append(append(
					words(modeltest.Thinking, "I should read the notes on the watcher before answering. "),
					modeltest.ToolCall("call_1", "file_read", `{"path":`, `"watch.md", "_rationale": "look"}`)),
					modeltest.Finish(modeltest.FinishTools))},
				{Gap: 45 * time.Millisecond, Steps: append(words(modeltest.Text, answer), modeltest.Stop()),
					Usage: &modeltest.Usage{InputTokens: 912, OutputTokens: 74}},
			},
			outcome: vocab.Completed,
			output:  "A folder deleted and created again is watched anew.",
		},
		{
			cassette: "fix-an-issue.cassette",
			agent:    "fixer",
			task:     "Fix issue 7 of the tracker",
			project:  map[string]string{"watch.md": demoWatchNotes(t)},
			approve:  []string{"mcp:" + TrackerServer, "shell_execute:grep *"},
			mcp:      true,
			scripts: []modeltest.Script{
				{Gap: 40 * time.Millisecond, Steps: append(
					words(modeltest.Thinking, "The issue is in the tracker. I should find its tool first. "),
					modeltest.ToolCall("call_1", "search_tools", `{"Query": "issue", "_rationale": "find the tracker's tools"}`),
					modeltest.Finish(modeltest.FinishTools))},
				{Gap: 40 * time.Millisecond, Steps: []modeltest.Step{
					modeltest.ToolCall("call_2", "tracker__get_issue", `{"number": 7, "_rationale": "read the issue"}`),
					modeltest.Finish(modeltest.FinishTools)}},
				{Gap: 40 * time.Millisecond, Steps: append(
					words(modeltest.Thinking, "The notes need one more sentence at the end. "),
					modeltest.ToolCall("call_3", "file_edit", `{"Path": "watch.md", "OldString": "produces one change.\n", "NewString": "produces one change.\nA folder deleted and created again is watched anew.\n", "_rationale": "add the missing sentence"}`),
					modeltest.Finish(modeltest.FinishTools))},
				{Gap: 40 * time.Millisecond, Steps: []modeltest.Step{
					modeltest.ToolCall("call_4", "shell_execute", `{"Command": "grep -n 'watched anew' watch.md", "_rationale": "check the new sentence is there"}`),
					modeltest.Finish(modeltest.FinishTools)}},
				{Gap: 45 * time.Millisecond, Steps: append(words(modeltest.Text,
					"Fixed issue 7: watch.md now ends with \"A folder deleted and created again is watched anew.\" "+
						"grep finds it on line 6."), modeltest.Stop()),
					Usage: &modeltest.Usage{InputTokens: 1480, OutputTokens: 96}},
			},
			outcome: vocab.Completed,
			output:  "Fixed issue 7",
			changes: []string{"watch.md"},
		},
		{
			cassette: "output-truncated.cassette",
			agent:    "summarizer",
			task:     "Summarise every package of the repository in detail",
			scripts: []modeltest.Script{
				{Gap: 35 * time.Millisecond, Steps: append(words(modeltest.Text, truncated), modeltest.Length()),
					Usage: &modeltest.Usage{InputTokens: 640, OutputTokens: 4096}},
			},
			outcome: vocab.Failed,
			reason:  vocab.ReasonOutputTruncated,
			output:  "The repository has five packages.",
		},
		{
			cassette: "thinking-only.cassette",
			agent:    "deep-thinker",
			task:     "Should the browser debounce file events in the watcher or in the model?",
			limits:   runner.Limits{NoProgress: 1500 * time.Millisecond, ThinkingOnly: 4 * time.Second},
			scripts: []modeltest.Script{
				{Gap: 120 * time.Millisecond, Steps: append(append(
					words(modeltest.Thinking, thinking),
					words(modeltest.Thinking, thinking)...),
					modeltest.Pause(time.Minute))},
			},
			outcome: vocab.Failed,
			reason:  vocab.ReasonThinkingOnlyTimeout,
		},
	}
}

// recordedProject stands for the folder the demo's runs were recorded
// on, in the cassettes.
const recordedProject = "/home/you/demo-project"

// changedPaths are the paths of a run's changes.
func changedPaths(cs []runfolder.ChangeRecord) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path)
	}
	return out
}

// demoWatchNotes is the demo project's watch.md, which the fixer's
// recording edits: the same file the demo's copy of the project holds.
func demoWatchNotes(t *testing.T) string {
	t.Helper()
	data, err := fs.ReadFile(Home(), "demo-project/watch.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// trackerConfig is the McpServers entry of the demo's tracker, served by
// this test binary (see TrackerEnv).
func trackerConfig(t *testing.T) string {
	t.Helper()
	data, err := json.Marshal(trackerServers())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestGenerateDemoCassettes records the demo's runs from the test server.
// It runs only with -generate; review the diff of cassettes/ after.
func TestGenerateDemoCassettes(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to record the demo cassettes again")
	}
	for _, d := range demoRuns(t) {
		srv := modeltest.NewServer()
		for _, sc := range d.scripts {
			srv.Enqueue(sc)
		}
		tmp := t.TempDir()
		h, err := Extract(filepath.Join(tmp, "netclaw"))
		if err != nil {
			t.Fatal(err)
		}
		servers := "{}"
		if d.mcp {
			servers = trackerConfig(t)
		}
		cfg := fmt.Sprintf(`{"Providers": {"demo-model": {"Type": "openai-compatible", "Endpoint": %q}},
 "Models": {"Definitions": {"qwen": {"Provider": "demo-model", "ModelId": "qwen3:30b"}},
 "Roles": {"Main": "qwen", "Compaction": "qwen", "Fallback": "qwen"}},
 "McpServers": %s}`, srv.Endpoint(wire.OpenAI), servers)
		hometest.WriteFile(t, h.ConfigFile(), cfg)
		c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		project := filepath.Join(tmp, "project")
		os.MkdirAll(project, 0o755)
		for name, text := range d.project {
			os.WriteFile(filepath.Join(project, name), []byte(text), 0o644)
		}
		rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
		if err != nil {
			t.Fatal(err)
		}
		approved, err := approve.ParseAll(d.approve)
		if err != nil {
			t.Fatal(err)
		}
		r, err := rn.Start(context.Background(), runner.Spec{
			Agent: c.Agent(d.agent), Config: c.Config, Task: d.task, Limits: d.limits,
			Project: project, Record: true, Approve: approved,
		})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Wait()
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Outcome != d.outcome || rec.Reason != d.reason {
			t.Fatalf("%s: recorded %s %s (%s), want %s %s", d.cassette, rec.Outcome, rec.Reason, rec.Error, d.outcome, d.reason)
		}
		for _, tc := range rec.ToolCalls {
			if tc.Result == nil || tc.Result.Error {
				t.Fatalf("%s: the call of %s failed: %+v", d.cassette, tc.Name, tc.Result)
			}
		}
		if got := changedPaths(rec.Changes); !slices.Equal(got, d.changes) {
			t.Fatalf("%s: changed %q, want %q", d.cassette, got, d.changes)
		}
		data, err := os.ReadFile(filepath.Join(r.Dir(), runfolder.StreamFile))
		if err != nil {
			t.Fatal(err)
		}
		// The loopback port of the test server says nothing to a reader,
		// nor does the temporary folder of the project.
		text := strings.ReplaceAll(string(data), srv.URL, "http://demo.invalid")
		text = strings.ReplaceAll(text, project, recordedProject)
		if err := os.WriteFile(filepath.Join("cassettes", d.cassette), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDemoCassettesReplay replays every embedded cassette, fast, and checks
// it ends as it was recorded: a decoder change that alters a demo shows here.
func TestDemoCassettesReplay(t *testing.T) {
	for _, d := range demoRuns(t) {
		t.Run(d.cassette, func(t *testing.T) {
			tape, err := Cassette(d.cassette)
			if err != nil {
				t.Fatal(err)
			}
			rn, err := runner.New(runner.Options{RunsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			r, err := rn.Start(context.Background(), runner.Spec{Replay: tape, ReplaySource: d.cassette, Fast: true})
			if err != nil {
				t.Fatal(err)
			}
			rec, err := r.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Outcome != d.outcome || rec.Reason != d.reason {
				t.Errorf("replayed %s %s (%s), want %s %s", rec.Outcome, rec.Reason, rec.Error, d.outcome, d.reason)
			}
			if !strings.Contains(rec.Output, d.output) {
				t.Errorf("output %q lacks %q", rec.Output, d.output)
			}
			if strings.Contains(d.cassette, "tool") && len(rec.ToolCalls) == 0 {
				t.Error("the tool call was not replayed")
			}
			if got := changedPaths(rec.Changes); !slices.Equal(got, d.changes) {
				t.Errorf("the replay changed %q, want %q", got, d.changes)
			}
			if len(d.changes) > 0 && !slices.Contains(rec.Files, runfolder.PatchFile) {
				t.Errorf("the replay wrote no %s: %q", runfolder.PatchFile, rec.Files)
			}
		})
	}
}
