package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestNoAnswerIsAnErrorNotAFailure: a live sample whose run got no answer
// (the model server down, the provider failing, the run cancelled) is an
// error that says why, in every format, and its content checks are not
// evaluated (no "contains … does not hold it" under the connection
// failure). A case that expects the reason is checked as usual.
func TestNoAnswerIsAnErrorNotAFailure(t *testing.T) {
	const checked = "cases:\n  - name: one\n    task: hi\n    project: proj\n    expect: {contains: Hello, matches: 'H.*o', tools: [file_read]}\n"
	tests := []struct {
		name   string
		suite  string
		setup  func(f *fixture)
		cancel bool
		status Status
		err    string // in the sample's error, and every format
	}{
		{name: "server down", suite: checked, setup: func(f *fixture) { f.srv.Close() },
			status: Error, err: "the model call failed: the call to "},
		{name: "provider fails", suite: checked, setup: func(f *fixture) {
			f.on("hi", modeltest.Script{Status: 503, ErrorMessage: "overloaded"})
		}, status: Error, err: "the model call failed: "},
		{name: "cancelled", suite: checked, cancel: true, setup: func(f *fixture) {
			f.on("hi", modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Hel"), modeltest.Pause(time.Minute)}})
		}, status: Error, err: "cancelled: the run was stopped before it ended (checks not evaluated)"},
		{name: "the reason expected", suite: "cases:\n  - name: one\n    task: hi\n    expect: {outcome: Failed, reason: llm_call_failed}\n",
			setup: func(f *fixture) { f.srv.Close() }, status: Pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "README.md"), "a project\n")
			path := f.suite(tt.suite)
			tt.setup(f)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				go func() {
					f.srv.WaitRequests(1, 30*time.Second)
					cancel()
				}()
			}
			rs := f.runCtx(ctx, evalrec.Default, path)
			c := rs[0].Cases[0]
			s := c.Samples[0]
			if c.Status != tt.status || s.Status != tt.status {
				t.Fatalf("case %s, sample %s %q %+v, want %s", c.Status, s.Status, s.Err, s.Failures, tt.status)
			}
			if tt.status == Pass {
				return
			}
			if !strings.Contains(s.Err, tt.err) || !strings.HasSuffix(s.Err, "(checks not evaluated)") || len(s.Failures) != 0 {
				t.Errorf("sample error %q, failures %+v; want %q and no failures", s.Err, s.Failures, tt.err)
			}
			if c.Message != s.Err {
				t.Errorf("case message %q, want the sample's error", c.Message)
			}
			var text, js, junit, gh, page bytes.Buffer
			Text(&text, rs, 0, ReportOptions{})
			JSON(&js, rs, ReportOptions{})
			JUnit(&junit, rs, ReportOptions{})
			GitHub(&gh, rs, ReportOptions{})
			HTML(&page, rs, HTMLOptions{})
			for name, out := range map[string]string{"text": text.String(), "json": js.String(), "junit": junit.String(), "github": gh.String(), "html": page.String()} {
				if strings.Contains(out, "does not hold it") || strings.Contains(out, "never called") || strings.Contains(out, "does not match") {
					t.Errorf("%s lists checks that were not evaluated:\n%s", name, out)
				}
			}
			if !strings.Contains(text.String(), "  error  one  0/1") || !strings.Contains(text.String(), tt.err) {
				t.Errorf("text:\n%s", text.String())
			}
			var doc struct {
				Suites []struct {
					Cases []struct {
						Status  string
						Samples []struct {
							Status   string
							Error    string
							Failures []any
						}
					}
				}
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if jc := doc.Suites[0].Cases[0]; jc.Status != "error" || jc.Samples[0].Status != "error" || jc.Samples[0].Error != s.Err || len(jc.Samples[0].Failures) != 0 {
				t.Errorf("json: %+v", jc)
			}
			if !strings.Contains(junit.String(), "<error ") || strings.Contains(junit.String(), "<failure ") {
				t.Errorf("junit:\n%s", junit.String())
			}
			if !strings.Contains(gh.String(), "title=error%3A one::") {
				t.Errorf("github:\n%s", gh.String())
			}
			if !strings.Contains(page.String(), `<p class="failure">`+htmlEscaped(tt.err)) {
				t.Errorf("html lacks the error %q", tt.err)
			}
		})
	}
}

// htmlEscaped is s as html/template writes it in text.
func htmlEscaped(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
