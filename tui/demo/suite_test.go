package demo

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// demoSuite is the demo's test suite, as Setup places it.
const demoSuite = "code-analyst.test.yaml"

// runDemoSuite runs the demo suite of a home made by Setup in mode.
func runDemoSuite(t *testing.T, h lint.Home, runs string, mode evalrec.Mode) *suite.SuiteResult {
	t.Helper()
	return runDemoSuiteOn(t, h, demoSuite, runs, mode, nil)
}

// runDemoSuiteOn runs the demo suite file name of a home made by Setup in
// mode, on models (nil: the suite's own).
func runDemoSuiteOn(t *testing.T, h lint.Home, name, runs string, mode evalrec.Mode, models []string) *suite.SuiteResult {
	t.Helper()
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	s := suitefile.Load(filepath.Join(h.Agents, name))
	suitefile.Check(s, c)
	if len(s.Diagnostics) > 0 {
		t.Fatalf("the demo suite has findings: %+v", s.Diagnostics)
	}
	rn, err := runner.New(runner.Options{RunsDir: runs})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := suitefile.LookupModels(c.Config, models)
	if err != nil {
		t.Fatal(err)
	}
	return suite.Run(context.Background(), []*suitefile.Suite{s}, suite.Options{Runner: rn, Catalog: c, Mode: mode, Models: ms})[0]
}

func statusLines(r *suite.SuiteResult) []string {
	var out []string
	for _, c := range r.Cases {
		out = append(out, c.Case.Name+": "+string(c.Status)+" "+c.Message)
	}
	return out
}

var wantDemoSuite = []string{"explains the watcher: pass ", "answers in one sentence: pass ", "long summary is cut: pass "}

// TestGenerateDemoSuiteRecordings records the demo suite from the test
// server, under the demo's own provider names and model ids (so the
// recordings' fingerprints match the demo's netclaw.json). It runs only
// with -generate; review the diff of home/agents/code-analyst.test.recordings.
func TestGenerateDemoSuiteRecordings(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to record the demo suite again")
	}
	srv := modeltest.NewServer()
	defer srv.Close()
	srv.SetChooser(analystChooser())
	tmp := t.TempDir()
	h := setupAgainst(t, filepath.Join(tmp, "demo"), srv)
	r := runDemoSuite(t, h, filepath.Join(tmp, "runs"), evalrec.Record)
	if got := statusLines(r); !slices.Equal(got, wantDemoSuite) {
		t.Fatalf("recorded %q", got)
	}
	keepRecordings(t, h, srv, demoSuite, false)
}

// analystChooser answers code-analyst's suite as the demo recorded it:
// the watcher question with a file_read and then the answer, the one-line
// question, the summary cut at the length limit, and the judge's PASS.
func analystChooser() func(modeltest.Request) (modeltest.Script, bool) {
	answer := "The watcher registers the agents folder, each feed folder, the skills and the config. " +
		"Events settle for 100 ms before one rescan, so an editor that saves by renaming produces one change."
	truncated := "The repository has five packages. lint reads a NetClaw home the way the runtime does; preview renders every view of"
	var mu = make(chan struct{}, 1)
	toolDone := map[string]bool{}
	return func(r modeltest.Request) (modeltest.Script, bool) {
		mu <- struct{}{}
		defer func() { <-mu }()
		user := r.FirstUser()
		switch {
		case r.System == suite.JudgePrompt:
			return modeltest.Reply("PASS: it says events settle for 100 ms before one rescan."), true
		case strings.Contains(user, "editor saves"):
			if len(r.Messages) > 1 {
				return modeltest.Script{Gap: 30 * time.Millisecond, Steps: append(words(modeltest.Text, answer), modeltest.Stop()), Usage: &modeltest.Usage{InputTokens: 700, OutputTokens: 48}}, true
			}
			toolDone[user] = true
			return modeltest.Script{Gap: 30 * time.Millisecond, Steps: []modeltest.Step{modeltest.Thinking("I should read the notes first. "),
				modeltest.ToolCall("call_1", "file_read", `{"path":"watch.md", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools)}}, true
		case strings.Contains(user, "one sentence"):
			return modeltest.Script{Gap: 25 * time.Millisecond, Steps: append(words(modeltest.Text, "A file watcher tells a program when files change, so it can react without polling."), modeltest.Stop()),
				Usage: &modeltest.Usage{InputTokens: 300, OutputTokens: 18}}, true
		case strings.Contains(user, "Summarise"):
			return modeltest.Script{Gap: 25 * time.Millisecond, Steps: append(words(modeltest.Text, truncated), modeltest.Length()),
				Usage: &modeltest.Usage{InputTokens: 640, OutputTokens: 4096}}, true
		}
		return modeltest.Reply("no script"), true
	}
}

// setupAgainst sets the demo home up in dir with its providers pointed at
// srv, for generating recordings.
func setupAgainst(t *testing.T, dir string, srv *modeltest.Server) lint.Home {
	t.Helper()
	h, err := Setup(dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(h.ConfigFile())
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg["Providers"].(map[string]any) {
		p.(map[string]any)["Type"] = "openai-compatible"
		p.(map[string]any)["Endpoint"] = srv.Endpoint(wire.OpenAI)
	}
	data, _ = json.Marshal(cfg)
	if err := os.WriteFile(h.ConfigFile(), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

// keepRecordings copies the recordings of suite, made in h, into the
// embedded home beside this file, replacing what was there: the plain
// ones (the files of the recordings folder), or with matrix the model
// folders of a matrix (model-*). Each generator keeps only what it
// records, so they may run in any order.
func keepRecordings(t *testing.T, h lint.Home, srv *modeltest.Server, suite string, matrix bool) {
	t.Helper()
	src := evalrec.Folder(filepath.Join(h.Agents, suite))
	dst := evalrec.Folder(filepath.Join("home", "agents", suite))
	// mine reports whether a top-level entry is what this call keeps.
	mine := func(e fs.DirEntry) bool {
		if matrix {
			return e.IsDir() && strings.HasPrefix(e.Name(), "model-")
		}
		return !e.IsDir()
	}
	old, _ := os.ReadDir(dst)
	for _, e := range old {
		if mine(e) {
			os.RemoveAll(filepath.Join(dst, e.Name()))
		}
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !mine(e) {
			continue
		}
		err := filepath.WalkDir(filepath.Join(src, e.Name()), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			// The loopback port of the test server says nothing to a
			// reader.
			text := strings.ReplaceAll(string(data), srv.URL, "http://demo.invalid")
			return os.WriteFile(filepath.Join(dst, rel), []byte(text), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestDemoSuiteOffline replays the demo suite as `agentdesk test --demo
// --offline` does: every case passes from its recordings, none is stale,
// and an edit of the definition makes them stale.
func TestDemoSuiteOffline(t *testing.T) {
	tmp := t.TempDir()
	h, err := Setup(filepath.Join(tmp, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	r := runDemoSuite(t, h, filepath.Join(tmp, "runs"), evalrec.Offline)
	if got := statusLines(r); !slices.Equal(got, wantDemoSuite) {
		t.Fatalf("offline %q, want %q", got, wantDemoSuite)
	}
	def := filepath.Join(h.Agents, "code-analyst.md")
	data, _ := os.ReadFile(def)
	os.WriteFile(def, []byte(strings.Replace(string(data), "never invent an API", "never guess", 1)), 0o644)
	r = runDemoSuite(t, h, filepath.Join(tmp, "runs"), evalrec.Offline)
	for _, c := range r.Cases {
		if c.Status != suite.Stale || !strings.Contains(c.Message, "system prompt: body changed: ") {
			t.Errorf("%s after an edit: %s %q", c.Case.Name, c.Status, c.Message)
		}
	}
}
