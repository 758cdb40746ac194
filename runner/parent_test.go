package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// What the parent receives after a run on the loopback model: the
// acceptance record, the notice, the terminal record with NetClaw's
// fields, and the file handoff (read with file_read, changed in the
// overlay), for a completed, a truncated and a failed run; run.json and
// result.md hold them.
func TestParentRecords(t *testing.T) {
	read := script(modeltest.ToolCall("c1", "file_read", `{"Path":"README.md","_rationale":"read the readme"}`), modeltest.Finish(modeltest.FinishTools))
	write := script(modeltest.ToolCall("c2", "file_write", `{"Path":"notes/summary.md","Content":"# Summary\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools))
	tests := []struct {
		name    string
		scripts []modeltest.Script
		limits  Limits
		outcome vocab.Outcome
		state   string
		reason  string
		success bool
	}{
		{"completed", []modeltest.Script{read, write, modeltest.Reply("Done: the port is 8080.")}, Limits{}, vocab.Completed, "Completed", "", true},
		{"truncated", []modeltest.Script{read, script(modeltest.Text("The port is 80"), modeltest.Length())}, Limits{}, vocab.Failed, "Failed", "output_truncated", false},
		{"failed", []modeltest.Script{read, {Status: 500, ErrorMessage: "the model broke"}}, Limits{}, vocab.Failed, "Failed", "llm_call_failed", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, wire.OpenAI)
			f.srv.Enqueue(tt.scripts...)
			dir := project(t)
			_, rec := f.run(t, f.toolSpec("Find the port.", dir, tt.limits))
			if rec.Outcome != tt.outcome || rec.Reason != tt.reason {
				t.Fatalf("outcome %s/%s (%s), want %s/%s", rec.Outcome, rec.Reason, rec.Error, tt.outcome, tt.reason)
			}
			checkFolder(t, rec)
			p := rec.Parent
			if p == nil {
				t.Fatal("run.json has no parent record")
			}
			scope := "subagent/tester/" + rec.RunID
			if got, want := p.Acceptance.Text(), `{"run_id":"`+rec.RunID+`","scope_id":"`+scope+`","state":"Accepted","control_tool":"check_agent_run"}`; got != want {
				t.Errorf("acceptance\n got %s\nwant %s", got, want)
			}
			resultPath := filepath.Join(rec.Dir, runfolder.ResultFile)
			wantNotice := "Subagent run " + rec.RunID + " (tester) ended: " + string(tt.outcome)
			if tt.reason != "" {
				wantNotice += " (" + tt.reason + ")"
			}
			wantNotice += ". Its result is in " + resultPath + ": read it with file_read."
			if p.Notice != wantNotice {
				t.Errorf("notice\n got %s\nwant %s", p.Notice, wantNotice)
			}
			// The terminal record as NetClaw's JSON: its fields in order.
			var body map[string]json.RawMessage
			text := p.Terminal.Text()
			if err := json.Unmarshal([]byte(text), &body); err != nil {
				t.Fatalf("terminal record %s: %v", text, err)
			}
			keys := []string{"run_id", "scope_id", "state", "source_operation", "outcome", "reason", "output", "working_context", "findings", "log_path", "artifact_directory", "warning", "checkpoint"}
			at := 0
			for _, k := range keys {
				i := strings.Index(text[at:], `"`+k+`":`)
				if i < 0 {
					t.Fatalf("terminal record lacks %s or has it out of order: %s", k, text)
				}
				at += i
			}
			var term struct {
				State, Outcome, SourceOperation string
				Reason                          *string
				Output                          string
				WorkingContext                  *struct {
					ProjectDirectory                 string
					ReadFiles, ConfirmedChangedFiles []string
				} `json:"working_context"`
				LogPath           *string `json:"log_path"`
				ArtifactDirectory *string `json:"artifact_directory"`
			}
			json.Unmarshal([]byte(text), &term)
			if term.State != tt.state || term.Outcome != string(tt.outcome) || (tt.reason == "") != (term.Reason == nil) {
				t.Errorf("terminal state %s outcome %s reason %v", term.State, term.Outcome, term.Reason)
			}
			readme := filepath.Join(dir, "README.md")
			if strings.Join(p.Handoff.Read, ",") != readme {
				t.Errorf("files read %v, want %s", p.Handoff.Read, readme)
			}
			if tt.success {
				changed := filepath.Join(dir, "notes", "summary.md")
				if strings.Join(p.Handoff.Changed, ",") != changed {
					t.Errorf("files changed %v, want %s", p.Handoff.Changed, changed)
				}
				if w := term.WorkingContext; w == nil || w.ProjectDirectory != dir || strings.Join(w.ReadFiles, ",") != readme || strings.Join(w.ConfirmedChangedFiles, ",") != changed {
					t.Errorf("working context %+v", term.WorkingContext)
				}
				if term.LogPath == nil || *term.LogPath != filepath.Join(rec.Dir, runfolder.TranscriptFile) || term.ArtifactDirectory == nil || *term.ArtifactDirectory != rec.Dir {
					t.Errorf("locations %v %v", term.LogPath, term.ArtifactDirectory)
				}
				if term.Output != "Done: the port is 8080." {
					t.Errorf("output %q", term.Output)
				}
			} else {
				// A run that did not succeed hands over no working context
				// and no locations; its output is its failure text.
				if term.WorkingContext != nil || term.LogPath != nil || term.ArtifactDirectory != nil {
					t.Errorf("a failed run hands over %s", text)
				}
				if term.Output != rec.Error || term.Output == "" {
					t.Errorf("output %q, want the failure text %q", term.Output, rec.Error)
				}
			}
			md, err := os.ReadFile(resultPath)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"\n## What the parent receives\n\n", "- spawn_agent returns at once: " + p.Acceptance.Text() + "\n",
				"- notice (user message): " + p.Notice + "\n", "- files read: " + readme + "\n"} {
				if !strings.Contains(string(md), want) {
					t.Errorf("result.md lacks %q:\n%s", want, md)
				}
			}
		})
	}
}

// TestReplayHandsOverTheRecordedFiles: a replay (no project of its own)
// shows what the recorded run's parent received: the files it read and
// changed, in the recorded project, handed over in working_context, as
// its changes.patch and the changed line say.
func TestReplayHandsOverTheRecordedFiles(t *testing.T) {
	read := script(modeltest.ToolCall("c1", "file_read", `{"Path":"README.md","_rationale":"read the readme"}`), modeltest.Finish(modeltest.FinishTools))
	write := script(modeltest.ToolCall("c2", "file_write", `{"Path":"notes/summary.md","Content":"# Summary\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools))
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(read, write, modeltest.Reply("Done: the port is 8080."))
	s := f.toolSpec("Find the port.", project(t), Limits{})
	s.Record = true
	_, orig := f.run(t, s)
	if orig.Outcome != vocab.Completed || len(orig.Parent.Handoff.Changed) != 1 || len(orig.Parent.Handoff.Read) != 1 {
		t.Fatalf("the recorded run: %s/%s %s, handoff %+v", orig.Outcome, orig.Reason, orig.Error, orig.Parent)
	}
	rec := replay(t, f, filepath.Join(orig.Dir, runfolder.StreamFile), true)
	if len(rec.Changes) != 1 || rec.Parent == nil {
		t.Fatalf("the replay: changes %+v, parent %+v", rec.Changes, rec.Parent)
	}
	if got, want := rec.Parent.Handoff, orig.Parent.Handoff; strings.Join(got.Read, ",") != strings.Join(want.Read, ",") || strings.Join(got.Changed, ",") != strings.Join(want.Changed, ",") {
		t.Errorf("the replay hands over %+v, the recorded run %+v", got, want)
	}
	w, ow := rec.Parent.Terminal.WorkingContext, orig.Parent.Terminal.WorkingContext
	if w == nil || w.ProjectDirectory == nil || *w.ProjectDirectory != *ow.ProjectDirectory ||
		strings.Join(w.ConfirmedChangedFiles, ",") != strings.Join(ow.ConfirmedChangedFiles, ",") || strings.Join(w.ReadFiles, ",") != strings.Join(ow.ReadFiles, ",") {
		t.Errorf("the replay's working context %+v, the recorded run's %+v", w, ow)
	}
	lines := strings.Join(rec.Parent.Lines(), "\n")
	if !strings.Contains(lines, "files changed (file_write, file_edit): "+orig.Parent.Handoff.Changed[0]) {
		t.Errorf("the replay's lines:\n%s", lines)
	}
}

// TestHandoffAsNetClawBuildsIt: the file handoff as NetClaw builds it.
// Confirmed are the files successful file_write and file_edit calls
// changed; a shell command's writes are observed (what git shows changed
// in the run's copy, less what it showed in the project and less the
// confirmed files), and only in a git repository; reads come back in
// ordinal order, whatever the order of the calls.
func TestHandoffAsNetClawBuildsIt(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	git := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	const shell = "echo hi > made.txt; echo x > out.log; echo y > scratch/b.txt; echo z >> main.go; mkdir gen; echo g > gen/g.txt"
	for _, repo := range []bool{true, false} {
		t.Run(map[bool]string{true: "git", false: "no git"}[repo], func(t *testing.T) {
			f := newFixture(t, wire.OpenAI)
			dir := project(t)
			hometest.WriteFile(t, filepath.Join(dir, ".gitignore"), "*.log\n")
			if repo {
				git(t, dir, "init", "-q", "-b", "trunk")
				git(t, dir, "add", ".")
				git(t, dir, "commit", "-q", "-m", "one")
			}
			// Changed before the run: a tracked file and an untracked folder.
			hometest.WriteFile(t, filepath.Join(dir, "main.go"), "package main\n\n// dirty\nfunc main() {}\n")
			hometest.WriteFile(t, filepath.Join(dir, "scratch", "a.txt"), "a\n")
			f.srv.Enqueue(
				script(modeltest.ToolCall("c1", "file_read", `{"Path":"main.go","_rationale":"read"}`), modeltest.Finish(modeltest.FinishTools)),
				script(modeltest.ToolCall("c2", "file_read", `{"Path":"README.md","_rationale":"read"}`), modeltest.Finish(modeltest.FinishTools)),
				script(modeltest.ToolCall("c3", "file_edit", `{"Path":"README.md","OldString":":8080","NewString":":9090","_rationale":"fix"}`), modeltest.Finish(modeltest.FinishTools)),
				script(modeltest.ToolCall("c4", "shell_execute", `{"Command":"`+shell+`","_rationale":"build"}`), modeltest.Finish(modeltest.FinishTools)),
				modeltest.Reply("Done."),
			)
			s := f.toolSpec("Fix the port.", dir, Limits{})
			s.Asker = approve.AskerFunc(func(context.Context, approve.Request) (approve.Answer, error) { return approve.ForRun, nil })
			_, rec := f.run(t, s)
			if rec.Outcome != vocab.Completed {
				t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
			}
			if r := rec.ToolCalls[3].Result; r == nil || r.Error || r.Refused {
				t.Fatalf("the shell call: %+v", r)
			}
			readme, main := filepath.Join(dir, "README.md"), filepath.Join(dir, "main.go")
			h := rec.Parent.Handoff
			if got := strings.Join(h.Read, ","); got != readme+","+main {
				t.Errorf("read %v, want README.md then main.go", h.Read)
			}
			if got := strings.Join(h.Changed, ","); got != readme {
				t.Errorf("confirmed %v, want only %s (not the shell's writes)", h.Changed, readme)
			}
			var want []string
			if repo {
				real, err := filepath.EvalSymlinks(dir)
				if err != nil {
					t.Fatal(err)
				}
				// out.log is ignored, scratch/ and main.go were changed
				// before, README.md is confirmed; gen/ is new, as git
				// lists it.
				want = []string{filepath.Join(real, "gen") + string(filepath.Separator), filepath.Join(real, "made.txt")}
			}
			if strings.Join(h.Observed, ",") != strings.Join(want, ",") {
				t.Errorf("observed %v, want %v (changes %+v)", h.Observed, want, rec.Changes)
			}
			w := rec.Parent.Terminal.WorkingContext
			if w == nil || strings.Join(w.ReadFiles, ",") != strings.Join(h.Read, ",") || strings.Join(w.ConfirmedChangedFiles, ",") != readme ||
				strings.Join(w.ObservedChangedFiles, ",") != strings.Join(want, ",") || w.ObservedChangedFiles == nil {
				t.Errorf("working context %+v", w)
			}
			lines := strings.Join(rec.Parent.Lines(), "\n")
			otherwise := "none"
			if repo {
				otherwise = strings.Join(want, ", ")
			}
			for _, l := range []string{"files changed (file_write, file_edit): " + readme + "\n", "files changed otherwise (git): " + otherwise + " (the parent gets them in working_context)"} {
				if !strings.Contains(lines, l) {
					t.Errorf("lines lack %q:\n%s", l, lines)
				}
			}
		})
	}
}
