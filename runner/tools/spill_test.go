package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// ToolOutputReadTool.ComposeWindow: the window and its range line fit in
// Limit; the range line says where to go on, or that the end is reached.
func TestOutputWindow(t *testing.T) {
	digits := strings.Repeat("0123456789", 30) // 300 characters
	cases := []struct {
		name         string
		text         string
		start, limit int
		want         string
		ok           bool
	}{
		// The range line is sized for the first guess (end=128, three
		// digits), and the content shrinks to fit it; the loop stops once
		// the shorter line fits, leaving 72 (not 74) characters, as the
		// runtime's loop does.
		{"head", digits, 0, 128, digits[:72] + "\n[range start=0 end=72; next_start=72; complete=false]", true},
		{"middle", digits, 100, 128, digits[100:170] + "\n[range start=100 end=170; next_start=170; complete=false]", true},
		{"to the end", digits, 250, 128, digits[250:] + "\n[range start=250 end=300; next_start=none; complete=true]", true},
		// The whole rest fits with its range line: complete at once.
		{"all of a short text", "short", 0, 128, "short\n[range start=0 end=5; next_start=none; complete=true]", true},
		// The rest fits alone but not with the range line: the window
		// shrinks and points on.
		{"rest fits only without the line", digits[:100], 0, 128, digits[:72] + "\n[range start=0 end=72; next_start=72; complete=false]", true},
		{"start at the end", digits, 300, 128, "\n[range start=300 end=300; next_start=none; complete=true]", true},
		{"start past the end", digits, 301, 128, "", false},
		// Offsets count UTF-16 units, as .NET does: 😀 is two.
		{"utf-16 units", "a😀b" + strings.Repeat("c", 200), 1, 128, "😀b" + strings.Repeat("c", 69) + "\n[range start=1 end=73; next_start=73; complete=false]", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := OutputWindow(tc.text, tc.start, tc.limit)
			if got != tc.want || ok != tc.ok {
				t.Errorf("OutputWindow(%d, %d) =\n%q, %v\nwant\n%q, %v", tc.start, tc.limit, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// Whatever the text and window, the answer fits in Limit UTF-16 units,
// ends with the range line, and its content is the text at that range.
func FuzzOutputWindow(f *testing.F) {
	f.Add("0123456789", 0, 128)
	f.Add(strings.Repeat("é😀x", 400), 17, 200)
	f.Add("", 0, 128)
	f.Fuzz(func(t *testing.T, text string, start, limit int) {
		if !utf8.ValidString(text) || limit < OutputReadMinLimit || limit > OutputReadMaxLimit {
			return
		}
		units := utf16.Encode([]rune(text))
		got, ok := OutputWindow(text, start, limit)
		if ok != (start >= 0 && start <= len(units)) {
			t.Fatalf("start %d of %d: ok %v", start, len(units), ok)
		}
		if !ok {
			return
		}
		if n := len(utf16.Encode([]rune(got))); n > limit {
			t.Fatalf("%d units, limit %d", n, limit)
		}
		i := strings.LastIndex(got, "\n[range start=")
		if i < 0 || !strings.HasSuffix(got, "]") {
			t.Fatalf("no range line: %q", got)
		}
		var s, e int
		var next, complete string
		line := strings.NewReplacer(";", " ", "]", "").Replace(got[i+2:])
		if _, err := fmtSscanf(line, &s, &e, &next, &complete); err != nil || s != start || e < s || e > len(units) {
			t.Fatalf("range line %q: %v", got[i:], err)
		}
		if (complete == "true") != (e == len(units)) || (complete == "true") != (next == "none") {
			t.Fatalf("range line %q for %d units", got[i:], len(units))
		}
		if got[:i] != string(utf16.Decode(units[s:e])) {
			t.Fatalf("content %q is not the text at [%d, %d)", got[:i], s, e)
		}
	})
}

// tool_output_read answers with the runtime's texts, in its order of
// checks, and reads back what Spill kept.
func TestToolOutputRead(t *testing.T) {
	_, ws, set := catalogSet(t, nil, nil)
	long := "Exit code: 0\n" + strings.Repeat("line of output\n", 200)
	res := Spill(ws, ShellExecute, "call_42", Result{Text: long})
	wantNote := "\n\n[output truncated to 2000 chars of 3013; continue with tool_output_read using CallId='call_42' and a bounded Start/Limit window instead of re-running]"
	if !res.Cut || res.Text != "\n...\n"+long[len(long)-2000:]+wantNote {
		t.Fatalf("spilled: %q", res.Text[len(res.Text)-200:])
	}
	// The spill lies in session_dir (the envelope's workspace/).
	if data, err := ws.Session().ReadFile("workspace/" + spillPath("call_42")); err != nil || string(data) != long {
		t.Fatalf("the spill file: %v", err)
	}
	if !strings.HasPrefix(spillPath("call_42"), "tool-calls/") || !strings.HasSuffix(spillPath("call_42"), ".log") || strings.ToUpper(spillPath("call_42")) != "TOOL-CALLS/"+strings.ToUpper(spillPath("call_42")[len("tool-calls/"):]) {
		t.Errorf("spill path %s", spillPath("call_42"))
	}
	call := func(args string) Result {
		return set.Call(context.Background(), ToolOutputRead, json.RawMessage(args))
	}
	for _, tc := range []struct{ args, want string }{
		{`{"CallId":"call_42","_rationale":"all of it"}`, long + "\n[range start=0 end=3013; next_start=none; complete=true]"},
		{`{"CallId":"call_42","Limit":3000,"_rationale":"the head"}`, long[:2942] + "\n[range start=0 end=2942; next_start=2942; complete=false]"},
		{`{"callid":"call_42","start":2942,"limit":500,"_rationale":"the rest"}`, long[2942:] + "\n[range start=2942 end=3013; next_start=none; complete=true]"},
		{`{"CallId":"../etc/passwd","_rationale":"x"}`, "Error: CallId must be an opaque identifier from a truncated tool result in this session."},
		{`{"CallId":"two words","_rationale":"x"}`, "Error: CallId must be an opaque identifier from a truncated tool result in this session."},
		{`{"CallId":"` + strings.Repeat("x", 201) + `","_rationale":"x"}`, "Error: CallId must be an opaque identifier from a truncated tool result in this session."},
		{`{"CallId":"call_42","Start":-1,"_rationale":"x"}`, "Error: Start must be between 0 and 256000."},
		{`{"CallId":"call_42","Start":256001,"_rationale":"x"}`, "Error: Start must be between 0 and 256000."},
		{`{"CallId":"call_42","Limit":127,"_rationale":"x"}`, "Error: Limit must be between 128 and 10000."},
		{`{"CallId":"call_42","Limit":10001,"_rationale":"x"}`, "Error: Limit must be between 128 and 10000."},
		{`{"CallId":"call_42","Start":5000,"_rationale":"x"}`, "Error: Start exceeds the retained output length."},
		{`{"CallId":"call_7","_rationale":"x"}`, "Error: No retained output exists for that call in this session. Re-run the source tool with narrower output bounds."},
	} {
		r := call(tc.args)
		if r.Text != tc.want {
			t.Errorf("%s:\n got %.200q\nwant %.200q", tc.args, r.Text, tc.want)
		}
		if r.IsError != strings.HasPrefix(tc.want, "Error:") || !r.IsError && r.Label != LabelReal {
			t.Errorf("%s: error %v, label %s", tc.args, r.IsError, r.Label)
		}
	}
	// Without a session folder nothing is kept, and the note says so.
	if r := Spill(nil, "file_read", "c1", Result{Text: strings.Repeat("x", ContentBudget+1)}); !strings.Contains(r.Text, "Netclaw did not keep the full output") {
		t.Errorf("no session: %q", r.Text[len(r.Text)-100:])
	}
}

// fmtSscanf reads a range line's four values.
func fmtSscanf(line string, s, e *int, next, complete *string) (int, error) {
	return fmt.Sscanf(line, "range start=%d end=%d  next_start=%s  complete=%s", s, e, next, complete)
}

// One tool_output_read window near the end of the largest output the
// runtime lets the model reach (Start 250,000 of a 266,000-character
// spill, Limit 10,000).
func BenchmarkOutputWindow(b *testing.B) {
	text := strings.Repeat("line of output é😀\n", 14_000) // 266,000 UTF-16 units
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := OutputWindow(text, 250_000, OutputReadMaxLimit); !ok {
			b.Fatal("start past the end")
		}
	}
}
