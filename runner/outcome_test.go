package runner

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/wire"
)

func TestClassify(t *testing.T) {
	ok := func(ev CallEvidence) *CallEvidence {
		if ev.Endpoint == "" {
			ev.Endpoint = "http://m/v1/chat/completions"
		}
		return &ev
	}
	tc := func(name, args string, complete bool) wire.ToolCallPart {
		return wire.ToolCallPart{Name: name, Arguments: args, Complete: complete}
	}
	tests := []struct {
		name    string
		ev      *CallEvidence
		outcome vocab.Outcome
		reason  string
		has     string
	}{
		{"completed", ok(CallEvidence{Text: "hi", Finished: true, Finish: "stop"}), vocab.Completed, "", ""},
		{"completed on a raw reason", ok(CallEvidence{Text: "hi", Finished: true, Finish: "content_filter"}), vocab.Completed, "", ""},
		{"completed with an empty Ollama done_reason", ok(CallEvidence{Text: "hi", Finished: true}), vocab.Completed, "", ""},
		{"length", ok(CallEvidence{Text: "hi", Finished: true, Finish: "length"}), vocab.Failed, vocab.ReasonOutputTruncated, "output limit"},
		{"max_tokens", ok(CallEvidence{Text: "hi", Finished: true, Finish: "max_tokens"}), vocab.Failed, vocab.ReasonOutputTruncated, ""},
		{"length with a whole tool call is not truncation", ok(CallEvidence{Text: "hi", Finished: true, Finish: "length", ToolCalls: []wire.ToolCallPart{tc("f", "{}", true)}}), vocab.Completed, "", ""},
		{"tool_calls with broken arguments", ok(CallEvidence{Finished: true, Finish: "tool_calls", ToolCalls: []wire.ToolCallPart{tc("f", "{", false)}}), vocab.Failed, vocab.ReasonOutputTruncated, "not complete JSON"},
		{"empty", ok(CallEvidence{Finished: true, Finish: "stop"}), vocab.Failed, vocab.ReasonEmptyFinalResponse, "no text"},
		{"cancel beats everything", ok(CallEvidence{Cancelled: true, Trip: &Trip{Reason: vocab.ReasonNoActivity}, Err: io.ErrUnexpectedEOF}), vocab.Failed, vocab.ReasonCancelledByParent, ""},
		{"a trip beats a stream error", ok(CallEvidence{Trip: &Trip{Reason: vocab.ReasonNoActivity, Limit: "inter-delta"}, Err: io.ErrUnexpectedEOF}), vocab.Failed, vocab.ReasonNoActivity, "silent"},
		{"error frame", ok(CallEvidence{Text: "x", StreamError: &wire.StreamError{Type: "overloaded_error", Message: "Overloaded"}}), vocab.Failed, vocab.ReasonLLMCallFailed, "overloaded_error: Overloaded"},
		{"http", ok(CallEvidence{HTTPStatus: 401, HTTPError: "bad key"}), vocab.Failed, vocab.ReasonLLMCallFailed, "HTTP 401: bad key"},
		{"http 401 names the key to check", ok(CallEvidence{HTTPStatus: 401, HTTPError: "bad key", Provider: "cloud"}), vocab.Failed, vocab.ReasonLLMCallFailed,
			"HTTP 401: bad key; check the key of provider cloud (Providers.cloud.ApiKey in secrets.json, or NETCLAW_Providers__cloud__ApiKey)"},
		{"http 404 names the endpoint to check", ok(CallEvidence{HTTPStatus: 404, HTTPError: "model not found", Provider: "local"}), vocab.Failed, vocab.ReasonLLMCallFailed,
			"model not found; check Providers.local.Endpoint and the model's ModelId"},
		{"http 503", ok(CallEvidence{HTTPStatus: 503, HTTPError: "overloaded"}), vocab.Failed, vocab.ReasonLLMCallFailed, "overloaded; the provider failed: run again later"},
		{"connection refused names the endpoint to check", ok(CallEvidence{Err: errors.New("connection refused"), Provider: "local"}), vocab.Failed, vocab.ReasonLLMCallFailed,
			"check that Providers.local.Endpoint in netclaw.json is right"},
		{"malformed", ok(CallEvidence{Err: &wire.MalformedError{Protocol: wire.OpenAI, Line: 3, Err: errors.New("x")}}), vocab.Failed, vocab.ReasonLLMCallFailed, "malformed"},
		{"line cap", ok(CallEvidence{Err: fmt.Errorf("%w (16 MiB)", wire.ErrLineTooLong)}), vocab.Failed, vocab.ReasonLLMCallFailed, "line cap"},
		{"no finish", ok(CallEvidence{Text: "x"}), vocab.Failed, vocab.ReasonLLMCallFailed, "without a finish reason"},
	}
	for _, tt := range tests {
		v := Classify(tt.ev)
		if v.Outcome != tt.outcome || v.Reason != tt.reason || !strings.Contains(v.Message, tt.has) {
			t.Errorf("%s: got %s/%s %q, want %s/%s with %q", tt.name, v.Outcome, v.Reason, v.Message, tt.outcome, tt.reason, tt.has)
		}
	}
}

func TestVerdictState(t *testing.T) {
	for _, tt := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Outcome: vocab.Completed}, vocab.StateCompleted},
		{Verdict{Outcome: vocab.Partial, Reason: "tool_iteration_budget_exhausted"}, vocab.StatePartial},
		{Verdict{Outcome: vocab.Failed, Reason: vocab.ReasonOutputTruncated}, vocab.StateFailed},
		{Verdict{Outcome: vocab.Failed, Reason: vocab.ReasonCancelledByParent}, vocab.StateCancelled},
	} {
		if got := tt.v.State(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.v, got, tt.want)
		}
	}
}
