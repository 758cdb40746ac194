package wire

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint/golden"
)

// golden compares got with testdata/name, or writes it with -update.
func matchGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, got)
}

// toolConversation is a run two model calls into a tool loop: text and two
// calls, their results (one failed), a call without text or arguments, its
// result, and a nudge from the user.
func toolConversation() Request {
	return Request{
		Model: "m", System: "You read code.", MaxTokens: 300,
		Messages: []Message{
			{Role: "user", Text: "What does main.go do?"},
			{Role: "assistant", Text: "Let me look.", ToolCalls: []ToolCallPart{
				{ID: "call_1", Name: "file_read", Arguments: `{"path": "main.go"}`},
				{ID: "call_2", Name: "web_search", Arguments: `{"query":"x"}`},
			}},
			{Role: "tool", ToolCallID: "call_1", ToolName: "file_read", Text: "package main\n"},
			{Role: "tool", ToolCallID: "call_2", ToolName: "web_search", Text: "web_search is not available in a trial run.", IsError: true},
			{Role: "assistant", ToolCalls: []ToolCallPart{{ID: "call_3", Name: "file_list"}}},
			{Role: "tool", ToolCallID: "call_3", ToolName: "file_list", Text: "main.go\n"},
			{Role: "user", Text: "Answer now."},
		},
		Tools: []Tool{
			{Name: "file_read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "file_list", Description: "List a folder."},
		},
	}
}

func TestBodyWithTools(t *testing.T) {
	for _, p := range []Protocol{OpenAI, Anthropic, Ollama} {
		for _, withdrawn := range []bool{false, true} {
			name := "body-tools-" + p.String()
			if withdrawn {
				name += "-withdrawn"
			}
			t.Run(name, func(t *testing.T) {
				r := toolConversation()
				r.ToolsWithdrawn = withdrawn
				b, err := p.Body(r)
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				if err := json.Indent(&out, b, "", "  "); err != nil {
					t.Fatalf("body is not JSON: %v\n%s", err, b)
				}
				out.WriteByte('\n')
				matchGolden(t, name+".json", out.Bytes())
			})
		}
	}
}

func TestArgumentsObject(t *testing.T) {
	for in, want := range map[string]string{
		"":                 `{}`,
		"  ":               `{}`,
		`{"a":1}`:          `{"a":1}`,
		` {"a": [1, 2]} `:  `{"a": [1, 2]}`,
		`[1]`:              `{}`,
		`"x"`:              `{}`,
		`{"path": "do`:     `{}`,
		`{"a":1} trailing`: `{}`,
	} {
		if got := string(argumentsObject(in)); got != want {
			t.Errorf("argumentsObject(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestBodyLayers(t *testing.T) {
	r := Request{Model: "m", System: "You are the frontline.", Layers: []string{"[layer one]", "", "[layer two]"}, Messages: []Message{{Role: "user", Text: "hi"}}}
	for _, tc := range []struct {
		p    Protocol
		want []string
	}{
		{OpenAI, []string{`"messages":[{"role":"system","content":"You are the frontline."},{"role":"system","content":"[layer one]"},{"role":"system","content":"[layer two]"},{"role":"user","content":"hi"}]`}},
		{Ollama, []string{`"messages":[{"role":"system","content":"You are the frontline."},{"role":"system","content":"[layer one]"},{"role":"system","content":"[layer two]"},{"role":"user","content":"hi"}]`}},
		{Anthropic, []string{`"system":[{"type":"text","text":"You are the frontline."},{"type":"text","text":"[layer one]"},{"type":"text","text":"[layer two]"}]`}},
	} {
		b, err := tc.p.Body(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !bytes.Contains(b, []byte(w)) {
				t.Errorf("%s body lacks %s:\n%s", tc.p, w, b)
			}
		}
	}
	// Without layers Anthropic keeps "system" a string.
	b, _ := Anthropic.Body(Request{Model: "m", System: "s"})
	if !bytes.Contains(b, []byte(`"system":"s"`)) {
		t.Errorf("anthropic body without layers: %s", b)
	}
	// Only a layer: it is the one system message.
	b, _ = Anthropic.Body(Request{Model: "m", Layers: []string{"L"}})
	if !bytes.Contains(b, []byte(`"system":[{"type":"text","text":"L"}]`)) {
		t.Errorf("anthropic body with only a layer: %s", b)
	}
}
