package suite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// sample runs sample n of case c: decides where it comes from, runs it
// (live or replayed), checks it, has it judged, and keeps its recording
// when recording. held says it was called holding a slot of x.work,
// which it gives back (see execution.work).
func (x *execution) sample(ctx context.Context, s *suitefile.Suite, c *suitefile.Case, m *suitefile.ModelChoice, agent *lint.File, n int, held bool) (res *SampleResult) {
	inGate := held
	leave := func() {
		if inGate {
			<-x.work
			inGate = false
		}
	}
	defer leave()
	res = &SampleResult{N: n, How: NotRun}
	x.notify(s, c, n, false, nil)
	defer func() { x.notify(s, c, n, true, res) }()
	if x.o.Mode == evalrec.Record {
		// Only a sample that reached a verdict replaces its recording:
		// any other keeps the one before, whatever it ended with.
		defer func() {
			if res.Recorded == evalrec.Replaced {
				return
			}
			res.Recorded = evalrec.Kept
			if res.KeptWhy == "" {
				res.KeptWhy = res.Err
			}
		}()
	}
	return x.runSample(ctx, res, s, c, m, agent, n, leave)
}

// runSample decides where sample n of case c comes from (leave gives
// back its slot of x.work unless it replays), runs it and checks it.
func (x *execution) runSample(ctx context.Context, res *SampleResult, s *suitefile.Suite, c *suitefile.Case, m *suitefile.ModelChoice, agent *lint.File, n int, leave func()) *SampleResult {
	if ctx.Err() != nil {
		return res.errorf("not run: %v", context.Cause(ctx))
	}
	snt, err := x.resolve(s, c, m, agent, n)
	if err != nil {
		return res.errorf("%v", err)
	}
	now, err := x.sampleFingerprint(snt, c, agent)
	if err != nil {
		return res.errorf("%v", err)
	}
	path := recordingPath(s, c, m, n, agent)
	d := evalrec.Decide(x.o.Mode, path, now, x.o.Words)
	if d.Action != evalrec.Replay {
		leave()
	}
	if x.notRunnable(res, d, s, c, m, path) {
		return res
	}
	spec, key, seeded, err := x.sampleSpec(res, d, snt, s, c, n, path)
	if err != nil {
		return res.errorf("%v", err)
	}
	run, rec, tape, err := x.run(ctx, key, spec)
	if err != nil {
		return res.errorf("%v", err)
	}
	if seeded != nil {
		tape = seeded
	}
	if spec.Unsaved {
		defer func() { keep(run, res) }()
	}
	res.ran(&rec)
	r := &evalrec.Recording{
		Kind: "test", Suite: filepath.Base(s.Path), Case: c.Name, Sample: n, RecordedAt: rec.StartedAt,
		// The tools the MCP servers offered are known now, from the run:
		// the recording keeps them.
		Fingerprint: slices.Concat(now, mcpToolParts(rec.MCP)), Tapes: []evalrec.Tape{{Name: evalrec.TapeRun, Cassette: tape}},
	}
	return x.checkSample(ctx, res, d, s, c, n, snt.spec.Project, spec, run, &rec, r, path)
}

// checkSample checks the run of sample n of case c (rec; project is the
// case's project folder), has the judge weigh it, and, when d says so,
// saves r, its recording, at path.
func (x *execution) checkSample(ctx context.Context, res *SampleResult, d evalrec.Decision, s *suitefile.Suite, c *suitefile.Case, n int, project string, spec runner.Spec, run *runner.Run, rec *runfolder.Record, r *evalrec.Recording, path string) *SampleResult {
	if why := noAnswer(c.Expect, rec); why != "" {
		// A run that got no answer to check (the model unreachable, a
		// cancel) is not a failure of the agent: its checks are not
		// evaluated, its recording is kept (see d.Save above), and the
		// sample is an error that says why.
		if d.Save {
			res.KeptWhy = evalrec.NoVerdict(rec)
		}
		return res.errorf("%s", why)
	}
	res.Failures = check(c.Expect, rec, res.OutputTokens)
	if len(c.Expect.Changes) > 0 {
		res.Failures = append(res.Failures, CheckChanges(c.Expect.Changes, run.Changes(), project)...)
	}
	// The check program reads only the run's record: it runs on a
	// replay as on a live sample. Like the judge, it does not see a run
	// that ended otherwise than expected (live or replayed alike).
	endedAsExpected := !failedOn(res.Failures, "outcome", "reason")
	var commandErr error
	if len(c.Expect.Command) > 0 && endedAsExpected {
		commandErr = x.command(ctx, s, c, n, res.How, rec, res)
	}
	var j judgement
	if c.Expect.Judge != "" && endedAsExpected {
		j = x.judgeSample(ctx, res, d, spec, c.Expect.Judge, rec, path)
	}
	if d.Save {
		if err := res.save(path, r, rec, j); err != nil {
			return res.errorf("%v", err)
		}
	}
	return res.settle(j.failed, commandErr)
}

// errorf makes res an error that says why, and returns it.
func (res *SampleResult) errorf(format string, args ...any) *SampleResult {
	res.Status, res.Err = Error, fmt.Sprintf(format, args...)
	return res
}

// notRunnable settles a sample that does not run as d decided (stale,
// not recorded, or a broken recording at path), and reports whether it
// did.
func (x *execution) notRunnable(res *SampleResult, d evalrec.Decision, s *suitefile.Suite, c *suitefile.Case, m *suitefile.ModelChoice, path string) bool {
	switch d.Action {
	case evalrec.Stale:
		res.Status, res.Recording = Stale, path
		for _, ch := range d.Changes {
			res.StaleBecause = append(res.StaleBecause, ch.String())
		}
	case evalrec.Missing:
		w := x.o.Words
		command := w.Test
		flagged := m != nil && (len(x.o.Models) > 0 || x.o.SelectModels != nil && !slices.ContainsFunc(s.Models, func(n string) bool { return strings.EqualFold(n, m.Name) }))
		if flagged {
			// The model came from Options.Models, which the command
			// that records it must repeat: without it the case records
			// on its own role, outside the models' folders. A suite's
			// models: needs no flag; a model --failed took from the
			// last run does, unless the suite names it.
			command += " " + w.Models + " " + evalrec.ShellQuote(m.Name)
		}
		if x.o.Demo {
			res.Status, res.Err = Unrecorded, w.NotRecordedInDemo(x.o.shown(path), command, c.Name, flagged).Error()
		} else {
			res.Status, res.Err = Unrecorded, w.NotRecorded(path, command, x.o.shown(s.Path), c.Name).Error()
		}
	case evalrec.Broken:
		res.errorf("%v", d.Err)
	default:
		return false
	}
	return true
}

// sampleSpec returns the spec a sample runs as d decided (a replay of
// the recording at path, a run a kept case seeds, or a live run), the
// limiter key it runs under, and the seeding cassette, if any; it notes
// in res how the sample runs.
func (x *execution) sampleSpec(res *SampleResult, d evalrec.Decision, snt sent, s *suitefile.Suite, c *suitefile.Case, n int, path string) (spec runner.Spec, key string, seeded *cassette.Cassette, err error) {
	spec, key = snt.spec, "replay"
	if d.Action == evalrec.Replay {
		tape := d.Recording.Tape(evalrec.TapeRun)
		if tape == nil {
			return spec, key, nil, fmt.Errorf("%s: %v; %s", path, errNoTape, x.o.Words.RecordAgain())
		}
		spec.Replay, spec.ReplaySource, spec.Fast = tape, path, true
		// A replay's folder is written only when asked, or when the
		// sample does not pass (see keep below).
		spec.Unsaved = !x.o.KeepRuns
		spec.Project = "" // the recorded tool results answer
		res.How, res.Recording = "replay", path
		return spec, key, nil, nil
	}
	if tape, source := x.seed(s, c, n); tape != nil && d.Save {
		// The case was kept from a run (runs --to-case): the run's
		// recording plays, and becomes the case's.
		spec.Replay, spec.ReplaySource, spec.Fast, spec.Project = tape, source, true, ""
		res.How, res.Recording = "recorded", path
		return spec, key, tape, nil
	}
	if snt.modelErr != nil {
		return spec, key, nil, snt.modelErr
	}
	if snt.model.Type != runner.ReplayProviderType {
		key = evalrec.ProviderKey(snt.model)
	}
	spec.Record = d.Save
	res.How = "live"
	if d.Save {
		res.How, res.Recording = "recorded", path
	}
	return spec, key, nil, nil
}

// ran notes in res what its run, rec, did.
func (res *SampleResult) ran(rec *runfolder.Record) {
	res.RunID, res.RunDir = rec.RunID, rec.Dir
	res.Outcome, res.Reason, res.Output = string(rec.Outcome), rec.Reason, rec.Output
	res.ToolCalls = rec.ToolCalls
	res.ChangedFiles = rec.Changes
	res.MCP = mcpFailures(rec.MCP)
	res.Duration = time.Duration(rec.Timings.TotalMS) * time.Millisecond
	res.ReportedOutputTokens = rec.Usage.OutputTokens
}

// judgement is what judging a sample left: the judge's run and tape (nil
// when it did not run or left none), and why it gave no verdict.
type judgement struct {
	judged bool
	run    *runfolder.Record
	tape   *cassette.Cassette
	failed error
}

// judgeSample has the judge weigh rec's output against rubric, and notes
// its verdict in res (a failing verdict is a failure).
func (x *execution) judgeSample(ctx context.Context, res *SampleResult, d evalrec.Decision, spec runner.Spec, rubric string, rec *runfolder.Record, path string) judgement {
	j := judgement{judged: true}
	v, jrec, jt, err := x.judge(ctx, d, spec, rubric, rec, path)
	if jrec != nil {
		res.JudgeRunID = jrec.RunID
	}
	j.run, j.tape = jrec, jt
	if err != nil {
		j.failed = err
		return j
	}
	res.Verdict = &v
	if !v.Pass {
		res.Failures = append(res.Failures, Failure{Key: "judge", Expect: "judge", Message: "the judge says it fails: " + v.Reason})
	}
	return j
}

// save writes r, the recording of the sample's run rec and judgement j,
// to path when both reached a verdict, whatever the verdict (a judge
// reply that is not a verdict included), so that its replay says the
// same. One that did not (the model unreachable, a cancel, agentdesk's
// own error) leaves the recording before it as it was, and res says why.
func (res *SampleResult) save(path string, r *evalrec.Recording, rec *runfolder.Record, j judgement) error {
	why := evalrec.NoVerdict(rec)
	switch {
	case why != "":
	case r.Tapes[0].Cassette == nil:
		why = "the run left no recording"
	case j.judged && j.run == nil:
		why = fmt.Sprintf("the judge did not run: %v", j.failed)
	case j.judged && evalrec.NoVerdict(j.run) != "":
		why = "the judge's " + strings.TrimPrefix(evalrec.NoVerdict(j.run), "the ")
	case j.judged && j.tape == nil:
		why = "the judge's run left no recording"
	}
	if why != "" {
		res.KeptWhy = why
		return nil
	}
	if j.tape != nil {
		r.Tapes = append(r.Tapes, evalrec.Tape{Name: evalrec.TapeJudge, Cassette: j.tape})
	}
	if err := evalrec.Save(path, r); err != nil {
		return err
	}
	res.Recorded = evalrec.Replaced
	return nil
}

// settle gives res its status once it is checked and judged: a judge
// that gave no verdict, or a check program that failed to run, makes it
// an error, unless a rule failed already.
func (res *SampleResult) settle(judgeFailed, commandErr error) *SampleResult {
	if judgeFailed != nil {
		if len(res.Failures) == 0 {
			return res.errorf("%v", judgeFailed)
		}
		// A rule failed already: the sample fails on it, and the judge
		// that gave no verdict is a note beside the failures.
		res.Status, res.Note = Fail, fmt.Sprintf("no verdict from the judge: %v", judgeFailed)
		return res
	}
	if commandErr != nil {
		return res.errorf("%v", commandErr)
	}
	res.Status = Pass
	if len(res.Failures) > 0 {
		res.Status = Fail
	}
	return res
}

// noAnswer says why the run ended with nothing to check ("" when it has
// an answer, however it ended): cancelled, or its model call failed (the
// server down, refused, or failing), unless the case expects that reason.
func noAnswer(e suitefile.Expect, rec *runfolder.Record) string {
	if e.Reason != "" && e.Reason == rec.Reason {
		return ""
	}
	const notEvaluated = " (checks not evaluated)"
	switch why := evalrec.NoVerdict(rec); {
	case why == "":
		return ""
	case rec.Reason == vocab.ReasonCancelledByParent:
		return "cancelled: the run was stopped before it ended" + notEvaluated
	default:
		return why + notEvaluated
	}
}

// keep writes the folder of an unsaved replay whose sample did not pass,
// and forgets the run of one that passed (it has no folder).
func keep(run *runner.Run, res *SampleResult) {
	if res.Status == Pass {
		res.RunID, res.RunDir = "", ""
		return
	}
	dir, err := run.Keep()
	if err != nil {
		res.RunID, res.RunDir = "", ""
		if res.Status != Error {
			res.Status, res.Err = Error, fmt.Sprintf("keeping the run folder of a sample that did not pass: %v", err)
		}
		return
	}
	res.RunDir = dir
}

// failedOn reports whether one of fs is about one of keys.
func failedOn(fs []Failure, keys ...string) bool {
	for _, f := range fs {
		for _, k := range keys {
			if f.Key == k {
				return true
			}
		}
	}
	return false
}

// run runs spec under the limiter's slot for key and waits for it. A
// recorded run's cassette is read back from its folder.
func (x *execution) run(ctx context.Context, key string, spec runner.Spec) (*runner.Run, runfolder.Record, *cassette.Cassette, error) {
	spec.NoMCP, spec.MCPStartTimeout, spec.Sandbox = x.o.NoMCP, x.o.MCPStartTimeout, x.o.Sandbox
	spec.Advice = approve.AdviseSuite
	if x.o.Browser {
		spec.Advice = approve.AdviseBrowserSuite
	}
	if spec.Replay == nil && spec.Project != "" && !spec.NoMCP {
		spec.MCP = x.mcpCatalog(ctx)
	}
	release, err := x.o.Limiter.Acquire(ctx, key)
	if err != nil {
		return nil, runfolder.Record{}, nil, fmt.Errorf("not run: %w", err)
	}
	defer release()
	r, err := x.o.Runner.RunToEnd(ctx, spec)
	if err != nil {
		return nil, runfolder.Record{}, nil, err
	}
	rec, err := r.Wait()
	if err != nil {
		return r, rec, nil, fmt.Errorf("the run ended %s but its folder could not be written: %w", rec.Outcome, err)
	}
	if !spec.Record {
		return r, rec, nil, nil
	}
	tape, err := runner.LoadCassette(filepath.Join(rec.Dir, runfolder.StreamFile))
	if err != nil {
		return r, rec, nil, fmt.Errorf("keeping the recording: %w", err)
	}
	return r, rec, tape, nil
}

// judge has the sample's output judged against rubric: replayed from the
// recording, or live (recorded when the sample is).
func (x *execution) judge(ctx context.Context, d evalrec.Decision, sample runner.Spec, rubric string, rec *runfolder.Record, path string) (Verdict, *runfolder.Record, *cassette.Cassette, error) {
	tag := *sample.Suite
	tag.Judge = true
	spec := runner.Spec{
		Agent: judgeAgent(), Config: x.o.Catalog.Config, ModelRole: x.o.JudgeRole,
		Task:    judgeTask(rubric, sample.Task, rec.Output),
		Suite:   &tag,
		NetClaw: runner.NetClaw{Raw: true}, // the judge is agentdesk's, not a NetClaw spawn
	}
	key := "replay"
	if d.Action == evalrec.Replay {
		tape := d.Recording.Tape(evalrec.TapeJudge)
		if tape == nil {
			return Verdict{}, nil, nil, fmt.Errorf("%s has no judge tape: record the case again with %s", path, x.o.Words.Record)
		}
		reply, err := replayedReply(tape)
		if err != nil {
			return Verdict{}, nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		v, err := ParseVerdict(reply)
		return v, nil, nil, err
	}
	m, err := runner.ResolveModel(x.o.Catalog.Config, x.o.JudgeRole)
	if err != nil {
		return Verdict{}, nil, nil, fmt.Errorf("the judge's model (role %s): %w", x.o.JudgeRole, err)
	}
	if m.Type != runner.ReplayProviderType {
		key = evalrec.ProviderKey(m)
	}
	spec.Record = d.Save
	_, jrec, tape, err := x.run(ctx, key, spec)
	if err != nil {
		var se *runner.SpecError
		if errors.As(err, &se) {
			return Verdict{}, nil, nil, fmt.Errorf("the judge could not run: %w", err)
		}
		return Verdict{}, &jrec, nil, fmt.Errorf("the judge: %w", err)
	}
	if jrec.Outcome != vocab.Completed {
		return Verdict{}, &jrec, tape, fmt.Errorf("the judge's run ended %s (%s): %s", jrec.Outcome, jrec.Reason, firstLine(jrec.Error))
	}
	v, err := ParseVerdict(jrec.Output)
	return v, &jrec, tape, err
}

// mcpFailures says which MCP servers of a run did not start, one line a
// server.
func mcpFailures(m *runfolder.MCPRecord) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, s := range m.Servers {
		if s.State == "failed" {
			out = append(out, fmt.Sprintf("MCP server '%s' did not start, so its tools were not offered: %s", s.Name, s.Detail))
		}
	}
	return out
}

// seed returns the recording a kept run gives sample n of case c, if any.
func (x *execution) seed(s *suitefile.Suite, c *suitefile.Case, n int) (*cassette.Cassette, string) {
	if x.o.Seed == nil {
		return nil, ""
	}
	return x.o.Seed(s.Path, c.Name, n)
}
