package demo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/route"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// demoRouteSuite is the demo's routing suite, as Setup places it.
const demoRouteSuite = "frontline.route.yaml"

var wantDemoRoute = []string{"explain the watcher: pass ", "brief from notes: pass ", "small talk: pass "}

// runDemoRouteSuite runs the demo's routing suite of a home made by Setup.
func runDemoRouteSuite(t *testing.T, h lint.Home, runs string, mode evalrec.Mode) []string {
	t.Helper()
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	s := suitefile.LoadRoute(filepath.Join(h.Agents, demoRouteSuite))
	suitefile.CheckRoute(s, c)
	if len(s.Diagnostics) > 0 {
		t.Fatalf("the demo routing suite has findings: %+v", s.Diagnostics)
	}
	rn, err := runner.New(runner.Options{RunsDir: runs})
	if err != nil {
		t.Fatal(err)
	}
	r := route.RunSuite(context.Background(), s, route.SuiteOptions{Runner: rn, Catalog: c, Mode: mode})
	var out []string
	for _, c := range r.Cases {
		out = append(out, c.Case.Name+": "+string(c.Status)+" "+c.Message)
	}
	return out
}

// TestGenerateDemoRouteRecordings records the demo's routing suite from
// the test server under the demo's provider and model, as
// TestGenerateDemoSuiteRecordings does for the test suite. It runs only
// with -generate; review the diff of home/agents/frontline.route.recordings.
func TestGenerateDemoRouteRecordings(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to record the demo routing suite again")
	}
	srv := modeltest.NewServer()
	defer srv.Close()
	spawn := func(agent, task string) modeltest.Script {
		args, _ := json.Marshal(map[string]string{"Agent": agent, "Task": task, "_rationale": "The user's request matches " + agent + "'s description."})
		return modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("call_1", "spawn_agent", string(args)), modeltest.Finish(modeltest.FinishTools)}}
	}
	srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		user := r.FirstUser()
		switch {
		case strings.Contains(user, "file watcher"):
			return spawn("code-analyst", "Explain how the file watcher decides when to rescan, with file and line references."), true
		case strings.Contains(user, "notes"):
			return spawn("summarizer", "Summarise the notes in docs/meetings into a short brief, open questions last."), true
		}
		return modeltest.Reply("You're welcome. Have a good evening!"), true
	})
	tmp := t.TempDir()
	h := setupAgainst(t, filepath.Join(tmp, "demo"), srv)
	if got := runDemoRouteSuite(t, h, filepath.Join(tmp, "runs"), evalrec.Record); !slices.Equal(got, wantDemoRoute) {
		t.Fatalf("recorded %q", got)
	}
	keepRecordings(t, h, srv, demoRouteSuite, false)
}

// TestDemoRouteSuiteOffline replays the demo's routing suite as `agentdesk
// route --demo --suite` does: every case passes from its recordings, and
// an edit of a description in the layer makes them stale.
func TestDemoRouteSuiteOffline(t *testing.T) {
	tmp := t.TempDir()
	h, err := Setup(filepath.Join(tmp, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	if got := runDemoRouteSuite(t, h, filepath.Join(tmp, "runs"), evalrec.Offline); !slices.Equal(got, wantDemoRoute) {
		t.Fatalf("offline %q, want %q", got, wantDemoRoute)
	}
	def := filepath.Join(h.Agents, "summarizer.md")
	data, _ := os.ReadFile(def)
	os.WriteFile(def, []byte(strings.Replace(string(data), "short brief", "brief", 1)), 0o644)
	for _, line := range runDemoRouteSuite(t, h, filepath.Join(tmp, "runs"), evalrec.Offline) {
		if !strings.Contains(line, ": stale ") || !strings.Contains(line, "layer changed") {
			t.Errorf("after an edit: %s", line)
		}
	}
}

// TestFrontlineReplays: the demo answers a request its routing suite
// recorded from those recordings (`route --demo REQUEST` and the
// browser's R), as the recorded frontline did; any other request is
// refused with the requests it has.
func TestFrontlineReplays(t *testing.T) {
	tmp := t.TempDir()
	h, err := Setup(filepath.Join(tmp, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	reqs := FrontlineRequests()
	if len(reqs) != 3 || !strings.Contains(reqs[0], "file watcher") {
		t.Fatalf("requests %q", reqs)
	}
	tapes, sources, err := FrontlineReplays(h, "  "+strings.ToUpper(reqs[0])+" ")
	if err != nil || len(tapes) != 2 || len(sources) != 2 || !strings.HasSuffix(sources[0], ".1.recording") {
		t.Fatalf("replays of %q: %d %v %v", reqs[0], len(tapes), sources, err)
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := route.Prepare(route.Question{Catalog: c, Audience: preview.Personal, Request: reqs[0]})
	if err != nil {
		t.Fatal(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := route.Ask(context.Background(), rn, p, route.Options{Samples: len(tapes), Replays: tapes, ReplaySources: sources})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		if s.Pick.Kind != route.Delegated || s.Pick.Agent != "code-analyst" {
			t.Errorf("sample %d: %+v", s.N, s.Pick)
		}
	}
	if _, _, err := FrontlineReplays(h, "write me a poem"); err == nil || !strings.Contains(err.Error(), reqs[1]) {
		t.Errorf("a request the demo has not recorded: %v", err)
	}
}
