package suite

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestMaxOutputTokensWithoutReportedUsage: a provider that reports no
// usage does not pass max-output-tokens: the output is counted with
// agentdesk's tokenizer, and the failure says the figure is counted
// (issue 20 item 5). A reported figure is said as reported.
func TestMaxOutputTokensWithoutReportedUsage(t *testing.T) {
	f := newFixture(t)
	path := f.suite("cases:\n  - name: terse\n    task: hi\n    expect: {max-output-tokens: 3}\n  - name: reported\n    task: ho\n    expect: {max-output-tokens: 3}\n")
	f.on("hi", modeltest.Reply("This reply is a good deal longer than three tokens, surely."))
	reported := modeltest.Reply("Short.")
	reported.Usage = &modeltest.Usage{InputTokens: 10, OutputTokens: 40}
	f.on("ho", reported)
	for _, mode := range []evalrec.Mode{evalrec.Record, evalrec.Offline} {
		rs := f.run(mode, path)
		terse, rep := rs[0].Cases[0], rs[0].Cases[1]
		if terse.Status != Fail || !strings.Contains(terse.Message, "counted by agentdesk") || !strings.Contains(terse.Message, "reported no usage") {
			t.Errorf("%v: no usage: %s %q", mode, terse.Status, terse.Message)
		}
		if n, counted := terse.Samples[0].OutputTokens(); n <= 3 || !counted {
			t.Errorf("%v: sample tokens %d counted %v", mode, n, counted)
		}
		if rep.Status != Fail || !strings.Contains(rep.Message, "the reply took 40 output tokens") || strings.Contains(rep.Message, "counted") {
			t.Errorf("%v: reported: %s %q", mode, rep.Status, rep.Message)
		}
	}
}
