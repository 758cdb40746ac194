package route

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestNoAnswerIsAnErrorNotAPick: a live sample that got no answer (the
// model server down, the provider failing, the run cancelled) is not one
// of the frontline's picks: the case is an error that says why, in every
// format, with no "failed: llm_call_failed" share, no rate judged and no
// "below min-rate"; one such sample among answered ones is enough.
func TestNoAnswerIsAnErrorNotAPick(t *testing.T) {
	const suite = "samples: 3\ncases:\n  - {name: review, request: Please review my diff, expect: reviewer, min-rate: 0.5}\n"
	tests := []struct {
		name   string
		setup  func(f *fixture)
		cancel bool
		err    string // in the case's message and every format
		count  string // how many got no answer
		picks  int    // samples that are picks
	}{
		{name: "server down", setup: func(f *fixture) { f.srv.Close() },
			err: "got no answer: the model call failed: the call to ", count: "3 of 3 samples got no answer"},
		{name: "provider fails", setup: func(f *fixture) {
			f.srv.SetDefault(modeltest.Script{Status: 401, ErrorMessage: "invalid api key"})
		}, err: "check the key of provider mock", count: "3 of 3 samples got no answer"},
		{name: "one of three fails", setup: func(f *fixture) {
			var n atomic.Int32
			f.srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) {
				if n.Add(1) == 2 {
					return modeltest.Script{Status: 503, ErrorMessage: "overloaded"}, true
				}
				return modeltest.Script{Steps: []modeltest.Step{
					modeltest.ToolCall("c1", "spawn_agent", `{"agent":"reviewer","task":"review the diff","_rationale":"r"}`), modeltest.Finish(modeltest.FinishTools),
				}}, true
			})
		}, err: "got no answer: the model call failed: ", picks: 2},
		{name: "cancelled", cancel: true, setup: func(f *fixture) {
			f.srv.SetDefault(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Let me"), modeltest.Pause(time.Minute)}})
		}, err: "cancelled: the run was stopped before it ended (not counted as a pick)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, wire.OpenAI, "")
			path := filepath.Join(f.home.Agents, "front.route.yaml")
			hometest.WriteFile(t, path, suite)
			tt.setup(f)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				go func() {
					f.srv.WaitRequests(3, 30*time.Second)
					cancel()
				}()
			}
			sr := f.runSuiteCtx(ctx, t, path, SuiteOptions{Jobs: 3})
			r := sr.Cases[0]
			if r.Status != Error || !strings.Contains(r.Message, tt.err) || !strings.Contains(r.Message, "(not counted as a pick)") {
				t.Fatalf("case %s %q, want an error saying %q", r.Status, r.Message, tt.err)
			}
			if tt.count != "" && !strings.Contains(r.Message, tt.count) {
				t.Errorf("message %q lacks %q", r.Message, tt.count)
			}
			if r.Failure != "" || r.Agreed != 0 {
				t.Errorf("failure %q, agreed %d: a sample with no answer counted as a pick", r.Failure, r.Agreed)
			}
			picks := 0
			for _, sh := range Distribution(r.Samples) {
				picks += sh.Count
			}
			if picks != tt.picks {
				t.Errorf("%d picks in the distribution %+v, want %d", picks, Distribution(r.Samples), tt.picks)
			}
			res := []*SuiteResult{sr}
			var text, js, junit, gh, page bytes.Buffer
			WriteText(&text, res, f.cat, "", time.Second)
			WriteJSON(&js, res, f.cat)
			WriteJUnit(&junit, res, "")
			WriteGitHub(&gh, res, "")
			WriteHTML(&page, res, f.cat, "", time.Now(), time.Second)
			for name, out := range map[string]string{"text": text.String(), "json": js.String(), "junit": junit.String(), "github": gh.String(), "html": page.String()} {
				if strings.Contains(out, "llm_call_failed 3") || strings.Contains(out, "below min-rate") || strings.Contains(out, "failed: cancelled") || strings.Contains(out, "failed: llm_call_failed") {
					t.Errorf("%s counts a sample with no answer as a pick:\n%s", name, out)
				}
				if !strings.Contains(out, strings.ReplaceAll(tt.err, `"`, "")) && !strings.Contains(out, htmlEscaped(tt.err)) {
					t.Errorf("%s lacks why (%q):\n%s", name, tt.err, out)
				}
			}
			if !strings.Contains(text.String(), "  error        review  expects reviewer\n") {
				t.Errorf("text:\n%s", text.String())
			}
			var doc struct {
				Suites []struct {
					Cases []struct {
						Status       string
						Distribution []Share
						Samples      []struct {
							Label, Error string
						}
					}
				}
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			jc := doc.Suites[0].Cases[0]
			errs := 0
			for _, s := range jc.Samples {
				if s.Error != "" {
					errs++
					if s.Label != NoAnswerLabel || !strings.HasSuffix(s.Error, "(not counted as a pick)") {
						t.Errorf("json sample %+v", s)
					}
				}
			}
			if jc.Status != "error" || errs != 3-tt.picks {
				t.Errorf("json: %+v", jc)
			}
			if !strings.Contains(junit.String(), "<error ") || strings.Contains(junit.String(), "<failure ") {
				t.Errorf("junit:\n%s", junit.String())
			}
			if !strings.Contains(gh.String(), "error: ") {
				t.Errorf("github:\n%s", gh.String())
			}
			if !strings.Contains(page.String(), `<span class="badge error">error</span> sample`) {
				t.Errorf("html shows no sample as an error")
			}
		})
	}
}

// TestNoAnswerKeepsModelFailuresAsPicks: a reply the model itself left
// empty is the model's doing: a failed pick, counted, and the case fails.
func TestNoAnswerKeepsModelFailuresAsPicks(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	path := filepath.Join(f.home.Agents, "front.route.yaml")
	hometest.WriteFile(t, path, "samples: 2\ncases:\n  - {name: review, request: Please review my diff, expect: reviewer}\n")
	f.srv.SetDefault(modeltest.Script{Steps: []modeltest.Step{modeltest.Finish(modeltest.FinishStop)}})
	r := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Default}).Cases[0]
	if r.Status != Fail || r.Failure == "" || len(Distribution(r.Samples)) != 1 || Distribution(r.Samples)[0].Count != 2 {
		t.Errorf("case %s %q %q %+v", r.Status, r.Message, r.Failure, Distribution(r.Samples))
	}
	for _, s := range r.Samples {
		if s.NoAnswer() != "" {
			t.Errorf("sample %d: %q", s.N, s.NoAnswer())
		}
	}
}

// htmlEscaped is s as html/template writes it in text.
func htmlEscaped(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
