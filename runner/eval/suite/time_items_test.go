package suite

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestCaseTimesAreLabelled: a case shows its wall time and the sum of
// its samples' run times, each labelled, and the summary says its time
// is wall time (issue 20 item 20). Replayed samples keep their recorded
// run times while the wall time is the replay's.
func TestCaseTimesAreLabelled(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: slow\n    task: hi\n    repeat: 2\n")
	f.on("hi", modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Hello "), modeltest.Pause(50 * time.Millisecond), modeltest.Text("there"), modeltest.Stop()}})
	f.run(evalrec.Record, path)
	rs := f.run(evalrec.Offline, path)
	c := rs[0].Cases[0]
	if c.Wall <= 0 || c.Duration < 100*time.Millisecond {
		t.Errorf("wall %v, runs %v", c.Wall, c.Duration)
	}
	var text strings.Builder
	Text(&text, rs, 2*time.Second, ReportOptions{})
	if !regexp.MustCompile(`slow  2/2  [0-9.]+s wall, [0-9.]+s in runs\n`).MatchString(text.String()) || !strings.Contains(text.String(), "in 2.00s wall time") {
		t.Errorf("text:\n%s", text.String())
	}
	var js strings.Builder
	JSON(&js, rs, ReportOptions{})
	var doc struct {
		Suites []struct {
			Cases []struct {
				MS   *int64 `json:"duration_ms"`
				Wall *int64 `json:"wall_ms"`
			} `json:"cases"`
		} `json:"suites"`
	}
	if err := json.Unmarshal([]byte(js.String()), &doc); err != nil || doc.Suites[0].Cases[0].Wall == nil || doc.Suites[0].Cases[0].MS == nil {
		t.Errorf("json: %v\n%s", err, js.String())
	}
}
