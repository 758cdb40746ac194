package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

const ms = time.Millisecond

// outcomeCase is one way a run can end.
type outcomeCase struct {
	name string
	// script plays for the protocol; trialtest.Protocols limits the case to those
	// where the situation can occur (nil: all three).
	script    func(p wire.Protocol) modeltest.Script
	protocols []wire.Protocol
	limits    Limits
	// cancelAfterText cancels the run once the first text has arrived.
	cancelAfterText bool

	outcome   vocab.Outcome
	reason    string
	state     string
	errHas    []string
	output    string
	truncFile bool
}

func fixed(sc modeltest.Script) func(wire.Protocol) modeltest.Script {
	return func(wire.Protocol) modeltest.Script { return sc }
}

var outcomeCases = []outcomeCase{
	{
		name: "completed",
		script: fixed(modeltest.Script{
			Steps: steps(modeltest.Thinking("plan first"), modeltest.Text("Hello "), modeltest.Text("world."), modeltest.Stop()),
			Usage: &modeltest.Usage{InputTokens: 12, OutputTokens: 3},
		}),
		outcome: vocab.Completed, state: vocab.StateCompleted, output: "Hello world.",
	},
	{
		name:    "completed with keepalives, role and usage frames between the words",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Keepalive(), modeltest.Text("a "), modeltest.Role(), modeltest.UsageOnly(1, 1), modeltest.Keepalive(), modeltest.Text("b"), modeltest.Stop())}),
		outcome: vocab.Completed, state: vocab.StateCompleted, output: "a b",
	},
	{
		name:    "output_truncated: finish at the output limit",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("The start of "), modeltest.Text("a long\nanswer"), modeltest.Length())}),
		outcome: vocab.Failed, reason: vocab.ReasonOutputTruncated, state: vocab.StateFailed, output: "The start of a long\nanswer",
		errHas: []string{"output limit", `it begins "The start of a long answer"`, runfolder.TruncatedOutputFile}, truncFile: true,
	},
	{
		name:    "output_truncated: a tool call with arguments that are not complete JSON",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.ToolCall("call_1", "file_read", `{"path": "do`), modeltest.Finish(modeltest.FinishTools))}),
		outcome: vocab.Failed, reason: vocab.ReasonOutputTruncated, state: vocab.StateFailed, errHas: []string{"file_read", "not complete JSON"},
	},
	{
		name:    "output_truncated: text, then a cut tool call",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Let me look."), modeltest.ToolCall("call_1", "file_list", `{"pa`), modeltest.Finish(modeltest.FinishTools))}),
		outcome: vocab.Failed, reason: vocab.ReasonOutputTruncated, state: vocab.StateFailed, output: "Let me look.", truncFile: true,
	},
	{
		name:    "output_truncated: thinking only, no file",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Thinking("so much to think"), modeltest.Length())}),
		outcome: vocab.Failed, reason: vocab.ReasonOutputTruncated, state: vocab.StateFailed,
	},
	{
		name:    "thinking_only_timeout",
		script:  fixed(modeltest.Script{Steps: repeat(3000, modeltest.Thinking("hmm ")), Gap: 10 * ms}),
		limits:  Limits{ThinkingOnly: 300 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonThinkingOnlyTimeout, state: vocab.StateFailed, errHas: []string{"only thought"},
	},
	{
		name:    "no_substantive_output_timeout: keepalives only after the first words",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Working on it"), repeat(3000, modeltest.Keepalive())), Gap: 10 * ms}),
		limits:  Limits{NoProgress: 300 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonNoSubstantiveOutput, state: vocab.StateFailed, output: "Working on it", errHas: []string{"keepalives do not count"},
	},
	{
		name:    "no_substantive_output_timeout: white space is not progress",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Working"), repeat(3000, modeltest.Text(" "))), Gap: 10 * ms}),
		limits:  Limits{NoProgress: 300 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonNoSubstantiveOutput, state: vocab.StateFailed,
	},
	{
		name:    "no_activity_timeout",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Working"), modeltest.Pause(time.Minute), modeltest.Stop())}),
		limits:  Limits{InterDelta: 300 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonNoActivity, state: vocab.StateFailed, output: "Working", errHas: []string{"Session.FirstTokenTimeoutSeconds"},
	},
	{
		name:    "no_activity_timeout: silence in prefill, after the headers",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Pause(time.Minute), modeltest.Text("late"), modeltest.Stop())}),
		limits:  Limits{Prefill: 300 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonNoActivity, state: vocab.StateFailed, errHas: []string{"Subagent timed out: no activity for 0s.", "prefill"},
	},
	{
		name:    "no_activity_timeout: no headers at all",
		script:  fixed(modeltest.Script{HeaderDelay: time.Minute, Steps: steps(modeltest.Text("late"), modeltest.Stop())}),
		limits:  Limits{Prefill: 300 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonNoActivity, state: vocab.StateFailed,
	},
	{
		name:    "no_substantive_output_timeout: keepalives refresh the prefill budget, not the no-progress ceiling",
		script:  fixed(modeltest.Script{Steps: repeat(3000, modeltest.Keepalive()), Gap: 10 * ms}),
		limits:  Limits{Prefill: 300 * ms, InterDelta: 50 * ms, NoProgress: 600 * ms},
		outcome: vocab.Failed, reason: vocab.ReasonNoSubstantiveOutput, state: vocab.StateFailed, errHas: []string{"Subagent timed out: no substantive output for 1s."},
	},
	{
		name:    "empty_final_response: nothing but a finish",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Stop())}),
		outcome: vocab.Failed, reason: vocab.ReasonEmptyFinalResponse, state: vocab.StateFailed,
	},
	{
		name:    "empty_final_response: white space only",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text(" \n "), modeltest.Stop())}),
		outcome: vocab.Failed, reason: vocab.ReasonEmptyFinalResponse, state: vocab.StateFailed,
	},
	{
		name:    "empty_final_response: thinking only",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Thinking("hmm"), modeltest.Stop())}),
		outcome: vocab.Failed, reason: vocab.ReasonEmptyFinalResponse, state: vocab.StateFailed, errHas: []string{"only thinking", "6 empty replies in a row before any tool call", "NetClaw retries 5 times", EmptyResponseFailureMessage},
	},
	{
		name:    "empty_final_response: a tool call and no text, in a run without tools",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.ToolCall("call_1", "file_read", `{"path":`, `"a.md", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools))}),
		outcome: vocab.Failed, reason: vocab.ReasonEmptyFinalResponse, state: vocab.StateFailed, errHas: []string{"file_read", "offers no tools"},
	},
	{
		name:    "llm_call_failed: non-2xx with the server's message",
		script:  fixed(modeltest.Script{Status: 429, ErrorMessage: "rate limited, slow down"}),
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, errHas: []string{"HTTP 429", "rate limited, slow down"},
	},
	{
		name:    "llm_call_failed: non-2xx with a text body",
		script:  fixed(modeltest.Script{Status: 502, ErrorBody: "<html>bad gateway</html>"}),
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, errHas: []string{"HTTP 502", "bad gateway"},
	},
	{
		name:    "llm_call_failed: error frame in a 200 stream",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Partial "), modeltest.ErrorFrame("the model is overloaded"), modeltest.Text("never"), modeltest.Stop())}),
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, output: "Partial ", errHas: []string{"the model is overloaded"},
	},
	{
		name:    "llm_call_failed: the connection drops",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Half an"), modeltest.Disconnect())}),
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, output: "Half an", errHas: []string{"dropped mid-stream"},
	},
	{
		name:    "llm_call_failed: the stream ends with its terminator but no finish",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Where is the end"))}),
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, errHas: []string{"without a finish reason"},
	},
	{
		name:    "llm_call_failed: the stream just ends",
		script:  fixed(modeltest.Script{Steps: steps(modeltest.Text("Where is the end")), NoTerminator: true}),
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, errHas: []string{"without a finish reason"},
	},
	{
		name: "llm_call_failed: a malformed frame",
		script: func(p wire.Protocol) modeltest.Script {
			bad := "data: {\"choices\": [oops\n\n"
			if p == wire.Ollama {
				bad = "{\"message\": oops\n"
			}
			return modeltest.Script{Steps: steps(modeltest.Text("ok"), modeltest.Raw(bad), modeltest.Stop())}
		},
		outcome: vocab.Failed, reason: vocab.ReasonLLMCallFailed, state: vocab.StateFailed, errHas: []string{"malformed"},
	},
	{
		name:            "cancelled_by_parent mid-stream",
		script:          fixed(modeltest.Script{Steps: steps(modeltest.Text("Started "), modeltest.Text("then "), modeltest.Pause(time.Minute), modeltest.Stop())}),
		cancelAfterText: true,
		outcome:         vocab.Failed, reason: vocab.ReasonCancelledByParent, state: vocab.StateCancelled, errHas: []string{"cancelled"},
	},
}

func TestOutcomes(t *testing.T) {
	for _, tc := range outcomeCases {
		ps := tc.protocols
		if ps == nil {
			ps = trialtest.Protocols
		}
		for _, p := range ps {
			t.Run(tc.name+"/"+p.String(), func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, p)
				// An empty reply is nudged: the model answers alike.
				f.srv.SetDefault(tc.script(p))
				r, err := f.runner.Start(context.Background(), f.spec("Check the thing.", tc.limits))
				if err != nil {
					t.Fatal(err)
				}
				var texts strings.Builder
				var done *runfolder.Record
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				for e := range r.Events(ctx) {
					switch e.Kind {
					case EventText:
						texts.WriteString(e.Text)
						if tc.cancelAfterText {
							r.Cancel()
						}
					case EventDone:
						done = e.Record
					}
				}
				if done == nil {
					t.Fatal("no EventDone")
				}
				rec, err := r.Wait()
				if err != nil {
					t.Fatal(err)
				}
				if rec.Outcome != tc.outcome || rec.Reason != tc.reason || rec.State != tc.state {
					t.Fatalf("got %s/%s/%s (%s), want %s/%s/%s", rec.Outcome, rec.Reason, rec.State, rec.Error, tc.outcome, tc.reason, tc.state)
				}
				for _, s := range tc.errHas {
					if !strings.Contains(rec.Error, s) {
						t.Errorf("error %q does not say %q", rec.Error, s)
					}
				}
				if tc.output != "" && rec.Output != tc.output {
					t.Errorf("output %q, want %q", rec.Output, tc.output)
				}
				if rec.Reason != vocab.ReasonEmptyFinalResponse && texts.String() != rec.Output {
					t.Errorf("text events %q differ from the output %q", texts.String(), rec.Output)
				}
				if done.Reason != rec.Reason || done.RunID != rec.RunID {
					t.Errorf("EventDone record %+v differs", done)
				}
				_, hasFile := os.Stat(filepath.Join(rec.Dir, runfolder.TruncatedOutputFile))
				if tc.truncFile != (hasFile == nil) {
					t.Errorf("truncated-output.md exists: %t, want %t", hasFile == nil, tc.truncFile)
				}
				if tc.truncFile {
					b, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.TruncatedOutputFile))
					if !strings.HasPrefix(string(b), "> **Partial output.**") || !strings.Contains(string(b), rec.Output) {
						t.Errorf("truncated-output.md:\n%s", b)
					}
				}
				checkFolder(t, rec)
				reqs := f.srv.Requests()
				want := 1
				if rec.Reason == vocab.ReasonEmptyFinalResponse && len(rec.ToolCalls) == 0 {
					want = 1 + MaxPreToolEmptyRetries // nudged
				}
				if len(reqs) != want || !isTesterSystem(reqs[0].System) || taskOf(reqs[0]) != "Check the thing." ||
					reqs[0].Model != "test-model" || reqs[0].APIKey != plantedKey {
					t.Errorf("the server got %+v", reqs)
				}
			})
		}
	}
}

func TestConnectionRefused(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			f.srv.Close() // nothing listens on its port any more
			_, rec := f.run(t, f.spec("x", Limits{}))
			if rec.Reason != vocab.ReasonLLMCallFailed || !strings.Contains(rec.Error, "failed") || !strings.Contains(rec.Error, "Endpoint") {
				t.Errorf("got %s: %s", rec.Reason, rec.Error)
			}
			checkFolder(t, rec)
		})
	}
}

func TestLineCap(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 16 MiB a protocol")
	}
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			long := "data: " + strings.Repeat("x", wire.MaxLine) + "\n\n"
			if p == wire.Ollama {
				long = strings.Repeat("x", wire.MaxLine+1) + "\n"
			}
			f.srv.Enqueue(modeltest.Script{Steps: steps(modeltest.Text("a"), modeltest.Raw(long), modeltest.Stop())})
			// 16 MiB under -race on a busy 2-core machine can take longer
			// than the generous 10 s: this case breaks no watchdog limit.
			roomy := time.Minute
			_, rec := f.run(t, f.spec("x", Limits{InterDelta: roomy, NoProgress: roomy}))
			if rec.Reason != vocab.ReasonLLMCallFailed || !strings.Contains(rec.Error, "line cap") {
				t.Errorf("got %s: %s", rec.Reason, rec.Error)
			}
		})
	}
}

func TestRunJSONIsWrittenBeforeTheRequest(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(modeltest.Script{HeaderDelay: time.Minute})
	r, err := f.runner.Start(context.Background(), f.spec("x", Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := runfolder.LoadRun(f.runner.Dir(), r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if rec.State != vocab.StateRunning || rec.Outcome != "" || rec.EndedAt != nil || rec.Agent != "tester" || rec.Task != "x" ||
		rec.Model.ModelID != "test-model" || rec.Model.Provider != "mock" || len(rec.Files) != 1 {
		t.Errorf("run.json at start: %+v", rec)
	}
	if !runfolder.ValidRunID(r.ID()) || r.Dir() != filepath.Join(f.runner.Dir(), r.ID()) {
		t.Errorf("id %q dir %q", r.ID(), r.Dir())
	}
	if got := f.runner.Get(r.ID()); got != r {
		t.Error("the runner does not list the active run")
	}
	st := r.Status()
	f.srv.WaitRequests(1, 10*time.Second)
	st = r.Status()
	if st.State != vocab.StateRunning || !st.HasCall || st.Call.HasFirstDelta || st.Call.Next.Limit != "prefill" {
		t.Errorf("status in prefill: %+v", st)
	}
	r.Cancel()
	final, _ := r.Wait()
	if final.State != vocab.StateCancelled {
		t.Errorf("state %s", final.State)
	}
	if f.runner.Get(r.ID()) != nil {
		t.Error("an ended run is still active")
	}
}

func TestCancelByContext(t *testing.T) {
	f := newFixture(t, wire.Anthropic)
	f.srv.Enqueue(modeltest.Script{Steps: steps(modeltest.Text("a "), modeltest.Pause(time.Minute))})
	ctx, cancel := context.WithCancel(context.Background())
	r, err := f.runner.Start(ctx, f.spec("x", Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	cancel()
	rec, _ := r.Wait()
	if rec.Reason != vocab.ReasonCancelledByParent || rec.Outcome != vocab.Failed {
		t.Errorf("got %s/%s", rec.Outcome, rec.Reason)
	}
	// Cancelling an ended run changes nothing.
	r.Cancel()
	if again, _ := r.Wait(); again.Reason != rec.Reason {
		t.Error("a second cancel changed the record")
	}
}

// TestCancelWhileWaitingForHeaders cancels runs whose request is still
// waiting for the response headers: the transport then fails with the
// context's error, and that failure must not be taken for the provider's
// (llm_call_failed). It runs many times: the two can arrive together.
func TestCancelWhileWaitingForHeaders(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, p)
			f.srv.SetDefault(modeltest.Script{HeaderDelay: time.Minute, Steps: steps(modeltest.Text("late"), modeltest.Stop())})
			for i := range 20 {
				r, err := f.runner.Start(context.Background(), f.spec("x", Limits{}))
				if err != nil {
					t.Fatal(err)
				}
				f.srv.WaitRequests(i+1, 10*time.Second)
				r.Cancel()
				rec, _ := r.Wait()
				if rec.Reason != vocab.ReasonCancelledByParent || rec.State != vocab.StateCancelled {
					t.Fatalf("run %d: got %s/%s: %s", i, rec.Outcome, rec.Reason, rec.Error)
				}
			}
		})
	}
}

func TestTenConcurrentRuns(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			f.srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
				sc := modeltest.Reply("Answer to " + taskOf(r))
				sc.Gap = 5 * ms
				return sc, true
			})
			var runs []*Run
			for i := range 10 {
				r, err := f.runner.Start(context.Background(), f.spec(fmt.Sprintf("task number %d", i), Limits{}))
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, r)
			}
			if n := len(f.runner.Active()); n == 0 {
				t.Error("no active runs listed")
			}
			var wg sync.WaitGroup
			for i, r := range runs {
				wg.Go(func() {
					rec, err := r.Wait()
					if err != nil {
						t.Error(err)
						return
					}
					if want := fmt.Sprintf("Answer to task number %d", i); rec.Outcome != vocab.Completed || rec.Output != want {
						t.Errorf("run %d: %s %q, want %q", i, rec.Outcome, rec.Output, want)
					}
				})
			}
			wg.Wait()
			list, err := runfolder.ListRuns(f.runner.Dir(), runfolder.Filter{})
			if err != nil || len(list) != 10 {
				t.Fatalf("listed %d runs: %v", len(list), err)
			}
			ids := map[string]bool{}
			for _, rec := range list {
				ids[rec.RunID] = true
			}
			if len(ids) != 10 {
				t.Error("run ids repeat")
			}
		})
	}
}

func TestRedaction(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			// The key is split across deltas, hidden in thinking, a tool
			// call, an error frame, the task and the context; a pattern key
			// appears too.
			k := plantedKey
			f.srv.Enqueue(modeltest.Script{Steps: steps(
				modeltest.Thinking("the key is "+k[:5]), modeltest.Thinking(k[5:]+" ok"),
				modeltest.Text("Your key: "+k[:10]), modeltest.Text(k[10:]+" and sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV and "),
				modeltest.Text("Authorization: Bearer "), modeltest.Text("abcdefghijklmnopqrstuvwxyz done"),
				modeltest.ToolCall("call_"+k, "file_read", `{"path": "`+k),
				modeltest.Finish(modeltest.FinishTools),
			)})
			s := f.spec("Use "+k+" please", Limits{})
			s.Context = "context with " + k
			r, rec := f.run(t, s)
			if rec.Reason != vocab.ReasonOutputTruncated || len(rec.Files) != 4 {
				t.Fatalf("reason %s (%s), files %v", rec.Reason, rec.Error, rec.Files)
			}
			var shown strings.Builder
			for i := 0; ; i++ {
				e, err := r.Next(context.Background(), i)
				if err == io.EOF {
					break
				}
				shown.WriteString(e.Text)
				if e.Tool != nil {
					shown.WriteString(e.Tool.ID + e.Tool.Arguments)
				}
			}
			for _, leak := range []string{k, "sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV", "abcdefghijklmnopqrstuvwxyz"} {
				if strings.Contains(shown.String(), leak) {
					t.Errorf("events show %q", leak)
				}
				filepath.WalkDir(rec.Dir, func(path string, d os.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					b, _ := os.ReadFile(path)
					if strings.Contains(string(b), leak) {
						t.Errorf("%s holds %q", filepath.Base(path), leak)
					}
					return nil
				})
			}
			if !strings.Contains(rec.Output, "Your key: [REDACTED] and [REDACTED] and Authorization: Bearer [REDACTED] done") {
				t.Errorf("output %q", rec.Output)
			}
			if rec.Task != "Use [REDACTED] please" || len(rec.ToolCalls) != 1 || !strings.Contains(rec.ToolCalls[0].Arguments, redact.Redacted) {
				t.Errorf("record %+v", rec)
			}
			if got := f.srv.Requests()[0]; got.APIKey != k || !strings.Contains(got.FirstUser(), k) {
				t.Error("the provider must still get the key and the task as given")
			}
		})
	}
}

// TestEndpointPasswordIsRedacted runs against an Endpoint with a password
// in it: the password never reaches the run folder or the events.
func TestEndpointPasswordIsRedacted(t *testing.T) {
	const pw = "endpoint-pass-4242"
	f := newFixture(t, wire.OpenAI)
	endpoint := strings.Replace(f.srv.Endpoint(wire.OpenAI), "http://", "http://agent:"+pw+"@", 1)
	m := f.h.Model
	m.Endpoint = endpoint
	hometest.WriteFile(t, f.home.ConfigFile(), m.Config())
	cat, err := lintScan(f)
	if err != nil {
		t.Fatal(err)
	}
	f.cat = cat
	f.srv.Enqueue(modeltest.Reply("The endpoint was " + endpoint))
	_, rec := f.run(t, f.spec("x", Limits{}))
	if rec.Outcome != vocab.Completed || !strings.Contains(rec.Model.Endpoint, "agent:"+redact.Redacted+"@") || strings.Contains(rec.Output, pw) {
		t.Errorf("record %s, endpoint %q, output %q", rec.Outcome, rec.Model.Endpoint, rec.Output)
	}
	filepath.WalkDir(rec.Dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), pw) {
				t.Errorf("%s holds the endpoint's password", filepath.Base(path))
			}
		}
		return nil
	})
}

func TestRedactedErrorsAndHTTPBodies(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(modeltest.Script{Status: 401, ErrorMessage: "invalid api key " + plantedKey})
	_, rec := f.run(t, f.spec("x", Limits{}))
	if strings.Contains(rec.Error, plantedKey) || !strings.Contains(rec.Error, "invalid api key [REDACTED]") {
		t.Errorf("error %q", rec.Error)
	}
}

func TestSpecErrors(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	agent := f.cat.Agent("tester")
	rejected := *agent
	rejected.Status = 1
	rejected.Reason = "Agent definition at x has no 'name' in frontmatter — skipping"
	tests := []struct {
		name string
		spec Spec
		want string
	}{
		{"no agent", Spec{Task: "x"}, "no agent definition"},
		{"rejected agent", Spec{Agent: &rejected, Task: "x"}, "is rejected"},
		{"empty task", Spec{Agent: agent, Task: "  "}, "the task is empty"},
		{"bad role", Spec{Agent: agent, Task: "x", ModelRole: "Boss"}, "not Main, Compaction or Fallback"},
	}
	for _, tt := range tests {
		_, err := f.runner.Start(context.Background(), tt.spec)
		var se *SpecError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a SpecError with %q", tt.name, err, tt.want)
		}
	}
	if list, _ := runfolder.ListRuns(f.runner.Dir(), runfolder.Filter{}); len(list) != 0 {
		t.Errorf("spec errors left %d run folders", len(list))
	}
}
