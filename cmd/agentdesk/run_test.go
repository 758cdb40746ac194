package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// trialKey is the planted API key of the trial home: it must reach the
// model server and never stdout, stderr or the run folder.
const trialKey = "sk-trial-planted-key-000111222333"

// trialHome is a NETCLAW_HOME whose netclaw.json points at a modeltest
// server in protocol p; it returns the server and the environment to run
// agentdesk with.
func trialHome(t *testing.T, p wire.Protocol) (*modeltest.Server, []string, string) {
	t.Helper()
	h := trialtest.New(t, trialtest.Model{Protocol: p, Provider: "test", Name: "m", ID: "trial-model", Key: trialKey}, map[string]string{
		"agents/code-analyst.md": "---\nname: code-analyst\ndescription: Reads code.\nmodelRole: Main\n---\nYou read code.\n",
		"agents/broken.md":       "---\nname: broken\nmodelRole: Boss\n---\nNo description.\n",
		"agents/unbound.md":      "---\nname: unbound\ndescription: Tools the Claude Code way.\ntools: Read, Grep\n---\nYou do things.\n",
		"skills/notes/SKILL.md":  "---\nname: notes\ndescription: The notes skill.\nmetadata:\n  subagent: code-analyst\n---\nWrite release notes.\n",
		"skills/plain/SKILL.md":  "---\nname: plain\ndescription: The plain skill.\n---\nNo routing.\n",
	})
	runs := filepath.Join(t.TempDir(), "runs")
	env := []string{"NETCLAW_HOME=" + h.Base, "XDG_STATE_HOME=" + filepath.Dir(runs), "HOME=" + t.TempDir(), "AGENTDESK_NETCLAW_DIR=" + fixtureNetClaw(t)}
	return h.Server, env, filepath.Join(filepath.Dir(runs), "agentdesk", "runs")
}

// fixtureNetClaw is the folder of the test NetClaw build (agentdesk's own
// text standing in for the operating core), absolute.
func fixtureNetClaw(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "netclaw", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixtureCoreStart is how the fixture's operating core begins.
const fixtureCoreStart = "# Fixture operating core (agentdesk test text)"

// runIDPattern finds run ids in text.
var runIDPattern = regexp.MustCompile(`[0-9a-f]{32}`)

// runTrialCmd runs agentdesk in-process with stdin.
func runTrialCmd(t *testing.T, environ []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := execute(args, strings.NewReader(stdin), &out, &errOut, environ)
	return code, out.String(), errOut.String()
}

// noKeyAnywhere fails when the planted key is in the text or any file
// under dir.
func noKeyAnywhere(t *testing.T, dir string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, trialKey) {
			t.Errorf("printed output holds the key:\n%s", s)
		}
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(trialKey)) {
				t.Errorf("%s holds the key", path)
			}
		}
		return nil
	})
}

func TestRunCommandOnEveryProtocol(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			srv, env, runs := trialHome(t, p)
			srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{
				modeltest.Thinking("Looking at it. "),
				modeltest.Text("main.go "), modeltest.Text("starts the \x1b[2Jserver; key "), modeltest.Text(trialKey[:8]), modeltest.Text(trialKey[8:] + ".\n"),
				modeltest.Stop(),
			}})
			code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Explain main.go", "--context", "Go module")
			if code != 0 {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
			}
			if stdout != "main.go starts the \\x1b[2Jserver; key [REDACTED].\n" {
				t.Errorf("stdout %q", stdout)
			}
			if !strings.Contains(stderr, "Looking at it.") || !strings.Contains(stderr, "state: Completed  outcome: Completed  reason: none  run: "+runs) {
				t.Errorf("stderr %q", stderr)
			}
			if strings.Contains(stderr, "\x1b[2m") {
				t.Error("thinking dimmed without colour")
			}
			req := srv.Requests()[0]
			if !strings.HasPrefix(req.System, fixtureCoreStart) || !strings.Contains(req.System, "\n\nYou read code.\n\n") || !strings.HasSuffix(req.System, request.ContractLastSentence) ||
				!strings.HasPrefix(req.FirstUser(), "Context:\nGo module\n\n[working-context]\nshell:\n") || !strings.HasSuffix(req.FirstUser(), "\n\nTask:\nExplain main.go") ||
				req.APIKey != trialKey || req.Model != "trial-model" {
				t.Errorf("the server got system %q\nmessage %q", req.System, req.FirstUser())
			}
			noKeyAnywhere(t, runs, stdout, stderr)
			list, _ := runfolder.ListRuns(runs, runfolder.Filter{})
			if len(list) != 1 || list[0].Outcome != vocab.Completed {
				t.Fatalf("runs %+v", list)
			}
		})
	}
}

func TestRunCommandOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		script modeltest.Script
		args   []string
		code   int
		reason string
		errHas string
	}{
		{"truncated", modeltest.Script{Steps: []modeltest.Step{modeltest.Text("cut "), modeltest.Length()}}, nil, 1, "output_truncated", "truncated-output.md"},
		{"no activity", modeltest.Script{Steps: []modeltest.Step{modeltest.Text("a "), modeltest.Pause(time.Minute)}}, []string{"--inter-delta-timeout", "200ms"}, 1, "no_activity_timeout", "silent"},
		{"prefill", modeltest.Script{Steps: []modeltest.Step{modeltest.Pause(time.Minute)}}, []string{"--prefill-timeout", "200ms"}, 1, "no_activity_timeout", "Subagent timed out: no activity for 0s."},
		{"no progress", modeltest.Script{Steps: append([]modeltest.Step{modeltest.Text("a ")}, repeatStep(2000, modeltest.Keepalive())...), Gap: 10 * time.Millisecond}, []string{"--no-progress-timeout", "200ms"}, 1, "no_substantive_output_timeout", "no-progress"},
		{"http error", modeltest.Script{Status: 401, ErrorMessage: "bad key " + trialKey}, nil, 1, "llm_call_failed", "HTTP 401"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, env, runs := trialHome(t, wire.OpenAI)
			srv.Enqueue(tt.script)
			args := append([]string{"run", "code-analyst", "--task", "x"}, tt.args...)
			code, stdout, stderr := runTrialCmd(t, env, "", args...)
			if code != tt.code || !strings.Contains(stderr, "reason: "+tt.reason) || !strings.Contains(stderr, tt.errHas) {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			noKeyAnywhere(t, runs, stdout, stderr)
		})
	}
}

func repeatStep(n int, s modeltest.Step) []modeltest.Step {
	out := make([]modeltest.Step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestRunCommandJSONAndStdin(t *testing.T) {
	srv, env, runs := trialHome(t, wire.Anthropic)
	srv.Enqueue(modeltest.Reply("Release notes drafted."))
	code, stdout, stderr := runTrialCmd(t, env, "Draft the notes\n", "run", "code-analyst", "--task", "-", "--skill", "notes", "--json", "--runs-dir", runs+"-custom")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec runfolder.Record
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatalf("stdout is not run.json: %v\n%s", err, stdout)
	}
	if rec.Outcome != vocab.Completed || rec.Task != "Draft the notes" || rec.Skill != "notes" || rec.Output != "Release notes drafted." {
		t.Errorf("record %+v", rec)
	}
	disk, err := os.ReadFile(filepath.Join(runs+"-custom", rec.RunID, runfolder.RunFile))
	if err != nil || string(disk) != stdout {
		t.Errorf("stdout is not the run.json on disk (%v)", err)
	}
	if !strings.Contains(stderr, "Release notes drafted.") {
		t.Errorf("with --json the reply streams to stderr: %q", stderr)
	}
	if got := srv.Requests()[0].System; !strings.Contains(got, "You read code.\n\n[Skill Overlay]\nWrite release notes.\n\n") || !strings.HasSuffix(got, request.ContractLastSentence) {
		t.Errorf("system prompt %q", got)
	}
}

func TestRunCommandRefusals(t *testing.T) {
	_, env, runs := trialHome(t, wire.OpenAI)
	tests := []struct {
		name string
		args []string
		code int
		has  []string
	}{
		{"no task", []string{"run", "code-analyst"}, 2, []string{"--task is required"}},
		{"empty task", []string{"run", "code-analyst", "--task", "  "}, 2, []string{"the task is empty"}},
		{"no agent", []string{"run", "--task", "x"}, 2, []string{"give the agent to run"}},
		{"two agents", []string{"run", "a", "b", "--task", "x"}, 2, []string{"accepts at most 1 arg"}},
		{"project and no tools", []string{"run", "code-analyst", "--task", "x", "--project", ".", "--no-tools"}, 2, []string{"--project", "--no-tools"}},
		{"project not a folder", []string{"run", "code-analyst", "--task", "x", "--project", "/nonexistent/folder"}, 2, []string{"--project /nonexistent/folder is not a folder"}},
		{"record a replay", []string{"run", "--replay", "x.cassette", "--record"}, 2, []string{"--record makes a cassette"}},
		{"replay with a project", []string{"run", "--replay", "x.cassette", "--project", "."}, 2, []string{"recorded tool results"}},
		{"replay of nothing", []string{"run", "--replay", ""}, 2, []string{"--replay needs the path"}},
		{"missing cassette", []string{"run", "--replay", "/nonexistent/stream.cassette"}, 1, []string{"no cassette at /nonexistent/stream.cassette: record one with agentdesk run --record (it leaves stream.cassette in the run folder)\n"}},
		{"fast without a replay", []string{"run", "code-analyst", "--task", "x", "--fast"}, 1, []string{"fast plays a replay"}},
		{"bad duration", []string{"run", "code-analyst", "--task", "x", "--prefill-timeout", "soon"}, 2, []string{"invalid argument"}},
		{"zero duration", []string{"run", "code-analyst", "--task", "x", "--no-progress-timeout", "0s"}, 2, []string{"positive duration"}},
		{"bad role", []string{"run", "code-analyst", "--task", "x", "--model-role", "Boss"}, 2, []string{"not Main, Compaction or Fallback"}},
		{"both from stdin", []string{"run", "code-analyst", "--task", "-", "--context", "-"}, 2, []string{"both read stdin"}},
		{"unknown agent", []string{"run", "code-analyts", "--task", "x"}, 1, []string{"no agent named 'code-analyts'", "did you mean 'code-analyst'"}},
		{"rejected agent", []string{"run", "broken", "--task", "x"}, 1, []string{"broken.md", "[description-missing]", "is not loaded"}},
		{"rejected agent that does not bind", []string{"run", "unbound", "--task", "x"}, 1, []string{"agent 'unbound' is not loaded: ", "agents/unbound.md:4:8: 'tools' must be a YAML list"}},
		{"unknown skill", []string{"run", "code-analyst", "--task", "x", "--skill", "note"}, 1, []string{"no skill named 'note'"}},
		{"skill that does not route", []string{"run", "code-analyst", "--task", "x", "--skill", "plain"}, 1, []string{"does not route"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTrialCmd(t, env, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			for _, h := range tt.has {
				if !strings.Contains(stderr, h) {
					t.Errorf("stderr %q lacks %q", stderr, h)
				}
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("refused runs left %d folders", len(entries))
	}
}

func TestRunCommandRefusesGitHubCopilot(t *testing.T) {
	home := hometest.New(t, map[string]string{
		"agents/a.md":         "---\nname: a\ndescription: d\n---\nBody.\n",
		"config/netclaw.json": `{"Models": {"Main": {"Provider": "gh", "ModelId": "gpt-4o"}}, "Providers": {"gh": {"Type": "github-copilot"}}}`,
	})
	code, _, stderr := runTrialCmd(t, []string{"NETCLAW_HOME=" + home, "XDG_STATE_HOME=" + t.TempDir()}, "", "run", "a", "--task", "x")
	if code != 1 || !strings.Contains(stderr, "github-copilot is not supported") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestRunCommandColour(t *testing.T) {
	srv, env, _ := trialHome(t, wire.Ollama)
	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Thinking("hmm "), modeltest.Text("Done."), modeltest.Stop()}})
	code, stdout, stderr := runTrialCmd(t, env, "", "--color", "always", "run", "code-analyst", "--task", "x")
	if code != 0 || stdout != "Done.\n" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, styleDim+"hmm "+styleReset) || !strings.Contains(stderr, styleGreen+"Completed"+styleReset) {
		t.Errorf("stderr %q", stderr)
	}
}

// TestRunCommandLines checks that thinking, reply and tool lines never run
// into each other, also when they share stderr (--json), and that no line
// break is doubled.
func TestRunCommandLines(t *testing.T) {
	script := modeltest.Script{Steps: []modeltest.Step{
		modeltest.Thinking("Plan "), modeltest.Thinking("first."), modeltest.Text("The answer "), modeltest.Text("is 42."), modeltest.Stop(),
	}}
	tests := []struct {
		name           string
		args           []string
		stdout, stderr string // stderr: up to the outcome line
	}{
		{"reply on stdout", nil, "The answer is 42.\n", "Plan first.\n"},
		{"reply on stderr with --json", []string{"--json"}, "", "Plan first.\nThe answer is 42.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, env, _ := trialHome(t, wire.OpenAI)
			srv.Enqueue(script)
			code, stdout, stderr := runTrialCmd(t, env, "", append([]string{"run", "code-analyst", "--task", "x", "--no-tools"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout %q, want %q", stdout, tt.stdout)
			}
			before, _, _ := strings.Cut(stderr, "state: ")
			// What the parent receives comes last before the outcome
			// (parent_test.go checks it).
			before, parent, _ := strings.Cut(before, "what the parent receives:\n")
			if before != tt.stderr || !strings.HasPrefix(parent, "  spawn_agent returns at once: ") {
				t.Errorf("stderr before the outcome %q, want %q", before, tt.stderr)
			}
		})
	}
}

// TestRunBinaryCancelledBySignal runs the built binary and sends it Ctrl-C
// (SIGINT), a SIGTERM from a supervisor, or the SIGHUP of a closed
// terminal, mid-stream: the run ends cancelled_by_parent, exit 1, and its
// record says Cancelled.
func TestRunBinaryCancelledBySignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) { runBinaryCancelledBy(t, sig) })
	}
}

func runBinaryCancelledBy(t *testing.T, sig syscall.Signal) {
	bin := binary(t)
	srv, env, runs := trialHome(t, wire.OpenAI)
	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Working "), modeltest.Text("on it\n"), modeltest.Pause(time.Minute)}})
	cmd := exec.Command(bin, "run", "code-analyst", "--task", "x")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "Working on it\n" {
		t.Fatalf("first line %q: %v", line, err)
	}
	cmd.Process.Signal(sig)
	err = cmd.Wait()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), "state: Cancelled  outcome: Failed  reason: cancelled_by_parent  run: ") {
		t.Errorf("exit %d (%v), stderr %q", cmd.ProcessState.ExitCode(), err, stderr.String())
	}
	list, _ := runfolder.ListRuns(runs, runfolder.Filter{})
	if len(list) != 1 || list[0].State != vocab.StateCancelled {
		t.Errorf("runs %+v", list)
	}
}

// toolProject is a project folder with a README.
func toolProject(t *testing.T) string {
	t.Helper()
	return hometest.New(t, map[string]string{"README.md": "Port 8080.\n"})
}

func TestRunCommandToolLoop(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			srv, env, runs := trialHome(t, p)
			srv.Enqueue(
				modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Reading."), modeltest.ToolCall("c1", "file_read", `{"path":"README.md", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools)}},
				modeltest.Reply("It uses port 8080."),
			)
			code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Which port?", "--project", toolProject(t), "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, s := range []string{"Reading.\n", "tool call: file_read {", "tool result: ok, 11 bytes: Port 8080.", "It uses port 8080."} {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			var rec runfolder.Record
			if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Output != "It uses port 8080." || rec.Counts.ModelCalls != 2 || rec.Counts.ToolResults != 1 || len(rec.Tools) != len(runner.TrialToolSpecs("")) {
				t.Errorf("record %+v", rec)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || len(reqs[0].Tools) != len(runner.TrialToolSpecs("")) || !strings.Contains(reqs[1].Messages[2].Text, "Port 8080.") {
				t.Errorf("requests %+v", reqs)
			}
			noKeyAnywhere(t, runs, stdout, stderr)
		})
	}
}

func TestRunCommandToolsDefaultToTheWorkingDirectory(t *testing.T) {
	srv, env, _ := trialHome(t, wire.OpenAI)
	srv.Enqueue(modeltest.Reply("ok"), modeltest.Reply("ok"))
	dir := toolProject(t)
	t.Chdir(dir)
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--no-tools"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	reqs := srv.Requests()
	if len(reqs[0].Tools) != len(runner.TrialToolSpecs("")) || len(reqs[1].Tools) != 0 || strings.Contains(string(reqs[1].Body), `"tools"`) {
		t.Errorf("tools offered: %v then %v", reqs[0].Tools, reqs[1].Tools)
	}
	// The prompt says what is on the wire: the tool index and the
	// set_working_directory line with the tools, neither with --no-tools.
	for i, withTools := range []bool{true, false} {
		sys := reqs[i].System
		if got := strings.Contains(sys, "[directly callable core tools]"); got != withTools {
			t.Errorf("request %d: tool index in the system prompt %v, want %v", i, got, withTools)
		}
		if got := strings.Contains(sys, "set_working_directory"); got != withTools {
			t.Errorf("request %d: set_working_directory in the system prompt %v, want %v", i, got, withTools)
		}
	}
	if !strings.HasSuffix(reqs[1].System, "You read code.\n\n"+request.ExecutionContract(false)) {
		t.Errorf("--no-tools system prompt:\n%s", reqs[1].System)
	}
}

func TestRunCommandRecordAndReplay(t *testing.T) {
	srv, env, runs := trialHome(t, wire.Anthropic)
	srv.Enqueue(
		modeltest.Script{Steps: []modeltest.Step{modeltest.Thinking("Look first. "), modeltest.ToolCall("c1", "file_read", `{"path":"README.md", "_rationale": "look"}`), modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Port 8080, key " + trialKey + ", and the answer runs "), modeltest.Length()}},
	)
	project := toolProject(t)
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Which port?", "--project", project, "--record")
	if code != 1 || !strings.Contains(stderr, "reason: output_truncated") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	list, _ := runfolder.ListRuns(runs, runfolder.Filter{})
	if len(list) != 1 {
		t.Fatalf("runs %+v", list)
	}
	orig := list[0]
	tape := filepath.Join(orig.Dir, runfolder.StreamFile)
	if !strings.Contains(stderr, "recorded: "+tape) {
		t.Errorf("stderr does not name the cassette: %s", stderr)
	}
	noKeyAnywhere(t, runs, stdout, stderr)

	// No model, no project folder: the cassette has it all.
	srv.Close()
	os.RemoveAll(project)
	for _, args := range [][]string{
		{"run", "--replay", tape, "--fast", "--json"},
		{"run", "code-analyst", "--replay", tape, "--json"},
	} {
		code, stdout, stderr := runTrialCmd(t, env, "", args...)
		if code != 1 || !strings.Contains(stderr, "reason: output_truncated") || !strings.Contains(stderr, "replayed a run recorded ") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
		if !strings.Contains(stderr, "tool result: ok (recorded), 11 bytes: Port 8080.") {
			t.Errorf("%v: stderr %s", args, stderr)
		}
		var rec runfolder.Record
		if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Output != orig.Output || rec.Task != "Which port?" || rec.Agent != "code-analyst" || rec.Replay == nil || rec.Replay.RecordedRun != orig.RunID {
			t.Errorf("%v: replay %+v", args, rec)
		}
		if ids := slices.Compact(runIDPattern.FindAllString(stderr, -1)); len(ids) != 1 || ids[0] != rec.RunID {
			t.Errorf("%v: stderr names the run ids %v, want only the replay's %s", args, ids, rec.RunID)
		}
		if rec.Replay.Fast != (args[1] == "--replay") {
			t.Errorf("%v: fast %t", args, rec.Replay.Fast)
		}
		noKeyAnywhere(t, runs, stdout, stderr)
	}
	_, stdout, _ = runTrialCmd(t, env, "", "runs")
	if strings.Count(stdout, "code-analyst (replay)") != 2 || strings.Count(stdout, "code-analyst") != 3 {
		t.Errorf("runs list:\n%s", stdout)
	}
}

// TestRunRejectedAgentWithControlCharacters: an agent whose name carries an
// escape sequence and whose file is rejected is reported as rejected, with
// its reason, not as unknown (the name used to be escaped before matching).
func TestRunRejectedAgentWithControlCharacters(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/evil.md": "---\nname: \"evil\\e[31m\"\n---\n\nbody\n"})
	code, _, stderr := run(t, []string{"NETCLAW_HOME=" + home}, "run", "evil\x1b[31m", "--task", "x", "--no-tools")
	if code != 1 || !strings.Contains(stderr, "is not loaded") || !strings.Contains(stderr, "[description-missing]") || strings.Contains(stderr, "\x1b") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestRunWithAgentsAndNoHome: with --agents, a missing home is fine; the
// run says it read no netclaw.json, takes its model from the NETCLAW_
// environment, and a skill says it needs the home.
func TestRunWithAgentsAndNoHome(t *testing.T) {
	srv, env, _ := trialHome(t, wire.OpenAI)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	missing := filepath.Join(t.TempDir(), "nowhere")
	env = append(env[1:],
		"NETCLAW_Models__Roles__Main=m", "NETCLAW_Models__Definitions__m__Provider=test", "NETCLAW_Models__Definitions__m__ModelId=env-model",
		"NETCLAW_Providers__test__Type=openai-compatible", "NETCLAW_Providers__test__Endpoint="+srv.Endpoint(wire.OpenAI))
	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("done"), modeltest.Stop()}})
	agents := filepath.Join(home, "agents")
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--home", missing, "--agents", agents, "--task", "x", "--no-tools")
	if code != 0 || stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if want := "agentdesk: note: the NetClaw home " + missing + " does not exist (only --agents " + agents + " was read), so there is no netclaw.json or secrets.json: pass --home DIR"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	if req := srv.Requests()[0]; req.Model != "env-model" {
		t.Errorf("model %q, want the environment's", req.Model)
	}
	code, _, stderr = runTrialCmd(t, env, "", "run", "code-analyst", "--home", missing, "--agents", agents, "--task", "x", "--skill", "notes")
	if code != 1 || !strings.Contains(stderr, "no skill named 'notes': the NetClaw home "+missing+" does not exist") {
		t.Errorf("a skill without a home: exit %d, stderr %q", code, stderr)
	}
}

// TestRunModelWithoutTools: a model that refuses tools (Ollama answers 400
// "does not support tools") fails llm_call_failed with the hint to run
// again with --no-tools, which then works.
func TestRunModelWithoutTools(t *testing.T) {
	srv, env, _ := trialHome(t, wire.Ollama)
	srv.Enqueue(modeltest.Script{Status: 400, ErrorMessage: "registry.ollama.ai/library/gemma3:1b does not support tools"},
		modeltest.Reply("Without tools."))
	code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x")
	if code != 1 || !strings.Contains(stderr, "reason: llm_call_failed") || !strings.Contains(stderr, "does not support tools; this model does not take tools: run again with --no-tools") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--no-tools")
	if code != 0 || stdout != "Without tools.\n" {
		t.Errorf("--no-tools: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestRunReplaysTheDemo: with nothing installed (no home, no model),
// run --replay demo: lists the demo's recordings and demo:NAME plays one.
func TestRunReplaysTheDemo(t *testing.T) {
	state := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "XDG_STATE_HOME=" + state}
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "--replay", "demo:")
	if code != 0 || !strings.Contains(stdout, "demo:completed-with-tool\t") || !strings.Contains(stdout, "demo:output-truncated\tFailed, output_truncated\n") ||
		!strings.Contains(stdout, "demo:fix-an-issue\t") || stderr != "" {
		t.Fatalf("list: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		name, _, _ := strings.Cut(line, "\t")
		code, _, stderr := runTrialCmd(t, env, "", "run", "--replay", name, "--fast")
		want := "state: Completed"
		if !strings.Contains(line, "Completed") {
			want = "state: Failed"
		}
		if !strings.Contains(stderr, want) || !strings.Contains(stderr, "replayed a run recorded ") || (code == 0) != (want == "state: Completed") {
			t.Errorf("%s: exit %d, stderr %q", name, code, stderr)
		}
		// The fixer's recording shows an MCP call, a shell command and
		// the change it made, with its changes.patch; the parent receives
		// that change, in the recorded project, as the recorded run's did.
		if name == "demo:fix-an-issue" && (!strings.Contains(stderr, "tool call: tracker__get_issue") || !strings.Contains(stderr, "tool call: shell_execute") ||
			!strings.Contains(stderr, "the recorded run changed 1 file in its copy (project untouched): git apply ") ||
			!strings.Contains(stderr, "files changed (file_write, file_edit): /home/you/demo-project/watch.md\n") ||
			!strings.Contains(stderr, `"ConfirmedChangedFiles":["/home/you/demo-project/watch.md"]`)) {
			t.Errorf("%s: stderr %q", name, stderr)
		}
	}
	list, _ := runfolder.ListRuns(filepath.Join(state, "agentdesk", "runs"), runfolder.Filter{})
	if len(list) != 4 || list[0].Replay == nil || !strings.HasPrefix(list[0].Replay.Cassette, "demo:") {
		t.Errorf("runs %+v", list)
	}
	code, _, stderr = runTrialCmd(t, env, "", "run", "--replay", "demo:nope")
	if code != 2 || !strings.Contains(stderr, "demo:nope is not one of the demo's recordings: run 'agentdesk run --replay demo:' to list them") {
		t.Errorf("unknown recording: exit %d, stderr %q", code, stderr)
	}
}

// TestRunUndefinedModelRoleUsesMain: `modelRole: 42` loads (with an
// enum-loose warning), and the runtime's chat-client providers map a role
// that is neither Fallback nor Compaction to the Main model; run does the
// same instead of refusing the agent.
func TestRunUndefinedModelRoleUsesMain(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
	files := map[string]string{
		"agents/fortytwo.md": "---\nname: fortytwo\ndescription: Answers.\nmodelRole: 42\n---\nSay 42.\n",
		"config/netclaw.json": fmt.Sprintf(`{
  "Models": {"Roles": {"Main": "m", "Compaction": "c"}, "Definitions": {"m": {"Provider": "test", "ModelId": "main-model"}, "c": {"Provider": "test", "ModelId": "compaction-model"}}},
  "Providers": {"test": {"Type": "openai-compatible", "Endpoint": %q}}
}`, srv.Endpoint(wire.OpenAI)),
	}
	hometest.Write(t, home, files)
	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("42"), modeltest.Stop()}})
	code, stdout, stderr := runTrialCmd(t, env, "", "run", "fortytwo", "--task", "x", "--no-tools")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model != "main-model" {
		t.Fatalf("the server got %+v, want one request for main-model", reqs)
	}
	list, _ := runfolder.ListRuns(runs, runfolder.Filter{})
	if len(list) != 1 {
		t.Fatalf("runs %+v", list)
	}
	data, err := os.ReadFile(filepath.Join(list[0].Dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"role": "Main"`) || !strings.Contains(string(data), "modelRole 42 is not a role: the runtime uses Main") {
		t.Errorf("run.json does not record Main and why:\n%s", data)
	}
}

// Without a NetClaw install the trial runs, and stderr and result.md say
// the operating rules were missing; a --netclaw-dir that holds no install
// is refused.
func TestRunCommandWithoutNetClaw(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	env = append(env, "AGENTDESK_NETCLAW_DIR=")
	srv.Enqueue(modeltest.Reply("ok"))
	code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--no-tools")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "the operating rules (NetClaw's embedded core) are missing") || strings.Count(stderr, "--netclaw-dir") != 1 {
		t.Errorf("stderr does not say the core is missing, naming --netclaw-dir once: %q", stderr)
	}
	list, _ := runfolder.ListRuns(runs, runfolder.Filter{})
	if len(list) != 1 {
		t.Fatalf("%d runs", len(list))
	}
	b, _ := os.ReadFile(filepath.Join(list[0].Dir, runfolder.ResultFile))
	if !strings.Contains(string(b), "Warning: the request lacked the operating rules") {
		t.Errorf("result.md:\n%s", b)
	}
	if sys := srv.Requests()[0].System; !strings.HasPrefix(sys, "You read code.\n\n") || !strings.HasSuffix(sys, request.ContractLastSentence) {
		t.Errorf("system %q", sys)
	}
	empty := t.TempDir()
	code, _, stderr = runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--no-tools", "--netclaw-dir", empty)
	if code != 2 || !strings.Contains(stderr, "--netclaw-dir "+empty) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestRunTMPDIRInsideProject: the run's overlay folder is made in TMPDIR,
// so a project holding TMPDIR is refused, and the words say so.
func TestRunTMPDIRInsideProject(t *testing.T) {
	_, env, _ := trialHome(t, wire.OpenAI)
	project := toolProject(t)
	tmp := filepath.Join(project, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--project", project)
	want := " lies inside the project " + project + ": the trial would change the project; set TMPDIR to a folder outside the project, or pick another --project\n"
	if code == 0 || !strings.Contains(stderr, "the overlay folder "+tmp+string(filepath.Separator)) || !strings.Contains(stderr, want) {
		t.Errorf("exit %d\n%s\nwant %s", code, stderr, want)
	}
}
