package suite

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/trialtest"
)

// fixture is a temp home whose Main model is a modeltest server, with an
// agent "tester" and its suite file.
type fixture struct {
	t      testing.TB
	h      *trialtest.Home
	srv    *modeltest.Server
	home   lint.Home
	runs   string
	client *http.Client
	// replies maps a task to the replies its samples get, in turn; the
	// judge gets judge (by the task's rubric).
	mu      sync.Mutex
	replies map[string][]modeltest.Script
	turn    map[string]int
	judge   map[string]string
	// judgeScripts answer the judge by rubric with a whole script.
	judgeScripts map[string]modeltest.Script
	// keepRuns is Options.KeepRuns for run; models name Options.Models.
	keepRuns bool
	models   []string
	// byTurn marks the tasks whose replies go by the conversation's turn
	// (the first call, then the call after the tool results), not in turn
	// across samples.
	byTurn map[string]bool
}

const testerMD = "---\nname: tester\ndescription: Tries things\n---\nYou are a tester.\n"

func newFixture(t testing.TB) *fixture {
	t.Helper()
	h := trialtest.New(t, trialtest.Model{}, map[string]string{"agents/tester.md": testerMD})
	f := &fixture{t: t, h: h, srv: h.Server, home: h.Home, runs: filepath.Join(h.Base, "runs"), replies: map[string][]modeltest.Script{}, turn: map[string]int{}, judge: map[string]string{}, byTurn: map[string]bool{}, judgeScripts: map[string]modeltest.Script{}}
	f.config("test-model", 300)
	f.srv.SetChooser(f.choose)
	return f
}

// config writes netclaw.json with the model id and prefill limit.
func (f *fixture) config(model string, prefill int) {
	f.configWith(model, fmt.Sprintf(`"SubAgents": {"PrefillTimeoutSeconds": %d}`, prefill))
}

// configWith writes netclaw.json with the model id and more members.
func (f *fixture) configWith(model string, more ...string) {
	m := f.h.Model
	m.ID = model
	hometest.WriteFile(f.t, f.home.ConfigFile(), m.Config(more...))
}

// choose answers the judge by rubric and the agent by task, in turn.
func (f *fixture) choose(r modeltest.Request) (modeltest.Script, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	user := r.FirstUser()
	if r.System == JudgePrompt {
		for rubric, sc := range f.judgeScripts {
			if strings.Contains(user, "Rubric:\n"+rubric+"\n") {
				return sc, true
			}
		}
		for rubric, answer := range f.judge {
			if strings.Contains(user, "Rubric:\n"+rubric+"\n") {
				return modeltest.Reply(answer), true
			}
		}
		return modeltest.Reply("I cannot say."), true
	}
	task := user
	if i := strings.LastIndex(user, "Task:\n"); i >= 0 {
		task = user[i+len("Task:\n"):]
	}
	// A conversation with tool results goes on with the next reply.
	rs := f.replies[task]
	if len(rs) == 0 {
		return modeltest.Reply("no script for " + task), true
	}
	i := f.turn[task]
	f.turn[task]++
	if f.byTurn[task] {
		i = 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				i++
			}
		}
	}
	return rs[i%len(rs)], true
}

// on sets the replies of a task, in turn.
func (f *fixture) on(task string, scripts ...modeltest.Script) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies[task] = scripts
	f.turn[task] = 0
}

// conversation sets the replies of a task's conversation, call by call.
func (f *fixture) conversation(task string, scripts ...modeltest.Script) {
	f.on(task, scripts...)
	f.mu.Lock()
	f.byTurn[task] = true
	f.mu.Unlock()
}

// suite writes the suite file tester.test.yaml.
func (f *fixture) suite(text string) string {
	p := filepath.Join(f.home.Agents, "tester.test.yaml")
	hometest.WriteFile(f.t, p, text)
	return p
}

// run runs the suite at path in mode.
func (f *fixture) run(mode evalrec.Mode, paths ...string) []*SuiteResult {
	f.t.Helper()
	cat := f.catalog()
	rn, err := runner.New(runner.Options{RunsDir: f.runs, Client: f.client})
	if err != nil {
		f.t.Fatal(err)
	}
	var suites []*suitefile.Suite
	for _, p := range paths {
		s := suitefile.Load(p)
		suitefile.Check(s, cat)
		suites = append(suites, s)
	}
	var models []suitefile.ModelChoice
	if len(f.models) > 0 {
		if models, err = suitefile.LookupModels(cat.Config, f.models); err != nil {
			f.t.Fatal(err)
		}
	}
	return Run(context.Background(), suites, Options{Runner: rn, Catalog: cat, Mode: mode, Words: testWords, Jobs: 2, KeepRuns: f.keepRuns, Models: models})
}

// catalog scans the fixture's home.
func (f *fixture) catalog() *lint.Catalog {
	f.t.Helper()
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		f.t.Fatal(err)
	}
	return cat
}

// statuses lists "case: status passed/total" for each case.
func statuses(rs []*SuiteResult) []string {
	var out []string
	for _, s := range rs {
		for _, c := range s.Cases {
			out = append(out, fmt.Sprintf("%s: %s %d/%d", c.Case.Name, c.Status, c.Passed, len(c.Samples)))
		}
	}
	return out
}

// testWords are the command line's words as cmd/agentdesk fills them
// (evalWords; its tests assert them in what the commands print).
var testWords = evalrec.Words{Test: "agentdesk test", Route: "agentdesk route --suite", Record: "--record", Case: "--case", Models: "--models", Demo: "--demo"}
