package suite

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestStaleWhenMocksChange: a mock's result is what the model reads of a
// tool, so a recording made with other mocks is stale, and the message
// names the mocked tool (or the list of mocked tools) that changed.
// Suites without mocks keep their recordings.
func TestStaleWhenMocksChange(t *testing.T) {
	const mocked = "mocks:\n  - {tool: web_search, result: \"no results\"}\ncases:\n  - name: one\n    task: hi\n    project: proj\n    mocks:\n      - {tool: web_fetch, args: {Url: \"https://a.test/*\"}, result: \"port 8080\"}\n"
	const plain = "cases:\n  - name: one\n    task: hi\n    project: proj\n"
	tests := []struct {
		name      string
		base, now string
		want      []string // each must be in the stale message; nil: replays
		// old drops the mocks parts from the recording, as one made
		// before mocks were fingerprinted.
		old bool
	}{
		{"recorded before mocks were fingerprinted, none now", plain, plain, nil, true},
		{"recorded before mocks were fingerprinted, mocks now", mocked, mocked,
			[]string{"mocks added since the recording", "mocks: web_fetch added since the recording"}, true},
		{"unchanged mocks", mocked, mocked, nil, false},
		{"no mocks before or now", plain, plain, nil, false},
		{"a result edited", mocked, strings.Replace(mocked, "port 8080", "port 9090", 1),
			[]string{"mocks: web_fetch changed: the suite's mocks of web_fetch edited"}, false},
		{"args edited", mocked, strings.Replace(mocked, "https://a.test/*", "https://b.test/*", 1),
			[]string{"mocks: web_fetch changed"}, false},
		{"a result becomes an error", mocked, strings.Replace(mocked, `result: "no results"`, `error: "down"`, 1),
			[]string{"mocks: web_search changed"}, false},
		{"one tool's mocks removed", mocked, strings.Replace(mocked, "    mocks:\n      - {tool: web_fetch, args: {Url: \"https://a.test/*\"}, result: \"port 8080\"}\n", "", 1),
			[]string{"mocks changed: web_fetch, web_search → web_search"}, false},
		{"every mock removed", mocked, plain,
			[]string{"mocks changed: web_fetch, web_search → none"}, false},
		{"mocks added", plain, plain + "    mocks:\n      - {tool: file_read, result: \"x\"}\n",
			[]string{"mocks changed: none → file_read", "mocks: file_read added since the recording"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "README.md"), "a project\n")
			path := f.suite(tt.base)
			f.on("hi", modeltest.Reply("Hello"))
			if got := statuses(f.run(evalrec.Record, path)); got[0] != "one: pass 1/1" {
				t.Fatalf("recorded %q", got)
			}
			if tt.old {
				dropMocksParts(t, evalrec.Path(path, "one", 1))
			}
			f.suite(tt.now)
			c := f.run(evalrec.Offline, path)[0].Cases[0]
			wantReplayOrStale(t, c, tt.want)
		})
	}
}

// wantReplayOrStale checks an --offline case c: with want nil, a replay
// that passes; else stale, with a message holding each of want.
func wantReplayOrStale(t *testing.T, c *CaseResult, want []string) {
	t.Helper()
	if want == nil {
		if c.Status != Pass || c.Samples[0].How != "replay" {
			t.Errorf("%s (%s) %q, want a replay that passes", c.Status, c.Samples[0].How, c.Message)
		}
		return
	}
	if c.Status != Stale {
		t.Fatalf("%s %q, want stale", c.Status, c.Message)
	}
	for _, w := range want {
		if !strings.Contains(c.Message, w) {
			t.Errorf("message %q lacks %q", c.Message, w)
		}
	}
}

// dropMocksParts removes the mocks parts from the fingerprint of the
// recording at path.
func dropMocksParts(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`,\{"name":"mocks[^}]*\}`)
	if !re.Match(b) {
		t.Fatalf("%s has no mocks part", path)
	}
	if err := os.WriteFile(path, re.ReplaceAll(b, nil), 0o644); err != nil {
		t.Fatal(err)
	}
}
