package route

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// runSuiteCtx is runSuite under the caller's context.
func (f *fixture) runSuiteCtx(ctx context.Context, t *testing.T, path string, o SuiteOptions) *SuiteResult {
	t.Helper()
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	s := suitefile.LoadRoute(path)
	suitefile.CheckRoute(s, cat)
	o.Runner, o.Catalog = f.runner, cat
	if o.Words == (evalrec.Words{}) {
		o.Words = testWords
	}
	return RunSuite(ctx, s, o)
}

// recordingBytes reads every recording of the suite at path, by name.
func recordingBytes(t *testing.T, path string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join(evalrec.Folder(path), "*"+evalrec.Extension))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = data
	}
	return out
}

// TestSuiteRecordKeepsGoodRecordingsOfSamplesWithNoVerdict records a
// routing suite, then records it again with the server down, failing, or
// the context cancelled mid-stream: no recording changes, and the report
// says how many were kept.
func TestSuiteRecordKeepsGoodRecordingsOfSamplesWithNoVerdict(t *testing.T) {
	for _, tt := range []struct {
		name   string
		setup  func(f *fixture)
		cancel bool
	}{
		{name: "server down", setup: func(f *fixture) { f.srv.Close() }},
		{name: "provider fails", setup: func(f *fixture) {
			f.srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) {
				return modeltest.Script{Status: 502, ErrorMessage: "bad gateway"}, true
			})
		}},
		{name: "cancelled", cancel: true, setup: func(f *fixture) {
			f.srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) {
				return modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Let me"), modeltest.Pause(time.Minute)}}, true
			})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, wire.OpenAI, "")
			f.srv.SetChooser(chooser())
			path := f.suite(t)
			first := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})
			if got := Summarize([]*SuiteResult{first}).Recordings; got.Replaced != 7 || got.Kept != 0 {
				t.Fatalf("first record: %+v", got)
			}
			before := recordingBytes(t, path)
			n := len(f.srv.Requests())
			tt.setup(f)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				go func() {
					f.srv.WaitRequests(n+1, 30*time.Second)
					cancel()
				}()
			}
			res := f.runSuiteCtx(ctx, t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})
			after := recordingBytes(t, path)
			if len(after) != len(before) {
				t.Errorf("%d recordings, then %d", len(before), len(after))
			}
			for name, data := range before {
				if !bytes.Equal(after[name], data) {
					t.Errorf("%s changed", name)
				}
			}
			sum := Summarize([]*SuiteResult{res})
			if sum.Recordings.Kept != 7 || sum.Recordings.Replaced != 0 {
				t.Errorf("tally %+v", sum.Recordings)
			}
			var text, js bytes.Buffer
			WriteText(&text, []*SuiteResult{res}, f.cat, "", time.Second)
			if !strings.Contains(text.String(), "recordings: 0 replaced, 7 kept as they were (") {
				t.Errorf("text report:\n%s", text.String())
			}
			WriteJSON(&js, []*SuiteResult{res}, f.cat)
			if !strings.Contains(js.String(), `"recordings": {`) || !strings.Contains(js.String(), `"kept": 7`) {
				t.Errorf("json report lacks the recordings:\n%s", js.String())
			}
		})
	}
}
