package suite

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// expect: tools: items with args match a call whose arguments hold them:
// names ignoring case and punctuation (as the runtime binds them), paths from the project, other values as JSON.
func TestToolCallArgs(t *testing.T) {
	rec := &runfolder.Record{Outcome: vocab.Completed, Project: "/p", ToolCalls: []runfolder.ToolCall{
		{Name: "file_read", Arguments: `{"path":"/p/README.md","StartLine":3,"_rationale":"read it"}`},
		{Name: "shell_execute", Arguments: `{"Command":"ls -la"}`},
		{Name: "file_list", Arguments: `not json`},
		{Name: "file_read", Arguments: `{"Path":"/p/b.go","start_line":7,"_rationale":"r"}`},
	}}
	tests := []struct {
		name string
		want suitefile.ToolCall
		ok   bool
	}{
		{"relative path from the project, name ignoring case", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"Path": "README.md"}}, true},
		{"dot segments", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"Path": "./docs/../README.md"}}, true},
		{"number as YAML int", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"StartLine": 3}}, true},
		{"other path", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"Path": "main.go"}}, false},
		{"wrong value", suitefile.ToolCall{Name: "shell_execute", Args: map[string]any{"Command": "ls"}}, false},
		{"exact string", suitefile.ToolCall{Name: "shell_execute", Args: map[string]any{"command": "ls -la"}}, true},
		{"missing argument", suitefile.ToolCall{Name: "shell_execute", Args: map[string]any{"WorkingDirectory": "x"}}, false},
		{"arguments not JSON", suitefile.ToolCall{Name: "file_list", Args: map[string]any{"Path": "."}}, false},
		{"name ignoring case and punctuation, as the runtime binds it", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"path": "b.go", "StartLine": 7}}, true},
		{"expected name in another spelling", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"start-line": 7, "Path": "b.go"}}, true},
		{"punctuation does not make another value match", suitefile.ToolCall{Name: "file_read", Args: map[string]any{"start_line": 8}}, false},
		{"never called", suitefile.ToolCall{Name: "web_fetch", Args: map[string]any{"Url": "x"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := suitefile.Expect{MaxToolCalls: -1, MaxOutputTokens: -1, ToolCalls: []suitefile.ToolCall{tt.want}}
			fails := Check(e, rec)
			if (len(fails) == 0) != tt.ok {
				t.Errorf("failures %+v, want ok=%v", fails, tt.ok)
			}
		})
	}
}

// expect: tools: naming a tool the run did not offer says so, with the
// offered name it is closest to, before "it was never called".
func TestExpectToolNotOffered(t *testing.T) {
	rec := &runfolder.Record{Outcome: vocab.Completed, Tools: []string{"file_read", "file_list", "shell_execute"},
		ToolCalls: []runfolder.ToolCall{{Name: "file_read", Arguments: `{"Path":"a"}`}}}
	tests := []struct {
		tool, want string
	}{
		{"file_reed", "tools file_reed: the run did not offer file_reed (did you mean file_read?); it was never called (called: file_read)"},
		{"web_fetch", "tools web_fetch: the run did not offer web_fetch; it was never called (called: file_read)"},
		{"file_list", "tools file_list: it was never called (called: file_read)"},
		{"notes__find", "tools notes__find: it was never called (called: file_read)"},
	}
	for _, tt := range tests {
		fails := Check(suitefile.Expect{MaxToolCalls: -1, MaxOutputTokens: -1, Tools: []string{tt.tool}}, rec)
		if len(fails) != 1 || fails[0].Expect+": "+fails[0].Message != tt.want {
			t.Errorf("%s: %+v, want %q", tt.tool, fails, tt.want)
		}
	}
	// A deferred tool (listed in the index, never loaded) was offered; a
	// misspelling of one is told with it.
	rec.DeferredTools = []string{"web_fetch", "set_reminder"}
	for tool, want := range map[string]string{
		"web_fetch":     "tools web_fetch: it was never called (called: file_read)",
		"set_remindr":   "tools set_remindr: the run did not offer set_remindr (did you mean set_reminder?); it was never called (called: file_read)",
		"shell_execute": "tools shell_execute: it was never called (called: file_read)",
	} {
		fails := Check(suitefile.Expect{MaxToolCalls: -1, MaxOutputTokens: -1, Tools: []string{tool}}, rec)
		if len(fails) != 1 || fails[0].Expect+": "+fails[0].Message != want {
			t.Errorf("deferred, %s: %+v, want %q", tool, fails, want)
		}
	}
	// Without the offered list (a record without tools), no guess.
	rec.Tools = nil
	if fails := Check(suitefile.Expect{MaxToolCalls: -1, MaxOutputTokens: -1, Tools: []string{"file_reed"}}, rec); len(fails) != 1 || strings.Contains(fails[0].Message, "did not offer") {
		t.Errorf("without an offered list: %+v", fails)
	}
}
