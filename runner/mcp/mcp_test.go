package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/mcp/mcptest"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// stdioServer configures the test binary as a stdio server in mode.
func stdioServer(t testing.TB, name, mode string) lint.McpServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return lint.McpServer{Name: name, Transport: "stdio", Command: exe, Enabled: true,
		EnvironmentVariables: map[string]string{serverEnv: mode}}
}

// notes collects the notes of a Servers.
type notes struct {
	mu   sync.Mutex
	list []string
}

func (n *notes) add(s string) { n.mu.Lock(); n.list = append(n.list, s); n.mu.Unlock() }
func (n *notes) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.list)
}

// start starts cfgs with quick limits and closes them when the test ends.
func start(t testing.TB, opts Options, cfgs ...lint.McpServer) (*Servers, *notes) {
	t.Helper()
	n := &notes{}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 20 * time.Second
	}
	if opts.Grace == 0 {
		opts.Grace = 500 * time.Millisecond
	}
	opts.Note = n.add
	s := Start(context.Background(), cfgs, opts)
	t.Cleanup(func() { _ = s.Close() })
	return s, n
}

// call calls the tool named name of s with args, meta _rationale added.
func call(t testing.TB, s *Servers, name, args string) tools.Result {
	t.Helper()
	for _, tl := range s.Tools() {
		if tl.Spec().Name == name {
			return tl.Call(context.Background(), withRationale(args))
		}
	}
	t.Fatalf("no tool %s among %v", name, toolNames(s))
	return tools.Result{}
}

func withRationale(args string) json.RawMessage {
	if args == "" || args == "{}" {
		return json.RawMessage(`{"_rationale":"test"}`)
	}
	return json.RawMessage(`{"_rationale":"test",` + strings.TrimPrefix(args, "{"))
}

func toolNames(s *Servers) []string {
	var out []string
	for _, tl := range s.Tools() {
		out = append(out, tl.Spec().Name)
	}
	return out
}

// gone waits (bounded) until no process of group pgid is alive; zombies,
// which no one may be there to reap in a container, count as gone.
func gone(t testing.TB, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d is still alive", pid)
			}
			<-time.After(10 * time.Millisecond)
		}
	}
}

func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err)
	}
	// pid (comm) S ...: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestStdioServerTools(t *testing.T) {
	s, n := start(t, Options{}, stdioServer(t, "files", "serve"))
	want := []string{"files__echo", "files__args", "files__env", "files__crash", "files__hang", "files__fail", "files__rpcerr", "files__big", "files__spawn", "files__pid", "files__garble", "files__cwd", "files__fetch", "files__write"}
	got := toolNames(s)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v (notes %q)", got, want, n.all())
	}
	for _, tl := range s.Tools() {
		sp := tl.Spec()
		if !sp.Deferred || !sp.Approval || sp.Server != "files" {
			t.Errorf("%s: Deferred %v Approval %v Server %q, want true true files", sp.Name, sp.Deferred, sp.Approval, sp.Server)
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(sp.Parameters, &schema); err != nil {
			t.Fatalf("%s: schema %s: %v", sp.Name, sp.Parameters, err)
		}
		for _, m := range []string{tools.MetaRationale, tools.MetaTimeout, tools.MetaBackground} {
			if _, ok := schema.Properties[m]; !ok {
				t.Errorf("%s: no %s in %s", sp.Name, m, sp.Parameters)
			}
		}
		if !slices.Contains(schema.Required, tools.MetaRationale) {
			t.Errorf("%s: _rationale not required: %s", sp.Name, sp.Parameters)
		}
		if sp.Name == "files__args" {
			for _, bad := range []string{"$schema", "pattern", `"null"`} {
				if strings.Contains(string(sp.Parameters), bad) {
					t.Errorf("files__args schema keeps %s: %s", bad, sp.Parameters)
				}
			}
		}
	}
	if len(n.all()) != 0 {
		t.Errorf("notes = %q, want none", n.all())
	}
	st := s.Statuses()
	if len(st) != 1 || st[0].PID == 0 || st[0].Err != "" || len(st[0].Tools) != len(want) {
		t.Errorf("Statuses = %+v", st)
	}
}

func TestStdioCalls(t *testing.T) {
	srv := stdioServer(t, "files", "serve")
	srv.EnvironmentVariables["TRIAL_TOKEN"] = "from-config"
	s, n := start(t, Options{Environ: []string{"PATH=" + os.Getenv("PATH"), "trial_token=from-agentdesk", "KEEP=1"}, MaxResultBytes: 1000}, srv)
	tests := []struct {
		tool, args string
		want       string
		isErr      bool
		note       string
	}{
		{"files__echo", `{"text":"hi","count":2}`, "echo: hi count=2", false, ""},
		// Meta stripped, names matched ignoring case, strings coerced where
		// the server's schema wants a number or a boolean, not elsewhere.
		{"files__args", `{"URL":"https://x.test","Limit":"10","flag":"true","zip":"01234","_timeout_seconds":30,"_BACKGROUND":false}`,
			`{"flag":true,"limit":10,"url":"https://x.test","zip":"01234"}`, false, ""},
		{"files__env", `{"name":"TRIAL_TOKEN"}`, "TRIAL_TOKEN=from-config", false, ""},
		{"files__env", `{"name":"KEEP"}`, "KEEP=1", false, ""},
		{"files__fail", `{}`, "Error: MCP tool 'files/fail' reported a failure: disk full", true, "reported a failure"},
		{"files__big", `{"n":5000}`, "Error: MCP tool 'files/big' failed: the result is 5000 bytes, over the cap of 1000 bytes for one MCP result", true, "over agentdesk's cap"},
		{"files__args", `[1,2]`, "Error: MCP tool 'files/args' failed: the arguments are not a JSON object", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			before := len(n.all())
			var res tools.Result
			if strings.HasPrefix(tt.args, "[") {
				res = s.Tools()[slices.IndexFunc(s.Tools(), func(x tools.Tool) bool { return x.Spec().Name == tt.tool })].Call(context.Background(), json.RawMessage(tt.args))
			} else {
				res = call(t, s, tt.tool, tt.args)
			}
			if !strings.HasPrefix(res.Text, tt.want) || res.IsError != tt.isErr {
				t.Errorf("result = %q (error %v), want %q (error %v)", res.Text, res.IsError, tt.want, tt.isErr)
			}
			added := n.all()[before:]
			if tt.note == "" && len(added) > 0 || tt.note != "" && (len(added) != 1 || !strings.Contains(added[0], tt.note)) {
				t.Errorf("notes = %q, want one like %q", added, tt.note)
			}
		})
	}
	// A JSON-RPC error from the server.
	res := call(t, s, "files__rpcerr", `{}`)
	t.Logf("rpcerr: %q; notes %q", res.Text, n.all())
	if !res.IsError || !strings.HasPrefix(res.Text, "Error: MCP tool 'files/rpcerr' ") || !strings.Contains(res.Text, "no such record") {
		t.Errorf("rpcerr = %+v", res)
	}
}

func TestCrashMidCallRestarts(t *testing.T) {
	s, n := start(t, Options{}, stdioServer(t, "files", "serve"))
	first := s.Statuses()[0].PID
	res := call(t, s, "files__crash", `{}`)
	if !res.IsError || !strings.HasPrefix(res.Text, "Error: MCP tool 'files/crash' failed: the server exited (exit status 3)") || !strings.Contains(res.Text, "the server fell over") {
		t.Fatalf("crash result = %q", res.Text)
	}
	if got := n.all(); len(got) != 1 || !strings.Contains(got[0], "started again for the next call") {
		t.Errorf("notes = %q", got)
	}
	gone(t, first)
	// The next call starts the server again.
	res = call(t, s, "files__pid", `{}`)
	pid, err := strconv.Atoi(res.Text)
	if res.IsError || err != nil || pid == first {
		t.Fatalf("after the crash: %+v (first pid %d)", res, first)
	}
	_ = s.Close()
	gone(t, pid)
}

func TestHangingCallTimesOut(t *testing.T) {
	s, n := start(t, Options{CallTimeout: 300 * time.Millisecond}, stdioServer(t, "files", "serve"))
	res := call(t, s, "files__hang", `{}`)
	if !res.IsError || res.Text != "Error: MCP tool 'files/hang' failed: no answer within 300ms" {
		t.Fatalf("hang = %q", res.Text)
	}
	if got := n.all(); len(got) != 1 || !strings.Contains(got[0], "did not answer files__hang within 300ms") {
		t.Errorf("notes = %q", got)
	}
	// The server still answers (within a limit of its own: 300ms would
	// race a loaded machine).
	if res := call(t, s, "files__echo", `{"text":"still here","_timeout_seconds":20}`); res.IsError {
		t.Errorf("after the hang: %q", res.Text)
	}
}

func TestStartFailures(t *testing.T) {
	// A port that refuses connections: listen, note the address, close.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	tests := []struct {
		name string
		cfg  lint.McpServer
		want string
	}{
		{"missing command", lint.McpServer{Name: "m", Transport: "stdio", Command: "agentdesk-no-such-mcp-server", Enabled: true}, `command "agentdesk-no-such-mcp-server" is not found on PATH`},
		{"missing path", lint.McpServer{Name: "m", Transport: "stdio", Command: "/nonexistent/mcp-server", Enabled: true}, `command "/nonexistent/mcp-server" does not exist`},
		{"garbage on stdout", stdioServer(t, "m", "garbage"), "its stdout is not MCP's JSON-RPC"},
		{"silent", stdioServer(t, "m", "silent"), "did not answer the MCP handshake within 300ms"},
		{"dies at start", stdioServer(t, "m", "die"), "fatal: missing API key"},
		{"refused http", lint.McpServer{Name: "m", Transport: "http", URL: refused, Enabled: true}, "connection refused"},
		{"refused sse", lint.McpServer{Name: "m", Transport: "sse", URL: refused, Enabled: true}, "connection refused"},
		{"transport case", lint.McpServer{Name: "m", Transport: "Stdio", Command: "x", Enabled: true}, "there is no Url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Only the silent server needs the start limit to fail; the
			// others fail on an event (garbage read, an exit, a refusal),
			// so a short limit would race a slow start on a loaded
			// machine and report the limit instead of the failure.
			limit := 20 * time.Second
			if tt.name == "silent" {
				limit = 300 * time.Millisecond
			}
			s, n := start(t, Options{StartTimeout: limit}, tt.cfg)
			if len(s.Tools()) != 0 {
				t.Errorf("tools = %v, want none", toolNames(s))
			}
			got := n.all()
			t.Logf("notes: %q", got)
			if len(got) != 1 || !strings.Contains(got[0], tt.want) || !strings.HasPrefix(got[0], "MCP server 'm' did not start, so its tools are not offered: ") {
				t.Errorf("notes = %q, want one holding %q", got, tt.want)
			}
			if st := s.Statuses(); len(st) != 1 || st[0].Err == "" || !strings.Contains(got[0], st[0].Err) {
				t.Errorf("Statuses = %+v", st)
			}
			// The status tells the failure: a listing of statuses and
			// the other notes tells it once.
			if other := s.OtherNotes(); len(other) != 0 {
				t.Errorf("OtherNotes = %q, want none", other)
			}
		})
	}
}

func TestFailedStartLeavesNoProcess(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pid")
	// A shell that records its pid, starts a grandchild and never speaks MCP.
	cfg := lint.McpServer{Name: "sh", Transport: "stdio", Command: "/bin/sh", Enabled: true,
		Arguments: []string{"-c", `echo $$ > "$0"; sleep 600 & echo $! >> "$0"; wait`, pidfile}}
	s, _ := start(t, Options{StartTimeout: 300 * time.Millisecond}, cfg)
	if len(s.Tools()) != 0 {
		t.Fatal("tools from a shell")
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		p, _ := strconv.Atoi(f)
		pids = append(pids, p)
	}
	if len(pids) != 2 {
		t.Fatalf("pids = %v", pids)
	}
	gone(t, pids...)
}

func TestCloseKillsProcessGroup(t *testing.T) {
	s, _ := start(t, Options{}, stdioServer(t, "files", "serve"), stdioServer(t, "more", "serve"))
	pidfile := filepath.Join(t.TempDir(), "child")
	res := call(t, s, "files__spawn", `{"pidfile":`+strconv.Quote(pidfile)+`}`)
	child, err := strconv.Atoi(res.Text)
	if err != nil {
		t.Fatalf("spawn: %q", res.Text)
	}
	var leaders []int
	for _, st := range s.Statuses() {
		leaders = append(leaders, st.PID)
	}
	if !alive(child) {
		t.Fatal("the child is not running")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, append(leaders, child)...)
	if res := call(t, s, "files__echo", `{"text":"x"}`); !res.IsError || !strings.Contains(res.Text, "is unavailable or tool 'echo' is not registered") {
		t.Errorf("a call after Close = %q", res.Text)
	}
}

func TestAudience(t *testing.T) {
	cfg := lint.LoadConfig(lint.NewHome(t.TempDir(), ""), []string{
		"NETCLAW_Tools__AudienceProfiles__Team__AllowedMcpServers__0=allowed",
		"NETCLAW_Tools__AudienceProfiles__Team__McpServerToolGrants__allowed__0=echo",
	})
	s, n := start(t, Options{Audience: "Team", Config: cfg},
		stdioServer(t, "allowed", "serve"), stdioServer(t, "other", "serve"),
		lint.McpServer{Name: "off", Command: "x", Transport: "stdio"})
	if got := toolNames(s); !slices.Equal(got, []string{"allowed__echo"}) {
		t.Errorf("Team tools = %v", got)
	}
	st := s.Statuses()
	if st[1].PID != 0 || !strings.Contains(st[1].Skipped, "the Team audience may not use it") || !strings.Contains(st[2].Skipped, "disabled") {
		t.Errorf("Statuses = %+v", st)
	}
	if len(st[0].Hidden) != 13 {
		t.Errorf("hidden = %v", st[0].Hidden)
	}
	if len(n.all()) != 0 {
		t.Errorf("notes = %q", n.all())
	}
}

func TestNotesAreRedacted(t *testing.T) {
	// The server dies on its own: no short start limit to race its exit.
	s, n := start(t, Options{Redact: func(s string) string { return strings.ReplaceAll(s, "API key", "[REDACTED]") }},
		stdioServer(t, "m", "die"))
	if got := n.all(); len(got) != 1 || strings.Contains(got[0], "API key") || !strings.Contains(got[0], "[REDACTED]") {
		t.Errorf("notes = %q", got)
	}
	if st := s.Statuses(); len(st) != 1 || strings.Contains(st[0].Err, "API key") || !strings.Contains(st[0].Err, "[REDACTED]") {
		t.Errorf("Statuses = %+v", st)
	}
}

// httpServers serves the test server over streamable HTTP and SSE,
// recording the Authorization header of every request.
func httpServers(t *testing.T) (streamURL, sseURL string, auth func() []string) {
	var mu sync.Mutex
	var seen []string
	record := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Header.Get("Authorization"))
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}
	srv := mcptest.Server()
	stream := httptest.NewServer(record(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)))
	sse := httptest.NewServer(record(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)))
	t.Cleanup(stream.Close)
	t.Cleanup(sse.Close)
	return stream.URL, sse.URL, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(seen) }
}

func TestHTTPTransports(t *testing.T) {
	streamURL, sseURL, auth := httpServers(t)
	for _, tt := range []struct{ transport, url string }{{"http", streamURL}, {"sse", sseURL}} {
		t.Run(tt.transport, func(t *testing.T) {
			cfg := lint.McpServer{Name: "web", Transport: tt.transport, URL: tt.url, Enabled: true, Headers: map[string]string{"Authorization": "Bearer t0ken"}}
			s, n := start(t, Options{}, cfg)
			res := call(t, s, "web__echo", `{"text":"over `+tt.transport+`","count":"4"}`)
			if res.IsError || res.Text != "echo: over "+tt.transport+" count=4" {
				t.Errorf("echo = %+v (notes %q)", res, n.all())
			}
			if res := call(t, s, "web__fail", `{}`); res.Text != "Error: MCP tool 'web/fail' reported a failure: disk full" {
				t.Errorf("fail = %q", res.Text)
			}
			for _, a := range auth() {
				if a != "Bearer t0ken" {
					t.Errorf("a request carried Authorization %q", a)
				}
			}
		})
	}
}

// The Set gates every MCP call: --approve mcp:SERVER approves it, no one
// to ask fails the run as the runtime does, a denial does not run it.
func TestApprovalThroughSet(t *testing.T) {
	s, _ := start(t, Options{}, stdioServer(t, "files", "serve"))
	pats, err := approve.ParseAll([]string{"mcp:files"})
	if err != nil {
		t.Fatal(err)
	}
	args := withRationale(`{"text":"gated"}`)
	set := tools.NewSet(s.Tools(), tools.WithGate(approve.NewGate(pats, nil)), tools.RequireRationale())
	if res := set.Call(context.Background(), "files__echo", args); res.Label != tools.LabelApproved || res.Text != "echo: gated count=0" {
		t.Errorf("approved call = %+v", res)
	}
	set = tools.NewSet(s.Tools())
	if res := set.Call(context.Background(), "files__echo", args); res.Fail == "" || !strings.Contains(res.Text, "--approve 'mcp:files'") {
		t.Errorf("unattended call = %+v", res)
	}
	deny := approve.AskerFunc(func(context.Context, approve.Request) (approve.Answer, error) { return approve.Deny, nil })
	set = tools.NewSet(s.Tools(), tools.WithGate(approve.NewGate(nil, deny)))
	if res := set.Call(context.Background(), "files__echo", args); res.Label != tools.LabelDenied || res.Text != approve.DeniedText {
		t.Errorf("denied call = %+v", res)
	}
}

func TestStartNotesFollowTheConfiguration(t *testing.T) {
	var cfgs []lint.McpServer
	for _, name := range []string{"c", "a", "b"} {
		cfgs = append(cfgs, lint.McpServer{Name: name, Transport: "stdio", Command: "agentdesk-no-such-" + name, Enabled: true})
	}
	_, n := start(t, Options{}, cfgs...)
	got := n.all()
	if len(got) != 3 || !strings.HasPrefix(got[0], "MCP server 'c'") || !strings.HasPrefix(got[1], "MCP server 'a'") || !strings.HasPrefix(got[2], "MCP server 'b'") {
		t.Errorf("notes = %q", got)
	}
}

// A server that prints something else on its stdout mid-call breaks the
// connection: the call gets the runtime's error and the server is started
// again for the next call.
func TestGarbageMidCall(t *testing.T) {
	s, n := start(t, Options{CallTimeout: 5 * time.Second}, stdioServer(t, "files", "serve"))
	first := s.Statuses()[0].PID
	res := call(t, s, "files__garble", `{}`)
	if !res.IsError || !strings.HasPrefix(res.Text, "Error: MCP tool 'files/garble' failed: it printed something that is not MCP's JSON-RPC on its stdout") {
		t.Fatalf("garble = %+v", res)
	}
	if got := n.all(); len(got) != 1 || !strings.Contains(got[0], "MCP server 'files' failed during files__garble") {
		t.Errorf("notes = %q", got)
	}
	gone(t, first)
	if res := call(t, s, "files__echo", `{"text":"again"}`); res.IsError || res.Text != "echo: again count=0" {
		t.Errorf("after the garbage: %+v", res)
	}
}

// TestStdioWorkingFolder: a stdio server starts in Options.Dir, and with
// none in agentdesk's own working folder — as NetClaw starts it in the
// daemon's (McpClientManager.CreateTransport sets no WorkingDirectory; the
// SDK then uses the current directory), never in the session's project.
func TestStdioWorkingFolder(t *testing.T) {
	own, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	for _, tc := range []struct {
		dir, want string
	}{
		{"", own},
		{elsewhere, elsewhere},
	} {
		s, _ := start(t, Options{Dir: tc.dir}, stdioServer(t, "files", "serve"))
		if res := call(t, s, "files__cwd", `{}`); res.IsError || res.Text != tc.want {
			t.Errorf("Dir %q: the server runs in %q, want %q", tc.dir, res.Text, tc.want)
		}
	}
}

// A server the configuration gives as a value, or with no Command, fails
// to start in lint's words, naming netclaw.json, not with Go's exec error.
func TestStartProblemInLintWords(t *testing.T) {
	home := lint.NewHome(t.TempDir(), "")
	if err := os.MkdirAll(home.ConfigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hometest.WriteFile(t, filepath.Join(home.ConfigDir, "netclaw.json"), `{"McpServers": {"fs": "npx server", "x": {"Arguments": ["a"]}}}`)
	cfg := lint.LoadConfig(home, nil)
	s, _ := start(t, Options{Config: cfg}, cfg.McpServers...)
	want := map[string]string{"fs": "netclaw.json:1:23: McpServers:fs is a value, not an object", "x": "netclaw.json:1:57: x: stdio transport requires 'Command'"}
	for _, st := range s.Statuses() {
		if !strings.Contains(st.Err, want[st.Name]) || strings.Contains(st.Err, "exec:") {
			t.Errorf("%s: Err = %q, want lint's words %q", st.Name, st.Err, want[st.Name])
		}
	}
}

// starts counts the lines a test server appended to file as it started.
func starts(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// A batch of runs (a test invocation) probes the servers once: each run's
// Servers offers the probed tools and starts a server only on its first
// call, and a server that did not start is not started again.
func TestCatalogProbesOnceAndStartsOnFirstCall(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "starts")
	files := stdioServer(t, "files", "serve")
	files.EnvironmentVariables[startsEnv] = counter
	silent := stdioServer(t, "slow", "silent")
	cfgs := []lint.McpServer{files, silent}
	var progress []string
	// Only slow, which never answers, needs a short limit to fail; files
	// keeps a long one, so a loaded machine cannot make it miss the limit.
	limits := map[string]time.Duration{"slow": 300 * time.Millisecond}
	cat := Probe(context.Background(), cfgs, Options{StartTimeout: 20 * time.Second, StartTimeouts: limits, Grace: 500 * time.Millisecond, Note: func(s string) { progress = append(progress, s) }})
	if got := starts(t, counter); got != 1 {
		t.Fatalf("probing started the server %d times, want 1", got)
	}
	for _, st := range cat.Statuses() {
		if st.PID != 0 && alive(st.PID) {
			t.Errorf("probe left %s running (pid %d)", st.Name, st.PID)
		}
	}
	if len(progress) != 1 || !strings.Contains(progress[0], "MCP server 'slow' did not start") {
		t.Errorf("probe notes = %q, want one for slow", progress)
	}
	for run := 1; run <= 3; run++ {
		s, n := start(t, Options{Catalog: cat}, cfgs...)
		if got := len(toolNames(s)); got != 14 {
			t.Fatalf("run %d: %d tools, want the probed 14", run, got)
		}
		if got := starts(t, counter); got != run {
			t.Fatalf("run %d: the server started %d times before a call, want %d", run, got, run)
		}
		var slowErr string
		for _, st := range s.Statuses() {
			if st.Name == "slow" {
				slowErr = st.Err
			}
		}
		if !strings.Contains(slowErr, "did not answer the MCP handshake") {
			t.Errorf("run %d: slow's status = %q, want the probe's failure", run, slowErr)
		}
		if notes := n.all(); len(notes) != 1 || !strings.Contains(notes[0], "MCP server 'slow' did not start") {
			t.Errorf("run %d: notes = %q, want the probe's failure once", run, notes)
		}
		if r := call(t, s, "files__echo", `{"text": "hi"}`); r.IsError || !strings.Contains(r.Text, "echo: hi") {
			t.Fatalf("run %d: call = %+v", run, r)
		}
		if got := starts(t, counter); got != run+1 {
			t.Fatalf("run %d: after a call the server started %d times, want %d", run, got, run+1)
		}
		_ = s.Close()
	}
}

// TestTimedOutStartKillsAtOnce: a server that never answers its start is
// killed outright, not given the grace and SIGTERM of a server that
// answered (the grace here is long: waiting it out would show as a
// SIGTERM the server notes).
func TestTimedOutStartKillsAtOnce(t *testing.T) {
	dir := t.TempDir()
	termed := filepath.Join(dir, "termed")
	cfg := lint.McpServer{Name: "sh", Transport: "stdio", Command: "/bin/sh", Enabled: true,
		Arguments: []string{"-c", `trap 'echo term > "$0"; exit 0' TERM; sleep 600 & wait`, termed}}
	s, n := start(t, Options{StartTimeout: 300 * time.Millisecond, Grace: 30 * time.Second}, cfg)
	if len(s.Tools()) != 0 || len(n.all()) != 1 || !strings.Contains(n.all()[0], "did not answer the MCP handshake") {
		t.Fatalf("tools %v, notes %q", toolNames(s), n.all())
	}
	if _, err := os.Stat(termed); err == nil {
		t.Error("the server that never answered got SIGTERM and a grace: want SIGKILL at once")
	}
}
