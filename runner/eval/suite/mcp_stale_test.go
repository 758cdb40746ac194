package suite

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/mcp/mcptest"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestStaleWhenMCPServersChange: a recording covers each MCP server its
// case could use (transport, command, arguments, the names of its
// environment variables, URL, enabled) and the tools they offered, so
// removing, disabling or changing a server makes it stale, and the
// message names the server. A changed variable's value does not.
func TestStaleWhenMCPServersChange(t *testing.T) {
	srv := mcptest.Server()
	docs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(docs.Close)
	const off = `"off": {"Command": "no-such-mcp-server", "Arguments": ["--x"], "EnvironmentVariables": {"TOKEN": "a"}, "Enabled": false}`
	docsServer := fmt.Sprintf(`"docs": {"Transport": "http", "Url": %q}`, docs.URL)
	const suite = "cases:\n  - name: one\n    task: hi\n    project: proj\n"
	tests := []struct {
		name    string
		servers string // now; the recording is made with docs and off
		want    []string
		// old drops the MCP parts from the recording, as one made before
		// servers were fingerprinted.
		old bool
	}{
		{"unchanged", docsServer + ", " + off, nil, false},
		{"a variable's value changed", docsServer + ", " + strings.Replace(off, `"a"`, `"b"`, 1), nil, false},
		{"removed", off, []string{"mcp servers changed: docs, off (disabled) → off (disabled)"}, false},
		{"every server removed", "", []string{"mcp servers changed: docs, off (disabled) → none"}, false},
		{"disabled", strings.Replace(docsServer, "}", `, "Enabled": false}`, 1) + ", " + off,
			[]string{"mcp servers changed: docs, off (disabled) → docs (disabled), off (disabled)", "mcp server: docs changed: netclaw.json's McpServers.docs edited"}, false},
		{"url changed", strings.Replace(docsServer, docs.URL, docs.URL+"/v2", 1) + ", " + off,
			[]string{"mcp server: docs changed: netclaw.json's McpServers.docs edited"}, false},
		{"a variable added", docsServer + ", " + strings.Replace(off, `"TOKEN": "a"`, `"TOKEN": "a", "REGION": "eu"`, 1),
			[]string{"mcp server: off changed"}, false},
		{"arguments changed", docsServer + ", " + strings.Replace(off, `"--x"`, `"--y"`, 1),
			[]string{"mcp server: off changed"}, false},
		{"recorded before servers were fingerprinted", docsServer + ", " + off, []string{"mcp servers added since the recording"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			config := func(servers string) {
				f.configWith("m", `"McpServers": {`+servers+`}`)
			}
			hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "README.md"), "a project\n")
			path := f.suite(suite)
			config(docsServer + ", " + off)
			f.on("hi", modeltest.Reply("Hello"))
			if got := statuses(f.run(evalrec.Record, path)); got[0] != "one: pass 1/1" {
				t.Fatalf("recorded %q", got)
			}
			rec := evalrec.Path(path, "one", 1)
			b, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"name":"mcp tools: docs","sha256":"`) {
				t.Errorf("the recording keeps no tools of docs:\n%s", b[:strings.Index(string(b), "\n")])
			}
			if strings.Contains(string(b), `"a"`) && strings.Contains(string(b), "TOKEN") {
				t.Errorf("the recording holds a variable's value")
			}
			if tt.old {
				re := regexp.MustCompile(`,\{"name":"mcp [^}]*\}`)
				os.WriteFile(rec, re.ReplaceAll(b, nil), 0o644)
			}
			config(tt.servers)
			c := f.run(evalrec.Offline, path)[0].Cases[0]
			wantReplayOrStale(t, c, tt.want)
		})
	}
}
