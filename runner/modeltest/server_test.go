package modeltest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"

	"github.com/agentdesk/agentdesk/runner/wire"
)

var protocols = []wire.Protocol{wire.OpenAI, wire.Anthropic, wire.Ollama}

// call sends one request for model in protocol p and decodes the stream.
func call(t *testing.T, srv *Server, p wire.Protocol, model string) (*http.Response, []wire.Event, error) {
	t.Helper()
	req, err := p.NewHTTPRequest(context.Background(), wire.Request{
		Endpoint: srv.Endpoint(p), APIKey: "key-" + p.String(), Model: model, System: "You are a test.",
		Messages: []wire.Message{{Role: "user", Text: "task text"}}, MaxTokens: 77,
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return resp, nil, nil
	}
	d := wire.NewDecoder(p, resp.Body)
	var evs []wire.Event
	for {
		e, err := d.Next()
		if err == io.EOF {
			return resp, evs, nil
		}
		if err != nil {
			return resp, evs, err
		}
		evs = append(evs, e)
	}
}

// summary keeps the events that carry content, one short string each.
func summary(evs []wire.Event) string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case wire.Text, wire.Thinking:
			out = append(out, e.Kind.String()+":"+e.Text)
		case wire.ToolCallDone:
			out = append(out, fmt.Sprintf("call:%s(%s) complete=%t", e.Tool.Name, e.Tool.Arguments, e.Tool.Complete))
		case wire.Finish:
			out = append(out, "finish:"+e.Finish)
		case wire.Error:
			out = append(out, "error:"+e.Err.Message)
		case wire.Keepalive:
			out = append(out, "keepalive")
		case wire.Usage:
			out = append(out, fmt.Sprintf("usage:%d/%d", e.Usage.InputTokens, e.Usage.OutputTokens))
		}
	}
	return strings.Join(out, " | ")
}

func TestScriptsPlayInEveryProtocol(t *testing.T) {
	tests := []struct {
		name   string
		script Script
		want   map[wire.Protocol]string
	}{
		{
			name:   "thinking, text, stop",
			script: Script{Steps: []Step{Thinking("hmm"), Text("Hello "), Text("world"), Stop()}},
			want: map[wire.Protocol]string{
				wire.OpenAI:    "thinking:hmm | text:Hello  | text:world | finish:stop",
				wire.Anthropic: "thinking:hmm | text:Hello  | text:world | finish:end_turn",
				wire.Ollama:    "thinking:hmm | text:Hello  | text:world | finish:stop",
			},
		},
		{
			name:   "length",
			script: Script{Steps: []Step{Text("cut"), Length()}},
			want: map[wire.Protocol]string{
				wire.OpenAI:    "text:cut | finish:length",
				wire.Anthropic: "text:cut | finish:max_tokens",
				wire.Ollama:    "text:cut | finish:length",
			},
		},
		{
			name:   "tool call with fragments, and a cut one",
			script: Script{Steps: []Step{ToolCall("c1", "file_read", `{"path":`, `"a.md"}`), ToolCall("c2", "file_list", `{"pa`), Finish(FinishTools)}},
			want: map[wire.Protocol]string{
				wire.OpenAI:    `call:file_read({"path":"a.md"}) complete=true | call:file_list({"pa) complete=false | finish:tool_calls`,
				wire.Anthropic: `call:file_read({"path":"a.md"}) complete=true | call:file_list({"pa) complete=false | finish:tool_use`,
				wire.Ollama:    `call:file_read({"path":"a.md"}) complete=true | call:file_list({"pa) complete=false | finish:stop`,
			},
		},
		{
			name:   "keepalives and an error frame",
			script: Script{Steps: []Step{Keepalive(), Text("a"), ErrorFrame("overloaded")}},
			want: map[wire.Protocol]string{
				wire.OpenAI:    "keepalive | text:a | error:overloaded",
				wire.Anthropic: "keepalive | text:a | error:overloaded",
				wire.Ollama:    "text:a | error:overloaded",
			},
		},
		{
			name:   "usage",
			script: Script{Steps: []Step{Text("a"), Stop()}, Usage: &Usage{InputTokens: 10, OutputTokens: 2}},
			want: map[wire.Protocol]string{
				wire.OpenAI:    "text:a | finish:stop | usage:10/2",
				wire.Anthropic: "usage:10/1 | text:a | usage:0/2 | finish:end_turn",
				wire.Ollama:    "text:a | finish:stop | usage:10/2",
			},
		},
		{
			name:   "raw finish reason, no terminator",
			script: Script{Steps: []Step{Text("x"), Finish("content_filter")}, NoTerminator: true},
			want: map[wire.Protocol]string{
				wire.OpenAI:    "text:x | finish:content_filter",
				wire.Anthropic: "text:x | finish:content_filter",
				wire.Ollama:    "text:x | finish:content_filter",
			},
		},
	}
	srv := NewServer()
	defer srv.Close()
	for _, tt := range tests {
		for _, p := range protocols {
			t.Run(tt.name+"/"+p.String(), func(t *testing.T) {
				srv.Enqueue(tt.script)
				_, evs, err := call(t, srv, p, "m")
				if err != nil {
					t.Fatal(err)
				}
				if got := summary(evs); got != tt.want[p] {
					t.Errorf("\n got %s\nwant %s", got, tt.want[p])
				}
			})
		}
	}
}

func TestRequestsAreRecorded(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetDefault(Reply("ok"))
	for _, p := range protocols {
		if _, _, err := call(t, srv, p, "model-"+p.String()); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, p := range protocols {
		r := reqs[i]
		if r.Protocol != p || r.Model != "model-"+p.String() || r.System != "You are a test." || r.FirstUser() != "task text" ||
			r.APIKey != "key-"+p.String() || r.MaxTokens != 77 || !r.Stream || r.ParseError != "" {
			t.Errorf("%v: recorded %+v", p, r)
		}
	}
	if reqs[1].Header.Get("anthropic-version") == "" {
		t.Error("anthropic-version header not recorded")
	}
}

func TestNonOKStatus(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	for _, p := range protocols {
		srv.Enqueue(Script{Status: 401, ErrorMessage: "invalid api key"})
		resp, _, _ := call(t, srv, p, "m")
		if resp.StatusCode != 401 {
			t.Errorf("%v: status %d", p, resp.StatusCode)
		}
	}
	// Nothing left in the queue and no default: a 500.
	resp, _, _ := call(t, srv, wire.OpenAI, "m")
	if resp.StatusCode != 500 {
		t.Errorf("no script: status %d", resp.StatusCode)
	}
}

func TestDisconnect(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	for _, p := range protocols {
		srv.Enqueue(Script{Steps: []Step{Text("a"), Disconnect(), Text("never")}})
		_, evs, err := call(t, srv, p, "m")
		if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%v: error %v, want unexpected EOF", p, err)
		}
		if got := summary(evs); got != "text:a" {
			t.Errorf("%v: events %s", p, got)
		}
	}
}

func TestForModelAndChooser(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.ForModel("a", Reply("from a"))
	srv.ForModel("b", Reply("from b"))
	srv.SetChooser(func(r Request) (Script, bool) {
		if r.FirstUser() == "special" {
			return Reply("chosen"), true
		}
		return Script{}, false
	})
	for _, m := range []string{"a", "b", "a"} {
		_, evs, err := call(t, srv, wire.Ollama, m)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := summary(evs), "text:from  | text:"+m+" | finish:stop"; got != want {
			t.Errorf("model %s: %s, want %s", m, got, want)
		}
	}
}

func TestPauseEndsWhenClientLeaves(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Enqueue(Script{Steps: []Step{Text("a"), Pause(time.Hour), Stop()}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := wire.OpenAI.NewHTTPRequest(ctx, wire.Request{Endpoint: srv.Endpoint(wire.OpenAI), Model: "m"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	d := wire.NewDecoder(wire.OpenAI, resp.Body)
	for {
		e, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind == wire.Text {
			break
		}
	}
	cancel()
	if _, err := d.Next(); err == nil || err == io.EOF {
		t.Errorf("after cancel: %v, want a read error", err)
	}
	resp.Body.Close()
	srv.Close() // returns only when the handler has left its hour-long pause
}

func TestWords(t *testing.T) {
	got := Words("Hello  big\nworld ")
	want := []string{"Hello  ", "big\n", "world "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q", got)
	}
}
