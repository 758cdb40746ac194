package runfolder

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview/request"
)

// The handoff of a hand-made run, as NetClaw's ChildFileActivityTracker
// and EnrichWorkingContextResultAsync build it: only answered file_read
// calls are reads and only answered file_write and file_edit calls are
// confirmed (a write into the session folder, outside the project,
// included); a failed or refused call counts for nothing; relative paths
// are taken in the project; the observed files lose the confirmed ones;
// each list is in ordinal (UTF-16) order, which puts U+10000 before
// U+E000, unlike Go's byte order.
func TestHandoffFollowsTheTracker(t *testing.T) {
	ok := &ToolResult{Guard: "allow"}
	call := func(name, args string, res *ToolResult) ToolCall {
		return ToolCall{Name: name, Arguments: args, Complete: true, Result: res}
	}
	rec := &Record{
		RunID: "r1", Agent: "fixer", Project: "/p", Dir: "/runs/r1", Outcome: vocab.Completed, State: "Completed",
		ToolCalls: []ToolCall{
			call("file_read", `{"Path":"z.go"}`, ok),
			call("file_read", "{\"path\":\"/p/a\U00010000.md\"}", ok),
			call("file_read", `{"Path":"/p/a\uE000.md"}`, ok),
			call("file_read", `{"Path":"z.go"}`, ok),
			call("file_read", `{"Path":"missing.go"}`, &ToolResult{Error: true}),
			call("file_write", `{"Path":"/runs/r1/session/workspace/notes.md","Content":"x"}`, ok),
			call("file_edit", `{"Path":"b.go","OldString":"a","NewString":"b"}`, ok),
			call("file_edit", `{"Path":"c.go","OldString":"a","NewString":"b"}`, &ToolResult{Error: true, Refused: true, Guard: "refuse"}),
			call("file_write", `{"Path":"d.go"}`, nil),
			call("shell_execute", `{"Command":"echo > e.go"}`, ok),
		},
	}
	git := &request.GitState{Kind: request.GitAvailable, Worktree: "/p"}
	p := NewParentRecord(rec, git, []string{"/p/e.go", "/p/b.go", "/p/new/"})
	if got, want := strings.Join(p.Handoff.Read, ","), "/p/a\U00010000.md,/p/a\uE000.md,/p/z.go"; got != want {
		t.Errorf("read %q, want %q", got, want)
	}
	if got, want := strings.Join(p.Handoff.Changed, ","), "/p/b.go,/runs/r1/session/workspace/notes.md"; got != want {
		t.Errorf("confirmed %q, want %q", got, want)
	}
	if got, want := strings.Join(p.Handoff.Observed, ","), "/p/e.go,/p/new/"; got != want {
		t.Errorf("observed %q, want %q", got, want)
	}
	w := p.Terminal.WorkingContext
	if w == nil || strings.Join(w.ObservedChangedFiles, ",") != "/p/e.go,/p/new/" || strings.Join(w.ConfirmedChangedFiles, ",") != strings.Join(p.Handoff.Changed, ",") {
		t.Errorf("working context %+v", w)
	}
	if s := p.Summary(); !strings.HasSuffix(s, "files: 3 read, 2 changed, 2 changed otherwise") {
		t.Errorf("summary %q", s)
	}
	// Nothing observed: an empty list, never null.
	if p := NewParentRecord(rec, nil, nil); p.Terminal.WorkingContext.ObservedChangedFiles == nil || !strings.Contains(p.Terminal.Text(), `"ObservedChangedFiles":[]`) {
		t.Errorf("no observed files: %s", p.Terminal.Text())
	}
}
