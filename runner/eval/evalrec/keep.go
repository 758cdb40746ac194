package evalrec

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Recorded is what --record did with one sample's recording file.
type Recorded string

const (
	// Replaced: the sample reached a verdict and its recording was
	// written, replacing the one before (if any), atomically.
	Replaced Recorded = "replaced"
	// Kept: the sample did not reach a verdict (it failed to reach the
	// model, was cancelled, or ended by agentdesk's own error), so the
	// recording before it (if any) was left as it was.
	Kept Recorded = "kept"
)

// NoVerdict says why a live run did not reach a verdict the runtime would
// give about the model, so that its recording must not replace a good one;
// "" when it did. A run that did not start, was cancelled
// (cancelled_by_parent: Ctrl-C, SIGTERM, a parent's deadline) or whose
// model call failed (llm_call_failed: the server down or refusing, an HTTP
// error, a stream cut off or malformed) tells nothing about the agent.
// Every other outcome (Completed, Partial, a limit, a reply cut at the
// output limit or empty) is the model's doing, and is kept.
func NoVerdict(rec *runfolder.Record) string {
	switch {
	case rec == nil || rec.RunID == "":
		return "the run did not start"
	case rec.Reason == vocab.ReasonCancelledByParent:
		return "the run was cancelled"
	case rec.Reason == vocab.ReasonLLMCallFailed:
		msg := rec.Error
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			return "the model call failed"
		}
		return "the model call failed: " + msg
	case rec.State == vocab.StateRunning || rec.Outcome == "":
		return "the run did not end"
	}
	return ""
}

// Tally counts what --record did with the recordings of a run of suites.
type Tally struct {
	// Replaced counts the recordings written; Kept those left as they
	// were because their sample reached no verdict.
	Replaced, Kept int
	// Why is the first kept sample's reason.
	Why string
}

// Add counts r ("" counts nothing: the mode did not record), kept for
// the reason why.
func (t *Tally) Add(r Recorded, why string) {
	switch r {
	case Replaced:
		t.Replaced++
	case Kept:
		t.Kept++
		if t.Why == "" {
			t.Why = why
		}
	}
}

// Merge adds another tally's counts.
func (t *Tally) Merge(o Tally) {
	t.Replaced += o.Replaced
	t.Kept += o.Kept
	if t.Why == "" {
		t.Why = o.Why
	}
}

// String says what --record did, for a report's summary: "recordings: 3
// replaced, 1 kept as it was (the model call failed: …)"; "" when
// nothing was recorded.
func (t Tally) String() string {
	if t.Replaced+t.Kept == 0 {
		return ""
	}
	s := fmt.Sprintf("recordings: %d replaced, %d kept", t.Replaced, t.Kept)
	if t.Kept > 0 {
		s += " as " + Plural(t.Kept, "it was", "they were")
		if t.Why != "" {
			s += " (" + t.Why + ")"
		}
	}
	return s
}

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
