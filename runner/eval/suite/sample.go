package suite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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
	res = &SampleResult{N: n}
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
	errorf := func(format string, args ...any) *SampleResult {
		res.Status, res.Err = Error, fmt.Sprintf(format, args...)
		return res
	}
	if ctx.Err() != nil {
		return errorf("not run: %v", context.Cause(ctx))
	}
	snt, err := x.resolve(s, c, m, agent, n)
	if err != nil {
		return errorf("%v", err)
	}
	rubric := c.Expect.Judge
	var judgeModel runfolder.Model
	var judgeErr error
	if rubric != "" {
		judgeModel, judgeErr = runner.ResolveModel(x.o.Catalog.Config, x.o.JudgeRole)
	}
	now, err := fingerprint(x.memo, snt, rubric, judgeModel, judgeErr, agent.Path)
	if err != nil {
		return errorf("%v", err)
	}
	path := recordingPath(s, c, m, n)
	d := evalrec.Decide(x.o.Mode, path, now)
	if d.Action != evalrec.Replay {
		leave()
	}
	switch d.Action {
	case evalrec.Stale:
		res.Status, res.Recording = Stale, path
		for _, ch := range d.Changes {
			res.Changes = append(res.Changes, ch.String())
		}
		return res
	case evalrec.Missing:
		command := "agentdesk test"
		flagged := m != nil && len(x.o.Models) > 0
		if flagged {
			// The model came from --models, which the command that
			// records it must repeat: without it the case records on
			// its own role, outside the models' folders. A suite's
			// models: needs no flag.
			command += " --models " + evalrec.ShellQuote(m.Name)
		}
		if x.o.Demo {
			res.Status, res.Err = Unrecorded, evalrec.NotRecordedInDemo(x.o.shown(path), command, c.Name, flagged).Error()
			return res
		}
		res.Status, res.Err = Unrecorded, evalrec.NotRecorded(path, command, x.o.shown(s.Path), c.Name).Error()
		return res
	case evalrec.Broken:
		return errorf("%v", d.Err)
	}

	spec := snt.spec
	key := "replay"
	var seeded *cassette.Cassette
	switch d.Action {
	case evalrec.Replay:
		tape := d.Recording.Tape(evalrec.TapeRun)
		if tape == nil {
			return errorf("%s: %v; record it again with --record", path, errNoTape)
		}
		spec.Replay, spec.ReplaySource, spec.Fast = tape, path, true
		// A replay's folder is written only when asked, or when the
		// sample does not pass (see keep below).
		spec.Unsaved = !x.o.KeepRuns
		spec.Project = "" // the recorded tool results answer
		res.How, res.Recording = "replay", path
	default:
		if tape, source := x.seed(s, c, n); tape != nil && d.Save {
			// The case was kept from a run (runs --to-case): the run's
			// recording plays, and becomes the case's.
			spec.Replay, spec.ReplaySource, spec.Fast, spec.Project = tape, source, true, ""
			seeded = tape
			res.How, res.Recording = "recorded", path
			break
		}
		if snt.modelErr != nil {
			return errorf("%v", snt.modelErr)
		}
		if snt.model.Type != runner.ReplayProviderType {
			key = evalrec.ProviderKey(snt.model)
		}
		spec.Record = d.Save
		res.How = "live"
		if d.Save {
			res.How, res.Recording = "recorded", path
		}
	}
	run, rec, tape, err := x.run(ctx, key, spec)
	if err != nil {
		return errorf("%v", err)
	}
	if seeded != nil {
		tape = seeded
	}
	res.RunID, res.RunDir = rec.RunID, rec.Dir
	if spec.Unsaved {
		defer func() { keep(run, res) }()
	}
	res.Outcome, res.Reason, res.Output = string(rec.Outcome), rec.Reason, rec.Output
	res.ToolCalls = rec.ToolCalls
	res.MCP = mcpFailures(rec.MCP)
	res.Duration = time.Duration(rec.Timings.TotalMS) * time.Millisecond
	res.ReportedOutputTokens = rec.Usage.OutputTokens
	if why := noAnswer(c.Expect, &rec); why != "" {
		// A run that got no answer to check (the model unreachable, a
		// cancel) is not a failure of the agent: its checks are not
		// evaluated, its recording is kept (see d.Save above), and the
		// sample is an error that says why.
		if d.Save {
			res.KeptWhy = evalrec.NoVerdict(&rec)
		}
		return errorf("%s", why)
	}
	res.Failures = check(c.Expect, &rec, res.OutputTokens)
	if len(c.Expect.Changes) > 0 {
		res.Failures = append(res.Failures, CheckChanges(c.Expect.Changes, run.Changes(), snt.spec.Project)...)
	}

	// The check program reads only the run's record: it runs on a
	// replay as on a live sample. Like the judge, it does not see a run
	// that ended otherwise than expected.
	var commandErr error
	if len(c.Expect.Command) > 0 && !failedOn(res.Failures, "outcome", "reason") {
		commandErr = x.command(ctx, s, c, n, res.How, &rec, res)
	}

	var judgeTape *cassette.Cassette
	var judgeFailed error
	var judgeRun *runfolder.Record
	// A run that ended otherwise than expected has failed already: its
	// output is not judged (live or replayed alike).
	judged := rubric != "" && !failedOn(res.Failures, "outcome", "reason")
	if judged {
		v, jrec, jt, err := x.judge(ctx, d, spec, rubric, &rec, path)
		if jrec != nil {
			res.JudgeRunID = jrec.RunID
		}
		judgeRun, judgeTape = jrec, jt
		if err != nil {
			judgeFailed = err
		} else {
			res.Verdict = &v
			if !v.Pass {
				res.Failures = append(res.Failures, Failure{Key: "judge", Expect: "judge", Message: "the judge says it fails: " + v.Reason})
			}
		}
	}
	if d.Save {
		// A sample whose run and judge both reached a verdict is kept,
		// whatever the verdict (a judge reply that is not a verdict
		// included), so that its replay says the same. One that did not
		// (the model unreachable, a cancel, agentdesk's own error) leaves
		// the recording before it as it was.
		why := evalrec.NoVerdict(&rec)
		switch {
		case why != "":
		case tape == nil:
			why = "the run left no recording"
		case judged && judgeRun == nil:
			why = fmt.Sprintf("the judge did not run: %v", judgeFailed)
		case judged && evalrec.NoVerdict(judgeRun) != "":
			why = "the judge's " + strings.TrimPrefix(evalrec.NoVerdict(judgeRun), "the ")
		case judged && judgeTape == nil:
			why = "the judge's run left no recording"
		}
		if why != "" {
			res.KeptWhy = why
		} else {
			r := &evalrec.Recording{
				Kind: "test", Suite: filepath.Base(s.Path), Case: c.Name, Sample: n, RecordedAt: rec.StartedAt,
				Fingerprint: now, Tapes: []evalrec.Tape{{Name: evalrec.TapeRun, Cassette: tape}},
			}
			if judgeTape != nil {
				r.Tapes = append(r.Tapes, evalrec.Tape{Name: evalrec.TapeJudge, Cassette: judgeTape})
			}
			if err := evalrec.Save(path, r); err != nil {
				return errorf("%v", err)
			}
			res.Recorded = evalrec.Replaced
		}
	}
	if judgeFailed != nil {
		if len(res.Failures) == 0 {
			return errorf("%v", judgeFailed)
		}
		// A rule failed already: the sample fails on it, and the judge
		// that gave no verdict is a note beside the failures.
		res.Status, res.Note = Fail, fmt.Sprintf("no verdict from the judge: %v", judgeFailed)
		return res
	}
	if commandErr != nil {
		return errorf("%v", commandErr)
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
	spec.NoMCP, spec.MCPStartTimeout = x.o.NoMCP, x.o.MCPStartTimeout
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
	r, err := x.o.Runner.Start(ctx, spec)
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
			return Verdict{}, nil, nil, fmt.Errorf("%s has no judge tape: record the case again with --record", path)
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
