//go:build linux

package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestReplayWithLiveToolsAbsolutePaths: a recording whose calls name
// absolute paths (the recorded project's, and a folder outside any
// project) replayed with LiveTools, all calls approved, on the recorded
// project itself and on another: no file call and no sandboxed command
// writes into either project or outside them.
func TestReplayWithLiveToolsAbsolutePaths(t *testing.T) {
	needSandbox(t)
	f := newFixture(t, wire.OpenAI)
	recorded := project(t)
	outside := filepath.Join(filepath.Dir(recorded), "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	arg := func(v map[string]string) string { b, _ := json.Marshal(v); return string(b) }
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "file_write", arg(map[string]string{"Path": filepath.Join(recorded, "abs.md"), "Content": "x\n", "_rationale": "a"})), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "file_write", arg(map[string]string{"Path": filepath.Join(outside, "out.md"), "Content": "x\n", "_rationale": "b"})), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c3", "shell_execute", arg(map[string]string{
			"Command":    "echo x > " + filepath.Join(recorded, "sh.md") + "; echo x > " + filepath.Join(outside, "sh.md"),
			"_rationale": "c"})), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Done."),
	)
	s := f.toolSpec("Write.", recorded, Limits{})
	s.Record = true
	s.Approve, _ = approve.ParseAll([]string{"shell_execute", "file_write"})
	_, rec := f.run(t, s)
	tape, err := LoadCassette(filepath.Join(rec.Dir, runfolder.StreamFile))
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, dirs ...string) {
		t.Helper()
		for _, d := range dirs {
			for _, n := range []string{"abs.md", "sh.md", "out.md"} {
				if _, err := os.Stat(filepath.Join(d, n)); err == nil {
					t.Errorf("a call wrote %s", filepath.Join(d, n))
				}
			}
		}
	}
	check(t, recorded, outside)
	yes := approve.AskerFunc(func(context.Context, approve.Request) (approve.Answer, error) { return approve.Once, nil })
	for _, tt := range []struct{ name, dir string }{{"recorded project", recorded}, {"another project", project(t)}} {
		t.Run(tt.name, func(t *testing.T) {
			_, got := f.run(t, Spec{Replay: tape, Config: f.cat.Config, Fast: true, Project: tt.dir, LiveTools: true, Asker: yes})
			if got.Replay == nil || !got.Replay.LiveTools || len(got.ToolCalls) != 3 {
				t.Fatalf("replay %s/%s %q %+v", got.Outcome, got.Reason, got.Error, got.Replay)
			}
			for _, c := range got.ToolCalls {
				if c.Result == nil || c.Result.Replayed {
					t.Errorf("call %s did not run live: %+v", c.Name, c.Result)
				}
			}
			check(t, recorded, outside, tt.dir)
		})
	}
}
