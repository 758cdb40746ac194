package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// readmeText is the README of every test project.
const readmeText = "# Demo\n\nThe server listens on :8080.\n"

// project makes a project folder with a README, a source file, and a
// secret next to it (outside the folder).
func project(t *testing.T) string {
	t.Helper()
	outer := t.TempDir()
	dir := filepath.Join(outer, "project")
	hometest.WriteFile(t, filepath.Join(dir, "README.md"), readmeText)
	hometest.WriteFile(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n")
	hometest.WriteFile(t, filepath.Join(outer, "secret.txt"), "TOP-SECRET")
	return dir
}

// trialToolNames are the tools a trial on a project offers a Personal
// session at the start, in order: NetClaw's core tools for a sub-agent.
var trialToolNames = func() string {
	var names []string
	for _, s := range TrialToolSpecs("") {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}()

// toolSpec is a spec whose run offers the trial tools on dir.
func (f *fixture) toolSpec(task, dir string, l Limits) Spec {
	s := f.spec(task, l)
	s.Project = dir
	return s
}

// script is a shorthand for a script of steps.
func script(parts ...any) modeltest.Script { return modeltest.Script{Steps: steps(parts...)} }

// lastTool returns the last tool turn of a request.
func lastTool(r modeltest.Request) wire.Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i]
		}
	}
	return wire.Message{}
}

func TestToolRoundTripOnEveryProtocol(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, p)
			dir := project(t)
			f.srv.Enqueue(
				script(modeltest.Thinking("I should read it."), modeltest.Text("Let me look."),
					modeltest.ToolCall("call_a", "file_read", `{"path":`, ` "README.md", "_rationale": "look"}`),
					modeltest.ToolCall("call_b", "spawn_agent", `{"agent": "x", "_rationale": "look"}`),
					modeltest.Finish(modeltest.FinishTools)),
				script(modeltest.ToolCall("call_c", "file_read", `{"path": "../secret.txt", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools)),
				modeltest.Reply("The server listens on port 8080."),
			)
			r, rec := f.run(t, f.toolSpec("Where does the server listen?", dir, Limits{}))
			if rec.Outcome != vocab.Completed || rec.Output != "The server listens on port 8080." {
				t.Fatalf("got %s/%s %q (%s)", rec.Outcome, rec.Reason, rec.Output, rec.Error)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			for i, req := range reqs {
				if strings.Join(req.Tools, ",") != trialToolNames || req.ToolChoice != "" {
					t.Errorf("request %d offers %v (choice %q)", i+1, req.Tools, req.ToolChoice)
				}
				if !isTesterSystem(req.System) || taskOf(req) != "Where does the server listen?" {
					t.Errorf("request %d lost the conversation's start: %+v", i+1, req)
				}
			}
			// The second request: user, the assistant's text and two
			// calls, and the two results, matched to the calls.
			m := reqs[1].Messages
			if len(m) != 4 || m[1].Role != "assistant" || m[1].Text != "Let me look." || len(m[1].ToolCalls) != 2 {
				t.Fatalf("second request's messages: %+v", m)
			}
			calls := m[1].ToolCalls
			if calls[0].Name != "file_read" || !strings.Contains(calls[0].Arguments, `"README.md"`) || calls[1].Name != "spawn_agent" {
				t.Errorf("assistant turn's calls: %+v", calls)
			}
			read, search := m[2], m[3]
			if read.Role != "tool" || read.Text != readmeText || read.IsError {
				t.Errorf("file_read result: %+v", read)
			}
			if search.Text != "Unknown tool: spawn_agent" || search.IsError {
				t.Errorf("web_search result: %+v", search)
			}
			if p != wire.Ollama {
				if read.ToolCallID != "call_a" || search.ToolCallID != "call_b" || calls[0].ID != "call_a" {
					t.Errorf("results do not name their calls: %+v %+v %+v", calls, read, search)
				}
			} else if read.ToolName != "file_read" || search.ToolName != "spawn_agent" {
				t.Errorf("Ollama results do not name their tools: %+v %+v", read, search)
			}
			// The third request carries the refused escape.
			if got := lastTool(reqs[2]); !strings.Contains(got.Text, "outside the project folder") && !strings.Contains(got.Text, "leads out of the project folder") {
				t.Errorf("the escape got %q", got.Text)
			}
			for _, req := range reqs {
				if strings.Contains(string(req.Body), "TOP-SECRET") {
					t.Error("a file outside the project reached the model")
				}
			}

			if len(rec.ToolCalls) != 3 {
				t.Fatalf("tool calls %+v", rec.ToolCalls)
			}
			want := []struct {
				call  int
				name  string
				guard string
				err   bool
				text  string
			}{{1, "file_read", "allow", false, readmeText}, {1, "spawn_agent", "allow", true, "Unknown tool: spawn_agent"}, {2, "file_read", "allow", true, "project folder"}}
			for i, w := range want {
				tc := rec.ToolCalls[i]
				if tc.Call != w.call || tc.Name != w.name || tc.Result == nil || tc.Result.Guard != w.guard || tc.Result.Error != w.err || !strings.Contains(tc.Result.Text, w.text) {
					t.Errorf("tool call %d: %+v %+v", i, tc, tc.Result)
				}
			}
			c := rec.Counts
			if c != (runfolder.Counts{ModelCalls: 3, ToolCalls: 3, ToolResults: 3, ToolErrors: 2, ToolRefused: 2}) {
				t.Errorf("counts %+v", c)
			}
			if strings.Join(rec.Tools, ",") != trialToolNames || rec.Project != dir || rec.MaxToolIterations != 0 {
				t.Errorf("record tools %v project %q cap %d", rec.Tools, rec.Project, rec.MaxToolIterations)
			}
			lines := checkFolder(t, rec)
			var results, requests int
			for _, l := range lines {
				switch l.Type {
				case "tool_result":
					results++
					if l.Tool == nil || l.Tool.Result == nil {
						t.Errorf("tool_result line without a result: %+v", l)
					}
				case "request":
					requests++
					if l.Call != requests {
						t.Errorf("request line of call %d", l.Call)
					}
				}
			}
			if results != 3 || requests != 3 {
				t.Errorf("transcript has %d tool results and %d requests", results, requests)
			}
			md, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
			for _, s := range []string{"- Model calls: 3", "- Tool calls: 3 (3 answered, 2 errors, 2 refused, 0 by the cycle guard)",
				"  - call 1.1: file_read {\"path\":", "  - call 2.1: file_read {\"path\":", "    - result: ok, real, " + fmt.Sprint(len(readmeText)) + " bytes", "      > The server listens on :8080.",
				"    - result: refused"} {
				if !strings.Contains(string(md), s) {
					t.Errorf("result.md lacks %q:\n%s", s, md)
				}
			}
			// Events: the results arrive as EventToolResult after
			// their calls.
			var kinds []string
			for i := 0; ; i++ {
				e, err := r.Next(context.Background(), i)
				if err != nil {
					break
				}
				switch e.Kind {
				case EventToolCall:
					kinds = append(kinds, fmt.Sprintf("call%d:%s", e.Call, e.Tool.Name))
				case EventToolResult:
					kinds = append(kinds, fmt.Sprintf("result%d:%s", e.Call, e.Tool.Name))
				}
			}
			if got := strings.Join(kinds, " "); got != "call1:file_read call1:spawn_agent result1:file_read result1:spawn_agent call2:file_read result2:file_read" {
				t.Errorf("tool events: %s", got)
			}
		})
	}
}

// sameCall plays a reply that calls file_read on README.md, every time.
func sameCall(id string) modeltest.Script {
	return script(modeltest.ToolCall(id, "file_read", `{"path": "README.md", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools))
}

func TestRunWithoutToolsOffersNone(t *testing.T) {
	f := newFixture(t, wire.Anthropic)
	f.srv.Enqueue(script(modeltest.Text("I would read it."), modeltest.ToolCall("t1", "file_read", `{"path":"a", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools)))
	_, rec := f.run(t, f.spec("x", Limits{}))
	reqs := f.srv.Requests()
	if len(reqs) != 1 || len(reqs[0].Tools) != 0 || strings.Contains(string(reqs[0].Body), `"tools"`) {
		t.Fatalf("requests %+v", reqs)
	}
	// The call is evidence, never answered; the text is the answer.
	if rec.Outcome != vocab.Completed || len(rec.ToolCalls) != 1 || rec.ToolCalls[0].Result != nil || len(rec.Tools) != 0 {
		t.Errorf("record %+v", rec)
	}
}

func TestToolCallCutOffEndsTheLoop(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(script(modeltest.Text("Reading."), modeltest.ToolCall("c", "file_read", `{"path": "READ`), modeltest.Length()))
	_, rec := f.run(t, f.toolSpec("x", project(t), Limits{}))
	if rec.Reason != vocab.ReasonOutputTruncated || len(f.srv.Requests()) != 1 || rec.ToolCalls[0].Result != nil {
		t.Errorf("got %s, %d requests, %+v", rec.Reason, len(f.srv.Requests()), rec.ToolCalls)
	}
}

func TestCancelDuringTheToolLoop(t *testing.T) {
	f := newFixture(t, wire.Ollama)
	f.srv.Enqueue(sameCall("a"), script(modeltest.Text("thinking about it "), modeltest.Pause(10e9)))
	r, err := f.runner.Start(context.Background(), f.toolSpec("x", project(t), Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		e, err := r.Next(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind == EventText && e.Call == 2 {
			break
		}
	}
	r.Cancel()
	rec, _ := r.Wait()
	if rec.Reason != vocab.ReasonCancelledByParent || rec.Counts.ModelCalls != 2 || rec.ToolCalls[0].Result == nil {
		t.Errorf("got %s, %+v", rec.Reason, rec.Counts)
	}
}

func TestProjectFolderErrors(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	file := filepath.Join(t.TempDir(), "plain.txt")
	hometest.WriteFile(t, file, "x")
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		_, err := f.runner.Start(context.Background(), f.toolSpec("x", dir, Limits{}))
		var se *SpecError
		pe, ok := errors.AsType[*overlay.ProjectError](err)
		if !errors.As(err, &se) || !ok || pe.Dir != dir || (dir == file) != (pe.Err == nil) || !strings.Contains(err.Error(), "(pass ") {
			t.Errorf("%s: %#v", dir, err)
		}
	}
	if list, _ := runfolder.ListRuns(f.runner.Dir(), runfolder.Filter{}); len(list) != 0 {
		t.Errorf("%d run folders", len(list))
	}
}

// TestOverlayInTMPDIRInsideProject: the run's overlay folder is made in
// TMPDIR; a project holding TMPDIR is refused before the trial starts.
func TestOverlayInTMPDIRInsideProject(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	project := t.TempDir()
	tmp := filepath.Join(project, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	_, err := f.runner.Start(context.Background(), f.toolSpec("x", project, Limits{}))
	ie, ok := errors.AsType[*overlay.InsideProjectError](err)
	if !ok || ie.Project != project || !strings.HasPrefix(ie.Dir, tmp+string(filepath.Separator)) {
		t.Fatalf("Start with TMPDIR inside the project: %#v", err)
	}
	if list, _ := runfolder.ListRuns(f.runner.Dir(), runfolder.Filter{}); len(list) != 0 {
		t.Errorf("%d run folders", len(list))
	}
}
