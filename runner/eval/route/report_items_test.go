package route

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestSuiteReportSaysWhySamplesFailed: a case whose samples failed shows
// the first failure with its hint, in every format (issue 20 item 8); a
// provider's refusal is no answer, so the case says so as an error.
func TestSuiteReportSaysWhySamplesFailed(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(func(modeltest.Request) (modeltest.Script, bool) {
		return modeltest.Script{Status: 401, ErrorMessage: "invalid api key"}, true
	})
	path := filepath.Join(f.home.Agents, "front.route.yaml")
	hometest.WriteFile(t, path, "samples: 3\ncases:\n  - {name: review, request: Please review my diff, expect: reviewer}\n")
	res := []*SuiteResult{f.runSuite(t, path, SuiteOptions{})}
	want := "sample 1 of 3 got no answer: the model call failed: "
	hint := "check the key of provider mock"
	var text, js, junit, gh bytes.Buffer
	WriteText(&text, res, f.cat, "", time.Second)
	WriteJSON(&js, res, f.cat)
	WriteJUnit(&junit, res, "")
	WriteGitHub(&gh, res, "")
	for name, out := range map[string]string{"text": text.String(), "json": js.String(), "junit": junit.String(), "github": gh.String()} {
		if !strings.Contains(out, want) || !strings.Contains(out, hint) {
			t.Errorf("%s lacks why the samples failed:\n%s", name, out)
		}
	}
}

// TestSuiteReportFindings: every finding of a suite prints, a case's as
// well as the suite's; JSON findings use the lower-case schema of
// agentdesk test and lint (items 9, 21); an audience the suite cannot use
// is not shown as Personal.
func TestSuiteReportFindings(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(chooser())
	path := filepath.Join(f.home.Agents, "bad.route.yaml")
	hometest.WriteFile(t, path, "audience: public\ncases:\n  - {name: a, request: r, expect: ghost}\n  - {name: b, request: r, expect: ops}\n")
	res := []*SuiteResult{f.runSuite(t, path, SuiteOptions{Mode: evalrec.Default})}
	var text, js bytes.Buffer
	WriteText(&text, res, f.cat, f.home.Base, time.Second)
	for _, want := range []string{"agents/bad.route.yaml  (audience public (not usable), 2 cases)", "; 1 suite file broken: it cannot run as written\n", "bad.route.yaml:1:11: error: audience Public", `bad.route.yaml:3:35: error: agent "ghost" is not loaded`, `bad.route.yaml:4:35: error: agent "ops" is internal`} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	WriteJSON(&js, res, f.cat)
	var doc struct {
		Suites []struct {
			Findings []map[string]any `json:"findings"`
		} `json:"suites"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	fs := doc.Suites[0].Findings
	if len(fs) != 3 {
		t.Fatalf("%d findings: %s", len(fs), js.String())
	}
	for _, k := range []string{"line", "column", "rule", "severity", "message", "hint"} {
		if _, ok := fs[0][k]; !ok {
			t.Errorf("finding lacks %q: %v", k, fs[0])
		}
	}
	if fs[0]["severity"] != "error" || fs[0]["line"] != float64(1) {
		t.Errorf("finding %v", fs[0])
	}
	for k := range fs[0] {
		if k != strings.ToLower(k) {
			t.Errorf("finding key %q is not lower-case", k)
		}
	}
}

// TestSuiteWithoutCaseNames: a suite of requests, expected agents and
// min-rate, with no names, records and replays (issue 20 item 13).
func TestSuiteWithoutCaseNames(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(chooser())
	path := filepath.Join(f.home.Agents, "plain.route.yaml")
	hometest.WriteFile(t, path, "samples: 1\ncases:\n  - request: Please review my diff before I push.\n    expect: reviewer\n  - request: thanks, that is all\n    expect: none\n    min-rate: 1\n")
	rec := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record})
	want := "Please review my diff before I push.=pass 1/1, thanks, that is all=pass 1/1"
	if got := statuses(rec); got != want {
		t.Fatalf("recorded: %s", got)
	}
	f.srv.Close()
	if got := statuses(f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})); got != want {
		t.Errorf("offline: %s", got)
	}
}
