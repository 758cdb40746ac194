package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// `agentdesk run` says on stderr what the parent session receives, and
// --json's run.json holds it; `runs` still lists and shows a run folder
// written before run.json had "parent".
func TestRunShowsWhatTheParentReceives(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	srv.Enqueue(
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "file_read", `{"Path":"README.md","_rationale":"look"}`), modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Reply("It uses port 8080."),
	)
	project := toolProject(t)
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Which port?", "--project", project, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec runfolder.Record
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	p := rec.Parent
	readme := filepath.Join(project, "README.md")
	if p == nil || p.Terminal.Outcome != "Completed" || strings.Join(p.Handoff.Read, ",") != readme || p.Acceptance.State != "Accepted" {
		t.Fatalf("run.json's parent %+v", p)
	}
	for _, want := range []string{
		"what the parent receives:\n",
		`  spawn_agent returns at once: {"run_id":"` + rec.RunID + `","scope_id":"subagent/code-analyst/` + rec.RunID + `","state":"Accepted","control_tool":"check_agent_run"}` + "\n",
		"  notice (user message): Subagent run " + rec.RunID + " (code-analyst) ended: Completed. Its result is in " + filepath.Join(runs, rec.RunID, runfolder.ResultFile) + ": read it with file_read.\n",
		`  terminal record: {"run_id":"` + rec.RunID + `",`,
		"  files read: " + readme + "\n",
		"  files changed (file_write, file_edit): none\n",
		"  files changed otherwise (git): none (the parent gets them in working_context)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// A run folder from before: no "parent" in run.json, none in result.md.
	old := filepath.Join(runs, "1111aaaa2222bbbb3333cccc4444dddd")
	src := filepath.Join("..", "..", "tui", "testdata", "runs", "1111aaaa2222bbbb3333cccc4444dddd")
	if err := os.MkdirAll(old, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{runfolder.RunFile, runfolder.ResultFile, runfolder.TranscriptFile} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == runfolder.RunFile && strings.Contains(string(data), `"parent"`) {
			t.Fatal("the old run folder has a parent record")
		}
		if err := os.WriteFile(filepath.Join(old, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr = runTrialCmd(t, env, "", "runs")
	if code != 0 || !strings.Contains(stdout, "1111aaaa") || !strings.Contains(stdout, rec.RunID[:8]) {
		t.Errorf("runs: exit %d %s\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runTrialCmd(t, env, "", "runs", "1111aaaa2222bbbb3333cccc4444dddd")
	if code != 0 || !strings.Contains(stdout, "The watcher waits 100 ms") || strings.Contains(stdout, "What the parent receives") {
		t.Errorf("runs ID of an old run: exit %d %s\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runTrialCmd(t, env, "", "runs", rec.RunID)
	if code != 0 || !strings.Contains(stdout, "## What the parent receives\n") {
		t.Errorf("runs ID: exit %d %s\n%s", code, stderr, stdout)
	}
}
