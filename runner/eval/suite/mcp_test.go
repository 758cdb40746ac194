package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// An MCP server that hangs at start costs a test invocation one start
// limit, not one a sample; the samples it concerns say so in the report,
// and NoMCP starts nothing.
func TestHangingMCPServerIsProbedOnceAndReported(t *testing.T) {
	f := newFixture(t)
	// requests counts the calls (JSON-RPC messages with an id: the
	// handshake) the server is sent, not the notifications: the MCP SDK
	// also sends, best-effort and from a goroutine of its own, a
	// notifications/cancelled for the handshake it gave up on, which may
	// or may not arrive before the probe closes the connection.
	var requests atomic.Int32
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct{ ID json.RawMessage }
		if body, err := io.ReadAll(r.Body); err == nil && json.Unmarshal(body, &msg) == nil && len(msg.ID) > 0 {
			requests.Add(1)
		}
		select { // never answers the handshake
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })
	f.configWith("m", fmt.Sprintf(`"McpServers": {"slow": {"Transport": "http", "Url": %q}}`, hang.URL))
	f.on("one", modeltest.Reply("done one"))
	f.on("two", modeltest.Reply("done two"))
	path := f.suite("agent: tester\ncases:\n  - name: first\n    task: one\n    repeat: 2\n    expect: {contains: done}\n  - name: second\n    task: two\n    expect: {contains: done}\n")
	run := func(noMCP bool) ([]*SuiteResult, []string, []string) {
		cat := f.catalog()
		rn, err := runner.New(runner.Options{RunsDir: f.runs})
		if err != nil {
			t.Fatal(err)
		}
		s := suitefile.Load(path)
		suitefile.Check(s, cat)
		var mu sync.Mutex
		var started, notes []string
		rs := Run(context.Background(), []*suitefile.Suite{s}, Options{
			Runner: rn, Catalog: cat, Mode: evalrec.Default, Jobs: 2, Project: t.TempDir(),
			NoMCP: noMCP, MCPStartTimeout: 200 * time.Millisecond,
			OnMCPStart: func(names []string) { mu.Lock(); started = append(started, strings.Join(names, ",")); mu.Unlock() },
			OnMCPNote:  func(n string) { mu.Lock(); notes = append(notes, n); mu.Unlock() },
		})
		return rs, started, notes
	}
	rs, started, notes := run(false)
	if got := statuses(rs); !slices.Equal(got, []string{"first: pass 2/2", "second: pass 1/1"}) {
		t.Fatalf("statuses = %q", got)
	}
	if !slices.Equal(started, []string{"slow"}) {
		t.Errorf("OnMCPStart calls = %q, want one, naming slow", started)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "MCP server 'slow' did not start") {
		t.Errorf("OnMCPNote calls = %q, want one for slow", notes)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("the hanging server got %d handshakes, want the one probe's", n)
	}
	for _, c := range rs[0].Cases {
		for _, s := range c.Samples {
			if len(s.MCP) != 1 || !strings.Contains(s.MCP[0], "MCP server 'slow' did not start") {
				t.Errorf("%s sample %d: MCP = %q, want slow's failure", c.Case.Name, s.N, s.MCP)
			}
		}
	}
	var text bytes.Buffer
	if err := Text(&text, rs, 0, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "mcp: samples 1, 2: MCP server 'slow' did not start") {
		t.Errorf("the text report does not tell the MCP failure per case:\n%s", text.String())
	}
	var js bytes.Buffer
	if err := JSON(&js, rs, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"mcp": [`) {
		t.Errorf("the JSON report has no mcp member:\n%s", js.String())
	}

	rs, started, _ = run(true)
	if len(started) != 0 || requests.Load() != 1 {
		t.Errorf("NoMCP: OnMCPStart = %q, %d handshakes; want no server started", started, requests.Load())
	}
	for _, c := range rs[0].Cases {
		for _, s := range c.Samples {
			if len(s.MCP) != 0 || s.Status != Pass {
				t.Errorf("NoMCP: %s sample %d: %s, MCP = %q", c.Case.Name, s.N, s.Status, s.MCP)
			}
		}
	}
}
