package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// These tests hold the loop to NetClaw's rules (TurnStateTracker
// a36cc1ee, SubAgentActor): the texts the model receives, and the outcome
// and reason recorded.

// forever answers every request with next(n), n counting from 1.
func forever(f *fixture, next func(n int) modeltest.Script) {
	var mu sync.Mutex
	n := 0
	f.srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return next(n), true
	})
}

// lastUser returns the text of a request's last turn when it is a user
// turn, else "".
func lastUser(r modeltest.Request) string {
	m := r.Messages
	if len(m) == 0 || m[len(m)-1].Role != "user" {
		return ""
	}
	return m[len(m)-1].Text
}

func TestCycleGuardStopsAModelThatRepeatsACallForever(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, p)
			forever(f, func(n int) modeltest.Script { return sameCall(fmt.Sprintf("call_%d", n)) })
			_, rec := f.run(t, f.toolSpec("Read the README.", project(t), Limits{}))
			if rec.Outcome != vocab.Partial || rec.Reason != vocab.ReasonToolCycleStopped || rec.State != vocab.StatePartial {
				t.Fatalf("got %s/%s/%s: %s", rec.Outcome, rec.Reason, rec.State, rec.Error)
			}
			reqs := f.srv.Requests()
			// Two equal rounds run; the third call gets the correction;
			// the fourth ends the run with no fifth model call.
			if len(reqs) != 4 {
				t.Fatalf("%d requests, want 4", len(reqs))
			}
			for i := 1; i <= 2; i++ {
				if got := lastTool(reqs[i]); got.Text != readmeText {
					t.Errorf("round %d got %q", i, got.Text)
				}
			}
			want := "Netclaw stopped this tool call because it would continue a repeated action-and-outcome cycle. " +
				"The same action completed twice without a changed result. This call did not execute.\n" +
				"Next action: choose a different action, load a missing tool, or finish the task."
			if got := lastTool(reqs[3]); got.Text != want || got.IsError {
				t.Errorf("the third call got %q (error %t), want %q", got.Text, got.IsError, want)
			}
			guards := []string{}
			for _, tc := range rec.ToolCalls {
				guards = append(guards, tc.Result.Guard)
			}
			if strings.Join(guards, ",") != "allow,allow,refuse,stop" {
				t.Errorf("guard decisions %v", guards)
			}
			if c := rec.Counts; c.GuardRefusals != 1 || c.ToolResults != 3 || c.ModelCalls != 4 || c.ToolCalls != 4 {
				t.Errorf("counts %+v", c)
			}
			if !strings.HasPrefix(rec.Error, tools.CycleStopText) || !strings.Contains(rec.Error, "no further model call") {
				t.Errorf("error %q", rec.Error)
			}
			checkFolder(t, rec)
		})
	}
}

func TestCycleGuardStopsACycleOfPeriodTwo(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	forever(f, func(n int) modeltest.Script {
		path := "README.md"
		if n%2 == 0 {
			path = "main.go"
		}
		return script(modeltest.ToolCall(fmt.Sprintf("call_%d", n), "file_read", fmt.Sprintf(`{"path": %q, "_rationale": "look"}`, path)), modeltest.Finish(modeltest.FinishTools))
	})
	_, rec := f.run(t, f.toolSpec("Read both.", project(t), Limits{}))
	if rec.Outcome != vocab.Partial || rec.Reason != vocab.ReasonToolCycleStopped {
		t.Fatalf("got %s/%s: %s", rec.Outcome, rec.Reason, rec.Error)
	}
	// README, main, README, main run; the fifth and sixth calls are
	// corrected; the seventh ends the run.
	reqs := f.srv.Requests()
	if len(reqs) != 7 {
		t.Fatalf("%d requests, want 7", len(reqs))
	}
	for _, i := range []int{5, 6} {
		if got := lastTool(reqs[i]); got.Text != tools.CorrectionText {
			t.Errorf("call %d got %q", i, got.Text)
		}
	}
	var guards []string
	for _, tc := range rec.ToolCalls {
		guards = append(guards, tc.Result.Guard)
	}
	if strings.Join(guards, ",") != "allow,allow,allow,allow,refuse,refuse,stop" {
		t.Errorf("guard decisions %v", guards)
	}
}

func TestSeventyDistinctCallsComplete(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	for i := range 70 {
		f.srv.Enqueue(script(modeltest.ToolCall(fmt.Sprintf("call_%d", i), "file_list", fmt.Sprintf(`{"path": ".", "glob": "*%d*", "_rationale": "look"}`, i)), modeltest.Finish(modeltest.FinishTools)))
	}
	f.srv.Enqueue(modeltest.Reply("Seventy lists later: port 8080."))
	_, rec := f.run(t, f.toolSpec("List things.", project(t), Limits{}))
	if rec.Outcome != vocab.Completed || rec.Reason != "" || rec.Output != "Seventy lists later: port 8080." {
		t.Fatalf("got %s/%s %q: %s", rec.Outcome, rec.Reason, rec.Output, rec.Error)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 71 || rec.Counts.ToolResults != 70 || rec.Counts.GuardRefusals != 0 {
		t.Fatalf("%d requests, counts %+v", len(reqs), rec.Counts)
	}
	for i, req := range reqs {
		if len(req.Tools) == 0 || req.ToolChoice != "" || lastUser(req) != "" && i > 0 {
			t.Fatalf("request %d: tools %v choice %q, ends %q", i+1, req.Tools, req.ToolChoice, lastUser(req))
		}
	}
	md, err := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if err != nil || strings.Contains(string(md), "at most") {
		t.Errorf("result.md still names a cap:\n%s", md)
	}
}

func TestEmptyRepliesAreNudgedThenFail(t *testing.T) {
	tests := []struct {
		name   string
		reply  modeltest.Script
		nudge  string
		errHas string
	}{
		{"empty", script(modeltest.Stop()), PreToolEmptyNudge, "the reply holds no text"},
		{"thinking only", script(modeltest.Thinking("hmm, let me think"), modeltest.Stop()), ThinkingOnlyNudge, "only thinking"},
	}
	for _, tt := range tests {
		for _, p := range trialtest.Protocols {
			t.Run(tt.name+"/"+p.String(), func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, p)
				forever(f, func(int) modeltest.Script { return tt.reply })
				_, rec := f.run(t, f.spec("Say something.", Limits{}))
				if rec.Outcome != vocab.Failed || rec.Reason != vocab.ReasonEmptyFinalResponse {
					t.Fatalf("got %s/%s: %s", rec.Outcome, rec.Reason, rec.Error)
				}
				reqs := f.srv.Requests()
				// The first reply and five retries.
				if len(reqs) != 1+MaxPreToolEmptyRetries {
					t.Fatalf("%d requests, want %d", len(reqs), 1+MaxPreToolEmptyRetries)
				}
				for i, req := range reqs[1:] {
					// Each retry adds one nudge; the empty replies are
					// not kept.
					m := req.Messages
					if len(m) != 2+i {
						t.Fatalf("request %d has %d turns: %+v", i+2, len(m), m)
					}
					for _, turn := range m[1:] {
						if turn.Role != "user" || turn.Text != "[system: "+tt.nudge+"]" {
							t.Fatalf("request %d: turn %+v, want the nudge %q", i+2, turn, tt.nudge)
						}
					}
				}
				if rec.Counts.Nudges != MaxPreToolEmptyRetries || rec.Counts.ModelCalls != 1+MaxPreToolEmptyRetries {
					t.Errorf("counts %+v", rec.Counts)
				}
				md, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
				if !strings.Contains(string(md), "- Model calls: 6 (5 after a nudge: the reply before held no answer)") {
					t.Errorf("result.md:\n%s", md)
				}
				for _, s := range []string{tt.errHas, "6 empty replies in a row before any tool call", EmptyResponseFailureMessage} {
					if !strings.Contains(rec.Error, s) {
						t.Errorf("error %q lacks %q", rec.Error, s)
					}
				}
				checkFolder(t, rec)
			})
		}
	}
}

func TestEmptyRepliesAfterToolsGetEightRetries(t *testing.T) {
	f := newFixture(t, wire.Anthropic)
	forever(f, func(n int) modeltest.Script {
		switch n {
		case 1:
			return script(modeltest.Stop()) // before any tool: pre-tool nudge
		case 2:
			return sameCall("call_1")
		}
		return script(modeltest.Stop())
	})
	_, rec := f.run(t, f.toolSpec("Read it.", project(t), Limits{}))
	if rec.Reason != vocab.ReasonEmptyFinalResponse || !strings.Contains(rec.Error, "9 empty replies in a row after its last tool call") {
		t.Fatalf("got %s: %s", rec.Reason, rec.Error)
	}
	reqs := f.srv.Requests()
	// 1 empty, 1 tool call, then 1 empty and 8 retries.
	if len(reqs) != 2+1+MaxPostToolEmptyRetries {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := lastUser(reqs[1]); got != "[system: "+PreToolEmptyNudge+"]" {
		t.Errorf("second request ends %q", got)
	}
	if got := lastUser(reqs[3]); got != "[system: "+PostToolEmptyNudge+"]" {
		t.Errorf("fourth request ends %q", got)
	}
}

func TestNudgedModelThatAnswersCompletes(t *testing.T) {
	f := newFixture(t, wire.Ollama)
	f.srv.Enqueue(script(modeltest.Thinking("hmm"), modeltest.Stop()), modeltest.Reply("Port 8080."))
	_, rec := f.run(t, f.spec("Which port?", Limits{}))
	if rec.Outcome != vocab.Completed || rec.Output != "Port 8080." || rec.Counts.ModelCalls != 2 {
		t.Fatalf("got %s %q %+v: %s", rec.Outcome, rec.Output, rec.Counts, rec.Error)
	}
	lines := checkFolder(t, rec)
	var nudges []string
	for _, l := range lines {
		if l.Type == "request" && l.Nudge != "" {
			nudges = append(nudges, l.Nudge)
		}
	}
	if len(nudges) != 1 || nudges[0] != "[system: "+ThinkingOnlyNudge+"]" {
		t.Errorf("the transcript's nudges: %q", nudges)
	}
}

func TestToolCallMarkup(t *testing.T) {
	const markup = "I will read it.\n<tool_call>\n<function=file_read>\n<parameter=path>README.md</parameter>\n</function>\n</tool_call>"
	const fenced = "Models of this family write calls like this:\n```\n<tool_call>\n<function=file_read>\n```\nThe port is 8080."
	t.Run("inside a code fence it is an answer", func(t *testing.T) {
		f := newFixture(t, wire.OpenAI)
		f.srv.Enqueue(modeltest.Reply(fenced))
		_, rec := f.run(t, f.toolSpec("Explain.", project(t), Limits{}))
		if rec.Outcome != vocab.Completed || rec.Output != fenced || len(f.srv.Requests()) != 1 {
			t.Fatalf("got %s %q, %d requests", rec.Outcome, rec.Output, len(f.srv.Requests()))
		}
	})
	t.Run("outside it gets one repair nudge, then fails", func(t *testing.T) {
		for _, p := range trialtest.Protocols {
			t.Run(p.String(), func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, p)
				forever(f, func(int) modeltest.Script { return modeltest.Reply(markup) })
				_, rec := f.run(t, f.toolSpec("Read it.", project(t), Limits{}))
				if rec.Outcome != vocab.Failed || rec.Reason != vocab.ReasonMalformedFinalOutput || !strings.HasPrefix(rec.Error, MalformedFinalOutputMessage) {
					t.Fatalf("got %s/%s: %s", rec.Outcome, rec.Reason, rec.Error)
				}
				reqs := f.srv.Requests()
				if len(reqs) != 2 {
					t.Fatalf("%d requests, want 2", len(reqs))
				}
				if got := lastUser(reqs[1]); got != "[system: "+MalformedFinalOutputNudge+"]" || len(reqs[1].Messages) != 2 || len(reqs[1].Tools) == 0 {
					t.Errorf("the repair request: %d turns, tools %v, ends %q", len(reqs[1].Messages), reqs[1].Tools, got)
				}
			})
		}
	})
	t.Run("a repaired reply completes", func(t *testing.T) {
		f := newFixture(t, wire.OpenAI)
		f.srv.Enqueue(modeltest.Reply(markup), modeltest.Reply("The port is 8080."))
		_, rec := f.run(t, f.toolSpec("Read it.", project(t), Limits{}))
		if rec.Outcome != vocab.Completed || rec.Output != "The port is 8080." {
			t.Fatalf("got %s %q: %s", rec.Outcome, rec.Output, rec.Error)
		}
	})
}

func TestContainsUnexecutedToolCallMarkup(t *testing.T) {
	for text, want := range map[string]bool{
		"":                                  false,
		"The answer.":                       false,
		"<tool_call>":                       true,
		"  <TOOL_CALL name=x>":              true,
		"done\n</tool_call>":                true,
		"<function=read>":                   true,
		"<parameter=path>a</parameter>":     true,
		"</function>":                       true,
		"</parameter>":                      true,
		"use <function=x> inline":           false,
		"```\n<tool_call>\n```":             false,
		"~~~\n<function=x>\n~~~\nafter":     false,
		"```\ncode\n```\n<function=x>":      true,
		"> <tool_call> quoted":              false,
		"```\nnever closed\n<tool_call>":    false,
		"line\r\n<parameter=x>\r\n":         true,
		"<toolcall> is not the same prefix": false,
	} {
		if got := ContainsUnexecutedToolCallMarkup(text); got != want {
			t.Errorf("ContainsUnexecutedToolCallMarkup(%q) = %t", text, got)
		}
	}
}

func TestReasonsAreNetClaws(t *testing.T) {
	want := "output_truncated,thinking_only_timeout,no_substantive_output_timeout,no_activity_timeout,empty_final_response," +
		"malformed_final_output,llm_call_failed,tool_execution_failed,cancelled_by_parent,tool_cycle_stopped"
	if got := strings.Join(vocab.Reasons, ","); got != want {
		t.Errorf("Reasons = %s", got)
	}
	for old, r := range vocab.RenamedReasons {
		now := r.Now
		if strings.Contains(","+strings.Join(vocab.Reasons, ",")+",", ","+old+",") {
			t.Errorf("%s is renamed but still a reason", old)
		}
		if now != "" && !strings.Contains(want, now) {
			t.Errorf("%s renamed to %s, which is no reason", old, now)
		}
	}
}

func BenchmarkContainsUnexecutedToolCallMarkup(b *testing.B) {
	text := strings.Repeat("A line of an ordinary answer, with `code` and <b>tags</b>.\n", 200) + "```\n<tool_call>\n```\n"
	for b.Loop() {
		ContainsUnexecutedToolCallMarkup(text)
	}
}
