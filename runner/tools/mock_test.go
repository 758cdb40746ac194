package tools

import (
	"context"
	"encoding/json"
	"testing"
)

func TestMocks(t *testing.T) {
	ms := Mocks{
		{Tool: "web_fetch", Args: map[string]any{"Url": "https://example.test/*"}, Result: "<html>mocked</html>"},
		{Tool: "web_fetch", Args: map[string]any{"url": "https://down.test/*"}, Error: "Error: connection refused"},
		{Tool: "gh__create_issue", Args: map[string]any{"Labels": []any{"bug"}, "Count": 2, "Meta": map[string]any{"a": "x*"}}, Result: "created"},
		{Tool: "shell_execute", Result: "Exit code: 0\nok"},
	}
	tests := []struct {
		tool, args string
		ok         bool
		text       string
		isErr      bool
	}{
		{"web_fetch", `{"URL":"https://example.test/a/b","_rationale":"x"}`, true, "<html>mocked</html>", false},
		{"web_fetch", `{"Url":"https://down.test/"}`, true, "Error: connection refused", true},
		{"web_fetch", `{"Url":"https://other.test/"}`, false, "", false},
		{"gh__create_issue", `{"Labels":["bug"],"Count":2.0,"Meta":{"a":"xyz","b":1},"Title":"t"}`, true, "created", false},
		{"gh__create_issue", `{"Labels":["bug","x"],"Count":2,"Meta":{"a":"xyz"}}`, false, "", false},
		{"gh__create_issue", `{"Labels":["bug"],"Count":3,"Meta":{"a":"xyz"}}`, false, "", false},
		{"shell_execute", `{"Command":"anything"}`, true, "Exit code: 0\nok", false},
		{"file_read", `{"Path":"a"}`, false, "", false},
	}
	for _, tt := range tests {
		res, ok := ms.Mock(tt.tool, json.RawMessage(tt.args))
		if ok != tt.ok || ok && (res.Text != tt.text || res.IsError != tt.isErr || res.Label != LabelMocked) {
			t.Errorf("Mock(%s, %s) = %+v, %v", tt.tool, tt.args, res, ok)
		}
	}
	// In a Set, a mocked call of a gated tool needs no approval and is
	// not run.
	shell := &echo{spec: Spec{Name: "shell_execute", Approval: true}}
	s := NewSet([]Tool{shell}, WithMocks(ms))
	if res := s.Call(context.Background(), "shell_execute", json.RawMessage(`{"Command":"rm -rf /"}`)); res.Label != LabelMocked || shell.calls != 0 {
		t.Errorf("mocked shell call: %+v, ran %d", res, shell.calls)
	}
}
