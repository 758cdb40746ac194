package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/eval/route"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// routeAgents are the agents of a route home: two user-facing, one internal.
var routeAgents = map[string]string{
	"agents/reviewer.md":    "---\nname: reviewer\ndescription: Reviews a git diff for bugs and security issues before a push.\n---\nYou review diffs.\n",
	"agents/log-analyst.md": "---\nname: log-analyst\ndescription: Reads service logs and explains why a deployment failed.\n---\nYou read logs.\n",
	"agents/ops.md":         "---\nname: ops\ndescription: Restarts services.\nvisibility: internal\n---\nYou restart.\n",
}

// routeHome is a NETCLAW_HOME whose Main model is a modeltest server in
// protocol p (config "" is that; else netclaw.json's text), with the
// agents (routeAgents when nil).
func routeHome(t *testing.T, p wire.Protocol, config string, agents map[string]string) (*modeltest.Server, []string, string) {
	t.Helper()
	files := map[string]string{}
	if config != "" {
		files["config/netclaw.json"] = config
	}
	if agents == nil {
		agents = routeAgents
	}
	for k, v := range agents {
		files[k] = v
	}
	h := trialtest.New(t, trialtest.Model{Protocol: p, Provider: "test", Name: "m", ID: "front-model", Key: trialKey}, files)
	state := t.TempDir()
	env := []string{"NETCLAW_HOME=" + h.Base, "XDG_STATE_HOME=" + state, "HOME=" + t.TempDir()}
	return h.Server, env, filepath.Join(state, "agentdesk", "runs")
}

func spawnScript(agent string) modeltest.Script {
	return modeltest.Script{Steps: []modeltest.Step{
		modeltest.ToolCall("c1", "spawn_agent", fmt.Sprintf(`{"agent":%q,"task":"Look at it","context":"from the CLI test","_rationale":"r"}`, agent)),
		modeltest.Finish(modeltest.FinishTools),
	}}
}

func TestRouteCommandOnEveryProtocol(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			srv, env, runs := routeHome(t, p, "", nil)
			srv.Enqueue(spawnScript("reviewer"), spawnScript("reviewer"), modeltest.Reply("I'll answer myself."))
			code, out, errOut := runTrialCmd(t, env, "", "route", "--samples", "3", "--jobs", "1", "Please review my diff")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			for _, want := range []string{
				"Request: Please review my diff",
				"Frontline: front-model (provider test, Models.Roles.Main), audience Personal, 2 agents in the layer, 3 samples",
				"  reviewer                2/3   66%\n  none (answered itself)  1/3   33%\n",
				`1. spawn_agent reviewer, task "Look at it", context "from the CLI test"`,
				`3. answered itself: "I'll answer myself."`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			entries, _ := os.ReadDir(runs)
			if len(entries) != 3 {
				t.Errorf("%d run folders, want 3", len(entries))
			}
			reqs := srv.Requests()
			if len(reqs) != 3 || reqs[0].APIKey != trialKey || strings.Join(reqs[0].Tools, ",") != "spawn_agent" {
				t.Errorf("requests %d, tools %v", len(reqs), reqs[0].Tools)
			}
			noKeyAnywhere(t, runs, out, errOut)
		})
	}
}

func TestRouteCommandJSON(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	srv.SetDefault(spawnScript("ops"))
	code, out, errOut := runTrialCmd(t, env, "", "route", "--samples", "2", "--format", "json", "--audience", "team", "restart the api")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Audience     string
		Agents       []string
		Distribution []struct {
			Label string
			Kind  string
			Count int
		}
		Samples []struct {
			Pick struct {
				Kind, Agent, Refusal string
			}
			RunDir string `json:"run_dir"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Audience != "Team" || strings.Join(doc.Agents, ",") != "log-analyst,reviewer" || len(doc.Distribution) != 1 || doc.Distribution[0].Label != "unknown agent ops" || doc.Distribution[0].Count != 2 {
		t.Errorf("document %+v", doc)
	}
	if s := doc.Samples[0]; s.Pick.Kind != "refused" || s.Pick.Refusal != "Error: Unknown agent 'ops'. Available agents: log-analyst, reviewer" || s.RunDir == "" {
		t.Errorf("sample %+v", s)
	}
}

func TestRouteCommandBadInput(t *testing.T) {
	noModel := `{"Providers": {}}`
	disabled := `{"SubAgents": {"Enabled": false}, "Models": {"Roles": {"Main": "m"}, "Definitions": {"m": {"Provider": "test", "ModelId": "x"}}}, "Providers": {"test": {"Type": "ollama", "Endpoint": "http://127.0.0.1:9"}}}`
	onlyInternal := map[string]string{"agents/ops.md": routeAgents["agents/ops.md"]}
	for _, tc := range []struct {
		name   string
		config string
		agents map[string]string
		script *modeltest.Script
		args   []string
		code   int
		want   string
	}{
		{name: "no Main model", config: noModel, args: []string{"x"}, code: 1, want: "no Main model is configured"},
		{name: "disabled", config: disabled, args: []string{"x"}, code: 1, want: "SubAgents.Enabled is false in"},
		{name: "public", args: []string{"--audience", "public", "x"}, code: 1, want: "Public audience has no"},
		{name: "empty layer", agents: onlyInternal, args: []string{"x"}, code: 1, want: "create a user-facing agent at"},
		{name: "no tools", script: &modeltest.Script{Status: 400, ErrorMessage: "registry.ollama.ai/library/gemma:2b does not support tools"}, args: []string{"--samples", "1", "x"}, code: 1, want: "does not take tools"},
		{name: "failing model", script: &modeltest.Script{Status: 503, ErrorMessage: "overloaded"}, args: []string{"--samples", "2", "x"}, code: 1, want: "2 of 2 samples did not get an answer"},
		{name: "no request", args: nil, code: 2, want: "give the request"},
		{name: "empty request", args: []string{"  "}, code: 2, want: "the request is empty"},
		{name: "zero samples", args: []string{"--samples", "0", "x"}, code: 2, want: "--samples is 0: give 1 to 100"},
		{name: "static with record", args: []string{"--static", "--record", "x"}, code: 2, want: "--static asks no model"},
		{name: "bad audience", args: []string{"--audience", "world", "x"}, code: 2, want: "unknown audience"},
		{name: "missing system file", args: []string{"--system-file", "/nonexistent/pre.md", "x"}, code: 2, want: "--system-file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, env, _ := routeHome(t, wire.Ollama, tc.config, tc.agents)
			if tc.script != nil {
				srv.SetDefault(*tc.script)
			}
			code, out, errOut := runTrialCmd(t, env, "", append([]string{"route"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s\n%s", code, tc.code, tc.want, errOut, out)
			}
			if tc.script == nil && len(srv.Requests()) != 0 {
				t.Errorf("%d requests sent", len(srv.Requests()))
			}
		})
	}
}

func TestRouteShowRequestAndSystemFile(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	pre := filepath.Join(t.TempDir(), "pre.md")
	os.WriteFile(pre, []byte("You are Claw, the team's assistant."), 0o644)
	code, out, errOut := runTrialCmd(t, env, "", "route", "--show-request", "--system-file", pre, "deploy failed")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# system (preamble: --system-file " + pre + ")\nYou are Claw, the team's assistant.\n", "[available-subagents — use spawn_agent to delegate]", "## log-analyst\n", "# tool spawn_agent\n" + preview.SpawnAgentDescription, "# user\ndeploy failed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "## ops") || len(srv.Requests()) != 0 {
		t.Errorf("internal agent shown, or %d requests sent", len(srv.Requests()))
	}
}

func TestRouteStatic(t *testing.T) {
	agents := map[string]string{
		"agents/reviewer.md":    routeAgents["agents/reviewer.md"],
		"agents/log-analyst.md": routeAgents["agents/log-analyst.md"],
		"agents/pr-reviewer.md": "---\nname: pr-reviewer\ndescription: Reviews a git diff in a pull request for bugs and security issues.\n---\nYou review PRs.\n",
	}
	srv, env, _ := routeHome(t, wire.OpenAI, "", agents)
	code, out, errOut := runTrialCmd(t, env, "", "route", "--static", "Why did the deployment fail? Here are the logs.")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"a heuristic", "no model was asked", "  1. log-analyst ", "deployment, fail, log", "warning: pr-reviewer and reviewer are", "may not tell them apart"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Error("--static called the model")
	}
}

// frontSuite is a routing suite for routeAgents.
const frontSuite = `samples: 2
cases:
  - name: review
    request: Please review my diff before I push.
    expect: reviewer
  - name: deploy
    request: Why did the deployment fail?
    expect: log-analyst
`

func TestRouteSuiteRecordOfflineStale(t *testing.T) {
	srv, env, _ := routeHome(t, wire.Anthropic, "", nil)
	srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		if strings.HasPrefix(r.FirstUser(), "Please review") {
			return spawnScript("reviewer"), true
		}
		return spawnScript("reviewer"), true // the deploy question goes to the wrong agent
	})
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	suitePath := filepath.Join(home, "agents", "front.route.yaml")
	os.WriteFile(suitePath, []byte(frontSuite), 0o644)

	code, out, errOut := runTrialCmd(t, env, "", "route", "--suite", "--record")
	if code != 1 {
		t.Fatalf("record: exit %d, want 1 (a case fails)\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"front.route.yaml  (audience Personal, 2 cases)", "  fail         deploy", "Confused: log-analyst and reviewer", "Reads service logs and explains why a" + strings.Repeat(" ", 1)} {
		if !strings.Contains(out, want) {
			t.Errorf("record output lacks %q:\n%s", want, out)
		}
	}
	recs, _ := os.ReadDir(filepath.Join(home, "agents", "front.route.recordings"))
	if len(recs) != 4 {
		t.Errorf("%d recordings, want 4", len(recs))
	}
	n := len(srv.Requests())
	srv.Close()

	code, out, errOut = runTrialCmd(t, env, "", "route", "--suite", "--offline", "--format", "junit", suitePath)
	if code != 1 || len(srv.Requests()) != n {
		t.Fatalf("offline: exit %d, %d more requests\n%s", code, len(srv.Requests())-n, errOut)
	}
	var x struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &x); err != nil {
		t.Fatalf("junit: %v\n%s", err, out)
	}
	if x.Tests != 2 || x.Failures != 1 || x.Suites[0].Cases[1].Failure == nil || x.Suites[0].Cases[1].Failure.Type != "fail" {
		t.Errorf("junit %+v", x)
	}

	// --failed runs again only the case that failed last time.
	code, out, errOut = runTrialCmd(t, env, "", "route", "--suite", "--offline", "--failed")
	if code != 1 || !strings.Contains(out, "1 case: 0 passed, 1 failed") || !strings.Contains(out, "deploy") {
		t.Errorf("--failed: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut = runTrialCmd(t, env, "", "route", "--failed", "hello"); code != 2 || !strings.Contains(errOut, "use it with --suite") {
		t.Errorf("--failed without --suite: exit %d\n%s", code, errOut)
	}

	// Sharpen a description: the recordings are stale, never passed.
	os.WriteFile(filepath.Join(home, "agents", "log-analyst.md"), []byte("---\nname: log-analyst\ndescription: Explains why a deployment or service failed, from its logs. Not for code review.\n---\nYou read logs.\n"), 0o644)
	code, out, _ = runTrialCmd(t, env, "", "route", "--suite", "--offline")
	if code != 1 || !strings.Contains(out, "  stale ") || !strings.Contains(out, "layer changed") {
		t.Errorf("stale: exit %d\n%s", code, out)
	}
}

func TestRouteSuitePassesAndUsage(t *testing.T) {
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
	code, out, errOut := runTrialCmd(t, env, "", "route", "--suite", "--format", "github")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, output %q\n%s", code, out, errOut)
	}
	code, out, _ = runTrialCmd(t, env, "", "route", "--suite", "--static")
	if code != 0 || !strings.Contains(out, "Static: a heuristic") {
		t.Errorf("static: exit %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--suite", "--record", "--offline"}, "give one of them"},
		{[]string{"--suite", "--audience", "team"}, "a suite says its audience"},
		{[]string{"--suite", "nope.route.yaml"}, "no such suite file"},
		{[]string{"--suite", filepath.Join(home, "agents", "reviewer.md")}, "is not a routing suite"},
		{[]string{"--offline", "x"}, "use it with --suite"},
		{[]string{"--format", "junit", "x"}, "reports suites"},
	} {
		code, _, errOut := runTrialCmd(t, env, "", append([]string{"route"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
	os.Remove(suitePath)
	if code, _, errOut := runTrialCmd(t, env, "", "route", "--suite"); code != 2 || !strings.Contains(errOut, "no routing suites in") {
		t.Errorf("no suites: exit %d %q", code, errOut)
	}
}

func TestLintChecksRouteSuites(t *testing.T) {
	_, env, _ := routeHome(t, wire.OpenAI, "", nil)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	os.WriteFile(filepath.Join(home, "agents", "front.route.yaml"), []byte("cases:\n  - name: a\n    request: r\n    expect: reveiwer\n  - name: b\n    requst: r\n    expect: none\n"), 0o644)
	code, out, errOut := runTrialCmd(t, env, "", "lint")
	if code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"front.route.yaml:4:13: error: agent \"reveiwer\" is not loaded [suite-agent]",
		"did you mean 'reviewer'?",
		"front.route.yaml:6:5: error: unknown key \"requst\" in case 2 [suite-unknown-key]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lint output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunsListsRouteSamples(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	srv.SetDefault(spawnScript("reviewer"))
	if code, _, errOut := runTrialCmd(t, env, "", "route", "--samples", "2", "x"); code != 0 {
		t.Fatalf("route: exit %d %s", code, errOut)
	}
	code, out, errOut := runTrialCmd(t, env, "", "runs")
	if code != 0 || strings.Count(out, "(frontline)") != 2 {
		t.Errorf("runs: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestRouteAndTestFlagsAgree checks that the two suite commands feel like
// one family: --jobs has the same help and default in both, and 0 is bad
// usage in each mode with the same words.
func TestRouteAndTestFlagsAgree(t *testing.T) {
	_, env, _ := routeHome(t, wire.OpenAI, "", nil)
	flagLine := func(cmd, flag string) string {
		_, out, _ := runTrialCmd(t, env, "", cmd, "--help")
		_, flags, _ := strings.Cut(out, "\nFlags:\n")
		for _, l := range strings.Split(flags, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), flag+" ") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		t.Fatalf("%s --help has no %s:\n%s", cmd, flag, out)
		return ""
	}
	for _, flag := range []string{"--jobs", "--format", "--runs-dir"} {
		if r, tt := flagLine("route", flag), flagLine("test", flag); flag != "--format" && r != tt {
			t.Errorf("%s differs:\n route: %s\n test:  %s", flag, r, tt)
		}
	}
	if l := flagLine("route", "--jobs"); !strings.HasSuffix(l, "(default 4)") {
		t.Errorf("route --jobs: %s", l)
	}
	for _, args := range [][]string{{"route", "--jobs", "0", "x"}, {"route", "--suite", "--jobs", "0"}, {"test", "--jobs", "0"}} {
		code, _, errOut := runTrialCmd(t, env, "", args...)
		if code != 2 || !strings.Contains(errOut, "--jobs is 0: give 1 or more") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}

// TestRouteDemoBinary checks route --demo as agentdesk test --demo works:
// the sample home's routing suite replays with nothing installed, its
// layer ranks statically, and a live question is refused with the fix.
func TestRouteDemoBinary(t *testing.T) {
	code, stdout, stderr := runBinary(t, nil, "route", "--demo", "--suite", "--offline")
	if code != 0 || !strings.Contains(stdout, "agents/frontline.route.yaml  (audience Personal, 3 cases)") || !strings.Contains(stdout, "3 cases: 3 passed (6 samples: 6 replayed, 0 live)") {
		t.Errorf("suite: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The JSON summary has agentdesk test's keys.
	code, stdout, stderr = runBinary(t, nil, "route", "--demo", "--suite", "--format", "json")
	var doc struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 {
		t.Fatalf("json: exit %d %v\n%s\n%s", code, err, stdout, stderr)
	}
	for key, want := range map[string]any{"cases": 3.0, "passed": 3.0, "not_recorded": 0.0, "errors": 0.0, "broken_suites": 0.0, "replayed": 6.0, "live": 0.0, "ok": true} {
		if doc.Summary[key] != want {
			t.Errorf("json summary %s = %v, want %v: %v", key, doc.Summary[key], want, doc.Summary)
		}
	}
	code, stdout, stderr = runBinary(t, nil, "route", "--demo", "--static", "Summarise my meeting notes")
	if code != 0 || !strings.Contains(stdout, "1. summarizer") {
		t.Errorf("static: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"route", "--demo", "Summarise my notes"}, "the demo has no model to ask, only the frontline's recorded answers to"},
		{[]string{"route", "--demo", "--samples", "3", "Thanks, that is all for today."}, "--demo replays the samples it recorded"},
		{[]string{"route", "--demo", "--suite", "--record"}, "leave out --record"},
		{[]string{"route", "--demo", "--suite", "agents/x.route.yaml"}, "leave out --home, --agents and PATH"},
	} {
		if code, _, stderr := runBinary(t, nil, tc.args...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d %q", tc.args, code, stderr)
		}
	}
}

// With a NetClaw install the frontline's first system message is the main
// session's prompt as NetClaw composes it, and its tools are the session's,
// spawn_agent among them; the report says which preamble was used.
func TestRouteFrontlineAsNetClaw(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	hometest.WriteFile(t, filepath.Join(home, "identity", "SOUL.md"), "I am the frontline.\n")
	project := t.TempDir()
	hometest.WriteFile(t, filepath.Join(project, "CLAUDE.md"), "Project rules: be brief.\n")
	srv.Enqueue(spawnScript("code-reviewer"))
	code, stdout, stderr := runTrialCmd(t, env, "", "route", "--samples", "1", "--netclaw-dir", fixtureNetClaw(t), "--project", project, "Review my diff")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Preamble: "+request.SessionSource) {
		t.Errorf("the report does not say which preamble was used:\n%s", stdout)
	}
	req := srv.Requests()[0]
	// The preamble is the first system message; the layer follows it.
	if body := string(req.Body); !strings.Contains(body, `"I am the frontline.\n\n`+fixtureCoreStart) || !strings.Contains(body, `Project rules: be brief."`) {
		t.Errorf("body %s", body)
	}
	if !slices.Contains(req.Tools, "spawn_agent") || !slices.Contains(req.Tools, "file_read") || slices.Contains(req.Tools, "web_fetch") {
		t.Errorf("tools %v", req.Tools)
	}
	// The session's context layers follow: the static ones as the second
	// system message, the per-turn block as a user message before the
	// request.
	var sent struct {
		Messages []struct{ Role, Content string } `json:"messages"`
	}
	if err := json.Unmarshal(req.Body, &sent); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range sent.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,system,user,user" || !strings.HasPrefix(sent.Messages[1].Content, "[directly callable core tools]\n") ||
		strings.Contains(sent.Messages[1].Content, "[available-subagents") ||
		!strings.HasPrefix(sent.Messages[2].Content, "[system: [available-subagents — use spawn_agent to delegate]\n") ||
		!strings.Contains(sent.Messages[2].Content, "\n\n[current-time]\nutc: ") || !strings.HasSuffix(sent.Messages[2].Content, "project_dir: "+project+"]") ||
		sent.Messages[3].Content != "Review my diff" {
		t.Errorf("messages %+v", sent.Messages)
	}
	if !strings.Contains(stdout, "with its context layers") || !strings.Contains(stdout, "\nContext: tool-index, memory, attachments; per turn: available-subagents, current-time, working-context\n") {
		t.Errorf("the report does not say the context layers were sent:\n%s", stdout)
	}
	// --show-request prints every message and tool sent, and what is not
	// reproduced; --format json the same as a document.
	code, stdout, stderr = runTrialCmd(t, env, "", "route", "--show-request", "--netclaw-dir", fixtureNetClaw(t), "--project", project, "Review my diff")
	if code != 0 || !strings.Contains(stdout, "# system (context layers: tool-index, memory, attachments; audience Personal)\n[directly callable core tools]") ||
		!strings.Contains(stdout, "# user (per-turn context: available-subagents, current-time, working-context; audience Personal)\n[system: [available-subagents") ||
		!strings.Contains(stdout, "# tool spawn_agent\n") || !strings.Contains(stdout, "# tool file_read\n") || !strings.Contains(stdout, "# not reproduced") {
		t.Errorf("--show-request: exit %d %s\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runTrialCmd(t, env, "", "route", "--show-request", "--format", "json", "--netclaw-dir", fixtureNetClaw(t), "Review my diff")
	var doc struct {
		Systems  []string                      `json:"systems"`
		Layers   []struct{ Name string }       `json:"layers"`
		Messages []struct{ Role, Text string } `json:"messages"`
		Tools    []struct{ Name string }       `json:"tools"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || len(doc.Systems) != 2 || len(doc.Messages) != 2 || doc.Messages[1].Text != "Review my diff" ||
		len(doc.Layers) < 4 || doc.Tools[len(doc.Tools)-1].Name != "spawn_agent" {
		t.Errorf("--show-request --format json: exit %d %v %s\n%s", code, err, stderr, stdout)
	}
	// --system-file still overrides.
	sys := filepath.Join(t.TempDir(), "pre.txt")
	hometest.WriteFile(t, sys, "Be a router.")
	srv.Enqueue(spawnScript("code-reviewer"))
	code, stdout, _ = runTrialCmd(t, env, "", "route", "--samples", "1", "--netclaw-dir", fixtureNetClaw(t), "--system-file", sys, "Review my diff")
	if code != 0 || !strings.Contains(stdout, "Preamble: --system-file "+sys) || !strings.Contains(string(srv.Requests()[1].Body), `"Be a router."`) {
		t.Errorf("exit %d, stdout %s", code, stdout)
	}
}

// TestRouteNoAnswerIsNotAPick: `agentdesk route REQUEST` with the model
// server failing says, in text and JSON, that the samples got no answer
// and why, as errors and not as a "failed: llm_call_failed" pick share;
// it exits 1 naming them.
func TestRouteNoAnswerIsNotAPick(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			srv, env, _ := routeHome(t, wire.Ollama, "", nil)
			srv.SetDefault(modeltest.Script{Status: 503, ErrorMessage: "overloaded"})
			code, out, errOut := runTrialCmd(t, env, "", "route", "--samples", "2", "--format", format, "deploy failed")
			if code != 1 || !strings.Contains(errOut, "2 of 2 samples did not get an answer") || !strings.Contains(errOut, "sample 1: the model call failed: ") || !strings.Contains(errOut, "(not counted as a pick)") {
				t.Errorf("exit %d, stderr:\n%s", code, errOut)
			}
			if strings.Contains(out, "failed: llm_call_failed") || strings.Contains(out, "the call failed (") {
				t.Errorf("a sample with no answer is shown as a pick:\n%s", out)
			}
			if format == "text" {
				for _, want := range []string{"  no answer  2/2  error: not counted as picks\n", "1. no answer: the model call failed: "} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %q:\n%s", want, out)
					}
				}
				return
			}
			var doc struct {
				Distribution []route.Share
				Samples      []struct{ Label, Error string }
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(doc.Distribution) != 0 || len(doc.Samples) != 2 || doc.Samples[0].Label != route.NoAnswerLabel || !strings.HasPrefix(doc.Samples[0].Error, "the model call failed: ") {
				t.Errorf("document %+v", doc)
			}
		})
	}
}

// TestRouteSuiteOfflineWithoutNetClawSaysWhyStale: recordings made with
// NetClaw's main-session prompt replay stale where NetClaw is not found
// (CI without --netclaw-dir); route --suite --offline says on stderr that
// the operating rules are missing and that this is why, as test --offline
// does.
func TestRouteSuiteOfflineWithoutNetClawSaysWhyStale(t *testing.T) {
	srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
	srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) { return spawnScript("reviewer"), true })
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	hometest.WriteFile(t, filepath.Join(home, "agents", "front.route.yaml"), "samples: 1\ncases:\n  - name: review\n    request: Please review my diff.\n    expect: reviewer\n")
	withCore := append(append([]string{}, env...), "AGENTDESK_NETCLAW_DIR="+fixtureNetClaw(t))
	if code, out, errOut := runTrialCmd(t, withCore, "", "route", "--suite", "--record"); code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := runTrialCmd(t, withCore, "", "route", "--suite", "--offline"); code != 0 || strings.Contains(errOut, "operating rules") {
		t.Fatalf("offline with NetClaw: exit %d\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, errOut := runTrialCmd(t, env, "", "route", "--suite", "--offline")
	if code != 1 || !strings.Contains(out, "preamble changed") {
		t.Fatalf("offline without NetClaw: exit %d, want stale\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "the operating rules (NetClaw's embedded core) are missing") || !strings.Contains(errOut, "replay stale (preamble changed)") || strings.Count(errOut, "--netclaw-dir") != 1 {
		t.Errorf("stderr does not say the rules are missing and why the recordings are stale:\n%s", errOut)
	}
}

// TestRouteProjectNotAFolder: route's --project is checked as run's and
// tools' are (exit 2), for a request, --show-request and a suite; it was
// taken silently, with no project instructions and a project_dir that
// does not exist.
func TestRouteProjectNotAFolder(t *testing.T) {
	_, env, _ := routeHome(t, wire.OpenAI, "", nil)
	file := filepath.Join(t.TempDir(), "notes.txt")
	hometest.WriteFile(t, file, "x")
	for _, p := range []string{filepath.Join(t.TempDir(), "nope"), file} {
		for _, args := range [][]string{{"route", "--show-request", "hi"}, {"route", "--samples", "1", "hi"}} {
			args = append(args, "--netclaw-dir", fixtureNetClaw(t), "--project", p)
			code, _, stderr := runTrialCmd(t, env, "", args...)
			if code != 2 || !strings.Contains(stderr, "--project "+p+" is not a folder") {
				t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			}
		}
	}
}
