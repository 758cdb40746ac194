package suite

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestUnusableJudgeDoesNotHideFailures: when the judge's reply is not a
// verdict but a rule already failed, the case fails with every failed
// expectation, in every format, and the judge is a note (issue 20 item
// 6). With no rule failed it stays an error.
func TestUnusableJudgeDoesNotHideFailures(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: wrong\n    task: hi\n    expect:\n      contains: goodbye\n      not-contains: Hello\n      judge: waves\n  - name: right\n    task: hi\n    expect:\n      contains: Hello\n      judge: waves\n")
	f.on("hi", modeltest.Reply("Hello"))
	f.judge["waves"] = "I cannot say."
	for _, mode := range []evalrec.Mode{evalrec.Record, evalrec.Offline} {
		rs := f.run(mode, path)
		wrong, right := rs[0].Cases[0], rs[0].Cases[1]
		if wrong.Status != Fail || len(wrong.Samples[0].Failures) != 2 || !strings.Contains(wrong.Samples[0].Note, "not a verdict") {
			t.Errorf("%v: wrong: %s %+v", mode, wrong.Status, wrong.Samples[0])
		}
		if right.Status != Error || !strings.Contains(right.Message, "not a verdict") {
			t.Errorf("%v: right: %s %q", mode, right.Status, right.Message)
		}
		for name, write := range map[string]func(*strings.Builder) error{
			"text":   func(b *strings.Builder) error { return Text(b, rs, 0, ReportOptions{}) },
			"json":   func(b *strings.Builder) error { return JSON(b, rs, ReportOptions{}) },
			"junit":  func(b *strings.Builder) error { return JUnit(b, rs, ReportOptions{}) },
			"github": func(b *strings.Builder) error { return GitHub(b, rs, ReportOptions{}) },
		} {
			var b strings.Builder
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"goodbye", "not-contains", "not a verdict"} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("%v: %s lacks %q:\n%s", mode, name, want, b.String())
				}
			}
		}
	}
}
