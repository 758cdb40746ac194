package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestUnusableRunsDirIsBadUsageOnce: a --runs-dir that cannot be written
// (a file; a folder under a file) is bad usage, said once, before any
// sample runs (issue 20 item 22).
func TestUnusableRunsDirIsBadUsageOnce(t *testing.T) {
	srv, env, _, _ := suiteHome(t)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	os.WriteFile(filepath.Join(home, "agents", "front.route.yaml"), []byte(frontSuite), 0o644)
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, dir := range []string{file, filepath.Join(file, "runs")} {
		for _, args := range [][]string{
			{"test", "--runs-dir", dir},
			{"route", "--suite", "--runs-dir", dir},
			{"route", "--runs-dir", dir, "hello"},
		} {
			n := len(srv.Requests())
			code, out, errOut := runTrialCmd(t, env, "", args...)
			if code != 2 || strings.Count(errOut, "--runs-dir") != 1 || out != "" || len(srv.Requests()) != n {
				t.Errorf("%v: exit %d, %d requests\nstdout %q\nstderr %q", args, code, len(srv.Requests())-n, out, errOut)
			}
		}
	}
}

// TestSampleLimitEverywhere: route --samples takes 1 to 100, as a suite's
// samples and repeat do, and --help says so (issue 20 item 27).
func TestSampleLimitEverywhere(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) { return spawnScript("reviewer"), true })
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	os.WriteFile(filepath.Join(home, "agents", "front.route.yaml"), []byte(frontSuite), 0o644)
	for _, args := range [][]string{{"route", "--samples", "101", "hi"}, {"route", "--suite", "--samples", "1000"}} {
		code, _, errOut := runTrialCmd(t, env, "", args...)
		if code != 2 || !strings.Contains(errOut, "give 1 to 100") || len(srv.Requests()) != 0 {
			t.Errorf("%v: exit %d %q, %d requests", args, code, errOut, len(srv.Requests()))
		}
	}
	if code, _, errOut := runTrialCmd(t, env, "", "route", "--samples", "100", "--jobs", "50", "hi"); code != 0 {
		t.Errorf("100 samples: exit %d %s", code, errOut)
	}
	for _, cmd := range []string{"route", "test"} {
		_, out, _ := runTrialCmd(t, env, "", cmd, "--help")
		if !strings.Contains(out, "1 to 100") {
			t.Errorf("%s --help does not say the sample limit:\n%s", cmd, out)
		}
	}
}

// TestPlurals: one sample, one case, one agent are singular, and the time
// of a run is not said of the suites that could not run (issue 20 item 26).
func TestPlurals(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", map[string]string{
		"agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews a git diff for bugs.\n---\nYou review diffs.\n",
	})
	srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) { return modeltest.Reply("I will do it myself."), true })
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	_, out, _ := runTrialCmd(t, env, "", "route", "--samples", "1", "hi")
	if !strings.Contains(out, "1 agent in the layer, 1 sample\n") {
		t.Errorf("route:\n%s", out)
	}
	os.WriteFile(filepath.Join(home, "agents", "one.route.yaml"), []byte("samples: 1\ncases:\n  - {name: review, request: Review my diff, expect: reviewer}\n"), 0o644)
	_, out, _ = runTrialCmd(t, env, "", "route", "--suite")
	if !strings.Contains(out, "0 of 1 sample picked reviewer") || !strings.Contains(out, "1 case: 0 passed, 1 failed (1 sample: 0 replayed, 1 live)") {
		t.Errorf("route --suite:\n%s", out)
	}
	os.WriteFile(filepath.Join(home, "agents", "reviewer.test.yaml"), []byte("cases: [\n"), 0o644)
	_, out, _ = runTrialCmd(t, env, "", "test")
	if strings.Contains(out, " in 0.00s") || !strings.Contains(out, "(0 samples); 1 suite file broken: it cannot run as written") {
		t.Errorf("test:\n%s", out)
	}
}

// TestNoToolsHintNamesTheFixThatApplies: a model that refuses tools gets
// a hint that applies to the command: --no-tools in run only (issue 20
// item 18).
func TestNoToolsHintNamesTheFixThatApplies(t *testing.T) {
	refuse := modeltest.Script{Status: 400, ErrorMessage: "registry.ollama.ai/library/gemma:2b does not support tools"}
	srv, env, _, suite := suiteHome(t)
	srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) { return refuse, true })
	os.WriteFile(suite, []byte("cases:\n  - name: reads\n    task: read it\n    project: .\n"), 0o644)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	os.WriteFile(filepath.Join(home, "agents", "code-analyst.md"), []byte("---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n"), 0o644)
	_, out, _ := runTrialCmd(t, env, "", "test")
	if strings.Contains(out, "--no-tools") || !strings.Contains(out, "does not take tools: leave out the case's project:") {
		t.Errorf("test:\n%s", out)
	}
	os.WriteFile(filepath.Join(home, "agents", "front.route.yaml"), []byte("cases:\n  - {name: a, request: Review it, expect: code-analyst}\n"), 0o644)
	_, out, _ = runTrialCmd(t, env, "", "route", "--suite", "--samples", "1")
	if strings.Contains(out, "--no-tools") || !strings.Contains(out, "point Models.Roles.Main at a model that calls tools") {
		t.Errorf("route --suite:\n%s", out)
	}
	_, _, errOut := runTrialCmd(t, env, "", "route", "--samples", "1", "Review it")
	if strings.Contains(errOut, "--no-tools") {
		t.Errorf("route:\n%s", errOut)
	}
	_, _, errOut = runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--project", ".")
	if !strings.Contains(errOut, "--no-tools") {
		t.Errorf("run keeps its --no-tools hint:\n%s", errOut)
	}
}
