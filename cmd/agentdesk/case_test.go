package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestTestCaseFlag: --case (repeatable, a glob) runs and records the
// cases it names alone; the not-recorded hint names the case; a --case
// that matches nothing is bad usage.
func TestTestCaseFlag(t *testing.T) {
	srv, env, _, suite := suiteHome(t)
	recs := filepath.Join(filepath.Dir(suite), "code-analyst.test.recordings")
	code, out, errOut := runTrialCmd(t, env, "", "test", "--offline")
	if code != 1 || !strings.Contains(out, "record this case alone: agentdesk test --record --case answers ") {
		t.Errorf("offline hint: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runTrialCmd(t, env, "", "test", "--record", "--case", "answers")
	if code != 0 || !strings.Contains(out, "1 case: 1 passed (1 sample)") || strings.Contains(out, "judged") {
		t.Fatalf("--case answers: exit %d\n%s\n%s", code, out, errOut)
	}
	if files, _ := os.ReadDir(recs); len(files) != 1 {
		t.Errorf("%d recordings, want 1", len(files))
	}
	n := len(srv.Requests())
	code, out, errOut = runTrialCmd(t, env, "", "test", "--offline", "--case", "ans*")
	if code != 0 || !strings.Contains(out, "1 case: 1 passed") || len(srv.Requests()) != n {
		t.Errorf("--offline --case ans*: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runTrialCmd(t, env, "", "test", "--record", "--case", "judg?d", "--case", "answers")
	if code != 0 || !strings.Contains(out, "2 cases: 2 passed (3 samples)") {
		t.Errorf("two --case: exit %d\n%s", code, out)
	}
	code, _, errOut = runTrialCmd(t, env, "", "test", "--case", "nothing*")
	if code != 2 || !strings.Contains(errOut, `--case "nothing*" matches no case`) || !strings.Contains(errOut, "answers, judged") {
		t.Errorf("unmatched: exit %d %q", code, errOut)
	}
	// A recording that does not read says how to record it again.
	files, _ := filepath.Glob(filepath.Join(recs, "answers*"))
	if len(files) != 1 {
		t.Fatalf("recordings of answers: %v", files)
	}
	os.WriteFile(files[0], []byte("not a recording\n"), 0o644)
	code, out, _ = runTrialCmd(t, env, "", "test", "--offline", "--case", "answers")
	if code != 1 || !strings.Contains(out, "; record it again with --record") {
		t.Errorf("broken recording: exit %d\n%s", code, out)
	}
}

// TestRouteSuiteCaseFlag: route --suite --case records and replays the
// cases it names alone.
func TestRouteSuiteCaseFlag(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		if strings.HasPrefix(r.FirstUser(), "Please review") {
			return spawnScript("reviewer"), true
		}
		return spawnScript("log-analyst"), true
	})
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	suitePath := filepath.Join(home, "agents", "front.route.yaml")
	os.WriteFile(suitePath, []byte(frontSuite), 0o644)
	code, out, errOut := runTrialCmd(t, env, "", "route", "--suite", "--offline")
	if code != 1 || !strings.Contains(out, "record this case alone: agentdesk route --suite --record --case review ") {
		t.Errorf("offline hint: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runTrialCmd(t, env, "", "route", "--suite", "--record", "--case", "rev*")
	if code != 0 || !strings.Contains(out, "1 case: 1 passed") || strings.Contains(out, "deploy") {
		t.Fatalf("--case rev*: exit %d\n%s\n%s", code, out, errOut)
	}
	if files, _ := os.ReadDir(filepath.Join(home, "agents", "front.route.recordings")); len(files) != 2 {
		t.Errorf("%d recordings, want 2 (two samples of one case)", len(files))
	}
	code, out, _ = runTrialCmd(t, env, "", "route", "--suite", "--offline", "--case", "review")
	if code != 0 || !strings.Contains(out, "1 case: 1 passed") {
		t.Errorf("offline --case: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"route", "--suite", "--case", "nope"}, {"route", "--case", "review", "x"}} {
		if code, _, errOut := runTrialCmd(t, env, "", args...); code != 2 || !strings.Contains(errOut, "--case") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
	// A recording that does not read says how to record it again.
	files, _ := filepath.Glob(filepath.Join(home, "agents", "front.route.recordings", "review*"))
	if len(files) == 0 {
		t.Fatal("no recording of review")
	}
	os.WriteFile(files[0], []byte("not a recording\n"), 0o644)
	code, out, _ = runTrialCmd(t, env, "", "route", "--suite", "--offline", "--case", "review")
	if code != 1 || !strings.Contains(out, "; record it again with --record") {
		t.Errorf("broken recording: exit %d\n%s", code, out)
	}
}
