package runner

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/mcp/mcptest"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// mcpSecret is the Authorization header of the test's MCP server, kept in
// secrets.json: it must never reach the run folder.
const mcpSecret = "Bearer mcp-secret-0123456789"

// withMCP points the fixture's configuration at an MCP server "web"
// served over streamable HTTP, whose header sits in secrets.json, and
// returns the server.
func withMCP(t *testing.T, f *fixture) *httptest.Server {
	t.Helper()
	srv := mcptest.Server()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var sawAuth atomic.Bool
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == mcpSecret {
			sawAuth.Store(true)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() {
		if !sawAuth.Load() {
			t.Error("the MCP server never got the configured Authorization header")
		}
	})
	f.h.WriteConfig(t, fmt.Sprintf(`"McpServers": {"web": {"Transport": "http", "Url": %q}}`, hs.URL))
	hometest.WriteFile(t, f.home.SecretsFile(), f.h.Model.Secrets(fmt.Sprintf(`"McpServers": {"web": {"Headers": {"Authorization": %q}}}`, mcpSecret)))
	f.cat = f.h.Scan(t)
	return hs
}

func TestMCPToolInARunIsRecordedAndReplayed(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	hs := withMCP(t, f)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "web__echo", fmt.Sprintf(`{"Text":%q,"count":"2","_rationale":"try the server"}`, mcpSecret)), modeltest.Finish(modeltest.FinishTools)),
		script(modeltest.ToolCall("c2", "web__fail", `{"_rationale":"see it fail"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("Done."),
	)
	s := f.toolSpec("Use the web server.", project(t), Limits{})
	s.Record = true
	s.Approve, _ = approve.ParseAll([]string{"mcp:web"})
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %s", rec.Outcome, rec.Reason, rec.Error)
	}
	// MCP tools are deferred, as at the runtime: the first request does
	// not offer them (search_tools and load_tool activate them); a call
	// that names one still reaches it.
	if req := f.srv.Requests()[0]; strings.Contains(strings.Join(req.Tools, ","), "web__echo") {
		t.Errorf("the model was offered a deferred tool at the start: %v", req.Tools)
	}
	// The system prompt's tool index names the server, as the runtime's
	// does, so the model knows to search for its tools.
	if sys := f.srv.Requests()[0].System; !strings.Contains(sys, "[MCP capability servers - discover tools with search_tools]\nweb") {
		t.Errorf("the tool index does not name the MCP server:\n%s", sys)
	}
	if len(rec.ToolCalls) != 2 {
		t.Fatalf("tool calls %+v", rec.ToolCalls)
	}
	echo, fail := rec.ToolCalls[0].Result, rec.ToolCalls[1].Result
	if echo.Label != "approved" || echo.Text != "echo: [REDACTED] count=2" || echo.Error {
		t.Errorf("web__echo result %+v", echo)
	}
	if fail.Label != "approved" || fail.Text != "Error: MCP tool 'web/fail' reported a failure: disk full" || !fail.Error {
		t.Errorf("web__fail result %+v", fail)
	}
	m := rec.MCP
	if m == nil || len(m.Servers) != 1 || m.Servers[0].State != "started" || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "reported a failure of web__fail") {
		t.Fatalf("MCP record %+v", m)
	}
	md, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if !strings.Contains(string(md), "## MCP servers\n\n- web (http): started, 14 tools") || !strings.Contains(string(md), "- Note: MCP server 'web' reported a failure of web__fail") {
		t.Errorf("result.md:\n%s", md)
	}
	// Nothing in the run folder carries the header from secrets.json.
	files, _ := os.ReadDir(rec.Dir)
	for _, e := range files {
		data, _ := os.ReadFile(filepath.Join(rec.Dir, e.Name()))
		if strings.Contains(string(data), "mcp-secret-0123456789") {
			t.Errorf("%s carries the MCP secret", e.Name())
		}
	}

	// The replay needs no MCP server: stop it, and replay with the same
	// configuration, which still names it.
	hs.Close()
	c, err := LoadCassette(filepath.Join(rec.Dir, runfolder.StreamFile))
	if err != nil {
		t.Fatal(err)
	}
	_, again := f.run(t, Spec{Replay: c, Config: f.cat.Config, Fast: true})
	if again.Outcome != vocab.Completed || again.Output != "Done." || len(again.ToolCalls) != 2 {
		t.Fatalf("replay: %s/%s %q %+v", again.Outcome, again.Reason, again.Error, again.ToolCalls)
	}
	if again.ToolCalls[0].Result.Text != echo.Text || again.ToolCalls[1].Result.Text != fail.Text || again.ToolCalls[0].Result.Label != "approved" {
		t.Errorf("replayed results %+v / %+v", again.ToolCalls[0].Result, again.ToolCalls[1].Result)
	}
	if again.MCP != nil {
		t.Errorf("the replay started MCP servers: %+v", again.MCP)
	}
}

func TestMCPCallUnattendedFailsTheRun(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	withMCP(t, f)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "web__echo", `{"text":"x","_rationale":"try"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("never reached"),
	)
	_, rec := f.run(t, f.toolSpec("Use it.", project(t), Limits{}))
	if rec.Outcome != vocab.Failed || rec.Reason != vocab.ReasonToolExecutionFailed || !strings.Contains(rec.Error, "--approve 'mcp:web'") {
		t.Errorf("got %s/%s %q", rec.Outcome, rec.Reason, rec.Error)
	}
}

func TestMCPServerThatDoesNotStartLeavesANote(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.h.WriteConfig(t, `"McpServers": {"gone": {"Command": "agentdesk-no-such-mcp-server"}}`)
	f.cat = f.h.Scan(t)
	f.srv.Enqueue(
		script(modeltest.ToolCall("c1", "gone__read", `{"_rationale":"try"}`), modeltest.Finish(modeltest.FinishTools)),
		modeltest.Reply("It is not there."),
	)
	_, rec := f.run(t, f.toolSpec("Use it.", project(t), Limits{}))
	if rec.Outcome != vocab.Completed {
		t.Fatalf("got %s/%s %q", rec.Outcome, rec.Reason, rec.Error)
	}
	if r := rec.ToolCalls[0].Result; !r.Error || r.Text != "Unknown tool: gone__read" {
		t.Errorf("call to a tool of a server that did not start: %+v", r)
	}
	if m := rec.MCP; m == nil || m.Servers[0].State != "failed" || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], `command "agentdesk-no-such-mcp-server" is not found on PATH`) {
		t.Errorf("MCP record %+v", rec.MCP)
	}
}
