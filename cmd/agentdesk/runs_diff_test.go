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

// TestRunsDiff runs an agent, edits its body, runs it again with the same
// task, and compares the two runs in text and JSON.
func TestRunsDiff(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	srv.Enqueue(modeltest.Reply("The port is 8080."), modeltest.Reply("The port is 9090, see config.yaml."))
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "find the port", "--no-tools"); code != 0 {
		t.Fatal(stderr)
	}
	agent := filepath.Join(home, "agents", "code-analyst.md")
	if err := os.WriteFile(agent, []byte("---\nname: code-analyst\ndescription: Reads code.\nmodelRole: Main\n---\nYou read code.\nName the file you found it in.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "find the port", "--no-tools"); code != 0 {
		t.Fatal(stderr)
	}
	list, err := runfolder.ListRuns(runs, runfolder.Filter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("%d runs: %v", len(list), err)
	}
	before, after := list[1].RunID, list[0].RunID

	code, stdout, stderr := runTrialCmd(t, env, "", "runs", "--diff", before[:6], after[:6])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Comparing runs " + before[:8] + " → " + after[:8] + "\n",
		"Request      1 of ",
		"parts changed: body\n",
		"## Request: body (changed)\n",
		"+Name the file you found it in.\n",
		"The port is [-8080.-]{+9090, see config.yaml.+}\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "Different agents") {
		t.Errorf("same agent headed as different:\n%s", stdout)
	}

	code, stdout, _ = runTrialCmd(t, env, "", "runs", "--diff", before, after, "--format", "json")
	var doc struct {
		Before struct {
			RunID string `json:"run_id"`
		} `json:"before"`
		Request struct{ Changed []string }   `json:"request"`
		Output  struct{ Added, Removed int } `json:"output"`
		Metrics []struct{ Name string }      `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, stdout)
	}
	if doc.Before.RunID != before || strings.Join(doc.Request.Changed, ",") != "body" || doc.Output.Added != 3 || doc.Output.Removed != 1 || len(doc.Metrics) == 0 {
		t.Errorf("json document: %+v", doc)
	}

	// Bad usage and unknown runs.
	if code, _, stderr := runTrialCmd(t, env, "", "runs", "--diff", before); code != exitUsage || !strings.Contains(stderr, "--diff compares two runs") {
		t.Errorf("one run: exit %d %q", code, stderr)
	}
	if code, _, stderr := runTrialCmd(t, env, "", "runs", "--diff", before, "ffff"); code != exitFindings || stderr == "" {
		t.Errorf("unknown run: exit %d %q", code, stderr)
	}
}

// TestRunSamples runs a task three times against a model that answers two
// ways: the spread counts the outcomes and the output lengths, and the
// run exits 1 since one sample did not complete.
func TestRunSamples(t *testing.T) {
	srv, env, _ := trialHome(t, wire.OpenAI)
	srv.Enqueue(modeltest.Reply("Port 8080."), modeltest.Reply("Port 8080, in main.go."),
		modeltest.Script{Steps: []modeltest.Step{modeltest.Text("cut "), modeltest.Length()}})
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "find the port", "--no-tools", "--samples", "3", "--json")
	if code != exitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{"sample 1 of 3\n", "sample 3 of 3\n", "spread of 3 samples: 2 completed\n",
		"outcomes: Completed ×2; Failed (output_truncated) ×1;", "output words: min 1, median 2, max 4\n", "1 of 3 samples did not complete"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var doc struct {
		Runs   []runfolder.Record `json:"runs"`
		Spread struct {
			Completed int `json:"completed"`
		} `json:"spread"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Runs) != 3 || doc.Spread.Completed != 2 {
		t.Errorf("json: %v %+v", err, doc)
	}
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--samples", "0"); code != exitUsage || !strings.Contains(stderr, "--samples is 0") {
		t.Errorf("--samples 0: exit %d %q", code, stderr)
	}
}
