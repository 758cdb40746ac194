//go:build linux

package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/mcp/mcptest"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// stdioServerEnv makes the test binary the stdio MCP server of these
// tests (mcptest.Server, built on the Go SDK) instead of testing.
const stdioServerEnv = "AGENTDESK_RUNNER_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioServerEnv) != "" {
		if err := mcptest.Server().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func needSandbox(t testing.TB) {
	t.Helper()
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("this kernel cannot sandbox: %s", r.Unavailable)
	}
}

// withStdioMCP points the fixture's configuration at the stdio server
// "fs": this test binary, serving.
func withStdioMCP(t *testing.T, f *fixture) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers, _ := json.Marshal(map[string]any{"fs": map[string]any{"Command": exe, "EnvironmentVariables": map[string]string{stdioServerEnv: "1"}}})
	f.h.WriteConfig(t, `"McpServers": `+string(servers))
	f.cat = f.h.Scan(t)
}

// TestStdioMCPWriteLandsInChangesPatch: a stdio MCP server that writes
// through the project's absolute path writes the run's copy: the write is
// in changes.patch, and the project is unchanged.
func TestStdioMCPWriteLandsInChangesPatch(t *testing.T) {
	needSandbox(t)
	f := newFixture(t, wire.OpenAI)
	withStdioMCP(t, f)
	dir := project(t)
	args, _ := json.Marshal(map[string]string{"path": filepath.Join(dir, "README.md"), "text": "written by the server\n", "_rationale": "write"})
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "fs__write", string(args)), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Done."),
	)
	s := f.toolSpec("Write through the server.", dir, Limits{})
	s.Approve, _ = approve.ParseAll([]string{"mcp:fs"})
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed || len(rec.ToolCalls) != 1 {
		t.Fatalf("got %s/%s %s, calls %+v", rec.Outcome, rec.Reason, rec.Error, rec.ToolCalls)
	}
	if res := rec.ToolCalls[0].Result; res.Error || !strings.Contains(res.Text, "wrote 22 bytes") {
		t.Fatalf("fs__write result %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "README.md")); string(b) != readmeText {
		t.Errorf("the project's README changed: %q", b)
	}
	patch, err := os.ReadFile(filepath.Join(rec.Dir, runfolder.PatchFile))
	if err != nil || !strings.Contains(string(patch), "+written by the server") || !strings.Contains(string(patch), "README.md") {
		t.Errorf("changes.patch (%v):\n%s", err, patch)
	}
}

// TestStdioMCPRefusedWithoutSandbox: where the kernel refuses user
// namespaces (simulated), a stdio server does not start, and the run
// says why; with the sandbox off, it starts.
func TestStdioMCPRefusedWithoutSandbox(t *testing.T) {
	t.Setenv(sandbox.SimulateEnv, "userns")
	f := newFixture(t, wire.OpenAI)
	withStdioMCP(t, f)
	dir := project(t)
	f.srv.Enqueue(modeltest.Reply("Done."))
	s := f.toolSpec("Nothing.", dir, Limits{})
	_, rec := f.run(t, s)
	if rec.MCP == nil || len(rec.MCP.Servers) != 1 || rec.MCP.Servers[0].State != "failed" || !strings.Contains(rec.MCP.Servers[0].Detail, "--no-sandbox") {
		t.Fatalf("MCP record %+v", rec.MCP)
	}
	f.srv.Enqueue(modeltest.Reply("Done."))
	s.Sandbox.Off = true
	_, rec = f.run(t, s)
	if rec.MCP == nil || rec.MCP.Servers[0].State != "started" {
		t.Fatalf("with --no-sandbox: MCP record %+v", rec.MCP)
	}
}

// TestStdioMCPNetworkOff: a stdio server that needs the network gets a
// failed call while the network is off, and reaches it when the run
// allows the network to that server.
func TestStdioMCPNetworkOff(t *testing.T) {
	needSandbox(t)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "hello from the host") }))
	defer hs.Close()
	f := newFixture(t, wire.OpenAI)
	withStdioMCP(t, f)
	dir := project(t)
	args, _ := json.Marshal(map[string]string{"url": hs.URL, "_rationale": "fetch"})
	for _, allowed := range []bool{false, true} {
		f.srv.Enqueue(
			script(modeltest.ToolCall("c1", "fs__fetch", string(args)), modeltest.Finish(modeltest.FinishTools)),
			modeltest.Reply("Done."),
		)
		s := f.toolSpec("Fetch.", dir, Limits{})
		s.Approve, _ = approve.ParseAll([]string{"mcp:fs"})
		if allowed {
			s.Sandbox.NetworkServers = []string{"fs"}
		}
		_, rec := f.run(t, s)
		if len(rec.ToolCalls) != 1 {
			t.Fatalf("calls %+v", rec.ToolCalls)
		}
		res := rec.ToolCalls[0].Result
		if allowed && (res.Error || res.Text != "hello from the host") {
			t.Errorf("network allowed: %+v", res)
		}
		if !allowed && (!res.Error || !strings.Contains(res.Text, "connect")) {
			t.Errorf("network off: %+v", res)
		}
	}
}

// secretName is the secret-looking variable the redaction tests pass.
const secretName = "AGENTDESK_TEST_DB_PASSWORD"

// runWithSecret sets secretName to value, runs in the sandbox one
// shell_execute of command (a JSON string's text) with the variable
// passed, recorded when record, and checks its one call's result holds
// want.
func runWithSecret(t *testing.T, value, command, want string, record bool) runfolder.Record {
	t.Helper()
	needSandbox(t)
	t.Setenv(secretName, value)
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "shell_execute", `{"Command":"`+command+`","_rationale":"run"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Done."),
	)
	s := f.toolSpec("Run it.", project(t), Limits{})
	s.Approve, _ = approve.ParseAll([]string{"shell_execute:*"})
	s.Sandbox.PassEnv = []string{secretName}
	s.Record = record
	_, rec := f.run(t, s)
	if len(rec.ToolCalls) != 1 || !strings.Contains(rec.ToolCalls[0].Result.Text, want) {
		t.Fatalf("calls %+v", rec.ToolCalls)
	}
	return rec
}

// TestSecretValuesAreRedacted: the value of a secret-looking variable of
// agentdesk's, passed to a command that prints it, is stored nowhere in
// the run folder (transcript, run.json, result.md, the recording).
func TestSecretValuesAreRedacted(t *testing.T) {
	const value = "hunter2-run-secret-value"
	rec := runWithSecret(t, value, `echo \"the password is $`+secretName+`\"`, "the password is [REDACTED]", true)
	if rec.Sandbox == nil || !strings.Contains(rec.Sandbox.String(), "namespaces+landlock") {
		t.Errorf("sandbox record %+v", rec.Sandbox)
	}
	err := filepath.WalkDir(rec.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), value) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if !strings.Contains(string(md), "- Commands: sandbox: namespaces+landlock") {
		t.Errorf("result.md lacks the sandbox:\n%s", md)
	}
}

// TestSecretWrittenToTheSessionFolderIsRedacted: a command that writes a
// passed secret into the session folder (which lies in the run folder
// and is shown writable in the sandbox) leaves it there redacted.
func TestSecretWrittenToTheSessionFolderIsRedacted(t *testing.T) {
	const name, value = secretName, "hunter2-session-secret"
	rec := runWithSecret(t, value, `mkdir -p \"$TMPDIR/../../../notes\" && printf 'pw=%s\\n' \"$`+name+`\" > \"$TMPDIR/../../../notes/leak.txt\" && echo hi > \"$TMPDIR/../../../notes/n-$`+name+`.txt\" && mkdir \"$TMPDIR/../../../d-$`+name+`\" && echo written`, "written", false)
	leak := filepath.Join(rec.Dir, SessionDir, "notes", "leak.txt")
	if b, err := os.ReadFile(leak); err != nil || string(b) != "pw=[REDACTED]\n" {
		t.Errorf("%s = %q, %v; want the secret redacted", leak, b, err)
	}
	_ = filepath.WalkDir(rec.Dir, func(p string, d os.DirEntry, err error) error {
		if strings.Contains(p, value) {
			t.Errorf("a name in the run folder holds the secret: %s", p)
		}
		return nil
	})
	for _, p := range []string{"notes/n-[REDACTED].txt", "d-[REDACTED]"} {
		if _, err := os.Lstat(filepath.Join(rec.Dir, SessionDir, p)); err != nil {
			t.Errorf("the redacted name: %v", err)
		}
	}
}
