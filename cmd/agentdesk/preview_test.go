package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview/request"
)

// Agent files of the preview tests' home.
const (
	analystAgent = "---\nname: code-analyst\ndescription: Reads source code and explains it.\ntimeoutSeconds: 120\n---\nYou read code.\n"
	helperAgent  = "---\nname: Helper\ndescription: Helps.\n---\r\nLine one.\r\nLine two.\r\n"
	hiddenAgent  = "---\nname: indexer\ndescription: Builds the index.\nvisibility: internal\n---\nYou index.\n"
	brokenAgent  = "---\nname: broken\n---\nNo description.\n"
	// unboundAgent is the README's broken file: the runtime cannot bind it,
	// so only its raw name line names it.
	unboundAgent = "---\nname: unbound\ndescription: Tools the Claude Code way.\ntools: Read, Grep\n---\nYou do things.\n"
	notesSkill   = "---\nname: notes\ndescription: The notes skill.\nmetadata:\n  subagent: code-analyst\n---\n\n  Explain the release.  \n"
	ghostSkill   = "---\nname: ghost\ndescription: The ghost skill.\nmetadata:\n  subagent: nobody\n---\nBoo.\n"
	plainSkill   = "---\nname: plain\ndescription: The plain skill.\n---\nNo routing.\n"
)

// wantPreviewLayer is the layer of previewHome for Personal and Team, written by
// hand from REFERENCE section 4.
const wantPreviewLayer = "[available-subagents — use spawn_agent to delegate]\n" +
	"\n" +
	"## code-analyst\n" +
	"Reads source code and explains it.\n" +
	"Tools: inherited from parent audience policy, except denied sub-agent tools\n" +
	"Timeout: 120s\n" +
	"\n" +
	"## Helper\n" +
	"Helps.\n" +
	"Tools: inherited from parent audience policy, except denied sub-agent tools\n" +
	"Timeout: 60s\n" +
	"\n" +
	"## How to delegate\n" +
	"Call `spawn_agent(agent: \"<name>\", task: \"<specific task>\", context: \"<optional background>\")`.\n" +
	"\n" +
	"- `task` is what the subagent should do — be concrete and bounded.\n" +
	"- `context` is optional per-invocation background (workspace details, the user's broader goal,\n" +
	"  facts the subagent would otherwise have to rediscover). Do NOT duplicate the agent's built-in\n" +
	"  instructions — use this for THIS invocation's situation.\n" +
	"- Subagents run autonomously with their own tools and return a synthesized result, not a transcript."

func previewHome(t *testing.T, extra map[string]string) string {
	t.Helper()
	files := map[string]string{
		"agents/code-analyst.md": analystAgent,
		"agents/helper.md":       helperAgent,
		"agents/indexer.md":      hiddenAgent,
		"agents/broken.md":       brokenAgent,
		"agents/unbound.md":      unboundAgent,
		"skills/notes/SKILL.md":  notesSkill,
		"skills/ghost/SKILL.md":  ghostSkill,
		"skills/plain/SKILL.md":  plainSkill,
	}
	for k, v := range extra {
		files[k] = v
	}
	return hometest.New(t, files)
}

func TestPreviewCommand(t *testing.T) {
	home := previewHome(t, nil)
	disabled := previewHome(t, map[string]string{"config/netclaw.json": `{"SubAgents": {"Enabled": false}}`})
	nameless := previewHome(t, map[string]string{"agents/draft.md": "---\nname: [unclosed\n"})
	env := []string{"HOME=/nonexistent"}
	tests := []struct {
		name   string
		env    []string
		args   []string
		code   int
		stdout string   // exact, unless has is set
		has    []string // substrings of stdout, in order (a composed request)
		stderr []string // substrings; nil means stderr must be empty
	}{
		{name: "layer", args: []string{"preview", "--home", home}, stdout: wantPreviewLayer,
			stderr: []string{"[available-subagents] for Personal: ", " tokens (o200k_base) on every turn, 2 agents\n", "  code-analyst\n", "  Helper\n", "  (header and delegation instructions)\n"}},
		{name: "home from NETCLAW_HOME", env: []string{"NETCLAW_HOME=" + home}, args: []string{"preview"}, stdout: wantPreviewLayer,
			stderr: []string{"for Personal"}},
		{name: "Team, any case", args: []string{"preview", "--home", home, "--audience", "tEAM"}, stdout: wantPreviewLayer,
			stderr: []string{"for Team"}},
		{name: "Public", args: []string{"preview", "--home", home, "--audience", "public"}, stdout: "",
			stderr: []string{"[available-subagents] for Public: empty: Public sessions see no sub-agents\n"}},
		{name: "disabled by netclaw.json", args: []string{"preview", "--home", disabled}, stdout: "",
			stderr: []string{"empty: SubAgents.Enabled is false"}},
		{name: "disabled by the environment", env: []string{"NETCLAW_SubAgents__Enabled=false"}, args: []string{"preview", "--home", home}, stdout: "",
			stderr: []string{"empty: SubAgents.Enabled is false"}},
		{name: "bad audience", args: []string{"preview", "--home", home, "--audience", "world"}, code: 2,
			stderr: []string{`unknown audience "world": use Public, Team or Personal`, "Run 'agentdesk preview --help' for usage."}},
		{name: "bad format", args: []string{"preview", "--home", home, "--format", "xml"}, code: 2,
			stderr: []string{`"xml" is not a format: use text or json`}},
		{name: "agent and skill", args: []string{"preview", "--home", home, "--agent", "a", "--skill", "b"}, code: 2,
			stderr: []string{"--agent and --skill cannot be used together"}},
		{name: "task without agent", args: []string{"preview", "--home", home, "--task", "x"}, code: 2,
			stderr: []string{"--task and --context build a first user message"}},
		{name: "audience with agent", args: []string{"preview", "--home", home, "--agent", "code-analyst", "--audience", "team"}, code: 2,
			stderr: []string{"--audience chooses a layer"}},
		{name: "empty agent", args: []string{"preview", "--home", home, "--agent", " "}, code: 2,
			stderr: []string{"--agent is empty"}},
		{name: "stray argument", args: []string{"preview", "--home", home, "extra"}, code: 2,
			stderr: []string{"unknown command"}},
		{name: "missing home", args: []string{"preview", "--home", home + "/nope"}, code: 2,
			stderr: []string{"does not exist"}},
		{name: "a folder that is no home", args: []string{"preview", "--home", home + "/skills/plain"}, code: 2,
			stderr: []string{"skills/plain is not a NetClaw home: it holds none of agents/, skills/ or config/"}},
		{name: "--agents without a home", args: []string{"preview", "--home", home + "/nope", "--agents", home + "/agents"}, stdout: wantPreviewLayer,
			stderr: []string{"for Personal"}},
		{name: "a skill needs the home", args: []string{"preview", "--home", home + "/nope", "--agents", home + "/agents", "--skill", "notes"}, code: 1,
			stderr: []string{"no skill named 'notes': the NetClaw home " + home + "/nope does not exist (only --agents " + home + "/agents was read), so there is no skill: pass --home DIR"}},

		{name: "agent", args: []string{"preview", "--home", home, "--agent", "code-analyst"},
			has:    []string{"You read code.\n\n[directly callable core tools]", request.ContractLastSentence + "\n" + promptSeparator + "\nContext:\n[working-context]\n", "\n\nTask:\n"},
			stderr: []string{"operating-rules missing: NetClaw installation not found", "system prompt: ", "first user message: "}},
		{name: "agent, any case, task and context", args: []string{"preview", "--home", home, "--agent", "CODE-ANALYST", "--task", "Explain main.go", "--context", "A Go module"},
			has:    []string{"You read code.\n\n", promptSeparator + "\nContext:\nA Go module\n\n[working-context]\n", "\n\nTask:\nExplain main.go\n"},
			stderr: []string{"system prompt: "}},
		{name: "agent, tokens on stdout", args: []string{"preview", "--home", home, "--agent", "code-analyst", "--task", "Go", "--tokens"},
			has:    []string{"You read code.\n\n", promptSeparator + "\nContext:\n", "\n\nTask:\nGo\n\nsystem prompt: "},
			stderr: []string{"operating-rules missing"}},
		{name: "CRLF body kept", args: []string{"preview", "--home", home, "--agent", "helper", "--task", "T"},
			has: []string{"Line one.\r\nLine two.\n\n[directly callable core tools]", "\n\nTask:\nT\n"}, stderr: []string{"system prompt"}},
		{name: "internal agent", args: []string{"preview", "--home", home, "--agent", "indexer"},
			has:    []string{"You index.\n\n", promptSeparator},
			stderr: []string{"note: 'indexer' is internal: the frontline model does not see it"}},
		{name: "unknown agent", args: []string{"preview", "--home", home, "--agent", "code-analist"}, code: 1,
			stderr: []string{"agentdesk: no agent named 'code-analist' is loaded from ", ": did you mean 'code-analyst'?\n"}},
		{name: "unknown agent, nothing close", args: []string{"preview", "--home", home, "--agent", "zzzzzz"}, code: 1,
			stderr: []string{"(no close name among 3 agents)"}},
		{name: "rejected agent", args: []string{"preview", "--home", home, "--agent", "broken"}, code: 1,
			stderr: []string{"agentdesk: agent 'broken' is not loaded: ", "broken.md:1:1: ", "[description-missing]"}},
		{name: "a rejected file of that stem gives no name", args: []string{"preview", "--home", nameless, "--agent", "draft"}, code: 1,
			stderr: []string{"agentdesk: no agent named 'draft' is loaded, and draft.md gives no name: ", "agents/draft.md:1:1: the frontmatter opened on line 1 is never closed [frontmatter]\n"}},
		{name: "rejected agent that does not bind", args: []string{"preview", "--home", home, "--agent", "unbound"}, code: 1,
			stderr: []string{"agentdesk: agent 'unbound' is not loaded: ", "agents/unbound.md:4:8: 'tools' must be a YAML list", "[yaml]"}},

		{name: "skill", args: []string{"preview", "--home", home, "--skill", "notes", "--task", "v2.1"},
			has:    []string{"You read code.\n\n[Skill Overlay]\nExplain the release.\n\n[directly callable core tools]", promptSeparator, "\n\nTask:\nv2.1\n"},
			stderr: []string{"system prompt: "}},
		{name: "skill with a slash", args: []string{"preview", "--home", home, "--skill", "/notes"},
			has:    []string{"You read code.\n\n[Skill Overlay]\nExplain the release.\n\n", promptSeparator},
			stderr: []string{"system prompt: "}},
		{name: "skill that fails to route", args: []string{"preview", "--home", home, "--skill", "ghost"}, code: 1,
			stderr: []string{"agentdesk: Skill '/ghost' routes to subagent 'nobody', but that subagent is not registered. Add the missing subagent definition or fix metadata.subagent on the skill.\n"}},
		{name: "skill that does not route", args: []string{"preview", "--home", home, "--skill", "plain"}, code: 1,
			stderr: []string{"Skill '/plain' does not route to a subagent"}},
		{name: "unknown skill", args: []string{"preview", "--home", home, "--skill", "note"}, code: 1,
			stderr: []string{"no skill named 'note' in ", "did you mean 'notes'?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append(append([]string{}, env...), tt.env...), tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if tt.has != nil {
				at := 0
				for _, want := range tt.has {
					i := strings.Index(stdout[at:], want)
					if i < 0 {
						t.Errorf("stdout lacks %q after offset %d:\n%s", want, at, stdout)
						break
					}
					at += i + len(want)
				}
			} else if stdout != tt.stdout {
				t.Errorf("stdout:\n%q\nwant:\n%q", stdout, tt.stdout)
			}
			if tt.stderr == nil && stderr != "" {
				t.Errorf("stderr should be empty, got:\n%s", stderr)
			}
			for _, want := range tt.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}

func TestPreviewTokensOnStdout(t *testing.T) {
	home := previewHome(t, nil)
	code, stdout, stderr := run(t, nil, "preview", "--home", home, "--tokens")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	layer, summary, ok := strings.Cut(stdout, "\n\n[available-subagents] for Personal: ")
	if !ok || layer != wantPreviewLayer {
		t.Fatalf("stdout should be the layer, a blank line and the summary:\n%s", stdout)
	}
	lines := strings.Split(strings.TrimSuffix(summary, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("summary has %d lines, want the total, 2 agents and the fixed text:\n%s", len(lines), summary)
	}
	// The most expensive block comes first.
	if !strings.HasSuffix(lines[1], "  code-analyst") || !strings.HasSuffix(lines[2], "  Helper") {
		t.Errorf("agents not sorted by cost:\n%s", summary)
	}
}

func TestPreviewJSON(t *testing.T) {
	home := previewHome(t, nil)
	var got struct {
		Audience string `json:"audience"`
		Enabled  bool   `json:"enabled"`
		Text     string `json:"text"`
		Tokens   struct {
			Total  int            `json:"total"`
			Agents map[string]int `json:"agents"`
		} `json:"tokens"`
	}
	code, stdout, stderr := run(t, nil, "preview", "--home", home, "--format", "json")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("stdout is not the documented JSON: %v\n%s", err, stdout)
	}
	if got.Audience != "Personal" || !got.Enabled || got.Text != wantPreviewLayer {
		t.Errorf("got audience %q, enabled %v, text:\n%s", got.Audience, got.Enabled, got.Text)
	}
	if len(got.Tokens.Agents) != 2 || got.Tokens.Agents["code-analyst"] <= 0 || got.Tokens.Agents["Helper"] <= 0 {
		t.Errorf("per-agent tokens = %v", got.Tokens.Agents)
	}
	if got.Tokens.Total <= got.Tokens.Agents["code-analyst"]+got.Tokens.Agents["Helper"] {
		t.Errorf("total %d should exceed the agents' %v (the header and instructions cost too)", got.Tokens.Total, got.Tokens.Agents)
	}
	if !strings.Contains(stdout, `"text": "[available-subagents — use spawn_agent to delegate]\n\n## code-analyst`) {
		t.Errorf("the JSON text should keep < > and the dash readable:\n%s", stdout)
	}

	code, stdout, _ = run(t, nil, "preview", "--home", home, "--format", "json", "--audience", "Public")
	if code != 0 || !strings.Contains(stdout, `"enabled": false`) || !strings.Contains(stdout, `"text": ""`) || !strings.Contains(stdout, `"agents": {}`) {
		t.Errorf("Public JSON:\n%s", stdout)
	}
}

func TestPreviewAgentJSON(t *testing.T) {
	home := previewHome(t, nil)
	code, stdout, stderr := run(t, nil, "preview", "--home", home, "--skill", "notes", "--task", "T", "--context", "C", "--format", "json",
		"--netclaw-dir", fixtureNetClaw(t), "--project", t.TempDir())
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got promptJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Agent != "code-analyst" || got.Skill != "notes" || !strings.HasPrefix(got.SystemPrompt, fixtureCoreStart) ||
		!strings.Contains(got.SystemPrompt, "\n\nYou read code.\n\n[Skill Overlay]\nExplain the release.\n\n") ||
		!strings.HasPrefix(got.FirstMessage, "Context:\nC\n\n[working-context]\n") || !strings.HasSuffix(got.FirstMessage, "\n\nTask:\nT") || got.Tokens.SystemPrompt <= 0 || got.Tokens.FirstMessage <= 0 {
		t.Errorf("got %+v", got)
	}
}

// TestPreviewEscapesControlCharacters: text output never carries a control
// character taken from a file; the JSON carries the exact text, escaped.
func TestPreviewEscapesControlCharacters(t *testing.T) {
	home := previewHome(t, map[string]string{
		"agents/evil.md": "---\nname: evil\ndescription: \"Clears \\e[2J the screen\"\n---\nBody \x1b]0;title\x07 here.\r\nlone\rcarriage\n",
	})
	code, stdout, stderr := run(t, nil, "preview", "--home", home)
	if code != 0 || strings.ContainsAny(stdout+stderr, "\x1b\x07") {
		t.Fatalf("exit %d; control characters in the output:\n%q\n%q", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "Clears \\x1b[2J the screen\n") {
		t.Errorf("the escape should be shown escaped:\n%s", stdout)
	}
	_, stdout, _ = run(t, nil, "preview", "--home", home, "--agent", "evil")
	if want := "Body \\x1b]0;title\\a here.\r\nlone\\rcarriage\n"; !strings.HasPrefix(stdout, want) {
		t.Errorf("agent body printed as %q, want it to start %q", stdout, want)
	}
	_, stdout, _ = run(t, nil, "preview", "--home", home, "--format", "json")
	if !strings.Contains(stdout, `Clears \u001b[2J the screen`) {
		t.Errorf("the JSON should carry the exact text:\n%s", stdout)
	}
}

// TestPreviewJSONIsTerminalSafe: --format json escapes what encoding/json
// leaves raw but a terminal acts on (a C1 CSI, a bidi override, DEL), and
// still decodes to the exact text.
func TestPreviewJSONIsTerminalSafe(t *testing.T) {
	home := previewHome(t, map[string]string{
		"agents/c1.md": "---\nname: c1\ndescription: \"csi \\u009b2J bidi \\u202e del \\x7f\"\n---\nBody \u009b2J \u202e \x7f.\n",
	})
	for _, args := range [][]string{
		{"preview", "--home", home, "--format", "json"},
		{"preview", "--home", home, "--agent", "c1", "--format", "json"},
	} {
		code, stdout, stderr := run(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if strings.ContainsAny(stdout, "\u009b\u202e\x7f") {
			t.Errorf("%v: raw terminal controls in the JSON:\n%q", args, stdout)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v: not JSON: %v", args, err)
		}
		text, _ := doc["text"].(string)
		if prompt, ok := doc["systemPrompt"].(string); ok {
			text = prompt
		}
		if !strings.Contains(text, "\u009b2J") || !strings.Contains(text, "\u202e") || !strings.Contains(text, "\x7f") {
			t.Errorf("%v: the decoded text lost a character: %q", args, text)
		}
	}
}

// TestPreviewOnTerminal: on a terminal a newline ends the layer.
func TestPreviewOnTerminal(t *testing.T) {
	home := previewHome(t, nil)
	out := runOnTerminal(t, nil, "preview", "--home", home)
	// The terminal turns "\n" into "\r\n"; the summary follows on stderr.
	// The summary is dimmed there.
	if !strings.Contains(out, "not a transcript.\r\n\x1b[2m[available-subagents] for Personal: ") {
		t.Errorf("on a terminal the layer should end with a newline before the summary:\n%q", out)
	}
}

// TestPreviewWithStderrOnStdout: with 2>&1 the token summary starts on a
// line of its own, not glued to the layer's last line; with two files the
// layer keeps its exact bytes and stderr starts with the summary.
func TestPreviewWithStderrOnStdout(t *testing.T) {
	home := previewHome(t, nil)
	cmd := exec.Command(binary(t), "preview", "--home", home)
	cmd.Env = []string{"HOME=" + t.TempDir()}
	var both bytes.Buffer
	cmd.Stdout, cmd.Stderr = &both, &both
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(both.String(), wantPreviewLayer+"\n[available-subagents] for Personal: ") {
		t.Errorf("2>&1:\n%s", both.String())
	}
	code, stdout, stderr := runBinary(t, nil, "preview", "--home", home)
	if code != 0 || stdout != wantPreviewLayer || !strings.HasPrefix(stderr, "[available-subagents] for Personal: ") {
		t.Errorf("two pipes: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
