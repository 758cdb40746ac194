package suite

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// In the JSON report a stale sample says why in stale_because and how it
// came as "not run"; the files a run changed are changed_files.
func TestJSONSampleFieldsSayWhatTheyHold(t *testing.T) {
	s := &suitefile.Suite{Path: "agents/a.test.yaml", Agent: "a"}
	c := &suitefile.Case{Name: "c", PassRate: 1}
	rs := []*SuiteResult{{Suite: s, Cases: []*CaseResult{{Case: c, Status: Stale, Samples: []*SampleResult{
		{N: 1, Status: Stale, How: NotRun, StaleBecause: []string{"model changed"}},
		{N: 2, Status: Pass, How: "live", ChangedFiles: []runfolder.ChangeRecord{{Path: "notes.md", Kind: "modified"}}},
	}}}}}
	var b strings.Builder
	if err := JSON(&b, rs, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Samples []map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	smp := doc.Suites[0].Cases[0].Samples
	for _, m := range smp {
		for k, v := range m {
			var c bytes.Buffer
			if json.Compact(&c, v) == nil {
				m[k] = c.Bytes()
			}
		}
	}
	if string(smp[0]["how"]) != `"not run"` || string(smp[0]["stale_because"]) != `["model changed"]` {
		t.Errorf("stale sample: how %s, stale_because %s", smp[0]["how"], smp[0]["stale_because"])
	}
	if _, ok := smp[0]["changes"]; ok {
		t.Error("a sample still has changes, which held staleness reasons")
	}
	if string(smp[1]["changed_files"]) != `[{"path":"notes.md","kind":"modified"}]` {
		t.Errorf("live sample: changed_files %s", smp[1]["changed_files"])
	}
}
