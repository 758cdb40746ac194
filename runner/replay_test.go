package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// scenario is a run to record and replay: the scripts the server plays,
// in order, and how the run is set up.
type scenario struct {
	name    string
	scripts func(p wire.Protocol) []modeltest.Script
	limits  Limits
	// tools offers the trial tools on a fresh project folder.
	tools bool
	// cancelAfterText cancels the run at its first text; refused closes
	// the server before the run.
	cancelAfterText bool
	refused         bool
	// reason is the reason the recorded run must end with.
	reason string
	// timed is set when the outcome stands on the wall clock (a limit
	// falls due): a replay at recorded speed is only checked for it.
	timed bool
}

func scripts(sc ...modeltest.Script) func(wire.Protocol) []modeltest.Script {
	return func(wire.Protocol) []modeltest.Script { return sc }
}

// gapped spreads a script's steps out by gap.
func gapped(gap time.Duration, sc modeltest.Script) modeltest.Script {
	sc.Gap = gap
	return sc
}

var scenarios = []scenario{
	{
		name: "completed-with-tools", tools: true,
		scripts: scripts(
			modeltest.Script{Steps: steps(modeltest.Thinking("I should read the README."), modeltest.Text("Let me look."),
				modeltest.ToolCall("call_1", "file_read", `{"path": "README.md", "_rationale": "look"}`), modeltest.ToolCall("call_2", "file_list", `{"path": ".", "_rationale": "look"}`),
				modeltest.Finish(modeltest.FinishTools)), Usage: &modeltest.Usage{InputTokens: 120, OutputTokens: 30}},
			modeltest.Script{Steps: steps(modeltest.Text("The server "), modeltest.Keepalive(), modeltest.Text("listens on :8080."), modeltest.Stop()),
				Usage: &modeltest.Usage{InputTokens: 300, OutputTokens: 12}},
		),
	},
	{
		name:    "output-truncated",
		scripts: scripts(modeltest.Script{Steps: steps(modeltest.Text("The start of "), modeltest.Text("a long\nanswer"), modeltest.Length())}),
		reason:  vocab.ReasonOutputTruncated,
	},
	{
		name:    "thinking-only-timeout",
		scripts: scripts(gapped(70*ms, modeltest.Script{Steps: repeat(60, modeltest.Thinking("hmm "))})),
		limits:  Limits{ThinkingOnly: 300 * ms},
		reason:  vocab.ReasonThinkingOnlyTimeout, timed: true,
	},
	{
		name:    "no-activity-timeout",
		scripts: scripts(modeltest.Script{Steps: steps(modeltest.Text("Working"), modeltest.Pause(time.Minute), modeltest.Stop())}),
		limits:  Limits{InterDelta: 300 * ms},
		reason:  vocab.ReasonNoActivity, timed: true,
	},
	{
		name:    "no-substantive-output-timeout",
		scripts: scripts(gapped(70*ms, modeltest.Script{Steps: steps(modeltest.Text("Working on it"), repeat(60, modeltest.Keepalive()))})),
		limits:  Limits{NoProgress: 300 * ms},
		reason:  vocab.ReasonNoSubstantiveOutput, timed: true,
	},
	{
		name:    "prefill-timeout-no-headers",
		scripts: scripts(modeltest.Script{HeaderDelay: time.Minute, Steps: steps(modeltest.Text("late"), modeltest.Stop())}),
		limits:  Limits{Prefill: 300 * ms},
		reason:  vocab.ReasonNoActivity, timed: true,
	},
	{
		// NetClaw nudges five times before it gives up.
		name: "empty-final-response",
		scripts: scripts(
			modeltest.Script{Steps: steps(modeltest.Thinking("nothing to say"), modeltest.Stop())},
			modeltest.Script{Steps: steps(modeltest.Stop())},
			modeltest.Script{Steps: steps(modeltest.Thinking("still nothing"), modeltest.Stop())},
			modeltest.Script{Steps: steps(modeltest.Stop())},
			modeltest.Script{Steps: steps(modeltest.Stop())},
			modeltest.Script{Steps: steps(modeltest.Thinking("no"), modeltest.Stop())},
		),
		reason: vocab.ReasonEmptyFinalResponse,
	},
	{
		name:    "error-frame",
		scripts: scripts(modeltest.Script{Steps: steps(modeltest.Text("Partial "), modeltest.ErrorFrame("the model is overloaded"), modeltest.Text("never"), modeltest.Stop())}),
		reason:  vocab.ReasonLLMCallFailed,
	},
	{
		name:    "disconnect",
		scripts: scripts(modeltest.Script{Steps: steps(modeltest.Text("Half an"), modeltest.Disconnect())}),
		reason:  vocab.ReasonLLMCallFailed,
	},
	{
		name: "malformed",
		scripts: func(p wire.Protocol) []modeltest.Script {
			bad := "data: {\"choices\": [oops\n\n"
			if p == wire.Ollama {
				bad = "{\"message\": oops\n"
			}
			return []modeltest.Script{{Steps: steps(modeltest.Text("ok"), modeltest.Raw(bad), modeltest.Stop())}}
		},
		reason: vocab.ReasonLLMCallFailed,
	},
	{
		name:    "http-error",
		scripts: scripts(modeltest.Script{Status: 429, ErrorMessage: "rate limited, slow down"}),
		reason:  vocab.ReasonLLMCallFailed,
	},
	{
		name: "connection-refused", refused: true,
		scripts: scripts(),
		reason:  vocab.ReasonLLMCallFailed,
	},
	{
		name: "repeated-tool-call", tools: true,
		scripts: scripts(sameCall("c1"), sameCall("c2"), sameCall("c3"), sameCall("c4")),
		reason:  vocab.ReasonToolCycleStopped,
	},
	{
		name: "malformed-final-output", tools: true,
		scripts: scripts(
			modeltest.Script{Steps: steps(modeltest.Text("<tool_call>\n<function=file_read>\n<parameter=path>README.md</parameter>\n</function>\n</tool_call>"), modeltest.Stop())},
			modeltest.Script{Steps: steps(modeltest.Text("<function=file_read>"), modeltest.Stop())},
		),
		reason: vocab.ReasonMalformedFinalOutput,
	},
	{
		// Frames as real providers send them: OpenRouter's processing
		// comments, vLLM's reasoning field and "choices": null usage;
		// Anthropic's message_start usage, ping, thinking with its
		// signature; Ollama's thinking and counts on the done line.
		name: "provider-quirks",
		scripts: func(p wire.Protocol) []modeltest.Script {
			var raw string
			switch p {
			case wire.OpenAI:
				raw = ": OPENROUTER PROCESSING\n\n" +
					`data: {"id":"gen-1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n" +
					`data: {"id":"gen-1","choices":[{"index":0,"delta":{"reasoning":"Port is in main.go."},"finish_reason":null}]}` + "\n\n" +
					"data: {\"id\":\"gen-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"It listens\\non :8080 \\u2014 see main.go.\"},\"finish_reason\":null}]}\r\n\r\n" +
					`data: {"id":"gen-1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
					`data: {"id":"gen-1","choices":null,"usage":{"prompt_tokens":50,"completion_tokens":9,"completion_tokens_details":{"reasoning_tokens":4}}}` + "\n\n" +
					"data: [DONE]\n\n"
			case wire.Anthropic:
				raw = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"usage\":{\"input_tokens\":50,\"cache_read_input_tokens\":10,\"output_tokens\":1}}}\n\n" +
					"event: ping\ndata: {\"type\": \"ping\"}\n\n" +
					"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Port is in main.go.\"}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"EqQBCgIYAhIM\"}}\n\n" +
					"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
					"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
					"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"It listens\\non :8080 \\u2014 see main.go.\"}}\n\n" +
					"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
					"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n" +
					"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
			case wire.Ollama:
				raw = `{"model":"qwen3:30b","created_at":"2025-05-01T10:00:00Z","message":{"role":"assistant","content":"","thinking":"Port is in main.go."},"done":false}` + "\n" +
					`{"model":"qwen3:30b","created_at":"2025-05-01T10:00:00Z","message":{"role":"assistant","content":"It listens\non :8080 \u2014 see main.go."},"done":false}` + "\n" +
					`{"model":"qwen3:30b","created_at":"2025-05-01T10:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":123,"prompt_eval_count":50,"eval_count":9}` + "\n"
			}
			return []modeltest.Script{{Steps: steps(modeltest.Raw(raw)), NoPreamble: true, NoTerminator: true}}
		},
	},
	{
		name:            "cancelled",
		scripts:         scripts(modeltest.Script{Steps: steps(modeltest.Text("Started "), modeltest.Pause(time.Minute), modeltest.Stop())}),
		cancelAfterText: true,
		reason:          vocab.ReasonCancelledByParent,
	},
}

// recordScenario runs sc against the test server with Record set and
// returns the record and the cassette's path.
func recordScenario(t *testing.T, f *fixture, sc scenario) (runfolder.Record, string) {
	t.Helper()
	f.srv.Enqueue(sc.scripts(f.proto)...)
	s := f.spec("Where does the server listen?", sc.limits)
	s.Record = true
	if sc.tools {
		s.Project = project(t)
	}
	if sc.refused {
		f.srv.Close()
	}
	r, err := f.runner.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if sc.cancelAfterText {
		for i := 0; ; i++ {
			e, err := r.Next(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			if e.Kind == EventText {
				r.Cancel()
				break
			}
		}
	}
	rec, err := r.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != sc.reason {
		t.Fatalf("the recorded run ended %s/%s (%s), want %s", rec.Outcome, rec.Reason, rec.Error, sc.reason)
	}
	if sc.tools {
		os.RemoveAll(s.Project) // a replay must not need it
	}
	path := filepath.Join(rec.Dir, runfolder.StreamFile)
	if !strings.Contains(strings.Join(rec.Files, ","), runfolder.StreamFile) {
		t.Fatalf("files %v", rec.Files)
	}
	return rec, path
}

// replay replays a cassette on the fixture's runner with no agent and no
// task: the cassette names them.
func replay(t *testing.T, f *fixture, path string, fast bool) runfolder.Record {
	t.Helper()
	c, err := LoadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rec := f.run(t, Spec{Replay: c, ReplaySource: path, Fast: fast})
	return rec
}

// comparable is what a replay must reproduce of a run.
func comparable(rec runfolder.Record, timed bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "outcome=%s reason=%s state=%s\n", rec.Outcome, rec.Reason, rec.State)
	if timed {
		return b.String()
	}
	errText := strings.ReplaceAll(rec.Error, rec.Dir, "<dir>")
	fmt.Fprintf(&b, "error=%s\noutput=%q\nfinish=%q usage=%+v counts=%+v\n", errText, rec.Output, rec.FinishReason, rec.Usage, rec.Counts)
	var files []string
	for _, f := range rec.Files {
		if f != runfolder.StreamFile {
			files = append(files, f)
		}
	}
	fmt.Fprintf(&b, "agent=%s task=%q tools=%v cap=%d files=%v\n", rec.Agent, rec.Task, rec.Tools, rec.MaxToolIterations, files)
	for _, tc := range rec.ToolCalls {
		fmt.Fprintf(&b, "tool %d.%d %s %s complete=%t", tc.Call, tc.Index, tc.Name, tc.Arguments, tc.Complete)
		if r := tc.Result; r != nil {
			fmt.Fprintf(&b, " -> guard=%s error=%t refused=%t cut=%t bytes=%d %q", r.Guard, r.Error, r.Refused, r.Cut, r.Bytes, r.Text)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// shortest returns the shortest limit set in l.
func (l Limits) shortest() time.Duration {
	var d time.Duration
	for _, v := range []time.Duration{l.Prefill, l.InterDelta, l.NoProgress, l.ThinkingOnly} {
		if v > 0 && (d == 0 || v < d) {
			d = v
		}
	}
	return d
}

func TestReplayReproducesTheRun(t *testing.T) {
	for _, sc := range scenarios {
		for _, p := range trialtest.Protocols {
			t.Run(sc.name+"/"+p.String(), func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, p)
				orig, path := recordScenario(t, f, sc)
				want := comparable(orig, false)

				fast := replay(t, f, path, true)
				if got := comparable(fast, false); got != want {
					t.Errorf("a fast replay differs from the run:\n--- replay\n%s--- run\n%s", got, want)
				}
				if fast.Replay == nil || !fast.Replay.Fast || fast.Replay.RecordedRun != orig.RunID || fast.Replay.Cassette != path {
					t.Errorf("replay record %+v", fast.Replay)
				}
				if fast.Project != "" || fast.Model.ModelID != orig.Model.ModelID || fast.Model.Endpoint != orig.Model.Endpoint {
					t.Errorf("replayed model %+v project %q", fast.Model, fast.Project)
				}
				// Fast keeps the recorded timeline: its clock reaches the
				// limit that ended the run, and never passes the run's own
				// end (which came later than the limit by the time the
				// run took to notice, on a loaded machine much later).
				if limit := sc.limits.shortest().Milliseconds(); sc.timed && (fast.Timings.TotalMS < limit || fast.Timings.TotalMS > orig.Timings.TotalMS) {
					t.Errorf("fast replay took %d ms on its clock, the run %d ms, the limit %d ms", fast.Timings.TotalMS, orig.Timings.TotalMS, limit)
				}
				md, _ := os.ReadFile(filepath.Join(fast.Dir, runfolder.ResultFile))
				if !strings.Contains(string(md), "- Replay: of run "+orig.RunID) || !strings.Contains(string(md), "no model was called") {
					t.Errorf("result.md does not say it is a replay:\n%s", md)
				}
				checkFolder(t, fast)

				// At recorded speed, on the wall clock: the short runs.
				if sc.timed && p != wire.OpenAI {
					return
				}
				slow := replay(t, f, path, false)
				if got, want := comparable(slow, sc.timed), comparable(orig, sc.timed); got != want {
					t.Errorf("a replay at recorded speed differs from the run:\n--- replay\n%s--- run\n%s", got, want)
				}
			})
		}
	}
}

func TestReplayAgainstAnAgentAndTask(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	orig, path := recordScenario(t, f, scenarios[0])
	c, err := LoadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	s := f.spec("another task", Limits{})
	s.Replay, s.Fast = c, true
	_, rec := f.run(t, s)
	if rec.Agent != "tester" || rec.Task != "another task" || rec.AgentPath == "" || rec.Output != orig.Output || rec.Replay.Cassette != "an embedded cassette" {
		t.Errorf("replay %+v", rec)
	}
	s.Record = true
	if _, err := f.runner.Start(context.Background(), s); err == nil || !strings.Contains(err.Error(), "cannot be recorded again") {
		t.Errorf("record of a replay: %v", err)
	}
	s = f.spec("x", Limits{})
	s.Fast = true
	if _, err := f.runner.Start(context.Background(), s); err == nil || !strings.Contains(err.Error(), "fast") {
		t.Errorf("fast without a replay: %v", err)
	}
}

func TestReplayProviderType(t *testing.T) {
	f := newFixture(t, wire.Anthropic)
	orig, path := recordScenario(t, f, scenarios[1])
	hometest.WriteFile(t, f.home.ConfigFile(), fmt.Sprintf(`{
  "Models": {"Roles": {"Main": "tape"}, "Definitions": {"tape": {"Provider": "recorded", "ModelId": "whatever"}}},
  "Providers": {"recorded": {"Type": "replay", "Endpoint": %q}}
}`, path))
	cat, err := lintScan(f)
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{Agent: cat.Agent("tester"), Config: cat.Config, Task: "Go.", Fast: true, ModelRole: "Main"}
	_, rec := f.run(t, s)
	if orig.Model.Role == "Main" {
		t.Fatal("the recorded run must have another role than the replay's")
	}
	if rec.Model.Role != "Main" || !strings.HasPrefix(rec.Model.Via, "Models.Roles.Main") || !strings.Contains(rec.Model.Via, "replay provider") {
		t.Errorf("the replay records the role %q via %q, want the run's Main as it resolved", rec.Model.Role, rec.Model.Via)
	}
	if rec.Reason != orig.Reason || rec.Output != orig.Output || rec.Replay == nil || rec.Replay.Cassette != path || rec.Model.Protocol != 0 && rec.Model.ModelID != "test-model" {
		t.Errorf("replay through the provider: %s %q %+v %+v", rec.Reason, rec.Output, rec.Replay, rec.Model)
	}
	hometest.WriteFile(t, f.home.ConfigFile(), `{"Models": {"Roles": {"Main": "tape"}, "Definitions": {"tape": {"Provider": "recorded", "ModelId": "m"}}},
  "Providers": {"recorded": {"Type": "replay", "Endpoint": "/nowhere/stream.cassette"}}}`)
	cat, _ = lintScan(f)
	_, err = f.runner.Start(context.Background(), Spec{Agent: cat.Agent("tester"), Config: cat.Config, Task: "Go."})
	if nc, ok := errors.AsType[*NoCassetteError](err); !ok || nc.Path != "/nowhere/stream.cassette" || !errors.Is(err, fs.ErrNotExist) ||
		!strings.Contains(err.Error(), "no cassette at /nowhere/stream.cassette: record one with a recorded run") {
		t.Errorf("missing cassette: %#v", err)
	}
}

func TestReplayOfAShorterCassette(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	_, path := recordScenario(t, f, scenarios[0])
	c, err := LoadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Calls = c.Calls[:1] // the second model call is gone
	_, rec := f.run(t, Spec{Replay: c, Fast: true})
	if rec.Reason != vocab.ReasonLLMCallFailed || !strings.Contains(rec.Error, "the cassette holds 1 model calls and the replay asks for call 2") {
		t.Errorf("got %s: %s", rec.Reason, rec.Error)
	}
}

func TestRecordedCassetteIsRedacted(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, p)
			k := plantedKey
			f.srv.Enqueue(modeltest.Script{Steps: steps(
				modeltest.Thinking("the key is "+k[:5]), modeltest.Thinking(k[5:]+" ok"),
				modeltest.Text("Your key: "+k[:10]), modeltest.Text(k[10:]+" and sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV and "),
				modeltest.Text("Authorization: Bearer "), modeltest.Text("abcdefghijklmnopqrstuvwxyz done."),
				modeltest.Stop(),
			)})
			s := f.spec("Use "+k+" please", Limits{})
			s.Record = true
			_, orig := f.run(t, s)
			path := filepath.Join(orig.Dir, runfolder.StreamFile)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, leak := range []string{k, k[:10], k[10:], "sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV", "abcdefghijklmnopqrstuvwxyz"} {
				if bytes.Contains(data, []byte(leak)) {
					t.Errorf("the cassette holds %q", leak)
				}
			}
			c, err := cassette.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if !c.Call(1).Reencoded || c.Header.Task != "Use [REDACTED] please" {
				t.Errorf("call re-encoded %t, task %q", c.Call(1).Reencoded, c.Header.Task)
			}
			rec := replay(t, f, path, true)
			if rec.Outcome != vocab.Completed || rec.Output != orig.Output || !strings.Contains(rec.Output, "Your key: [REDACTED] and [REDACTED]") {
				t.Errorf("replay %s %q, run %q", rec.Outcome, rec.Output, orig.Output)
			}
		})
	}
}

func TestRecordKeepsRawBytes(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(modeltest.Script{Steps: steps(modeltest.Keepalive(), modeltest.Text("Hi "), modeltest.Text("there key "+plantedKey+"."), modeltest.Stop())})
	s := f.spec("x", Limits{})
	s.Record = true
	_, rec := f.run(t, s)
	c, err := LoadCassette(filepath.Join(rec.Dir, runfolder.StreamFile))
	if err != nil {
		t.Fatal(err)
	}
	call := c.Call(1)
	var body strings.Builder
	for _, ch := range call.Chunks {
		body.Write(ch.Data)
	}
	// The key sat whole in one frame: that line is redacted in place and
	// the stream stays as the server sent it.
	if call.Reencoded || call.Status != 200 || call.ContentType != "text/event-stream" || call.End.How != cassette.EndCut && call.End.How != cassette.EndEOF {
		t.Errorf("call %+v", call)
	}
	for _, s := range []string{": keep-alive\n\n", `"chatcmpl-modeltest"`, `"content":"there key [REDACTED]."`, "data: [DONE]\n\n"} {
		if !strings.Contains(body.String(), s) {
			t.Errorf("the recorded body lacks %q:\n%s", s, body.String())
		}
	}
	h := c.Header
	if h.Protocol != "openai" || h.Agent != "tester" || h.RunID != rec.RunID || h.Limits.PrefillMS != 10000 || len(h.Tools) != 0 {
		t.Errorf("header %+v", h)
	}
}

func TestConcurrentRecordAndReplay(t *testing.T) {
	f := newFixture(t, wire.Ollama)
	f.srv.SetDefault(modeltest.Reply("same answer"))
	s := f.spec("x", Limits{})
	s.Record = true
	_, orig := f.run(t, s)
	c, err := LoadCassette(filepath.Join(orig.Dir, runfolder.StreamFile))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			s := Spec{Replay: c, Fast: i%2 == 0}
			if i%3 == 0 {
				s = f.spec("x", Limits{})
				s.Record = true
			}
			r, err := f.runner.Start(context.Background(), s)
			if err != nil {
				t.Error(err)
				return
			}
			if rec, _ := r.Wait(); rec.Output != "same answer" {
				t.Errorf("run %d: %q", i, rec.Output)
			}
		})
	}
	wg.Wait()
}

func TestUnsavedReplayWritesItsFolderOnlyWhenKept(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	orig, path := recordScenario(t, f, scenarios[0])
	c, err := LoadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	s := f.spec("", Limits{})
	s.Replay, s.ReplaySource, s.Fast, s.Unsaved = c, path, true, true
	r, rec := f.run(t, s)
	if rec.Output != orig.Output || rec.Outcome != orig.Outcome || rec.Dir == "" {
		t.Errorf("unsaved replay %+v", rec)
	}
	if _, err := os.Stat(rec.Dir); !os.IsNotExist(err) {
		t.Fatalf("an unsaved run made its folder before Keep: %v", err)
	}
	for range 2 { // keeping twice writes once
		dir, err := r.Keep()
		if err != nil || dir != rec.Dir {
			t.Fatalf("Keep = %q, %v; want %q", dir, err, rec.Dir)
		}
	}
	checkFolder(t, rec)
	md, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if !strings.Contains(string(md), "- Replay: of run "+orig.RunID) {
		t.Errorf("result.md of a kept replay:\n%s", md)
	}
	// A saved run's Keep is its folder, written already.
	s.Unsaved = false
	r, rec = f.run(t, s)
	if dir, err := r.Keep(); err != nil || dir != rec.Dir {
		t.Errorf("Keep of a saved run = %q, %v; want %q", dir, err, rec.Dir)
	}
}
