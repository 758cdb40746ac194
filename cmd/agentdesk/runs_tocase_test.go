package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestRunToCaseRoundTrip keeps a recorded run as a test case; the case
// replays offline at once and passes, with no model.
func TestRunToCaseRoundTrip(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	srv.Enqueue(modeltest.Reply("The server listens on port 8080.\nIt is set in main.go."))
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Which port?", "--no-tools", "--record"); code != 0 {
		t.Fatal(stderr)
	}
	list, err := runfolder.ListRuns(runs, runfolder.Filter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("%d runs: %v", len(list), err)
	}
	id := list[0].RunID

	code, stdout, stderr := runTrialCmd(t, env, "", "runs", id[:6], "--to-case")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	suitePath := filepath.Join(home, "agents", "code-analyst.test.yaml")
	data, err := os.ReadFile(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	want := "cases:\n  - name: Which port?\n    task: Which port?\n    expect:\n      contains: The server listens on port 8080. # from the run's output: narrow it to what the reply must say\n"
	if string(data) != want {
		t.Errorf("suite:\n%s\nwant:\n%s", data, want)
	}
	if !strings.Contains(stderr, `kept run `+id[:8]+` as case "Which port?"`) || !strings.Contains(stdout, "Which port?") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	recs, _ := filepath.Glob(filepath.Join(home, "agents", "code-analyst.test.recordings", "*.recording"))
	if len(recs) != 1 {
		t.Fatalf("recordings %v", recs)
	}
	calls := len(srv.Requests())

	// Offline: the recording replays, no model call, and it passes.
	code, stdout, stderr = runTrialCmd(t, env, "", "test", "--offline", suitePath)
	if code != 0 || !strings.Contains(stdout, "1 passed") {
		t.Errorf("offline replay: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if len(srv.Requests()) != calls {
		t.Errorf("the offline replay called the model")
	}

	// The same name again is refused, and the suite is not touched.
	code, _, stderr = runTrialCmd(t, env, "", "runs", id, "--to-case")
	if code != exitUsage || !strings.Contains(stderr, "--case-name") {
		t.Errorf("taken name: exit %d %q", code, stderr)
	}
	if again, _ := os.ReadFile(suitePath); string(again) != string(data) {
		t.Errorf("the suite changed:\n%s", again)
	}
	// A suite with errors is refused with lint's message.
	broken := filepath.Join(t.TempDir(), "x.test.yaml")
	os.WriteFile(broken, []byte("cases:\n  - name: a\n    task: [\n"), 0o644)
	code, _, stderr = runTrialCmd(t, env, "", "runs", id, "--to-case", broken, "--case-name", "other")
	if code != exitFindings || !strings.Contains(stderr, "suite-yaml") {
		t.Errorf("broken suite: exit %d %q", code, stderr)
	}
}

// TestRunToCaseWithoutRecording keeps a run that was not recorded: the
// case is kept, and the hint says how to record it.
func TestRunToCaseWithoutRecording(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	srv.Enqueue(modeltest.Reply("Port 8080."))
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Which port?", "--no-tools"); code != 0 {
		t.Fatal(stderr)
	}
	list, err := runfolder.ListRuns(runs, runfolder.Filter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("%d runs: %v", len(list), err)
	}
	if _, err := os.Stat(filepath.Join(list[0].Dir, runfolder.StreamFile)); err == nil {
		t.Fatal("a run without --record kept its stream.cassette")
	}
	code, _, stderr := runTrialCmd(t, env, "", "runs", list[0].RunID, "--to-case")
	suitePath := filepath.Join(home, "agents", "code-analyst.test.yaml")
	want := "the run kept no recording (it ran without --record): 'agentdesk test " + suitePath + " --record --case 'Which port?'' records the case\n"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d\n%s\nwant %s", code, stderr, want)
	}
}
