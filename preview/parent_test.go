package preview

import (
	"encoding/json"
	"strings"
	"testing"
)

// DotNetJSON escapes as System.Text.Json's default encoder does, and the
// result is JSON that reads back as the string.
func TestDotNetJSON(t *testing.T) {
	tests := map[string]string{
		"plain run 42":      `"plain run 42"`,
		`a "quote" \ slash`: `"a \u0022quote\u0022 \\ slash"`,
		"<b>&'+`":           `"\u003Cb\u003E\u0026\u0027\u002B\u0060"`,
		"line\nnext\ttab":   `"line\nnext\ttab"`,
		"é — 😀":             `"\u00E9 \u2014 \uD83D\uDE00"`,
		"\x01\x7f":          `"\u0001\u007F"`,
	}
	for in, want := range tests {
		got := DotNetJSON(in)
		if got != want {
			t.Errorf("DotNetJSON(%q) = %s, want %s", in, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != in {
			t.Errorf("%s reads back as %q (%v)", got, back, err)
		}
	}
}

// The acceptance record is SubAgentSpawner.StartRunAsync's reply @28ddf700;
// the terminal record of a failed run has no working context and no
// locations.
func TestParentRecordTexts(t *testing.T) {
	a := Acceptance("0123456789abcdef0123456789abcdef", "code-analyst")
	if got, want := a.Text(), `{"run_id":"0123456789abcdef0123456789abcdef","scope_id":"subagent/code-analyst/0123456789abcdef0123456789abcdef","state":"Accepted","control_tool":"check_agent_run"}`; got != want {
		t.Errorf("acceptance\n got %s\nwant %s", got, want)
	}
	reason := "no_activity_timeout"
	term := TerminalRecord{RunID: "r", ScopeID: "subagent/x/r", State: "Failed", SourceOperation: "spawn_agent", Outcome: "Failed", Reason: &reason, Output: "Subagent timed out: no activity for 60s.", Findings: []string{}}
	want := `{"run_id":"r","scope_id":"subagent/x/r","state":"Failed","source_operation":"spawn_agent","outcome":"Failed","reason":"no_activity_timeout",` +
		`"output":"Subagent timed out: no activity for 60s.","working_context":null,"findings":[],"log_path":null,"artifact_directory":null,"warning":null,"checkpoint":null}`
	if got := term.Text(); got != want {
		t.Errorf("terminal\n got %s\nwant %s", got, want)
	}
	dir := "/p"
	term.WorkingContext = &WorkingContextDelta{ProjectDirectory: &dir, ReadFiles: []string{"/p/a"}, ConfirmedChangedFiles: []string{}, ObservedChangedFiles: []string{}}
	if got := term.Text(); !json.Valid([]byte(got)) ||
		!strings.Contains(got, `"working_context":{"ProjectDirectory":"/p","Worktree":null,"Branch":null,"Head":null,"ReadFiles":["/p/a"],"ConfirmedChangedFiles":[],"ObservedChangedFiles":[]}`) {
		t.Errorf("working context: %s", got)
	}
}

// BenchmarkTerminalRecordText times the terminal record's JSON, written
// once at every run's end, for a run that read and changed 50 files.
func BenchmarkTerminalRecordText(b *testing.B) {
	dir := "/src/app"
	var files []string
	for i := range 50 {
		files = append(files, "/src/app/pkg/file"+string(rune('a'+i%26))+".go")
	}
	out := strings.Repeat("The watcher waits 100 ms after the last event — then it rescans. ", 200)
	t := TerminalRecord{RunID: "0123456789abcdef0123456789abcdef", ScopeID: "subagent/x/0123456789abcdef0123456789abcdef", State: "Completed",
		SourceOperation: "spawn_agent", Outcome: "Completed", Output: out, Findings: []string{},
		WorkingContext: &WorkingContextDelta{ProjectDirectory: &dir, ReadFiles: files, ConfirmedChangedFiles: files, ObservedChangedFiles: []string{}}}
	b.ReportAllocs()
	for b.Loop() {
		_ = t.Text()
	}
}
