package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// step is one call the model makes: the guard is consulted, and when it
// allows the call, the call "runs" and returns result.
type step struct {
	name, args, result string
	want               Action
}

// play runs steps through a fresh guard as the run loop would.
func play(t *testing.T, steps []step) {
	t.Helper()
	g := NewGuard()
	for i, s := range steps {
		d := g.Check(s.name, json.RawMessage(s.args))
		if d.Action != s.want {
			t.Fatalf("step %d (%s %s): %v, want %v (%q)", i+1, s.name, s.args, d.Action, s.want, d.Text)
		}
		switch d.Action {
		case Allow:
			if d.Text != "" || d.Reason != "" {
				t.Fatalf("step %d: Allow with text %q reason %q", i+1, d.Text, d.Reason)
			}
			g.Record(s.name, json.RawMessage(s.args), s.result)
		case Refuse:
			if r := d.Result(); r.Text != d.Text || !r.Refused || !r.IsError {
				t.Fatalf("step %d: the refusal's result %+v", i+1, r)
			}
			if !strings.Contains(d.Text, s.name) || !strings.Contains(d.Text, "different approach") || d.Reason != "" {
				t.Fatalf("step %d: correction %q (reason %q)", i+1, d.Text, d.Reason)
			}
		case Stop:
			if d.Reason != ReasonRepeatedToolCall || !strings.Contains(d.Text, s.name) {
				t.Fatalf("step %d: stop %q reason %q", i+1, d.Text, d.Reason)
			}
			return
		}
	}
}

func TestGuard(t *testing.T) {
	const a, b = `{"path":"a.md"}`, `{"path":"b.md"}`
	tests := []struct {
		name  string
		steps []step
	}{
		{"two equal rounds, then refuse, then stop", []step{
			{"file_read", a, "A", Allow},
			{"file_read", a, "A", Allow},
			{"file_read", a, "", Refuse},
			{"file_read", a, "", Stop},
		}},
		{"a different result starts the count again", []step{
			{"file_read", a, "A1", Allow},
			{"file_read", a, "A2", Allow},
			{"file_read", a, "A2", Allow},
			{"file_read", a, "", Refuse},
		}},
		{"only rounds in a row count", []step{
			{"file_read", a, "A1", Allow},
			{"file_read", a, "A2", Allow},
			{"file_read", a, "A1", Allow},
			{"file_read", a, "A1", Allow},
			{"file_read", a, "", Refuse},
		}},
		{"different arguments are a different call", []step{
			{"file_read", a, "A", Allow},
			{"file_read", a, "A", Allow},
			{"file_read", b, "B", Allow},
			{"file_read", b, "B", Allow},
			{"file_read", `{"path":"a.md","start_line":2}`, "A", Allow},
			{"file_list", a, "A", Allow},
			{"file_read", b, "", Refuse},
		}},
		{"calls in between do not hide a loop", []step{
			{"file_read", a, "A", Allow},
			{"file_read", b, "B", Allow},
			{"file_read", a, "A", Allow},
			{"file_read", b, "B", Allow},
			{"file_read", a, "", Refuse},
			{"file_read", b, "", Refuse},
			{"file_list", `{}`, "L", Allow},
			{"file_read", a, "", Stop},
		}},
		{"equal up to key order, spacing and number form", []step{
			{"file_read", `{"path":"a.md","start_line":1,"end_line":10}`, "A", Allow},
			{"file_read", "{ \"end_line\" : 10.0 ,\n\t\"start_line\": 1e0, \"path\": \"a.md\" }", "A", Allow},
			{"file_read", `{"start_line":1,"path":"a\u002emd","end_line":10}`, "", Refuse},
		}},
		{"strings are compared exactly", []step{
			{"file_read", `{"path":"a.md"}`, "A", Allow},
			{"file_read", `{"path":"a.md"}`, "A", Allow},
			{"file_read", `{"path":"A.md"}`, "A", Allow},
			{"file_read", `{"path":"a.md "}`, "A", Allow},
			{"file_read", `{"path":"1"}`, "A", Allow},
			{"file_read", `{"path":1}`, "A", Allow},
		}},
		{"empty arguments equal the empty object", []step{
			{"file_list", ``, "L", Allow},
			{"file_list", `{}`, "L", Allow},
			{"file_list", ` `, "", Refuse},
		}},
		{"arguments that are not JSON compare byte for byte", []step{
			{"file_read", `{"path":`, "bad", Allow},
			{"file_read", `{"path":`, "bad", Allow},
			{"file_read", `{"path" :`, "bad", Allow},
			{"file_read", ` {"path":`, "", Refuse},
		}},
		{"unavailable tools loop too", []step{
			{"web_search", `{"q":"x"}`, "not available", Allow},
			{"web_search", `{"q":"x"}`, "not available", Allow},
			{"web_search", `{"q":"x"}`, "", Refuse},
			{"web_search", `{"q":"x"}`, "", Stop},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { play(t, tt.steps) })
	}
}

func TestGuardIgnoresRecordsOfRefusedCalls(t *testing.T) {
	g := NewGuard()
	args := json.RawMessage(`{"path":"a.md"}`)
	for range 2 {
		g.Check("file_read", args)
		g.Record("file_read", args, "A")
	}
	if d := g.Check("file_read", args); d.Action != Refuse {
		t.Fatalf("third call: %v", d.Action)
	}
	g.Record("file_read", args, "a new result") // a loop that records anyway
	if d := g.Check("file_read", args); d.Action != Stop {
		t.Fatalf("after a correction: %v, want stop", d.Action)
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{``, `{}`, true},
		{`{}`, `{}`, true},
		{` {"b":1, "a":[true,null,"x"]} `, `{"a":[true,null,"x"],"b":1}`, true},
		{`{"a":{"z":1,"y":2}}`, `{"a":{"y":2,"z":1}}`, true},
		{`{"a":1,"a":2}`, `{"a":2}`, true},
		{`[1.0, 1e2, -0, -0.0, 0.5, 2.50, 1E-1, 10e-1, 1E+3, -120.0e-1]`, `[1,100,0,0,5e-1,25e-1,1e-1,1,1000,-12]`, true},
		{`12345678901234567890123`, `12345678901234567890123`, true},
		{`12345678901234567890123.0`, `12345678901234567890123`, true},
		{`1e999999999`, `1e999999999`, true},
		{`1e99999999999999999999`, `1e99999999999999999999`, true},
		{`0.000001e6`, `1`, true},
		{`"\u00e9<&>"`, `"é\u003c\u0026\u003e"`, true},
		{`null`, `null`, true},
		{`{"a":`, ``, false},
		{`{} {}`, ``, false},
		{`{}x`, ``, false},
		{"\"\xff\"", ``, false},
	}
	for _, tt := range tests {
		got, ok := Canonical(json.RawMessage(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Canonical(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
