package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

func TestRunsCommand(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	// No runs yet.
	code, stdout, stderr := runTrialCmd(t, env, "", "runs")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "no runs in "+runs) {
		t.Fatalf("empty: exit %d %q %q", code, stdout, stderr)
	}
	srv.Enqueue(modeltest.Reply("First answer."), modeltest.Script{Steps: []modeltest.Step{modeltest.Text("cut "), modeltest.Length()}})
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "one"); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, _ := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "two"); code != 1 {
		t.Fatal("the truncated run did not exit 1")
	}
	list, err := runfolder.ListRuns(runs, runfolder.Filter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("%d runs: %v", len(list), err)
	}
	newest, oldest := list[0], list[1]

	code, stdout, _ = runTrialCmd(t, env, "", "runs")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "RUN") ||
		!strings.HasPrefix(lines[1], newest.RunID) || !strings.Contains(lines[1], "Failed") || !strings.Contains(lines[1], "output_truncated") ||
		!strings.HasPrefix(lines[2], oldest.RunID) || !strings.Contains(lines[2], "Completed") {
		t.Errorf("list:\n%s", stdout)
	}
	if i, j := strings.Index(lines[0], "AGENT"), strings.Index(lines[1], "code-analyst"); i != j {
		t.Errorf("columns do not line up:\n%s", stdout)
	}

	code, stdout, _ = runTrialCmd(t, env, "", "runs", "--json", "--agent", "CODE-ANALYST")
	var recs []runfolder.Record
	if err := json.Unmarshal([]byte(stdout), &recs); err != nil || code != 0 || len(recs) != 2 {
		t.Errorf("json list: %v %s", err, stdout)
	}
	code, stdout, _ = runTrialCmd(t, env, "", "runs", "--json", "--agent", "someone-else")
	if code != 0 || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("filtered out: %q", stdout)
	}

	// One run by a prefix: its result.md.
	code, stdout, _ = runTrialCmd(t, env, "", "runs", oldest.RunID[:6])
	result, _ := os.ReadFile(filepath.Join(oldest.Dir, runfolder.ResultFile))
	if code != 0 || stdout != string(result) || !strings.Contains(stdout, "First answer.") {
		t.Errorf("show:\n%s", stdout)
	}
	code, stdout, _ = runTrialCmd(t, env, "", "runs", newest.RunID, "--json")
	disk, _ := os.ReadFile(filepath.Join(newest.Dir, runfolder.RunFile))
	if code != 0 || stdout != string(disk) {
		t.Errorf("show json:\n%s", stdout)
	}

	for _, bad := range []struct {
		arg  string
		code int
		has  string
	}{
		{"0000", 1, "no run 0000"},
		{"xyz", 2, `"xyz" is not a run id`},
		{"abc", 2, `"abc" is not a run id: give the 32 hex characters, or at least the first 4`},
		{strings.Repeat("0", 32), 1, "no run " + strings.Repeat("0", 32) + " in " + runs + "\n"},
	} {
		code, _, stderr := runTrialCmd(t, env, "", "runs", bad.arg)
		if code != bad.code || !strings.Contains(stderr, bad.has) {
			t.Errorf("%s: exit %d %q", bad.arg, code, stderr)
		}
	}
	if code, _, _ := runTrialCmd(t, env, "", "runs", "a", "b"); code != 2 {
		t.Errorf("two ids: exit %d", code)
	}
}

func TestRunsShowsARunningRecord(t *testing.T) {
	runs := t.TempDir()
	id := strings.Repeat("7", 32)
	os.MkdirAll(filepath.Join(runs, id), 0o700)
	os.WriteFile(filepath.Join(runs, id, runfolder.RunFile), []byte(`{"run_id":"`+id+`","agent":"x\u001b[31m","state":"Running","model":{"model_id":"m","endpoint":"http://e"}}`), 0o600)
	code, stdout, _ := runTrialCmd(t, nil, "", "runs", "--runs-dir", runs, id)
	if code != 0 || !strings.Contains(stdout, "State: Running (no result.md yet)") || !strings.Contains(stdout, `x\x1b[31m`) {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

func TestRunsShowsALostRecord(t *testing.T) {
	runs := t.TempDir()
	id := strings.Repeat("8", 32)
	host, _ := os.Hostname()
	os.MkdirAll(filepath.Join(runs, id), 0o700)
	rec := fmt.Sprintf(`{"run_id":%q,"agent":"x","state":"Running","pid":%d,"host":%q}`, id, 1<<30, host)
	os.WriteFile(filepath.Join(runs, id, runfolder.RunFile), []byte(rec), 0o600)
	code, stdout, _ := runTrialCmd(t, nil, "", "runs", "--runs-dir", runs, id)
	if code != 0 || !strings.Contains(stdout, "State: Lost (the process that ran it is gone; it left no result.md)") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

// writeRunRecord writes rec as run.json (and result.md) of a run folder
// in runs.
func writeRunRecord(t *testing.T, runs string, rec runfolder.Record) {
	t.Helper()
	dir := filepath.Join(runs, rec.RunID)
	data, err := rec.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	rec.Dir = dir
	hometest.Write(t, dir, map[string]string{runfolder.RunFile: string(data), runfolder.ResultFile: runfolder.ResultMarkdown(&rec)})
}

// TestRunsVocabulary: runs shows state, outcome and reason with the words
// run's closing line and result.md use (none for an empty reason), and
// colours the state with --color always.
func TestRunsVocabulary(t *testing.T) {
	runs := t.TempDir()
	ended := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	writeRunRecord(t, runs, runfolder.Record{RunID: strings.Repeat("a", 32), Agent: "x", State: vocab.StateCancelled, Outcome: vocab.Failed, Reason: vocab.ReasonCancelledByParent, StartedAt: ended, EndedAt: &ended})
	writeRunRecord(t, runs, runfolder.Record{RunID: strings.Repeat("b", 32), Agent: "x", State: vocab.StateCompleted, Outcome: vocab.Completed, StartedAt: ended.Add(time.Minute), EndedAt: &ended})
	code, stdout, stderr := run(t, nil, "runs", "--runs-dir", runs)
	fields := func(line string) string { return strings.Join(strings.Fields(line)[4:], " ") }
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got := strings.Fields(lines[0]); !slices.Equal(got, []string{"RUN", "STARTED", "AGENT", "STATE", "OUTCOME", "REASON"}) {
		t.Errorf("header %v", got)
	}
	if got := fields(lines[1]); got != "Completed Completed none" {
		t.Errorf("completed run: %q", got)
	}
	if got := fields(lines[2]); got != "Cancelled Failed cancelled_by_parent" {
		t.Errorf("cancelled run: %q", got)
	}
	_, stdout, _ = run(t, nil, "runs", "--runs-dir", runs, strings.Repeat("a", 6))
	if !strings.Contains(stdout, "- State: Cancelled\n- Outcome: Failed\n- Reason: cancelled_by_parent\n") {
		t.Errorf("result.md:\n%s", stdout)
	}
	_, stdout, _ = run(t, nil, "runs", "--runs-dir", runs, "--color", "always")
	if !strings.Contains(stdout, "\x1b[1;32mCompleted\x1b[0m") || !strings.Contains(stdout, "\x1b[1;31mCancelled\x1b[0m") {
		t.Errorf("--color always: %q", stdout)
	}
	if _, stdout, _ = run(t, nil, "runs", "--runs-dir", runs); strings.Contains(stdout, "\x1b") {
		t.Errorf("colour on a pipe: %q", stdout)
	}
}
