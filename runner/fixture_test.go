package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// plantedKey is the API key of every fixture: it must reach the server and
// nothing else.
const plantedKey = "planted-secret-0123456789"

// generous are limits no well-behaved test stream comes near; each case
// lowers the one it means to break, in milliseconds.
var generous = Limits{Prefill: 10 * time.Second, InterDelta: 10 * time.Second, NoProgress: 10 * time.Second}

// fixture is a trial home (runner/trialtest) whose model server speaks
// one protocol, with an agent "tester", scanned by lint, and a Runner.
type fixture struct {
	h      *trialtest.Home
	srv    *modeltest.Server
	proto  wire.Protocol
	home   lint.Home
	cat    *lint.Catalog
	runner *Runner
}

const testerMD = "---\nname: tester\ndescription: Tries things\n---\nYou are a tester.\n"

func newFixture(t testing.TB, p wire.Protocol) *fixture {
	t.Helper()
	h := trialtest.New(t, trialtest.Model{Protocol: p, Key: plantedKey}, map[string]string{"agents/tester.md": testerMD})
	cat := h.Scan(t)
	if cat.Agent("tester") == nil {
		t.Fatalf("the tester agent did not load: %v", cat.Diagnostics())
	}
	rn, err := New(Options{RunsDir: filepath.Join(h.Base, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{h: h, srv: h.Server, proto: p, home: h.Home, cat: cat, runner: rn}
}

// spec runs the tester for a Personal session without a NetClaw install.
// requestwire_test.go checks the request's bytes; other tests look at the
// task (taskOf) and the system prompt's ends (isTesterSystem).
func (f *fixture) spec(task string, l Limits) Spec {
	return Spec{Agent: f.cat.Agent("tester"), Config: f.cat.Config, Task: task, Limits: generous.Override(l)}
}

// isTesterSystem reports whether s is a system prompt composed for the
// tester: its body first (no install, no playbook), the contract last.
func isTesterSystem(s string) bool {
	return strings.HasPrefix(s, "You are a tester.\n\n") && strings.HasSuffix(s, request.ContractLastSentence) &&
		strings.Contains(s, "[Subagent Execution Contract]")
}

// taskOf returns the task of a composed first message: what follows its
// last "Task:" line.
func taskOf(r modeltest.Request) string {
	m := r.FirstUser()
	if i := strings.LastIndex(m, "\n\nTask:\n"); i >= 0 {
		return m[i+len("\n\nTask:\n"):]
	}
	return m
}

// run starts a run and waits for it, failing the test after a minute.
func (f *fixture) run(t *testing.T, s Spec) (*Run, runfolder.Record) {
	t.Helper()
	r, err := f.runner.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.Done():
	case <-time.After(time.Minute):
		r.Cancel()
		t.Fatal("the run did not end within a minute")
	}
	rec, err := r.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return r, rec
}

// checkFolder checks that the run folder holds what the record says, that
// run.json reads back as the record, and that the transcript is JSON lines
// from a request to an outcome.
func checkFolder(t *testing.T, rec runfolder.Record) []runfolder.TranscriptEntry {
	t.Helper()
	back, err := runfolder.LoadRun(filepath.Dir(rec.Dir), rec.RunID)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := back.MarshalIndent()
	b, _ := rec.MarshalIndent()
	if string(a) != string(b) {
		t.Errorf("run.json differs from the record:\n%s\n%s", a, b)
	}
	entries, err := os.ReadDir(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := append([]string(nil), rec.Files...)
	if strings.Join(slices.Sorted(slices.Values(names)), ",") != strings.Join(slices.Sorted(slices.Values(want)), ",") {
		t.Errorf("folder holds %v, record lists %v", names, want)
	}
	result, err := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	reason := rec.Reason
	if reason == "" {
		reason = "none"
	}
	if !strings.Contains(string(result), "- Outcome: "+string(rec.Outcome)+"\n- Reason: "+reason+"\n") {
		t.Errorf("result.md does not state the outcome:\n%s", result)
	}
	tf, err := os.Open(filepath.Join(rec.Dir, runfolder.TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	var lines []runfolder.TranscriptEntry
	sc := bufio.NewScanner(tf)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e runfolder.TranscriptEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("transcript line %q: %v", sc.Text(), err)
		}
		lines = append(lines, e)
	}
	if len(lines) < 2 || lines[0].Type != "request" || lines[len(lines)-1].Type != "outcome" || lines[len(lines)-1].Reason != rec.Reason {
		t.Errorf("transcript runs from %v to %v", lines[0], lines[len(lines)-1])
	}
	return lines
}

// repeat returns n copies of a step.
func repeat(n int, s modeltest.Step) []modeltest.Step {
	out := make([]modeltest.Step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func steps(parts ...any) []modeltest.Step {
	var out []modeltest.Step
	for _, p := range parts {
		switch v := p.(type) {
		case modeltest.Step:
			out = append(out, v)
		case []modeltest.Step:
			out = append(out, v...)
		}
	}
	return out
}

// lintScan scans the fixture's home again (after its config changed).
func lintScan(f *fixture) (*lint.Catalog, error) {
	return lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
}
