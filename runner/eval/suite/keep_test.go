package suite

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
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// runCtx is run with a context of the caller's.
func (f *fixture) runCtx(ctx context.Context, mode evalrec.Mode, paths ...string) []*SuiteResult {
	f.t.Helper()
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		f.t.Fatal(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: f.runs, Client: f.client})
	if err != nil {
		f.t.Fatal(err)
	}
	var suites []*suitefile.Suite
	for _, p := range paths {
		s := suitefile.Load(p)
		suitefile.Check(s, cat)
		suites = append(suites, s)
	}
	return Run(ctx, suites, Options{Runner: rn, Catalog: cat, Mode: mode, Jobs: 2})
}

// readRecordings returns every recording file of the suite at path, by
// name.
func readRecordings(t *testing.T, path string) map[string][]byte {
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

// TestRecordKeepsGoodRecordingsOfSamplesWithNoVerdict records a suite,
// then records it again with the server down, with the context cancelled
// mid-stream, with the provider failing, and with the judge's call
// failing: every recording keeps its bytes, and each sample says Kept.
// A second record that reaches a verdict replaces them.
func TestRecordKeepsGoodRecordingsOfSamplesWithNoVerdict(t *testing.T) {
	const text = "cases:\n  - name: one\n    task: hi\n    repeat: 2\n    expect: {contains: Hello}\n  - name: judged\n    task: greet\n    expect: {judge: greets}\n"
	for _, tt := range []struct {
		name  string
		setup func(f *fixture) // makes the second record fail
		// cancel cancels the run once this many more requests arrived
		// (--jobs 2: the third sample waits for a slot).
		cancel int
	}{
		{name: "server down", setup: func(f *fixture) { f.srv.Close() }},
		{name: "provider fails", setup: func(f *fixture) {
			bad := modeltest.Script{Status: 503, ErrorMessage: "overloaded"}
			f.on("hi", bad)
			f.on("greet", bad)
		}},
		{name: "judge fails", setup: func(f *fixture) {
			f.on("hi", modeltest.Script{Status: 500, ErrorMessage: "down"})
			f.judgeScripts["greets"] = modeltest.Script{Status: 500, ErrorMessage: "down"}
		}},
		{name: "cancelled", cancel: 2, setup: func(f *fixture) {
			hang := modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Hel"), modeltest.Pause(time.Minute)}}
			f.on("hi", hang)
			f.on("greet", hang)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			path := f.suite(text)
			f.on("hi", modeltest.Reply("Hello"))
			f.on("greet", modeltest.Reply("Hello you"))
			f.judge["greets"] = "PASS: it greets."
			rs := f.run(evalrec.Record, path)
			if got := rs[0].Cases[0].Samples[0].Recorded; got != evalrec.Replaced {
				t.Fatalf("first record: %q", got)
			}
			before := readRecordings(t, path)
			if len(before) != 3 {
				t.Fatalf("%d recordings", len(before))
			}
			n := len(f.srv.Requests())
			tt.setup(f)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel > 0 {
				go func() {
					f.srv.WaitRequests(n+tt.cancel, 30*time.Second)
					cancel()
				}()
			}
			rs = f.runCtx(ctx, evalrec.Record, path)
			for _, c := range rs[0].Cases {
				for _, s := range c.Samples {
					if s.Recorded != evalrec.Kept || s.KeptWhy == "" {
						t.Errorf("%s #%d: recorded %q (%q), status %s %q", c.Case.Name, s.N, s.Recorded, s.KeptWhy, s.Status, s.Err)
					}
				}
			}
			after := readRecordings(t, path)
			for name, data := range before {
				if !bytes.Equal(after[name], data) {
					t.Errorf("%s changed:\n%s", name, after[name])
				}
			}
			if len(after) != len(before) {
				t.Errorf("%d recordings, then %d", len(before), len(after))
			}
			var text strings.Builder
			Text(&text, rs, 0, ReportOptions{})
			if got := Summarize(rs).Recordings; got.Kept != 3 || got.Replaced != 0 || !strings.Contains(text.String(), "\nrecordings: 0 replaced, 3 kept as they were (") {
				t.Errorf("tally %+v:\n%s", got, text.String())
			}
		})
	}
}

// TestRecordReplacesOnAVerdict: a failing verdict is a verdict; its
// recording replaces the one before, and the tally says so.
func TestRecordReplacesOnAVerdict(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: one\n    task: hi\n    expect: {contains: Hello}\n")
	f.on("hi", modeltest.Reply("Hello"))
	f.run(evalrec.Record, path)
	before := readRecordings(t, path)
	f.on("hi", modeltest.Reply("Goodbye"))
	rs := f.run(evalrec.Record, path)
	if s := rs[0].Cases[0].Samples[0]; s.Status != Fail || s.Recorded != evalrec.Replaced {
		t.Errorf("%s %q", s.Status, s.Recorded)
	}
	for name, data := range readRecordings(t, path) {
		if bytes.Equal(before[name], data) {
			t.Errorf("%s was not replaced", name)
		}
	}
	var text strings.Builder
	Text(&text, rs, 0, ReportOptions{})
	if got := Summarize(rs).Recordings; got != (evalrec.Tally{Replaced: 1}) || !strings.HasSuffix(text.String(), "\nrecordings: 1 replaced, 0 kept\n") {
		t.Errorf("tally %+v", got)
	}
	if got := Summarize(f.run(evalrec.Default, path)).Recordings; got != (evalrec.Tally{}) {
		t.Errorf("a run that records nothing tallies %+v", got)
	}
}
