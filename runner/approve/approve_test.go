package approve

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestSubjectFor(t *testing.T) {
	tests := []struct {
		tool, args, want string
	}{
		{"shell_execute", `{"Command":"go test ./...","_rationale":"x"}`, "go test ./..."},
		{"shell_execute", `{"command":"ls"}`, "ls"},
		{"web_fetch", `{"Url":"https://example.test/a"}`, "https://example.test/a"},
		{"web_search", `{"Query":"netclaw"}`, "netclaw"},
		{"github__get", `{"b":1,"a":"x","_rationale":"why"}`, `{"a":"x","b":1}`},
		{"web_fetch", `{"Other":"x"}`, ""},
		{"x", `not json`, "not json"},
	}
	for _, tt := range tests {
		if got := SubjectFor(tt.tool, json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("SubjectFor(%s, %s) = %q, want %q", tt.tool, tt.args, got, tt.want)
		}
	}
}

func TestSuggestIsApprovedByItsPattern(t *testing.T) {
	reqs := []Request{
		NewRequest("shell_execute", "", json.RawMessage(`{"Command":"rm *.tmp && echo ok?"}`)),
		NewRequest("web_fetch", "", json.RawMessage(`{"Url":"https://example.test/x?y=*"}`)),
		NewRequest("github__create_issue", "github", json.RawMessage(`{"Title":"t"}`)),
		NewRequest("skill_manage", "", json.RawMessage(`{"Action":"create"}`)),
	}
	for _, req := range reqs {
		p, err := Parse(req.Suggest())
		if err != nil {
			t.Fatalf("Suggest %q does not parse: %v", req.Suggest(), err)
		}
		if !matches(p, req) {
			t.Errorf("Suggest %q does not match %+v", req.Suggest(), req)
		}
	}
	if got := reqs[0].Suggest(); got != `shell_execute:rm \*.tmp && echo ok\?` {
		t.Errorf("shell suggestion = %q", got)
	}
}

// scripted is an Asker answering from a list and counting its questions.
type scripted struct {
	mu      sync.Mutex
	answers []Answer
	asked   []Request
}

func (s *scripted) Ask(_ context.Context, req Request) (Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, req)
	if len(s.answers) == 0 {
		return Deny, errors.New("no answer scripted")
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

func TestGateDecide(t *testing.T) {
	must := func(s ...string) []Pattern {
		ps, err := ParseAll(s)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	shell := func(cmd string) Request {
		b, _ := json.Marshal(map[string]string{"Command": cmd})
		return NewRequest("shell_execute", "", b)
	}
	mcp := NewRequest("gh__list", "gh", json.RawMessage(`{}`))
	ctx := context.Background()

	t.Run("patterns", func(t *testing.T) {
		g := NewGate(must("shell_execute:go test *", "mcp:gh"), nil)
		if d := g.Decide(ctx, shell("go test ./...")); d.Verdict != Approved || d.By != "--approve shell_execute:go test *" {
			t.Errorf("matching command: %+v", d)
		}
		if d := g.Decide(ctx, mcp); d.Verdict != Approved {
			t.Errorf("mcp server pattern: %+v", d)
		}
		d := g.Decide(ctx, shell("rm -rf /"))
		if d.Verdict != Unattended || d.Suggest != "shell_execute:rm -rf /" {
			t.Errorf("unmatched command with no asker: %+v", d)
		}
		msg := UnattendedMessage(shell("rm -rf /"), AdviseCommand)
		if !strings.Contains(msg, "Tool 'shell_execute' requires interactive approval, but no parent approval bridge is available.") || !strings.Contains(msg, "--approve 'shell_execute:rm -rf /'") {
			t.Errorf("unattended message: %s", msg)
		}
	})
	t.Run("asker once, for run, deny", func(t *testing.T) {
		a := &scripted{answers: []Answer{Once, Deny, ForRun}}
		g := NewGate(nil, a)
		if d := g.Decide(ctx, shell("ls")); d.Verdict != Approved || d.By != "the author (once)" {
			t.Errorf("once: %+v", d)
		}
		if d := g.Decide(ctx, shell("ls")); d.Verdict != Denied || d.By != "the author" {
			t.Errorf("once is only once; then deny: %+v", d)
		}
		if d := g.Decide(ctx, shell("pwd")); d.Verdict != Approved {
			t.Errorf("for run: %+v", d)
		}
		if d := g.Decide(ctx, shell("anything else")); d.Verdict != Approved || d.By != "the author (for this run)" {
			t.Errorf("later call after for-run: %+v", d)
		}
		if len(a.asked) != 3 {
			t.Errorf("asked %d times, want 3", len(a.asked))
		}
		if got := g.ApprovedForRun(); len(got) != 1 || got[0] != "shell_execute" {
			t.Errorf("ApprovedForRun = %v", got)
		}
	})
	t.Run("nil gate is unattended", func(t *testing.T) {
		var g *Gate
		if d := g.Decide(ctx, mcp); d.Verdict != Unattended || d.Suggest != "mcp:gh" {
			t.Errorf("%+v", d)
		}
	})
}

func TestPromptsCancelledWhileWaiting(t *testing.T) {
	p := NewPrompts(0)
	g := NewGate(nil, p)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Decision)
	go func() {
		done <- g.Decide(ctx, NewRequest("web_fetch", "", json.RawMessage(`{"Url":"https://x.test"}`)))
	}()
	pr := <-p.C // the browser shows it
	if pr.Req.Subject != "https://x.test" {
		t.Errorf("prompt subject %q", pr.Req.Subject)
	}
	cancel()
	d := <-done
	if d.Verdict != Denied || d.By != "cancelled" {
		t.Errorf("cancelled while asking: %+v", d)
	}
	// The author answers late: no block, no panic.
	pr.Answer(Once)
	pr.Answer(ForRun)
}

func TestPromptsAnswered(t *testing.T) {
	p := NewPrompts(1).ForRun("abc")
	g := NewGate(nil, p)
	go func() {
		pr := <-p.C
		if pr.RunID != "abc" {
			t.Errorf("run id %q", pr.RunID)
		}
		pr.Answer(ForRun)
	}()
	if d := g.Decide(context.Background(), NewRequest("web_search", "", json.RawMessage(`{"Query":"q"}`))); d.Verdict != Approved {
		t.Errorf("%+v", d)
	}
}

func TestPromptsCancelledBeforeSend(t *testing.T) {
	p := NewPrompts(0) // no one reads
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a, err := p.Ask(ctx, Request{Tool: "x"}); a != Deny || err == nil {
		t.Errorf("Ask on a cancelled context = %v, %v", a, err)
	}
}

// TestUnattendedMessageQuotesForTheShell: the `--approve` the message
// suggests is copied into a shell by the author, and the command in it is
// the model's. A quote in the command must not end the quoting and turn
// the rest of the model's text into shell syntax (`; rm ...`): the shell
// must read the suggested word back as exactly the pattern.
func TestUnattendedMessageQuotesForTheShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	for _, cmd := range []string{
		"rm -rf /",
		"echo 'it''s' > shell.txt; (sleep 300 &) ; touch pwned",
		`printf '%s\n' "$HOME" \ 'x'`,
		"a'",
	} {
		req := NewRequest("shell_execute", "", json.RawMessage(`{"Command":`+strconvQuote(cmd)+`}`))
		msg := UnattendedMessage(req, AdviseCommand)
		_, word, ok := strings.Cut(msg, "--approve ")
		if !ok {
			t.Fatalf("no --approve in %q", msg)
		}
		word, _, ok = strings.Cut(word, ", or run it in the browser")
		if !ok {
			t.Fatalf("no end of the pattern in %q", msg)
		}
		c := exec.Command(sh, "-c", "printf '%s' "+word)
		c.Dir = t.TempDir() // should the quoting break, nothing lands here
		out, err := c.Output()
		if err != nil {
			t.Fatalf("sh -c printf %s: %v", word, err)
		}
		if string(out) != req.Suggest() {
			t.Errorf("command %q: the shell reads the suggestion %s as %q, want %q", cmd, word, out, req.Suggest())
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestMatchCase: mcp:SERVER names the server ignoring case, as NetClaw's
// AllowedMcpServers does (ToolAudienceProfileResolver, OrdinalIgnoreCase);
// tool names are exact, as NetClaw's AllowedTools and McpServerToolGrants
// compare them (Ordinal).
func TestMatchCase(t *testing.T) {
	gh := NewRequest("GitHub__create_issue", "GitHub", json.RawMessage(`{"Title":"t"}`))
	tests := []struct {
		pattern string
		req     Request
		want    bool
	}{
		{"mcp:GitHub", gh, true},
		{"mcp:github", gh, true},
		{"mcp:GITHUB", gh, true},
		{"mcp:gitlab", gh, false},
		{"mcp:github", NewRequest("github", "", nil), false},
		{"GitHub__create_issue", gh, true},
		{"github__create_issue", gh, false},
		{"shell_execute", NewRequest("Shell_Execute", "", nil), false},
		{"shell_execute:LS*", NewRequest("shell_execute", "", json.RawMessage(`{"Command":"ls"}`)), false},
	}
	for _, tt := range tests {
		p, err := Parse(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := matches(p, tt.req); got != tt.want {
			t.Errorf("%s matches %s (server %q): %v, want %v", tt.pattern, tt.req.Tool, tt.req.Server, got, tt.want)
		}
	}
}

// The refusal of a call no one could approve names agentdesk once, and
// its advice fits where the run was started.
func TestUnattendedMessageFitsThePlace(t *testing.T) {
	req := NewRequest("shell_execute", "", json.RawMessage(`{"Command":"ls"}`))
	for _, tt := range []struct {
		where     Advice
		want, not string
	}{
		{AdviseCommand, "Approve it with --approve 'shell_execute:ls', or run it in the browser, which asks.", "approve:"},
		{AdviseSuite, "Approve it in the suite or the case (approve: ['shell_execute:ls']), or with --approve 'shell_execute:ls'.", "browser"},
		{AdviseBrowserSuite, "Approve it in the suite or the case (approve: ['shell_execute:ls']), or run the agent on its own in the browser, which asks.", "--approve"},
	} {
		msg := UnattendedMessage(req, tt.where)
		if strings.Contains(msg, "agentdesk:") || !strings.HasPrefix(msg, "Tool 'shell_execute' requires interactive approval, but no parent approval bridge is available. ") {
			t.Errorf("%d: %q repeats a prefix or lost the runtime's words", tt.where, msg)
		}
		if !strings.Contains(msg, tt.want) || strings.Contains(msg, tt.not) {
			t.Errorf("%d: %q, want %q and not %q", tt.where, msg, tt.want, tt.not)
		}
	}
}
