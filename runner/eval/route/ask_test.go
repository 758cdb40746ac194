package route

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// plantedKey is the fixtures' API key: it must reach the server and never a
// run folder.
const plantedKey = "planted-route-key-0123456789"

var generous = runner.Limits{Prefill: 10 * time.Second, InterDelta: 10 * time.Second, NoProgress: 10 * time.Second}

// agentFiles are the fixture's agents: two user-facing, one internal.
var agentFiles = map[string]string{
	"reviewer.md": "---\nname: reviewer\ndescription: Reviews a git diff for bugs and security issues.\n---\nYou review diffs.\n",
	"analyst.md":  "---\nname: analyst\ndescription: Reads service logs and explains failures.\ntimeoutSeconds: 120\n---\nYou read logs.\n",
	"ops.md":      "---\nname: ops\ndescription: Restarts services.\nvisibility: internal\n---\nYou restart things.\n",
}

type fixture struct {
	srv    *modeltest.Server
	home   lint.Home
	cat    *lint.Catalog
	runner *runner.Runner
}

// newFixture is a home whose Main model is a loopback server speaking p.
// config, when not "", replaces netclaw.json.
func newFixture(t testing.TB, p wire.Protocol, config string) *fixture {
	t.Helper()
	files := map[string]string{}
	for name, text := range agentFiles {
		files["agents/"+name] = text
	}
	if config != "" {
		files["config/netclaw.json"] = config
	}
	h := trialtest.New(t, trialtest.Model{Protocol: p, Name: "front", ID: "front-model", Key: plantedKey}, files)
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(h.Base, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: h.Server, home: h.Home, cat: h.Scan(t), runner: rn}
}

func (f *fixture) question(request string, a preview.Audience) Question {
	return Question{Catalog: f.cat, Audience: a, Request: request, Limits: generous}
}

// ask prepares and asks, failing the test on an error.
func (f *fixture) ask(t *testing.T, q Question, o Options) *Result {
	t.Helper()
	p, err := Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Ask(ctx, f.runner, p, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sentBody is a request body as the three trialtest.Protocols put it, reduced to
// what the frontline request is made of.
type sentBody struct {
	systems []string
	// users are the user messages in order; user is the last (the
	// request), after the per-turn block.
	users []string
	user  string
	tool  struct{ name, description, schema string }
	tools int
}

func parseSent(t *testing.T, p wire.Protocol, body []byte) sentBody {
	t.Helper()
	var b struct {
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
			Function    struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("%s body: %v", p, err)
	}
	var s sentBody
	if p == wire.Anthropic {
		var blocks []struct{ Type, Text string }
		var one string
		if json.Unmarshal(b.System, &one) == nil {
			blocks = append(blocks, struct{ Type, Text string }{"text", one})
		} else if err := json.Unmarshal(b.System, &blocks); err != nil {
			t.Fatalf("anthropic system is neither a string nor a list of blocks: %s", b.System)
		}
		for _, bl := range blocks {
			if bl.Type != "text" {
				t.Errorf("anthropic system block of type %q", bl.Type)
			}
			s.systems = append(s.systems, bl.Text)
		}
	}
	for _, m := range b.Messages {
		text, _ := m.Content.(string)
		switch m.Role {
		case "system":
			s.systems = append(s.systems, text)
		case "user":
			s.user = text
			s.users = append(s.users, text)
		}
	}
	s.tools = len(b.Tools)
	if len(b.Tools) > 0 {
		tl := b.Tools[0]
		if p == wire.Anthropic {
			s.tool.name, s.tool.description, s.tool.schema = tl.Name, tl.Description, string(tl.InputSchema)
		} else {
			s.tool.name, s.tool.description, s.tool.schema = tl.Function.Name, tl.Function.Description, string(tl.Function.Parameters)
		}
	}
	return s
}

func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

func TestRequestSent(t *testing.T) {
	for _, p := range trialtest.Protocols {
		for _, a := range []preview.Audience{preview.Personal, preview.Team} {
			t.Run(fmt.Sprintf("%s/%s", p, a), func(t *testing.T) {
				f := newFixture(t, p, "")
				f.srv.SetDefault(modeltest.Reply("Sure."))
				q := f.question("Please look over my diff before I push.", a)
				q.Preamble = "You are the frontline of a test."
				res := f.ask(t, q, Options{Samples: 1})
				reqs := f.srv.Requests()
				if len(reqs) != 1 {
					t.Fatalf("%d requests, want 1", len(reqs))
				}
				if reqs[0].APIKey != plantedKey || reqs[0].Model != "front-model" {
					t.Errorf("key %q model %q", reqs[0].APIKey, reqs[0].Model)
				}
				s := parseSent(t, p, reqs[0].Body)
				layer := preview.Layer(f.cat, a)
				if len(s.systems) != 1 || s.systems[0] != "You are the frontline of a test." {
					t.Fatalf("system messages %q, want the preamble alone", s.systems)
				}
				// The layer is per turn (SubAgentDiscoveryContextLayer is
				// EveryTurn @28ddf700's runtime): "[system: <layer>]", the
				// user message just before the request.
				if len(s.users) != 2 || s.users[0] != "[system: "+layer+"]" {
					t.Fatalf("user messages %q, want the per-turn layer's bytes first:\n%s", s.users, layer)
				}
				if !strings.Contains(layer, "## analyst\nReads service logs and explains failures.\n") || !strings.Contains(layer, "Timeout: 120s") || strings.Contains(layer, "## ops") {
					t.Errorf("the layer does not follow the audience rules (internal hidden, blocks as the runtime writes them):\n%s", layer)
				}
				if s.user != "Please look over my diff before I push." {
					t.Errorf("user message %q", s.user)
				}
				if s.tools != 1 || s.tool.name != "spawn_agent" || s.tool.description != preview.SpawnAgentDescription || !sameJSON(s.tool.schema, preview.SpawnAgentParameters) {
					t.Errorf("tools %d, first %+v", s.tools, s.tool)
				}
				rec := res.Samples[0].Run
				if rec.Frontline == nil || rec.Frontline.Audience != a.String() || len(rec.Frontline.Systems) != 1 || rec.Frontline.Nudge != "[system: "+layer+"]" {
					t.Errorf("run.json frontline %+v", rec.Frontline)
				}
				if rec.Model.Role != "Main" || strings.Join(rec.Tools, ",") != "spawn_agent" {
					t.Errorf("run.json model role %q tools %v", rec.Model.Role, rec.Tools)
				}
				checkFolder(t, rec)
			})
		}
	}
}

// checkFolder checks that the run folder holds its artifacts and no key.
func checkFolder(t *testing.T, rec runfolder.Record) {
	t.Helper()
	if rec.RunID == "" {
		t.Fatal("no run folder")
	}
	for _, name := range rec.Files {
		data, err := os.ReadFile(filepath.Join(rec.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), plantedKey) {
			t.Errorf("%s holds the API key", name)
		}
	}
	back, err := runfolder.LoadRun(filepath.Dir(rec.Dir), rec.RunID)
	if err != nil || back.Frontline == nil {
		t.Fatalf("run.json reads back as %+v, %v", back.Frontline, err)
	}
}

// replyCases are every kind of first reply.
var replyCases = []struct {
	name   string
	script modeltest.Script
	want   Pick
	label  string
}{
	{
		name: "spawns a listed agent",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.Thinking("The reviewer fits."),
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer",`, `"task":"Review the staged diff","context":"PR 42","_rationale":"review"}`),
			modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: Delegated, Agent: "reviewer", Task: "Review the staged diff", Context: "PR 42", Calls: 1},
		label: "reviewer",
	},
	{
		name: "spawns with the schema's own names, in another case",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"Agent":"ANALYST","Task":"Why did it fail?","_rationale":"r"}`),
			modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: Delegated, Agent: "analyst", Task: "Why did it fail?", Calls: 1},
		label: "analyst",
	},
	{
		name: "an agent that does not exist",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"code-reviewer","task":"x","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: Refused, Agent: "code-reviewer", Task: "x", Refusal: "Error: Unknown agent 'code-reviewer'. Available agents: analyst, reviewer", Calls: 1},
		label: "unknown agent code-reviewer",
	},
	{
		name: "an internal agent",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"ops","task":"restart","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: Refused, Agent: "ops", Task: "restart", Refusal: "Error: Unknown agent 'ops'. Available agents: analyst, reviewer", Calls: 1},
		label: "unknown agent ops",
	},
	{
		name: "no task",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: Refused, Agent: "reviewer", Refusal: "Error parsing arguments for tool 'spawn_agent': Required parameter 'Task' is missing.", Calls: 1},
		label: "refused call",
	},
	{
		name: "no _rationale: the dispatcher refuses it before spawn_agent runs",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer","task":"Review the diff"}`), modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: Refused, Agent: "reviewer", Task: "Review the diff", Refusal: request.RequiredRationaleError, Calls: 1},
		label: "refused call",
	},
	{
		name: "a key no parameter binds",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer","task":"Review the diff","priority":"high","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools),
		}},
		want: Pick{Kind: Refused, Agent: "reviewer", Task: "Review the diff", Calls: 1,
			Refusal: "Error: Unrecognized argument 'priority' for tool 'spawn_agent'. The tool was NOT executed. Valid arguments: Agent, Task, Context, _rationale, _timeout_seconds, _background."},
		label: "refused call",
	},
	{
		name:   "answers itself",
		script: modeltest.Reply("I can answer that myself: push it."),
		want:   Pick{Kind: Answered, Text: "I can answer that myself: push it."},
		label:  "none",
	},
	{
		name: "calls another tool",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "web_search", `{"query":"diff review"}`), modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: OtherTool, Tool: "web_search", Arguments: `{"query":"diff review"}`, Calls: 1},
		label: "tool web_search",
	},
	{
		name: "arguments that are not valid JSON",
		script: modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "spawn_agent", `{"agent":"revie`), modeltest.Finish(modeltest.FinishTools),
		}},
		want:  Pick{Kind: BadArguments, Arguments: `{"agent":"revie`, Calls: 1},
		label: "invalid arguments",
	},
	{
		name:   "the call fails",
		script: modeltest.Script{Status: 500, ErrorMessage: "model crashed"},
		want:   Pick{Kind: Failed, Reason: vocab.ReasonLLMCallFailed},
		label:  "failed: llm_call_failed",
	},
}

func TestReplyKinds(t *testing.T) {
	for _, p := range trialtest.Protocols {
		for _, tc := range replyCases {
			t.Run(fmt.Sprintf("%s/%s", p, tc.name), func(t *testing.T) {
				f := newFixture(t, p, "")
				f.srv.SetDefault(tc.script)
				res := f.ask(t, f.question("Check my change.", preview.Personal), Options{Samples: 2})
				for _, s := range res.Samples {
					got := s.Pick
					got.Error = ""
					if tc.want.Kind != Answered {
						got.Text = ""
					}
					if !reflect.DeepEqual(got, tc.want) {
						t.Errorf("sample %d: got %+v\nwant %+v", s.N, got, tc.want)
					}
					if s.Pick.Label() != tc.label {
						t.Errorf("label %q, want %q", s.Pick.Label(), tc.label)
					}
					checkFolder(t, s.Run)
				}
				d := res.Distribution()
				switch {
				case tc.want.Kind == Failed && res.Samples[0].NoAnswer() != "":
					// No answer: not a pick (TestNoAnswerIsAnErrorNotAPick).
					if len(d) != 0 {
						t.Errorf("distribution %+v of samples with no answer", d)
					}
				case len(d) != 1 || d[0].Count != 2 || d[0].Label != tc.label:
					t.Errorf("distribution %+v", d)
				}
				if res.NoTools != "" {
					t.Errorf("NoTools %q", res.NoTools)
				}
			})
		}
	}
}

func TestDistributionOverSamples(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	spawn := func(agent string) modeltest.Script {
		return modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c", "spawn_agent", fmt.Sprintf(`{"agent":%q,"task":"t","_rationale":"r"}`, agent)), modeltest.Finish(modeltest.FinishTools)}}
	}
	f.srv.Enqueue(spawn("reviewer"), spawn("analyst"), spawn("reviewer"), modeltest.Reply("no"), spawn("reviewer"))
	var seen int
	res := f.ask(t, f.question("x", preview.Personal), Options{Samples: 5, Jobs: 2, OnSample: func(Sample) { seen++ }})
	want := []Share{{"reviewer", Delegated, 3}, {"analyst", Delegated, 1}, {"none", Answered, 1}}
	got := res.Distribution()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("distribution %+v, want %+v", got, want)
	}
	dirs := map[string]bool{}
	for i, s := range res.Samples {
		if s.N != i+1 || s.Run.Dir == "" {
			t.Errorf("sample %d: N %d dir %q", i, s.N, s.Run.Dir)
		}
		dirs[s.Run.Dir] = true
	}
	if len(dirs) != 5 || seen != 5 {
		t.Errorf("%d run folders, %d callbacks, want 5", len(dirs), seen)
	}
}

func TestModelWithoutTools(t *testing.T) {
	for _, p := range trialtest.Protocols {
		f := newFixture(t, p, "")
		f.srv.SetDefault(modeltest.Script{Status: 400, ErrorMessage: "registry.ollama.ai/library/gemma:2b does not support tools"})
		res := f.ask(t, f.question("x", preview.Personal), Options{Samples: 1})
		if !strings.Contains(res.NoTools, "does not take tools") || !strings.Contains(res.NoTools, "Models.Roles.Main") {
			t.Errorf("%s: NoTools %q", p, res.NoTools)
		}
	}
}

func TestBadInput(t *testing.T) {
	noModel := `{"Providers": {}}`
	disabled := `{"SubAgents": {"Enabled": false}, "Models": {"Roles": {"Main": "front"}, "Definitions": {"front": {"Provider": "mock", "ModelId": "m"}}}, "Providers": {"mock": {"Type": "ollama", "Endpoint": "http://127.0.0.1:1"}}}`
	badProvider := `{"Models": {"Roles": {"Main": "front"}, "Definitions": {"front": {"Provider": "nowhere", "ModelId": "m"}}}}`
	for _, tc := range []struct {
		name, config string
		audience     preview.Audience
		request      string
		noAgents     bool
		role         string
		want         []string
	}{
		{name: "no Main model", config: noModel, want: []string{"no Main model is configured", "Models.Roles.Main", "netclaw.json"}},
		{name: "sub-agents disabled", config: disabled, want: []string{"SubAgents.Enabled is false", "netclaw.json:1:"}},
		{name: "public", audience: preview.Public, want: []string{"Public audience has no"}},
		{name: "empty layer", noAgents: true, want: []string{"no user-facing agent", "create a user-facing agent at"}},
		{name: "empty request", request: " \n", want: []string{"the request is empty"}},
		{name: "unknown provider", config: badProvider, want: []string{"Providers does not have", "Providers.nowhere"}},
		{name: "bad role", role: "Boss", want: []string{"not Main, Compaction or Fallback"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, wire.Ollama, tc.config)
			if tc.noAgents {
				for name := range agentFiles {
					os.Remove(filepath.Join(f.home.Agents, name))
				}
				hometest.WriteFile(t, filepath.Join(f.home.Agents, "ops.md"), agentFiles["ops.md"])
				f.cat, _ = lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
			}
			q := f.question("review this", tc.audience)
			if tc.request != "" {
				q.Request = tc.request
			}
			q.ModelRole = tc.role
			_, err := Prepare(q)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an InputError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if n := len(f.srv.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestRecordThenReplay(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p, "")
			f.srv.SetDefault(replyCases[0].script)
			q := f.question("Check my change.", preview.Team)
			rec := f.ask(t, q, Options{Samples: 2, Record: true})
			var tapes []*cassette.Cassette
			var sources []string
			for _, s := range rec.Samples {
				path := filepath.Join(s.Run.Dir, runfolder.StreamFile)
				tape, err := runner.LoadCassette(path)
				if err != nil {
					t.Fatal(err)
				}
				tapes, sources = append(tapes, tape), append(sources, path)
			}
			f.srv.Close()
			before := len(f.srv.Requests())
			play := f.ask(t, q, Options{Replays: tapes, ReplaySources: sources})
			if len(play.Samples) != 2 || len(f.srv.Requests()) != before {
				t.Fatalf("%d samples, %d requests more", len(play.Samples), len(f.srv.Requests())-before)
			}
			for i, s := range play.Samples {
				if !reflect.DeepEqual(s.Pick, rec.Samples[i].Pick) || s.Run.Replay == nil {
					t.Errorf("sample %d replayed as %+v (replay %v), recorded %+v", i, s.Pick, s.Run.Replay, rec.Samples[i].Pick)
				}
			}
		})
	}
}
