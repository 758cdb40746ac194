package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/mcp/mcptest"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// mcpServerEnv makes the test binary an MCP server on its stdin and
// stdout (see TestMain): the stdio server of the tests below.
const mcpServerEnv = "AGENTDESK_TEST_MCP_SERVER"

// serveMCPIfAsked serves runner/mcp/mcptest's server on stdio and exits,
// when the test binary was started as an MCP server.
func serveMCPIfAsked() {
	if os.Getenv(mcpServerEnv) == "" {
		return
	}
	err := mcptest.Server().Run(context.Background(), &sdk.StdioTransport{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp test server:", err)
	}
	os.Exit(0)
}

// mcpEnv configures a stdio MCP server "files" (this test binary) through
// NETCLAW_ variables.
func mcpEnv(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{
		"NETCLAW_McpServers__files__Command=" + exe,
		"NETCLAW_McpServers__files__EnvironmentVariables__" + mcpServerEnv + "=serve",
	}
}

// processGone waits, bounded, until pid is gone (a zombie counts as gone:
// in a container no one may reap it).
func processGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		s := string(stat)
		zombie := strings.LastIndexByte(s, ')') > 0 && strings.HasPrefix(s[strings.LastIndexByte(s, ')'):], ") Z")
		if err != nil && err != syscall.EPERM || zombie {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived agentdesk", pid)
		}
		<-time.After(20 * time.Millisecond)
	}
}

var resultPID = regexp.MustCompile(`^tool result: ok, \d+ bytes: (\d+)$`)

// TestRunBinaryStopsMCPServersOnSignal: Ctrl-C, SIGTERM and SIGHUP end a
// run, and the MCP server it started goes with it, with every process the
// server started.
func TestRunBinaryStopsMCPServersOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			bin := binary(t)
			srv, env, _ := trialHome(t, wire.OpenAI)
			srv.Enqueue(
				modeltest.Script{Steps: []modeltest.Step{
					modeltest.ToolCall("c1", "files__pid", `{"_rationale":"which process"}`),
					modeltest.ToolCall("c2", "files__spawn", `{"_rationale":"start a child"}`),
					modeltest.Finish(modeltest.FinishTools)}},
				modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Waiting\n"), modeltest.Pause(time.Minute)}},
			)
			// The pids the server reports are the host's only unsandboxed.
			cmd := exec.Command(bin, "run", "code-analyst", "--task", "x", "--project", toolProject(t), "--approve", "mcp:files", "--no-sandbox")
			cmd.Env = append(append([]string{"PATH=" + os.Getenv("PATH")}, env...), mcpEnv(t)...)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			var pids []int
			sc := bufio.NewScanner(stderr)
			for len(pids) < 2 && sc.Scan() {
				if m := resultPID.FindStringSubmatch(sc.Text()); m != nil {
					pid, _ := strconv.Atoi(m[1])
					pids = append(pids, pid)
				}
			}
			if len(pids) != 2 {
				t.Fatalf("no pids from the MCP server's tools (stderr ended: %v)", sc.Err())
			}
			go func() {
				for sc.Scan() {
				}
			}()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 1 {
				t.Errorf("exit %d, want 1 (a cancelled run)", code)
			}
			for _, pid := range pids {
				processGone(t, pid)
			}
		})
	}
}

func TestToolsListsLiveMCPTools(t *testing.T) {
	home := hometest.New(t, map[string]string{
		"agents/code-analyst.md": "---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n",
		"config/netclaw.json":    `{"McpServers": {"gone": {"Command": "agentdesk-no-such-mcp-program"}}}`,
	})
	// The test server's environment value ("serve") is a secret, masked
	// wherever it appears: the missing command's name does not hold it.
	env := append([]string{"NETCLAW_HOME=" + home}, mcpEnv(t)...)

	code, stdout, stderr := runTrialCmd(t, env, "", "tools", "code-analyst")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"files__echo", "files__crash",
		"MCP servers (started for this listing, then stopped; every call needs approval: --approve mcp:SERVER):\n",
		"  files (stdio): 14 tools\n",
		"  gone (stdio): failed to start: command \"agentdesk-no-such-mcp-program\" is not found on PATH",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// The failed server is told once: on its line, not again in a note.
	if n := strings.Count(stdout, "agentdesk-no-such-mcp-program"); n != 1 {
		t.Errorf("the failed server is told %d times, want once:\n%s", n, stdout)
	}
	if !regexp.MustCompile(`files__echo +mcp +deferred`).MatchString(stdout) {
		t.Errorf("files__echo is not listed as a deferred mcp tool:\n%s", stdout)
	}

	code, stdout, _ = runTrialCmd(t, env, "", "tools", "--format", "json")
	var doc struct {
		Tools []struct {
			Name, Server, Canonical string
			Parameters              json.RawMessage
		}
		MCPServers struct {
			Servers []struct {
				Name, State string
				Tools       []string
			}
			Notes []string
		} `json:"mcp_servers"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	found := false
	for _, tl := range doc.Tools {
		if tl.Name == "files__echo" {
			found = tl.Server == "files" && tl.Canonical == "files/echo" && strings.Contains(string(tl.Parameters), `"_rationale"`)
		}
	}
	if !found {
		t.Error("json: files__echo is not among the tools, with its server, canonical name and meta properties")
	}
	if ss := doc.MCPServers.Servers; len(ss) != 2 || ss[0].Name != "files" || ss[0].State != "started" || len(ss[0].Tools) != 14 || ss[1].Name != "gone" || ss[1].State != "failed" {
		t.Errorf("json mcp_servers: %+v", ss)
	}
	if len(doc.MCPServers.Notes) != 0 {
		t.Errorf("json notes repeat the failed server: %q", doc.MCPServers.Notes)
	}

	// Team may use no MCP server by default: none is started.
	code, stdout, _ = runTrialCmd(t, env, "", "tools", "--audience", "team")
	if code != 0 || strings.Contains(stdout, "files__echo") || !strings.Contains(stdout, "  files (stdio): not started: the Team audience may not use it") {
		t.Errorf("team: exit %d\n%s", code, stdout)
	}
	// --no-mcp starts nothing.
	_, stdout, _ = runTrialCmd(t, env, "", "tools", "--no-mcp")
	if strings.Contains(stdout, "MCP servers") || strings.Contains(stdout, "files__") {
		t.Errorf("--no-mcp:\n%s", stdout)
	}
}

// A headless run says on stderr what went wrong with an MCP server.
func TestRunPrintsMCPNotes(t *testing.T) {
	srv, env, _ := trialHome(t, wire.OpenAI)
	env = append(env, "NETCLAW_McpServers__gone__Command=agentdesk-no-such-mcp-server")
	srv.Enqueue(modeltest.Reply("Nothing to do."))
	code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--project", toolProject(t))
	if code != 0 || !strings.Contains(stderr, "mcp: MCP server 'gone' did not start, so its tools are not offered: command \"agentdesk-no-such-mcp-server\" is not found on PATH") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// run and test say which MCP servers they are starting, --no-mcp starts
// none, and --mcp-timeout must be positive.
func TestRunAndTestMCPFlags(t *testing.T) {
	srv, env, _ := trialHome(t, wire.OpenAI)
	env = append(env, mcpEnv(t)...)
	project := toolProject(t)
	srv.Enqueue(modeltest.Reply("done"), modeltest.Reply("done"))
	code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--project", project)
	if code != 0 || !strings.Contains(stderr, "agentdesk: starting MCP server files (each gets up to 1m0s: --mcp-timeout changes it, --no-mcp skips them)\n") {
		t.Errorf("run: exit %d, no progress line for the MCP server:\n%s", code, stderr)
	}
	code, _, stderr = runTrialCmd(t, env, "", "run", "code-analyst", "--task", "x", "--project", project, "--no-mcp")
	if code != 0 || strings.Contains(stderr, "MCP server") {
		t.Errorf("run --no-mcp: exit %d, a server started:\n%s", code, stderr)
	}
	if last := srv.Requests(); len(last) == 0 || strings.Contains(string(last[len(last)-1].Body), "files__echo") || strings.Contains(string(last[len(last)-1].Body), "MCP capability servers") {
		t.Errorf("run --no-mcp: the request offers the MCP server's tools")
	}
	for _, args := range [][]string{{"run", "code-analyst", "--task", "x", "--mcp-timeout", "0"}, {"test", "--mcp-timeout", "-1s"}} {
		if code, _, stderr := runTrialCmd(t, env, "", args...); code != 2 || !strings.Contains(stderr, "--mcp-timeout is") {
			t.Errorf("%q: exit %d, want 2:\n%s", args, code, stderr)
		}
	}
}

// preview --spawn starts the configured MCP servers, as tools does, and
// shows the request with their index section and tools; --no-mcp lists
// them and says what is left out, with an estimate.
func TestPreviewSpawnShowsMCPPart(t *testing.T) {
	_, env, _ := trialHome(t, wire.OpenAI)
	env = append(env, mcpEnv(t)...)
	project := toolProject(t)
	code, stdout, stderr := runTrialCmd(t, env, "", "preview", "--spawn", "code-analyst", "--project", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`\[MCP capability servers - discover tools with search_tools\]`, `files \(\d+ tools\): `, `files__echo \(deferred\): `, `  files \(stdio\): \d+ tools`} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("preview --spawn lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runTrialCmd(t, env, "", "preview", "--spawn", "code-analyst", "--project", project, "--no-mcp")
	if code != 0 {
		t.Fatalf("--no-mcp: exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "files__echo") || strings.Contains(stdout, "[MCP capability servers") {
		t.Errorf("--no-mcp shows the MCP tools:\n%s", stdout)
	}
	if !regexp.MustCompile(`MCP servers not started \(--no-mcp\): files\. Their index section and server__tool tools are not shown: at least \d+ tokens more`).MatchString(stdout) {
		t.Errorf("--no-mcp does not say what is left out:\n%s", stdout)
	}
}

// preview --spawn says where it looked for the parts a spawn may carry
// and this one does not: the deployment playbook and the project's
// instructions; and --netclaw-dir takes the binary itself.
func TestPreviewSpawnSaysWhereItLooked(t *testing.T) {
	_, env, _ := trialHome(t, wire.OpenAI)
	project := t.TempDir()
	code, stdout, stderr := runTrialCmd(t, env, "", "preview", "--spawn", "code-analyst", "--project", project, "--no-mcp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"No deployment-playbook: looked for ",
		filepath.Join("identity", "AGENTS.md"),
		"No project-instructions: looked for .netclaw/AGENTS.md, CLAUDE.md, AGENTS.md and CONTEXT.md in " + project,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("preview --spawn lacks %q:\n%s", want, stdout)
		}
	}
	bin := filepath.Join(fixtureNetClaw(t), "netclawd")
	if _, err := os.Stat(bin); err == nil {
		code, stdout, stderr = runTrialCmd(t, env, "", "preview", "--spawn", "code-analyst", "--project", project, "--no-mcp", "--netclaw-dir", bin)
		if code != 0 || !strings.Contains(stdout, "Operating core: "+filepath.Join(fixtureNetClaw(t), "Netclaw.Configuration.dll")) {
			t.Errorf("--netclaw-dir the binary: exit %d\n%s\n%s", code, stdout, stderr)
		}
	}
}
