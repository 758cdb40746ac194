package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestReplayWithLiveTools: a recorded run replayed with LiveTools on a
// project of its own runs its tool calls there (the write lands in the
// run's copy, changes.patch shows it, the project is untouched), and a
// gated call goes to the asker. The results match the recording, though
// they name another project folder; a denied call does not, and says so.
func TestReplayWithLiveTools(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "file_write", `{"Path":"notes.md","Content":"new\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "shell_execute", `{"Command":"echo checked","_rationale":"check"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Saved and checked."),
	)
	s := f.toolSpec("Save the notes.", project(t), Limits{})
	s.Record = true
	s.Approve, _ = approve.ParseAll([]string{"shell_execute"})
	s.Sandbox = tools.Sandbox{Off: true}
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed || len(rec.Changes) != 1 {
		t.Fatalf("recorded %s/%s %q, changes %+v", rec.Outcome, rec.Reason, rec.Error, rec.Changes)
	}
	tape, err := LoadCassette(filepath.Join(rec.Dir, runfolder.StreamFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		answer  approve.Answer
		differs bool
	}{
		{"approved", approve.Once, false},
		{"denied", approve.Deny, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := project(t) // another folder than the recording's
			asked := 0
			asker := approve.AskerFunc(func(context.Context, approve.Request) (approve.Answer, error) {
				asked++
				return tt.answer, nil
			})
			_, got := f.run(t, Spec{Replay: tape, Config: f.cat.Config, Fast: true, Project: dir, LiveTools: true,
				Asker: asker, Sandbox: tools.Sandbox{Off: true}})
			if got.Outcome != vocab.Completed || got.Output != "Saved and checked." || got.Replay == nil || !got.Replay.LiveTools {
				t.Fatalf("replay %s/%s %q %+v", got.Outcome, got.Reason, got.Error, got.Replay)
			}
			if asked != 1 {
				t.Errorf("the asker was asked %d times", asked)
			}
			write, shell := got.ToolCalls[0].Result, got.ToolCalls[1].Result
			if write.Replayed || write.Differs || write.Label != "overlay" {
				t.Errorf("the write: %+v", write)
			}
			if shell.Differs != tt.differs || shell.Replayed {
				t.Errorf("the command: %+v", shell)
			}
			if len(got.Changes) != 1 || got.Changes[0].Path != "notes.md" {
				t.Errorf("changes %+v", got.Changes)
			}
			if _, err := os.Stat(filepath.Join(dir, "notes.md")); err == nil {
				t.Error("the replay wrote into the project")
			}
			if patch, err := os.ReadFile(filepath.Join(got.Dir, runfolder.PatchFile)); err != nil || len(patch) == 0 {
				t.Errorf("changes.patch: %v", err)
			}
		})
	}
}
