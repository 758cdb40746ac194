package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/overlay"
)

// catalogSet makes the Personal catalogue's tools on a project with files,
// a session folder, the web on client, and one fake MCP tool.
func catalogSet(t *testing.T, files map[string]string, web *Web, patterns ...string) (string, *Workspace, *Set) {
	t.Helper()
	root := t.TempDir()
	project := filepath.Join(root, "project")
	os.MkdirAll(project, 0o755)
	hometest.Write(t, project, files)
	ov, err := overlay.New(project, filepath.Join(root, "ov"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "session"), 0o755)
	sess, err := overlay.New(filepath.Join(root, "session"), filepath.Join(root, "sov"))
	if err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(ov).WithSession(sess, request.ChildStorage(filepath.Join(root, "session"), "r1"))
	offered := request.SubAgentTools(preview.Personal)
	pats, _ := approve.ParseAll(patterns)
	set := NewSet(FromOffered(Env{Workspace: ws, Offered: offered, Web: web}),
		WithGate(approve.NewGate(pats, nil)), WithValidator(CatalogValidator(offered)))
	set.Add(&echo{spec: Spec{Name: "notes__find", Description: "Find notes by words", Parameters: json.RawMessage(`{"type":"object","properties":{"Words":{"type":"string"}}}`), Deferred: true, Approval: true, Server: "notes"}})
	set.OnClose(ov.Close)
	set.OnClose(sess.Close)
	t.Cleanup(func() { set.Close() })
	return project, ws, set
}

func TestFromOfferedSpecsAreTheCatalogues(t *testing.T) {
	_, _, set := catalogSet(t, nil, nil)
	offered := request.SubAgentTools(preview.Personal)
	specs := map[string]Spec{}
	for _, s := range set.Specs() {
		specs[s.Name] = s
	}
	for _, ct := range offered.Tools {
		s, ok := specs[ct.Name]
		if !ok {
			t.Errorf("%s is offered by the catalogue but not by the set", ct.Name)
			continue
		}
		if s.Description != ct.Description || !bytes.Equal(s.Parameters, ct.Schema()) || s.Deferred != ct.Deferred {
			t.Errorf("%s: the spec differs from the catalogue's", ct.Name)
		}
		wantGate := ct.Name == "shell_execute" || ct.Name == "web_fetch" || ct.Name == "web_search"
		if s.Approval != wantGate {
			t.Errorf("%s: approval %v, want %v", ct.Name, s.Approval, wantGate)
		}
	}
	for _, s := range set.Offered() {
		if s.Name == "notes__find" {
			t.Error("a deferred MCP tool is offered before it is loaded")
		}
	}
}

func TestCatalogueCalls(t *testing.T) {
	project, _, set := catalogSet(t, map[string]string{"src/a.go": "package a\n// TODO: port\n", "docs/port.md": "the Port is 8080\n"}, nil)
	call := func(name, args string) Result {
		return set.Call(context.Background(), name, json.RawMessage(args))
	}
	why := `"_rationale":"test"`

	if r := call("file_read", `{"Path":"src/a.go"}`); !strings.HasPrefix(r.Text, "Error: Required meta argument '_rationale'") || !r.Refused {
		t.Errorf("no rationale: %+v", r)
	}
	// A key no parameter binds is refused before the tool runs, with the
	// runtime's suggestion; a key that differs only in case binds.
	if r := call("file_read", `{"Pth":"src/a.go",`+why+`}`); !r.Refused || !strings.HasPrefix(r.Text, "Error: Unrecognized argument 'Pth' for tool 'file_read'. Did you mean 'Path'? The tool was NOT executed. Valid arguments: Path, StartLine, Limit") {
		t.Errorf("unknown argument: %+v", r)
	}
	if r := call("file_read", `{"PATH":"src/a.go",`+why+`}`); r.Refused || !strings.Contains(r.Text, "TODO: port") {
		t.Errorf("argument name in another case: %+v", r)
	}
	if r := call("set_reminder", `{`+why+`,"Schedule":"tomorrow"}`); r.Label != LabelStubbed || !strings.Contains(r.Text, "scheduled a reminder") {
		t.Errorf("stub: %+v", r)
	}
	r := call("file_search", `{"Root":"`+project+`","Query":"port","Mode":"content",`+why+`}`)
	want := "mode=content\nroot=" + project + "\nmatches=2\nvisited=4\nskipped=0\ncontent_bytes=41\ntruncated=false\ndocs/port.md:1: the Port is 8080\nsrc/a.go:2: // TODO: port"
	if r.Text != want || r.Label != LabelReal {
		t.Errorf("file_search content =\n%s\nwant\n%s", r.Text, want)
	}
	if r := call("file_search", `{"Root":".","Query":"A.GO","Mode":"name",`+why+`}`); !strings.HasSuffix(r.Text, "\nsrc/a.go") {
		t.Errorf("file_search name: %s", r.Text)
	}
	if r := call("file_search", `{"Root":".","Query":"x","Mode":"regex",`+why+`}`); r.Text != "Error: 'Mode' must be either 'name' or 'content'." {
		t.Errorf("bad mode: %s", r.Text)
	}
	// search_tools finds the MCP tool but does not load it; load_tool does,
	// and it is offered then.
	offered := func(name string) bool {
		return slices.ContainsFunc(set.Offered(), func(s Spec) bool { return s.Name == name })
	}
	r = call("search_tools", `{"Query":"find notes",`+why+`}`)
	if !strings.Contains(r.Text, "  notes__find — ") {
		t.Errorf("search_tools: %s", r.Text)
	}
	if offered("notes__find") {
		t.Error("search_tools loaded the tool it found")
	}
	if r := call("load_tool", `{"Name":"notes/find",`+why+`}`); r.Text != "notes__find" || !offered("notes__find") {
		t.Errorf("load_tool notes/find: %q, offered %v", r.Text, offered("notes__find"))
	}
	if r := call("load_tool", `{"Name":"nothing-like-it",`+why+`}`); !strings.Contains(r.Text, "not found") {
		t.Errorf("load_tool unknown: %s", r.Text)
	}
	// The MCP tool needs approval and there is no one to ask.
	if r := call("notes__find", `{"Words":"x",`+why+`}`); r.Fail == "" || !strings.Contains(r.Fail, "--approve 'mcp:notes'") {
		t.Errorf("unapproved MCP call: %+v", r)
	}
}

func TestWebFetch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>The Page</title><meta name="description" content="About ports"><script>evil()</script></head><body><h1>Ports</h1><p>Port 8080</p></body></html>`))
		case "/plain":
			w.Write([]byte("line 1\nline 2\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	web := &Web{Client: srv.Client(), Now: func() time.Time { return time.Unix(1700000000, 0) }}
	_, ws, set := catalogSet(t, nil, web, "web_fetch:"+srv.URL+"/*")
	why := `,"_rationale":"test"}`
	r := set.Call(context.Background(), "web_fetch", json.RawMessage(`{"Url":"`+srv.URL+`/page"`+why))
	if r.Label != LabelApproved || !strings.HasPrefix(r.Text, "Fetched: "+srv.URL+"/page\nTitle: The Page\nSaved to: ") ||
		!strings.Contains(r.Text, "Preview (first lines):\nDescription: About ports\n  H1: Ports") {
		t.Fatalf("web_fetch raw: %+v", r)
	}
	saved := strings.Fields(strings.SplitN(strings.Split(r.Text, "Saved to: ")[1], "\n", 2)[0])[0]
	// The page lies in session_dir, the envelope's workspace/.
	if filepath.Base(filepath.Dir(saved)) != "workspace" {
		t.Errorf("saved in %s, not in session_dir", saved)
	}
	data, err := ws.Session().ReadFile("workspace/" + filepath.Base(saved))
	if err != nil || strings.Contains(string(data), "evil()") || !strings.Contains(string(data), "<h1>Ports</h1>") {
		t.Errorf("saved page %q: %v", data, err)
	}
	// file_read reaches the session folder by its absolute path.
	if r := set.Call(context.Background(), "file_read", json.RawMessage(`{"Path":"`+saved+`"`+why)); !strings.Contains(r.Text, "<h1>Ports</h1>") {
		t.Errorf("file_read of the saved page: %+v", r)
	}
	r = set.Call(context.Background(), "web_fetch", json.RawMessage(`{"Url":"`+srv.URL+`/page","Format":"text"`+why))
	if !strings.Contains(r.Text, "Preview (first lines):\nThe Page\nPorts\nPort 8080") {
		t.Errorf("web_fetch text: %s", r.Text)
	}
	if r := set.Call(context.Background(), "web_fetch", json.RawMessage(`{"Url":"`+srv.URL+`/missing"`+why)); !strings.HasPrefix(r.Text, "Error: Failed to fetch URL: Response status code does not indicate success: 404") {
		t.Errorf("404: %s", r.Text)
	}
	// A refused connection is an error result, not a hang.
	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL
	closed.Close()
	web2 := &Web{}
	_, _, set2 := catalogSet(t, nil, web2, "web_fetch")
	if r := set2.Call(context.Background(), "web_fetch", json.RawMessage(`{"Url":"`+url+`/x"`+why)); !strings.HasPrefix(r.Text, "Error: Failed to fetch URL:") {
		t.Errorf("refused: %s", r.Text)
	}
	if r := set2.Call(context.Background(), "web_fetch", json.RawMessage(`{"Url":"ftp://x"`+why)); r.Text != "Error: Invalid URL. Must be an absolute HTTP or HTTPS URL." {
		t.Errorf("bad URL: %s", r.Text)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s", n, got)
		}
	}
}

// The memory tools and run_reminder touch NetClaw's state (the user's
// memory store, a reminder's real delivery): a trial offers them with the
// catalogue's spec and stubs every call, saying what would have happened.
func TestMemoryAndRunReminderAreStubbed(t *testing.T) {
	_, _, set := catalogSet(t, nil, nil)
	for name, args := range map[string]string{
		"find_memories": `{"Query":"deploy steps"}`,
		"get_memories":  `{"Ids":"doc-1a2b3c"}`,
		"store_memory":  `{"Title":"t","Content":"c"}`,
		"update_memory": `{"Id":"doc-1a2b3c","Delete":true}`,
		"run_reminder":  `{"Id":"daily-standup"}`,
	} {
		raw := strings.TrimSuffix(args, "}") + `,"_rationale":"test"}`
		r := set.Call(context.Background(), name, json.RawMessage(raw))
		if r.Label != LabelStubbed || !strings.HasPrefix(r.Text, StubNote+" "+name+" touches NetClaw's own state") || !strings.Contains(r.Text, stubbed[name]) {
			t.Errorf("%s: %+v", name, r)
		}
	}
	if r := set.Call(context.Background(), "find_memories", json.RawMessage(`{"Query":"x"}`)); !r.Refused {
		t.Errorf("find_memories without _rationale: %+v", r)
	}
}

// The stub table speaks only of catalogued tools, and every catalogued
// tool a full trial stubs (workspace and skills given) has its own line
// rather than the generic one: a name the catalogue does not hold would
// be a stale entry no run can reach.
func TestStubTableMatchesCatalogue(t *testing.T) {
	for name := range stubbed {
		if _, ok := request.NetClaw().Tool(name); !ok {
			t.Errorf("the stub table names %q, which the catalogue does not hold", name)
		}
	}
	root := t.TempDir()
	ov, err := overlay.New(root, filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Close()
	offered := request.Offered{Audience: preview.Personal, Tools: request.NetClaw().Tools()}
	for _, tool := range FromOffered(Env{Workspace: NewWorkspace(ov), Offered: offered, Skills: []Skill{}}) {
		if _, ok := tool.(*stub); ok && stubbed[tool.Spec().Name] == "" {
			t.Errorf("%s is stubbed with the generic line; give it its own in the stub table", tool.Spec().Name)
		}
	}
}
