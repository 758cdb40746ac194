package route

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Status is how a routing case ended: agentdesk test's statuses.
type Status = suite.Status

// The statuses.
const (
	// Pass: at least min-rate of the samples picked the expected agent.
	Pass = suite.Pass
	// Fail: too few did.
	Fail = suite.Fail
	// Stale: a recording was made with another layer, preamble, model,
	// tool or request.
	Stale = suite.Stale
	// Unrecorded: offline, and a sample is not recorded.
	Unrecorded = suite.Unrecorded
	// Error: the case cannot be asked (a broken case or suite, a model
	// that does not resolve, a run that could not start).
	Error = suite.Error
)

// DefaultJobs is the default cap on model calls per provider at once.
const DefaultJobs = suite.DefaultJobs

// SuiteOptions say how to run routing suites.
type SuiteOptions struct {
	// Runner makes the samples' runs.
	Runner *runner.Runner
	// Catalog is the scanned home.
	Catalog *lint.Catalog
	// Mode is default, record or offline (runner/evalrec).
	Mode evalrec.Mode
	// Words are the command line's words in the hints of the results
	// (how to record a case); the command line fills them.
	Words evalrec.Words
	// Jobs caps the model calls per provider at once (0: DefaultJobs).
	Jobs int
	// Samples, when not 0, asks every case this many times.
	Samples int
	// Static ranks instead of asking: no model, no recording.
	Static bool
	// OnCase, when set, is called as each case ends, one call at a time.
	OnCase func(*CaseResult)
	// OnSample, when set, is called as each sample starts (done false)
	// and ends (done true), one call at a time with OnCase.
	OnSample func(done bool)
	// Cases, when set, selects the cases that run (--case); the others
	// are left out of the result.
	Cases *evalrec.CaseFilter
	// Shard, when set, runs only its share of the cases (--shard K/N).
	Shard *evalrec.Shard
	// KeepRuns writes the run folder of every replayed sample. Without
	// it a replay's folder is written only when its case does not pass
	// (live samples always have theirs).
	KeepRuns bool
	// Select, when set, runs only the cases it selects (--failed), by
	// suite file and case name.
	Select func(suitePath, caseName string) bool
	// ShownFrom is the folder hints show the suite's path relative to
	// ("": the working directory).
	ShownFrom string
	// Demo says the suites are the embedded demo's (--demo), which cannot
	// record: a sample it has no recording of says what it carries
	// instead of suggesting --record.
	Demo bool
	// Frontline, when set, makes the frontline's preamble and tools of a
	// suite that names no preamble-file: NetClaw's main-session prompt
	// and the session's tools (see agentdesk route). It fills in
	// Preamble, PreambleSource and Tools of q.
	Frontline func(q *Question) error
}

// CaseResult is one routing case's result.
type CaseResult struct {
	Case   *suitefile.RouteCase `json:"-"`
	Status Status               `json:"status"`
	// Samples are the samples asked (none when the case did not run).
	Samples []Sample `json:"-"`
	// Agreed counts the samples that picked Case.Expect.
	Agreed int `json:"agreed"`
	// Message says why the case did not pass.
	Message string `json:"message,omitempty"`
	// Changes say what changed since a stale recording.
	Changes []evalrec.Change `json:"changes,omitempty"`
	// Replayed counts the samples played from recordings.
	Replayed int `json:"replayed"`
	// Static is the ranking of a static run, best first.
	Static []Score `json:"static,omitempty"`
	// Duration is the wall time of the case's samples.
	Duration time.Duration `json:"-"`
	// Failure says why samples failed, when some did: the first failed
	// sample's call, with its hint, and how many failed.
	Failure string `json:"failure,omitempty"`
	// Recordings counts what --record did with the samples' recordings:
	// replaced (the sample reached a verdict) or kept as they were.
	Recordings evalrec.Tally `json:"-"`
}

// Rate is the share of samples that agreed; 0 with none.
func (r *CaseResult) Rate() float64 {
	if len(r.Samples) == 0 {
		return 0
	}
	return float64(r.Agreed) / float64(len(r.Samples))
}

// SuiteResult is one routing suite's results.
type SuiteResult struct {
	Suite *suitefile.RouteSuite
	// Cases are in file order.
	Cases []*CaseResult
	// Findings are the suite's own diagnostics (not a case's).
	Findings []lint.Diagnostic
	// Static is set for a static run.
	Static bool
	// Similar are the layer's agents too alike to tell apart (static).
	Similar []Pair
	// Duration is the suite's wall time.
	Duration time.Duration
}

// Status is the worst status of the cases; Error for a suite that could
// not run.
func (r *SuiteResult) Status() Status {
	if len(r.Cases) == 0 {
		return Error
	}
	rank := map[Status]int{Pass: 0, Fail: 1, Unrecorded: 2, Stale: 3, Error: 4}
	worst := Pass
	for _, c := range r.Cases {
		if rank[c.Status] > rank[worst] {
			worst = c.Status
		}
	}
	return worst
}

// job is one sample of one case.
type job struct {
	c      int // case index
	sample int // from 1
}

// RunSuite runs a routing suite (read and checked with suitefile.LoadRoute
// and CheckRoute): every sample of every case asked of the frontline, or
// replayed from its recording beside the suite, per the mode, at most
// o.Jobs live calls per provider at once. A suite with errors of its own
// runs no case; a case with problems of its own is an Error and the others
// run.
func RunSuite(ctx context.Context, s *suitefile.RouteSuite, o SuiteOptions) *SuiteResult {
	start := time.Now()
	res := &SuiteResult{Suite: s, Static: o.Static}
	res.Findings = suiteFindings(s)
	u := &suiteRun{s: s, o: o, res: res}
	for _, c := range s.Cases {
		if o.Cases.Match(c.Name) && o.Shard.Has(s.Path, c.Name) && (o.Select == nil || o.Select(s.Path, c.Name)) {
			u.cases = append(u.cases, c)
			res.Cases = append(res.Cases, &CaseResult{Case: c})
		}
	}
	if msg := firstError(res.Findings); msg != "" {
		for _, r := range res.Cases {
			r.Status, r.Message = Error, "the suite cannot run: "+msg
			u.done(r)
		}
		res.Duration = time.Since(start)
		return res
	}
	audience, _ := preview.ParseAudience(s.Audience)
	jobs := u.prepareCases(audience)
	if o.Static {
		runStatic(res, u.preps, o.Catalog, audience, u.done)
	} else {
		u.runJobs(ctx, jobs)
	}
	res.Duration = time.Since(start)
	return res
}

// suiteRun is a routing suite while it runs: its selected cases, their
// prepared questions and, as samples end, their outcomes.
type suiteRun struct {
	s     *suitefile.RouteSuite
	o     SuiteOptions
	res   *SuiteResult
	cases []*suitefile.RouteCase
	preps []*Prepared
	// report serialises the callbacks.
	report sync.Mutex
	// mu guards the outcomes, the samples left and the cases' starts.
	mu    sync.Mutex
	outs  [][]outcome
	left  []int
	began []time.Time
}

// done reports a finished case.
func (u *suiteRun) done(r *CaseResult) {
	if u.o.OnCase != nil {
		u.report.Lock()
		u.o.OnCase(r)
		u.report.Unlock()
	}
}

// sampled reports a sample starting (done false) or ending.
func (u *suiteRun) sampled(done bool) {
	if u.o.OnSample != nil {
		u.report.Lock()
		u.o.OnSample(done)
		u.report.Unlock()
	}
}

// prepareCases prepares each case's question for audience and returns
// the samples to ask (none for a static run); a case that cannot be
// asked is an error, done at once.
func (u *suiteRun) prepareCases(audience preview.Audience) []job {
	u.preps = make([]*Prepared, len(u.cases))
	var jobs []job
	for i, c := range u.cases {
		r := u.res.Cases[i]
		p, err := u.prepareCase(c, audience)
		if err != nil {
			r.Status, r.Message = Error, err.Error()
			u.done(r)
			continue
		}
		u.preps[i] = p
		if u.o.Static {
			continue
		}
		n := c.Samples
		if u.o.Samples > 0 {
			n = u.o.Samples
		}
		r.Samples = make([]Sample, n)
		for k := 1; k <= n; k++ {
			jobs = append(jobs, job{i, k})
		}
	}
	return jobs
}

// prepareCase prepares the question of case c, as NetClaw puts it
// (SuiteOptions.Frontline) unless the suite names its preamble file.
func (u *suiteRun) prepareCase(c *suitefile.RouteCase, audience preview.Audience) (*Prepared, error) {
	if msg := firstError(c.Problems); msg != "" {
		return nil, errors.New(msg)
	}
	prep := Prepare
	if u.o.Mode == evalrec.Offline {
		prep = prepareReplay // no model is called: none need be configured
	}
	q := Question{Catalog: u.o.Catalog, Audience: audience, Preamble: u.s.Preamble, Request: c.Request, ModelRole: u.s.ModelRole}
	if u.s.PreambleFile == "" && u.o.Frontline != nil {
		if err := u.o.Frontline(&q); err != nil {
			return nil, err
		}
	}
	return prep(q)
}

// runJobs asks every sample in jobs, at most o.Jobs live calls per
// provider at once, and finishes each case with its last sample.
func (u *suiteRun) runJobs(ctx context.Context, jobs []job) {
	lim := evalrec.NewLimiter(u.o.Jobs)
	if u.o.Jobs <= 0 {
		lim = evalrec.NewLimiter(DefaultJobs)
	}
	u.outs = make([][]outcome, len(u.cases))
	u.left = make([]int, len(u.cases))
	u.began = make([]time.Time, len(u.cases))
	for i, r := range u.res.Cases {
		u.outs[i] = make([]outcome, len(r.Samples))
		u.left[i] = len(r.Samples)
	}
	next := make(chan job, len(jobs))
	for _, j := range jobs {
		next <- j
	}
	close(next)
	workers := min(max(lim.N()*2, 4), max(len(jobs), 1))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				u.ask(ctx, j, lim)
			}
		}()
	}
	wg.Wait()
}

// ask asks sample j and, when it was its case's last, finishes the case.
func (u *suiteRun) ask(ctx context.Context, j job, lim *evalrec.Limiter) {
	u.mu.Lock()
	if u.began[j.c].IsZero() {
		u.began[j.c] = time.Now()
	}
	u.mu.Unlock()
	u.sampled(false)
	out := askSample(ctx, u.s, u.cases[j.c], j.sample, u.preps[j.c], u.o, lim)
	u.sampled(true)
	u.mu.Lock()
	u.outs[j.c][j.sample-1] = out
	u.left[j.c]--
	last := u.left[j.c] == 0
	u.mu.Unlock()
	if last {
		u.finishCase(j.c)
	}
}

// finishCase gathers case i's samples, judges it and reports it.
func (u *suiteRun) finishCase(i int) {
	r := u.res.Cases[i]
	r.Duration = time.Since(u.began[i])
	outs := u.outs[i]
	for k, ot := range outs {
		r.Samples[k] = ot.sample
		if ot.replayed {
			r.Replayed++
		}
		r.Recordings.Add(ot.recorded, ot.keptWhy)
	}
	judgeCase(r, u.o.Words, func(k int) (evalrec.Decision, string) { return outs[k].decision, outs[k].err })
	if !u.o.KeepRuns {
		keepReplays(r, outs)
	}
	u.done(r)
}

// keepReplays writes the folders of the unsaved replays of a case that
// did not pass, and forgets the runs of one that passed (they have no
// folder).
func keepReplays(r *CaseResult, outs []outcome) {
	for k := range r.Samples {
		smp := &r.Samples[k]
		if !outs[k].replayed || smp.run == nil || smp.Run.RunID == "" {
			continue
		}
		if r.Status == Pass {
			smp.Run.RunID, smp.Run.Dir = "", ""
			continue
		}
		if dir, err := smp.run.Keep(); err != nil {
			smp.Run.RunID, smp.Run.Dir, smp.WriteErr = "", "", err
		} else {
			smp.Run.Dir = dir
		}
	}
}

// suiteFindings are the suite's diagnostics that belong to no case.
func suiteFindings(s *suitefile.RouteSuite) []lint.Diagnostic {
	own := map[string]bool{}
	key := func(d lint.Diagnostic) string {
		return fmt.Sprintf("%d:%d:%s:%s", d.Pos.Line, d.Pos.Column, d.Rule, d.Message)
	}
	for _, c := range s.Cases {
		for _, d := range c.Problems {
			own[key(d)] = true
		}
	}
	var out []lint.Diagnostic
	for _, d := range s.Diagnostics {
		if !own[key(d)] {
			out = append(out, d)
		}
	}
	return out
}

// firstError returns the message of the first error, with its position.
func firstError(ds []lint.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == lint.Error {
			return fmt.Sprintf("%d:%d: %s [%s]", d.Pos.Line, d.Pos.Column, d.Message, d.Rule)
		}
	}
	return ""
}

// Fingerprint is what a routing sample sends, part by part: the layer, the
// preamble, the model, the tool offered, the static context layers, the
// request's shape (PartRequestShape) and the request. The layer part is
// the layer's text wherever it travels: the per-turn block is
// fingerprinted by the layer it carries, not by the clock or the checkout
// (the current time and the working context are left out).
//
// w words the hint of a recording that lacks the request's shape.
func Fingerprint(p *Prepared, preambleSource string, w evalrec.Words) evalrec.Fingerprint {
	f := p.Frontline
	if preambleSource == "" {
		preambleSource = "agentdesk's default preamble"
	}
	fp := evalrec.Fingerprint{
		evalrec.NewPart(evalrec.PartLayer, f.Layer, "an agent's name, description or timeout"),
		evalrec.NewPart(evalrec.PartPreamble, f.Preamble, preambleSource),
	}
	if p.Model.ModelID != "" {
		// Offline with no model configured there is none to compare.
		fp = append(fp, evalrec.NewPart(evalrec.PartModel, p.Model.Provider+"/"+p.Model.ModelID, ""))
	}
	tools := evalrec.NewPart(evalrec.PartTools, f.Tool.Name+"\n"+f.Tool.Description+"\n"+f.Tool.Parameters, "the spawn_agent tool")
	if len(p.Question.Tools) > 0 {
		b, _ := json.Marshal(p.Question.Tools)
		tools = evalrec.NewDigest(evalrec.PartTools, string(b), "the session's tools (NetClaw's catalogue and spawn_agent)")
	}
	fp = append(fp, tools)
	if c := p.Question.Context; c != nil {
		for _, l := range c.Layers {
			switch l.Name {
			case request.LayerCurrentTime, request.LayerWorkingContext:
				// The per-turn block tells the moment of asking and
				// the checkout it was asked in (its folder, its git
				// head): a recording made yesterday, or on another
				// machine, is not stale for them, so they are left out
				// (run.json keeps what was sent), as an agent suite
				// leaves the working context out of its fingerprint.
				continue
			case request.LayerSubagents:
				continue // the layer part above covers the sub-agents
			}
			fp = append(fp, evalrec.NewDigest(PartContextLayer+l.Name, l.Text, layerSources[l.Name]))
		}
	}
	fp = append(fp, requestShape(w))
	return append(fp, evalrec.NewPart(evalrec.PartFirstMessage, f.Request, "the case's request"))
}

// PartRequestShape is the fingerprint part that says how the frontline
// request is laid out: where the [available-subagents] layer travels and
// which NetClaw the layout follows. Its value changes when agentdesk
// follows a newer layout, so a recording made with the old one is stale
// and says so ("request shape changed: … → …"); one made before the part
// existed (when the layer was a system message) says why with the part's
// Why.
const PartRequestShape = "request shape"

// RequestShape is the request shape's value now: the layer in the
// per-turn "[system: …]" user message (SubAgentDiscoveryContextLayer is
// EveryTurn), spawn_agent and check_agent_run as NetClaw 28ddf700
// declares them.
const RequestShape = "layer per turn, spawn_agent and check_agent_run of NetClaw 28ddf700"

// requestShape is the request-shape part. The layer's text stays in the
// layer part, which covers it whatever message carries it; the rest of
// the per-turn block (the time, the working context) stays out, as above.
func requestShape(w evalrec.Words) evalrec.Part {
	p := evalrec.NewPart(PartRequestShape, RequestShape, "")
	p.Why = "the recording was made when the [available-subagents] layer was a system message; " +
		"NetClaw now sends it in the per-turn [system: …] user message, spawn_agent's description says the sub-agent runs in the background, " +
		"and the tool index lists check_agent_run: " + w.RecordAgain()
	return p
}

// PartContextLayer prefixes the fingerprint part of each of the main
// session's context layers ("context layer skill-index").
const PartContextLayer = "context layer "

// layerSources say where each context layer comes from, for the message
// of a stale recording.
var layerSources = map[string]string{
	request.LayerToolIndex:   "netclaw.json (the tool policy)",
	request.LayerSkillIndex:  "a skill under <home>/skills",
	request.LayerMemory:      "netclaw.json (Memory.Enabled)",
	request.LayerAttachments: "netclaw.json (file_read's grant)",
}

// outcome is how one sample of a suite went.
type outcome struct {
	sample   Sample
	decision evalrec.Decision
	replayed bool
	err      string
	// recorded is what --record did with the recording ("" in the other
	// modes), and keptWhy why it was kept.
	recorded evalrec.Recorded
	keptWhy  string
}

// askSample asks, replays or skips one sample, per the mode. Under
// --record only a sample that reached a verdict replaces its recording.
func askSample(ctx context.Context, s *suitefile.RouteSuite, c *suitefile.RouteCase, n int, p *Prepared, o SuiteOptions, lim *evalrec.Limiter) (out outcome) {
	now := Fingerprint(p, s.PreambleFile, o.Words)
	path := evalrec.Path(s.Path, c.Name, n)
	d := evalrec.Decide(o.Mode, path, now, o.Words)
	spec := p.Spec()
	spec.Suite = &runfolder.SuiteTag{Kind: "route", Path: s.Path, Case: c.Name, Sample: n}
	out = outcome{sample: Sample{N: n}, decision: d}
	switch d.Action {
	case evalrec.Replay:
		tape := d.Recording.Tape(evalrec.TapeRun)
		if tape == nil {
			out.err = fmt.Sprintf("%s holds no run: %s", path, o.Words.RecordAgain())
			return out
		}
		spec.Replay, spec.ReplaySource, spec.Fast = tape, path, true
		spec.Unsaved = !o.KeepRuns
		out.sample = askOne(ctx, o.Runner, p, spec)
		out.sample.N, out.replayed = n, true
		return out
	case evalrec.Live:
		if d.Save {
			out.recorded = evalrec.Kept
		}
		release, err := lim.Acquire(ctx, evalrec.ProviderKey(p.Model))
		if err != nil {
			out.err, out.keptWhy = "cancelled before it started", "cancelled before it started"
			return out
		}
		spec.Record = d.Save
		out.sample = askOne(ctx, o.Runner, p, spec)
		release()
		out.sample.N = n
		if d.Save {
			saveRecording(&out, s, c, n, path, now)
		}
		return out
	}
	switch {
	case d.Action == evalrec.Missing && o.Demo:
		out.err = o.Words.NotRecordedInDemo(shownFrom(path, o.ShownFrom), o.Words.Route, c.Name, false).Error()
	case d.Action == evalrec.Missing:
		out.err = o.Words.NotRecorded(path, o.Words.Route, shownFrom(s.Path, o.ShownFrom), c.Name).Error()
	case d.Err != nil:
		out.err = d.Err.Error()
	}
	return out
}

// saveRecording replaces the recording at path with the live sample of
// out (sample n of case c of suite s, asked with fingerprint now) when it
// reached a verdict; else it keeps the old one and says why in out.
func saveRecording(out *outcome, s *suitefile.RouteSuite, c *suitefile.RouteCase, n int, path string, now evalrec.Fingerprint) {
	smp := out.sample
	why := evalrec.NoVerdict(&smp.Run)
	switch {
	case smp.Run.RunID == "":
		why = "the run did not start: " + smp.Pick.Error
	case why == "" && smp.WriteErr != nil:
		why = fmt.Sprintf("the run folder could not be written: %v", smp.WriteErr)
	}
	if why != "" {
		out.keptWhy = why
		return
	}
	tape, err := runner.LoadCassette(filepath.Join(smp.Run.Dir, runfolder.StreamFile))
	if err == nil {
		err = evalrec.Save(path, &evalrec.Recording{Kind: "route", Suite: filepath.Base(s.Path), Case: c.Name, Sample: n,
			RecordedAt: smp.Run.StartedAt, Fingerprint: now, Tapes: []evalrec.Tape{{Name: evalrec.TapeRun, Cassette: tape}}})
	}
	if err != nil {
		out.err = fmt.Sprintf("the recording could not be kept: %v", err)
		out.keptWhy = out.err
		return
	}
	out.recorded = evalrec.Replaced
}

// judgeCase sums up a case's samples: the worst of stale, not recorded and
// error first, then the share that agreed against min-rate; w words the
// hint of a stale case.
func judgeCase(r *CaseResult, w evalrec.Words, decision func(int) (evalrec.Decision, string)) {
	var stale, missing, broken []string
	for k, smp := range r.Samples {
		d, errMsg := decision(k)
		switch {
		case d.Action == evalrec.Stale:
			stale = append(stale, fmt.Sprint(k+1))
			if r.Changes == nil {
				r.Changes = d.Changes
			}
		case d.Action == evalrec.Missing:
			missing = append(missing, errMsg)
		case errMsg != "":
			broken = append(broken, fmt.Sprintf("sample %d: %s", k+1, errMsg))
		}
		if smp.Pick.Matches(r.Case.Expect) {
			r.Agreed++
		}
	}
	// Samples that got no answer (the model server down or failing, a
	// cancel) are not picks: the case is an error that says why, and no
	// rate is judged on the samples that are left.
	if msg := noAnswers(r.Samples); msg != "" {
		broken = append(broken, msg)
	}
	r.Failure = failureOf(r.Samples)
	switch {
	case len(broken) > 0:
		r.Status, r.Message = Error, strings.Join(broken, "; ")
	case len(stale) > 0:
		r.Status = Stale
		r.Message = fmt.Sprintf("recorded with something that has changed since: %s; %s", evalrec.ChangeList(r.Changes), w.RecordAgain())
	case len(missing) > 0:
		r.Status, r.Message = Unrecorded, missing[0]
	case r.Rate()+1e-9 >= r.Case.MinRate:
		r.Status = Pass
	default:
		r.Status = Fail
		r.Message = fmt.Sprintf("%d of %d %s picked %s, below min-rate %s", r.Agreed, len(r.Samples), evalrec.Plural(len(r.Samples), "sample", "samples"), r.Case.Expect, percent(r.Case.MinRate))
	}
	if r.Status == Stale || r.Status == Unrecorded || r.Status == Error {
		r.Agreed = 0
	}
}

// failureOf says why samples failed: the first failed one's call (its
// error carries the hint), and how many failed; "" when none did. A
// sample that got no answer is not counted here: noAnswers says why.
func failureOf(samples []Sample) string {
	first, n := -1, 0
	for k, smp := range samples {
		if smp.Pick.Kind == Failed && smp.NoAnswer() == "" {
			n++
			if first < 0 {
				first = k
			}
		}
	}
	if first < 0 {
		return ""
	}
	smp := samples[first]
	msg := fmt.Sprintf("sample %d of %d failed: %s", first+1, len(samples), smp.Pick.Describe())
	if n > 1 {
		msg += fmt.Sprintf(" (%d of %d samples failed)", n, len(samples))
	}
	return msg
}

func percent(f float64) string { return fmt.Sprintf("%d%%", int(f*100+0.5)) }

// runStatic ranks each case's request: a case whose top match (a score
// above 0, and above the next) is not its expected agent fails; an
// expectation of none passes when no agent shares a word.
func runStatic(res *SuiteResult, preps []*Prepared, c *lint.Catalog, a preview.Audience, done func(*CaseResult)) {
	idx := NewIndex(preview.Listed(c, a))
	res.Similar = idx.Similar(0)
	for i, r := range res.Cases {
		if preps[i] == nil {
			continue
		}
		ranks := idx.Rank(r.Case.Request)
		r.Static = ranks
		top := ""
		if len(ranks) > 0 && ranks[0].Score > 0 && (len(ranks) == 1 || ranks[0].Score > ranks[1].Score) {
			top = ranks[0].Agent
		}
		expect := r.Case.Expect
		switch {
		case strings.EqualFold(expect, None) && top == "":
			r.Status = Pass
		case strings.EqualFold(expect, None):
			r.Status, r.Message = Fail, fmt.Sprintf("expects none, but %s shares the most words with the request (%s)", top, strings.Join(ranks[0].Terms, ", "))
		case strings.EqualFold(top, expect):
			r.Status = Pass
		case top == "" && len(ranks) > 0 && ranks[0].Score > 0:
			r.Status, r.Message = Fail, fmt.Sprintf("%s and %s tie for the top static match", ranks[0].Agent, ranks[1].Agent)
		case top == "":
			r.Status, r.Message = Fail, fmt.Sprintf("no agent shares a word with the request; %s's description may not say what the request asks", expect)
		default:
			r.Status, r.Message = Fail, fmt.Sprintf("the top static match is %s (%s), not %s", top, strings.Join(ranks[0].Terms, ", "), expect)
		}
		done(r)
	}
}

// Confusion is the table of expected agents (rows) against what the
// frontline picked (columns), over the samples of cases that ran.
type Confusion struct {
	Expected []string `json:"expected"`
	Picked   []string `json:"picked"`
	// Counts[i][j] counts the samples expecting Expected[i] that picked
	// Picked[j].
	Counts [][]int `json:"counts"`
}

// Confused is a pair of agents the frontline mixed up: a request meant for
// one went to the other (either way), with both descriptions, which is
// what the author must sharpen.
type Confused struct {
	A            string `json:"a"`
	B            string `json:"b"`
	DescriptionA string `json:"description_a"`
	DescriptionB string `json:"description_b"`
	// Requests are the cases that went wrong between the two.
	Requests []ConfusedRequest `json:"requests"`
}

// ConfusedRequest is one case that went to the wrong one of a pair.
type ConfusedRequest struct {
	Case     string `json:"case"`
	Request  string `json:"request"`
	Expected string `json:"expected"`
	Picked   string `json:"picked"`
	Count    int    `json:"count"`
	Samples  int    `json:"samples"`
}

// Confusions builds the confusion table of results, and the pairs of
// agents confused, with their descriptions from c.
func Confusions(results []*SuiteResult, c *lint.Catalog) (*Confusion, []Confused) {
	t := confusionTally{c: c, counts: map[[2]string]int{}, rows: map[string]bool{}, cols: map[string]bool{}, pairs: map[[2]string]*Confused{}}
	for _, sr := range results {
		for _, r := range sr.Cases {
			if r.Status != Pass && r.Status != Fail {
				continue
			}
			t.add(r)
		}
	}
	return t.table(), t.confused()
}

// confusionTally gathers what Confusions reports, one judged case at a
// time.
type confusionTally struct {
	c *lint.Catalog
	// counts holds how often each (expected, picked) label pair was seen.
	counts     map[[2]string]int
	rows, cols map[string]bool
	// pairs holds the agents confused, keyed by their names in order.
	pairs map[[2]string]*Confused
}

// add counts the samples of the judged case r, and files the agents they
// picked wrongly under the pair they were confused in.
func (t *confusionTally) add(r *CaseResult) {
	expect := canonical(t.c, r.Case.Expect)
	t.rows[expect] = true
	picked := map[string]int{}
	for _, smp := range r.Samples {
		l := smp.Pick.Label()
		t.cols[l] = true
		t.counts[[2]string{expect, l}]++
		picked[l]++
	}
	for l, n := range picked {
		if l == expect || !isAgent(t.c, l) || !isAgent(t.c, expect) {
			continue
		}
		p := t.pair(expect, l)
		p.Requests = append(p.Requests, ConfusedRequest{Case: r.Case.Name, Request: r.Case.Request, Expected: expect, Picked: l, Count: n, Samples: len(r.Samples)})
	}
}

// pair returns the entry of the agents x and y confused, in either
// order, making it on first use.
func (t *confusionTally) pair(x, y string) *Confused {
	a, b := x, y
	if b < a {
		a, b = b, a
	}
	p := t.pairs[[2]string{a, b}]
	if p == nil {
		p = &Confused{A: a, B: b, DescriptionA: description(t.c, a), DescriptionB: description(t.c, b)}
		t.pairs[[2]string{a, b}] = p
	}
	return p
}

// table is the confusion table: a row per expected label, a column per
// picked label, both sorted.
func (t *confusionTally) table() *Confusion {
	out := &Confusion{Expected: sortedLabels(t.rows), Picked: sortedLabels(t.cols)}
	for _, e := range out.Expected {
		row := make([]int, len(out.Picked))
		for j, p := range out.Picked {
			row[j] = t.counts[[2]string{e, p}]
		}
		out.Counts = append(out.Counts, row)
	}
	return out
}

// confused lists the pairs confused, the most confused first (ties by
// name), each pair's requests the most confused first.
func (t *confusionTally) confused() []Confused {
	var out []Confused
	for _, p := range t.pairs {
		sort.SliceStable(p.Requests, func(i, j int) bool { return p.Requests[i].Count > p.Requests[j].Count })
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		ni, nj := confusedCount(out[i]), confusedCount(out[j])
		if ni != nj {
			return ni > nj
		}
		return out[i].A+" "+out[i].B < out[j].A+" "+out[j].B
	})
	return out
}

// confusedCount is the number of samples that went wrong between a
// confused pair.
func confusedCount(p Confused) int {
	n := 0
	for _, r := range p.Requests {
		n += r.Count
	}
	return n
}

// canonical returns the agent's name as defined, or None.
func canonical(c *lint.Catalog, name string) string {
	if strings.EqualFold(name, None) {
		return None
	}
	if f := c.Agent(name); f != nil {
		return f.Def.Name
	}
	return name
}

func isAgent(c *lint.Catalog, name string) bool { return name != None && c.Agent(name) != nil }

func description(c *lint.Catalog, name string) string {
	if f := c.Agent(name); f != nil {
		return f.Def.Description
	}
	return ""
}

// sortedLabels orders agents by name, then None, then everything else.
func sortedLabels(set map[string]bool) []string {
	var out []string
	for l := range set {
		out = append(out, l)
	}
	rank := func(l string) int {
		switch {
		case l == None:
			return 1
		case strings.Contains(l, " "):
			return 2
		}
		return 0
	}
	sort.Slice(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}

// shownFrom is path relative to dir (the working directory when ""), when
// inside it.
func shownFrom(path, dir string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return shown(path, dir)
}
