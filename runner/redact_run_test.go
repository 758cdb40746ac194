package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestRunRedactsShortSecretsAsTokens: a run whose secrets include a short
// value (an MCP server's variable "serve" from secrets.json) hides it in
// its output and run folder where it stands alone, and leaves "server"
// readable; a long key is hidden even glued to other text.
func TestRunRedactsShortSecretsAsTokens(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.Enqueue(modeltest.Reply("The MCP server answered; I ran serve and saw xplanted-mcp-token-99y."))
	s := f.spec("Check the server.", Limits{})
	s.Secrets = []string{"serve", "planted-mcp-token-99"}
	_, rec := f.run(t, s)
	want := "The MCP server answered; I ran [REDACTED] and saw x[REDACTED]y."
	if rec.Output != want {
		t.Fatalf("output %q, want %q", rec.Output, want)
	}
	data, err := os.ReadFile(filepath.Join(rec.Dir, "result.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), want) || strings.Contains(string(data), "planted-mcp-token-99") || strings.Contains(string(data), "[REDACTED]r") {
		t.Errorf("result.md:\n%s", data)
	}
}
