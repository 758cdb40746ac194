package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/approve"
)

// echo is a Tool returning its arguments.
type echo struct {
	spec  Spec
	calls int
}

func (e *echo) Spec() Spec { return e.spec }
func (e *echo) Call(_ context.Context, args json.RawMessage) Result {
	e.calls++
	return Result{Text: "ran " + string(args)}
}

// mockAll answers every call to one tool.
type mockAll struct{ tool string }

func (m mockAll) Mock(name string, _ json.RawMessage) (Result, bool) {
	return Result{Text: "mocked"}, name == m.tool
}

func TestSetCall(t *testing.T) {
	asked := 0
	answer := approve.Deny
	asker := approve.AskerFunc(func(context.Context, approve.Request) (approve.Answer, error) {
		asked++
		return answer, nil
	})
	pats, err := approve.ParseAll([]string{"shell_execute:ls*"})
	if err != nil {
		t.Fatal(err)
	}
	newSet := func(a approve.Asker) (*Set, *echo, *echo) {
		read := &echo{spec: Spec{Name: "file_read"}}
		shell := &echo{spec: Spec{Name: "shell_execute", Approval: true}}
		deferred := &echo{spec: Spec{Name: "notes__find", Deferred: true}}
		return NewSet([]Tool{read, shell, deferred}, WithGate(approve.NewGate(pats, a)), RequireRationale(), WithMocks(mockAll{tool: "web_fetch"})), read, shell
	}
	ctx := context.Background()
	why := `,"_rationale":"because"`

	tests := []struct {
		name      string
		asker     approve.Asker
		answer    approve.Answer
		tool      string
		args      string
		label     Label
		isErr     bool
		fail      bool
		text      string
		shellRuns int
	}{
		{name: "read-only runs for real", tool: "file_read", args: `{"Path":"a"` + why + `}`, label: LabelReal, text: "ran "},
		{name: "no rationale refused", tool: "file_read", args: `{"Path":"a"}`, label: LabelReal, isErr: true, text: RationaleRefusal},
		{name: "not offered", tool: "spawn_agent", args: `{}`, isErr: true, text: "Unknown tool: spawn_agent"},
		{name: "deferred, never loaded, runs as in the runtime", tool: "notes__find", args: `{"Words":"x"` + why + `}`, label: LabelReal, text: "ran "},
		{name: "pattern approves", tool: "shell_execute", args: `{"Command":"ls -la"` + why + `}`, label: LabelApproved, shellRuns: 1},
		{name: "unattended ends the run", tool: "shell_execute", args: `{"Command":"rm x"` + why + `}`, label: LabelDenied, isErr: true, fail: true, text: "--approve 'shell_execute:rm x'"},
		{name: "author denies", asker: asker, answer: approve.Deny, tool: "shell_execute", args: `{"Command":"rm x"` + why + `}`, label: LabelDenied, isErr: true, text: "Tool access denied: approval_denied_by_user"},
		{name: "author approves", asker: asker, answer: approve.Once, tool: "shell_execute", args: `{"Command":"rm x"` + why + `}`, label: LabelApproved, shellRuns: 1},
		{name: "mocked, not run", tool: "web_fetch", args: `{}`, label: LabelMocked, text: "mocked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer = tt.answer
			s, _, shell := newSet(tt.asker)
			res := s.Call(ctx, tt.tool, json.RawMessage(tt.args))
			if res.Label != tt.label || res.IsError != tt.isErr || (res.Fail != "") != tt.fail || !strings.Contains(res.Text, tt.text) || tt.name == "not offered" && res.Text != tt.text {
				t.Errorf("Call = %+v", res)
			}
			if shell.calls != tt.shellRuns {
				t.Errorf("shell ran %d times, want %d", shell.calls, tt.shellRuns)
			}
		})
	}
	if asked != 2 {
		t.Errorf("asked %d times, want 2", asked)
	}
}

func TestSplitMeta(t *testing.T) {
	m, rest, err := SplitMeta(json.RawMessage(`{"Path":"a","_Rationale":"why","_timeout_seconds":30,"_background":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Rationale != "why" || m.TimeoutSeconds != 30 || !m.Background || string(rest) != `{"Path":"a"}` {
		t.Errorf("SplitMeta = %+v %s", m, rest)
	}
	if _, _, err := SplitMeta(json.RawMessage(`[1]`)); err == nil {
		t.Error("an array is not arguments")
	}
	if _, rest, err := SplitMeta(nil); err != nil || string(rest) != "{}" {
		t.Errorf("empty arguments: %s %v", rest, err)
	}
}

func TestSetClose(t *testing.T) {
	var order []int
	s := NewSet(nil)
	s.OnClose(func() error { order = append(order, 1); return nil })
	s.OnClose(func() error { order = append(order, 2); return nil })
	if err := s.Close(); err != nil || len(order) != 2 || order[0] != 2 {
		t.Errorf("Close order %v, %v", order, err)
	}
}

// The offered tools are the core ones in the order they were added, then
// the deferred ones in the order they were activated, as SubAgentActor
// seeds its core tools and appends each tool load_tool activates.
func TestSetOfferedCoreThenLoadOrder(t *testing.T) {
	mk := func(name string, deferred bool) Tool { return &echo{spec: Spec{Name: name, Deferred: deferred}} }
	tests := []struct {
		name string
		load [][]string
		want string
	}{
		{"nothing loaded", nil, "shell_execute,file_read,search_tools,load_tool"},
		{"one loaded", [][]string{{"set_reminder"}}, "shell_execute,file_read,search_tools,load_tool,set_reminder"},
		{"load order, not registration order", [][]string{{"set_reminder"}, {"web_fetch"}}, "shell_execute,file_read,search_tools,load_tool,set_reminder,web_fetch"},
		{"loaded twice counts once", [][]string{{"web_fetch"}, {"web_fetch", "set_reminder"}}, "shell_execute,file_read,search_tools,load_tool,web_fetch,set_reminder"},
		{"a core tool or an unknown one changes nothing", [][]string{{"file_read", "nope"}}, "shell_execute,file_read,search_tools,load_tool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSet([]Tool{mk("shell_execute", false), mk("web_fetch", true), mk("file_read", false), mk("set_reminder", true), mk("search_tools", false), mk("load_tool", false)})
			for _, names := range tc.load {
				s.Load(names...)
			}
			var got []string
			for _, sp := range s.Offered() {
				got = append(got, sp.Name)
			}
			if strings.Join(got, ",") != tc.want {
				t.Errorf("offered %v, want %s", got, tc.want)
			}
		})
	}
}
