package tools

import (
	"encoding/json"
	"fmt"
	"testing"
)

// turn is one reply of a model: its tool calls, and what each returns
// when it runs.
type turn struct {
	calls   []GuardCall
	results []string
	want    Action
}

func gcall(name, args string) GuardCall { return GuardCall{Name: name, Args: json.RawMessage(args)} }

// one is a reply with one call.
func one(name, args, result string, want Action) turn {
	return turn{calls: []GuardCall{gcall(name, args)}, results: []string{result}, want: want}
}

// play runs turns through a fresh guard as the run loop does.
func play(t *testing.T, turns []turn) {
	t.Helper()
	g := NewGuard()
	for i, tn := range turns {
		b := g.Prepare(tn.calls)
		d := g.Admit(b)
		if d.Action != tn.want {
			t.Fatalf("reply %d (%v): %v, want %v", i+1, tn.calls, d.Action, tn.want)
		}
		if d.Action == Stop {
			return
		}
		res := make([]Result, len(tn.calls))
		for j := range tn.calls {
			if d.Call(j) == Refuse {
				res[j] = d.Result()
				if res[j].Text != CorrectionText || !res[j].Refused {
					t.Fatalf("reply %d: refusal %+v", i+1, res[j])
				}
				continue
			}
			res[j] = Result{Text: tn.results[j]}
		}
		g.Complete(b, d, res)
	}
}

const (
	ra = `{"Path":"a.md","_rationale":"read a"}`
	rb = `{"Path":"b.md","_rationale":"read b"}`
	rc = `{"Path":"c.md","_rationale":"read c"}`
)

func TestGuard(t *testing.T) {
	tests := []struct {
		name  string
		turns []turn
	}{
		{"two equal outcomes, then a correction, then the end", []turn{
			one("file_read", ra, "A", Allow),
			one("file_read", ra, "A", Allow),
			one("file_read", ra, "", Refuse),
			one("file_read", ra, "", Stop),
		}},
		{"a changed result starts the count again", []turn{
			one("file_read", ra, "A1", Allow),
			one("file_read", ra, "A2", Allow),
			one("file_read", ra, "A2", Allow),
			one("file_read", ra, "", Refuse),
		}},
		{"the rationale is not part of what a call is", []turn{
			one("file_read", ra, "A", Allow),
			one("file_read", `{"_rationale":"again","Path":"a.md"}`, "A", Allow),
			one("file_read", `{"Path":"a.md","_rationale":"once more"}`, "", Refuse),
		}},
		{"key order is not, the text of a number is", []turn{
			one("file_read", `{"Path":"a.md","Line":1,"_rationale":"r"}`, "A", Allow),
			one("file_read", `{"Line":1,"Path":"a.md","_rationale":"r"}`, "A", Allow),
			one("file_read", `{"Path":"a.md","Line":1.0,"_rationale":"r"}`, "A", Allow),
			one("file_read", `{"Path":"a.md","Line":1,"_rationale":"r"}`, "", Refuse),
		}},
		{"a call without _rationale differs from its repair", []turn{
			one("file_read", `{"Path":"a.md"}`, "Error: rationale", Allow),
			one("file_read", `{"Path":"a.md"}`, "Error: rationale", Allow),
			one("file_read", ra, "A", Allow),
			one("file_read", `{"Path":"a.md"}`, "", Refuse),
		}},
		{"a cycle of period 2: the fifth call is corrected, the sixth too, the seventh ends it", []turn{
			one("file_read", ra, "A", Allow),
			one("file_read", rb, "B", Allow),
			one("file_read", ra, "A", Allow),
			one("file_read", rb, "B", Allow),
			one("file_read", ra, "", Refuse),
			one("file_read", rb, "", Refuse),
			one("file_read", ra, "", Stop),
		}},
		{"a cycle of period 3", []turn{
			one("file_read", ra, "A", Allow),
			one("file_read", rb, "B", Allow),
			one("file_read", rc, "C", Allow),
			one("file_read", ra, "A", Allow),
			one("file_read", rb, "B", Allow),
			one("file_read", rc, "C", Allow),
			one("file_read", ra, "", Refuse),
		}},
		{"a changed outcome breaks the cycle", []turn{
			one("file_read", ra, "A", Allow),
			one("file_read", rb, "B1", Allow),
			one("file_read", ra, "A2", Allow),
			one("file_read", rb, "B2", Allow),
			one("file_read", ra, "A3", Allow),
		}},
		{"distinct calls never stop", func() []turn {
			var ts []turn
			for i := range 70 {
				ts = append(ts, one("file_read", fmt.Sprintf(`{"Path":"f%d.md","_rationale":"r"}`, i), "x", Allow))
			}
			return ts
		}()},
		{"a batch: only the repeated call is refused, and the next repeat stops the batch", []turn{
			one("file_read", ra, "A", Allow),
			one("file_read", ra, "A", Allow),
			{calls: []GuardCall{gcall("file_read", ra), gcall("file_read", rb)}, results: []string{"", "B"}, want: Refuse},
			{calls: []GuardCall{gcall("file_read", rb), gcall("file_read", ra)}, results: []string{"B", ""}, want: Stop},
		}},
		{"a repeated batch of two calls is corrected as a whole, then ends the run", []turn{
			{calls: []GuardCall{gcall("file_read", ra), gcall("file_read", rb)}, results: []string{"A", "B"}, want: Allow},
			{calls: []GuardCall{gcall("file_read", rb), gcall("file_read", ra)}, results: []string{"B", "A"}, want: Allow},
			{calls: []GuardCall{gcall("file_read", ra), gcall("file_read", rb)}, results: []string{"", ""}, want: Refuse},
			{calls: []GuardCall{gcall("file_read", ra), gcall("file_read", rb)}, results: []string{"", ""}, want: Stop},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { play(t, tt.turns) })
	}
}

// TestGuardPendingJob: a status call whose last result was a pending job
// is exempt, however often it repeats; a call that cancels is not.
func TestGuardPendingJob(t *testing.T) {
	g := NewGuard()
	status := []GuardCall{gcall("check_background_job", `{"JobId":"j1","_rationale":"poll"}`)}
	for i := range 6 {
		b := g.Prepare(status)
		d := g.Admit(b)
		if d.Action != Allow {
			t.Fatalf("poll %d: %v, want allow", i+1, d.Action)
		}
		g.Complete(b, d, []Result{{Text: "running", PendingJob: true}})
	}
	cancel := []GuardCall{gcall("check_background_job", `{"JobId":"j1","Cancel":true,"_rationale":"stop"}`)}
	for i, want := range []Action{Allow, Allow, Refuse} {
		b := g.Prepare(cancel)
		d := g.Admit(b)
		if d.Action != want {
			t.Fatalf("cancel %d: %v, want %v", i+1, d.Action, want)
		}
		g.Complete(b, d, []Result{{Text: "cancelling", PendingJob: true}})
	}
}

// BenchmarkGuard is one reply of three calls through the guard, as the run
// loop consults it after every model call.
func BenchmarkGuard(b *testing.B) {
	g := NewGuard()
	calls := []GuardCall{gcall("file_read", ra), gcall("file_read", rb), gcall("grep", `{"Pattern":"x","_rationale":"find"}`)}
	res := []Result{{Text: "A"}, {Text: "B"}, {Text: "C"}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		calls[0].Args = json.RawMessage(fmt.Sprintf(`{"Path":"%d.md","_rationale":"r"}`, i))
		batch := g.Prepare(calls)
		d := g.Admit(batch)
		g.Complete(batch, d, res)
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
