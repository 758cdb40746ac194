package suite

import (
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Status is how a case or a sample ended.
type Status string

// Statuses, from best to worst.
const (
	// Pass: enough samples passed.
	Pass Status = "pass"
	// Fail: too few samples passed.
	Fail Status = "fail"
	// Stale: a recording was made with something that has changed since.
	Stale Status = "stale"
	// Unrecorded: offline, and a sample is not recorded.
	Unrecorded Status = "not recorded"
	// Error: the case could not be judged (a broken case, an agent that is
	// not loaded, a run that could not start, a judge reply that is not a
	// verdict).
	Error Status = "error"
)

// rank orders statuses from best to worst.
func (s Status) rank() int {
	switch s {
	case Pass:
		return 0
	case Fail:
		return 1
	case Unrecorded:
		return 2
	case Stale:
		return 3
	}
	return 4
}

// OK reports whether the status passes.
func (s Status) OK() bool { return s == Pass }

// SuiteResult is one suite file's results.
type SuiteResult struct {
	// Suite is the suite as read.
	Suite *suitefile.Suite
	// Cases are the results in file order (none for a broken suite).
	Cases []*CaseResult
	// Findings are the suite's diagnostics (errors stop a case or the
	// whole suite).
	Findings []lint.Diagnostic
	// Duration is the wall time from the first sample's start to the last
	// one's end.
	Duration time.Duration
	// Err says why the suite cannot run as written though it reads (its
	// agent does not load: the loader's reason); its cases are errors
	// with no sample run.
	Err string
	// Models are the models the cases ran on side by side (none: each
	// case on its own model role). Cases then holds a result per case and
	// model, case by case, models in this order.
	Models []suitefile.ModelChoice
}

// Status is the worst status of the suite's cases; Error for a broken
// suite.
func (r *SuiteResult) Status() Status {
	if len(r.Cases) == 0 || r.Err != "" {
		return Error
	}
	worst := Pass
	for _, c := range r.Cases {
		if c.Status.rank() > worst.rank() {
			worst = c.Status
		}
	}
	return worst
}

// CaseResult is one case's result.
type CaseResult struct {
	// Case is the case as read.
	Case *suitefile.Case
	// Model names the model of a matrix's column the case ran on ("" when
	// the suite runs no matrix).
	Model string
	// Status sums up the samples.
	Status Status
	// Passed counts the samples that passed, of Samples.
	Passed  int
	Samples []*SampleResult
	// Message says why the case did not pass, in one line (the first
	// error, what changed since the recording, or the failures of the
	// first failed sample).
	Message string
	// Duration is the case's time: the sum of its samples' run times (on
	// the recorded timeline for a replay).
	Duration time.Duration
	// Wall is the wall time from the case's first sample's start to its
	// last one's end (samples run in parallel; a replay is fast).
	Wall time.Duration
}

// SampleResult is one sample's result.
type SampleResult struct {
	// N is the sample, from 1.
	N      int
	Status Status
	// How says where the sample came from: "live", "recorded" (live and
	// kept), "replay", or NotRun (stale, not recorded, or an error before
	// its run).
	How string
	// RunID and RunDir are the sample's run (empty when it did not run).
	RunID, RunDir string
	// JudgeRunID is the judge's run, when the case has a rubric and the
	// judge ran live (a replayed verdict is read from its tape, with no
	// run of its own).
	JudgeRunID string
	// Outcome and Reason are the run's.
	Outcome, Reason string
	// Output is the run's final output (redacted).
	Output string
	// ToolCalls are the run's tool calls with their results (redacted),
	// for the HTML report's transcript.
	ToolCalls []runfolder.ToolCall
	// Failures are the expectations that failed.
	Failures []Failure
	// Verdict is the judge's, when the case has a rubric.
	Verdict *Verdict
	// StaleBecause says what changed since the recording (Stale).
	StaleBecause []string
	// ChangedFiles are the files the run changed in its overlay of the
	// project (none without a project).
	ChangedFiles []runfolder.ChangeRecord
	// Err says why the sample could not be judged (Error, Unrecorded).
	Err string
	// Note is a remark beside a failed sample's failures: the judge gave
	// no verdict, though a rule had failed already.
	Note string
	// MCP says what went wrong with the MCP servers of the sample's run
	// (a server that did not start, so its tools were not offered), one
	// line a server; empty when nothing did or the run started none.
	MCP []string
	// Duration is the run's time (its recorded time for a replay).
	Duration time.Duration
	// ReportedOutputTokens is the output tokens the run's model calls
	// reported, 0 when they reported none (OutputTokens counts them then).
	ReportedOutputTokens int
	// Recording is the recording's path (replayed, or kept).
	Recording string
	// Recorded says what --record did with the recording file: Replaced
	// (the sample reached a verdict) or Kept (it did not, and the file
	// was left as it was; KeptWhy says why). "" outside --record.
	Recorded evalrec.Recorded
	KeptWhy  string
}

// NotRun is SampleResult.How of a sample that did not run.
const NotRun = "not run"

// Ran reports whether the sample ran (live, recorded or replayed).
func (s *SampleResult) Ran() bool { return s.How != "" && s.How != NotRun }

// Failure is one expectation a sample did not meet.
type Failure struct {
	// Expect names the expectation as the suite writes it: `contains
	// "8080"`, "max-tool-calls 3", "judge".
	Expect string
	// Message says what the run did instead.
	Message string
	// Lines are the output's relevant lines ("12: the port is 80"), or its
	// first lines when no line is more relevant.
	Lines []string
	// Key is the expect key ("contains"), for the position of an
	// annotation.
	Key string
}

// OutputTokens returns the sample's output tokens: as its model calls
// reported them, or, when they reported none, its final output counted
// with agentdesk's tokenizer (counted is then set). The count is made
// when asked: it builds the tokenizer's vocabulary, which a report that
// shows no tokens never needs.
func (s *SampleResult) OutputTokens() (n int, counted bool) {
	if s.ReportedOutputTokens > 0 || s.Output == "" {
		return s.ReportedOutputTokens, false
	}
	return lint.CountTokens(s.Output), true
}
