package keepcase

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

var newCase = Case{Name: "finds the port", Task: "Which port?\nSay the file too.", Project: "../src", Tools: []string{"file_read", "file_search"}, Contains: "The server listens on 8080"}

const rendered = `  - name: finds the port
    task: |-
      Which port?
      Say the file too.
    project: ../src
    expect:
      contains: The server listens on 8080 # from the run's output: narrow it to what the reply must say
      tools: [file_read, file_search]
`

func TestAppend(t *testing.T) {
	for _, tc := range []struct{ name, before, after string }{
		{"after the last case, before the next key and its comment",
			"# the analyst's suite\naudience: team\ncases:\n  - name: one   # first\n    task: A\n\n    expect: {contains: x}\n\n# models to compare\nmodels: [Main]\n",
			"# the analyst's suite\naudience: team\ncases:\n  - name: one   # first\n    task: A\n\n    expect: {contains: x}\n" + rendered + "\n# models to compare\nmodels: [Main]\n"},
		{"cases last, no final newline",
			"cases:\n- name: one\n  task: A",
			"cases:\n- name: one\n  task: A\n" + dedent(rendered, 2)},
		{"no cases yet",
			"audience: team\n",
			"audience: team\ncases:\n" + rendered},
		{"an empty cases key",
			"cases:\naudience: team\n",
			"cases:\n" + rendered + "audience: team\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "code-analyst.test.yaml")
			if err := os.WriteFile(path, []byte(tc.before), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := Append(path, newCase); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.after {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.after)
			}
			s := suitefile.Parse(path, got)
			last := s.Cases[len(s.Cases)-1]
			if last.Name != newCase.Name || last.Task != newCase.Task || last.Project != "../src" {
				t.Errorf("the new case reads back as %+v", last)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
			}
		})
	}
}

func dedent(s string, n int) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		b.WriteString(strings.TrimPrefix(l, strings.Repeat(" ", n)))
	}
	return b.String()
}

func TestAppendCreates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "code-analyst.test.yaml")
	if err := Append(path, newCase); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "cases:\n"+rendered {
		t.Errorf("got:\n%s", got)
	}
}

// TestAppendRefuses: a taken name, a suite with errors and a flow-style
// list are refused, and the file is not touched.
func TestAppendRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"taken", "cases:\n  - name: finds the port\n    task: A\n", "already"},
		{"broken", "cases:\n  - name: one\n    task: [unclosed\n", "has errors; fix them first"},
		{"flow", "cases: [{name: one, task: A}]\n", "flow style"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.test.yaml")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			err := Append(path, newCase)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if tc.name == "taken" && !errors.Is(err, ErrNameTaken) {
				t.Errorf("not ErrNameTaken: %v", err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.text {
				t.Errorf("the file changed:\n%s", got)
			}
		})
	}
}

func TestFromRun(t *testing.T) {
	dir := t.TempDir()
	rec := &runfolder.Record{Task: "Which port does it use?\nmore", Context: "ctx", Project: filepath.Join(dir, "src"),
		Outcome: "Failed", Reason: "output_truncated", Output: "\n## The port is 8080, set in config/server.yaml by the deploy script of the team\n",
		Prompt: &runfolder.PromptRecord{Audience: "Team"},
		ToolCalls: []runfolder.ToolCall{
			{Name: "file_read", Result: &runfolder.ToolResult{}},
			{Name: "shell_execute", Result: &runfolder.ToolResult{Refused: true}},
			{Name: "file_read", Result: &runfolder.ToolResult{}},
		}}
	c := FromRun(rec, filepath.Join(dir, "agents", "a.test.yaml"), "")
	want := Case{Name: "Which port does it use?", Task: rec.Task, Context: "ctx", Project: "../src", Audience: "team",
		Outcome: "Failed", Reason: "output_truncated", Tools: []string{"file_read"}, Contains: "The port is 8080, set in config/server.yaml by the deploy"}
	if strings.Join(c.Tools, ",") != strings.Join(want.Tools, ",") {
		t.Errorf("tools %v", c.Tools)
	}
	c.Tools, want.Tools = nil, nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}
