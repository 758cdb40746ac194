package suite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// DefaultJobs is --jobs' default: model calls per provider at once.
const DefaultJobs = 4

// Options say how suites run.
type Options struct {
	// Runner starts the samples' runs (and the judge's). Required.
	Runner *runner.Runner
	// Catalog holds the agents, skills and configuration. Required.
	Catalog *lint.Catalog
	// Mode says where samples come from (evalrec.Default, Record,
	// Offline).
	Mode evalrec.Mode
	// Words are the command line's words in the hints of the results
	// (how to record a case); the command line fills them.
	Words evalrec.Words
	// Jobs caps the model calls per provider at once (DefaultJobs when 0);
	// replays share one such cap. Limiter, when set, is used instead.
	Jobs    int
	Limiter *evalrec.Limiter
	// JudgeRole is the judge's model role (Main when "").
	JudgeRole string
	// Models, when set, runs every case on each of these models side by
	// side (a matrix: a CaseResult per case and model), each with its own
	// recordings; when not, a suite's models: does, else the case's
	// model role. LookupModels makes them.
	Models []suitefile.ModelChoice
	// NetClaw composes the samples' requests (the home, the default
	// audience, the operating core); Project is the project folder of a
	// case that names none.
	NetClaw runner.NetClaw
	Project string
	// KeepRuns writes the run folder of every replayed sample. Without
	// it a replay's folder is written only when its sample does not pass
	// (live samples always have theirs).
	KeepRuns bool
	// Approve approves the gated tool calls of live samples that match
	// (`--approve`); a replayed sample needs none.
	Approve []approve.Pattern
	// CommandTimeout is a check program's time limit
	// (DefaultCommandTimeout when 0).
	CommandTimeout time.Duration
	// OnSample, when set, is called as each sample starts (done false)
	// and ends (done true); OnCase as each case's result is complete.
	// They are called from many goroutines, one call at a time.
	OnSample func(s *suitefile.Suite, c *suitefile.Case, n int, done bool, r *SampleResult)
	OnCase   func(s *suitefile.Suite, r *CaseResult)
	// OnSuite is called as each suite's result is complete (at once for a
	// broken suite), in no particular order.
	OnSuite func(r *SuiteResult)
	// Cases, when set, selects the cases that run (--case); the others
	// are left out of the results.
	Cases *evalrec.CaseFilter
	// Shard, when set, runs only its share of the cases (--shard K/N).
	Shard *evalrec.Shard
	// Select, when set, runs only the cases it selects (--failed: those
	// that did not pass the last time), by suite file and case name.
	Select func(suitePath, caseName string) bool
	// SelectModels, when set (--failed), gives the models each selected
	// case runs on, by name ("" its own model role): those it did not
	// pass on the last time. Models keeps those among them; without
	// Models they stand in for the suite's models:.
	SelectModels func(suitePath, caseName string) []string
	// ShownFrom is the folder the hints show suite paths relative to (""
	// : the working directory).
	ShownFrom string
	// Demo says the suites are the embedded demo's (--demo), which cannot
	// record: a sample it has no recording of says what it carries
	// instead of suggesting --record.
	Demo bool
	// Browser says the samples run from the browser's Tests pane: the
	// refusal of a call no one approved then advises what works there.
	Browser bool
	// Seed, when set, gives the recording of a sample recorded from a
	// kept run (agentdesk runs --to-case) instead of a live run: with Mode
	// Record, the sample replays it and keeps it as its recording.
	Seed func(suitePath, caseName string, sample int) (tape *cassette.Cassette, source string)
	// NoMCP starts none of the configured MCP servers (`--no-mcp`).
	NoMCP bool
	// Sandbox is how the cases' approved commands and stdio MCP servers
	// are confined (--no-sandbox, --allow-network, …).
	Sandbox tools.Sandbox
	// MCPStartTimeout bounds starting each MCP server
	// (mcp.DefaultStartTimeout when 0).
	MCPStartTimeout time.Duration
	// OnMCPStart, when set, is called once, before the MCP servers are
	// started for the first live sample that offers tools, with their
	// names; OnMCPNote with each thing that went wrong as they started.
	// The servers are probed once for the whole Run: each live sample
	// offers the probed tools and starts a server only on its first call.
	OnMCPStart func(servers []string)
	OnMCPNote  func(note string)
}

// shown is a suite path as a hint shows it.
func (o Options) shown(path string) string { return ReportOptions{Dir: o.ShownFrom}.shown(path) }

// selected returns the cases of s that o selects.
func (o Options) selected(s *suitefile.Suite) []*suitefile.Case {
	if o.Cases == nil && o.Shard == nil && o.Select == nil {
		return s.Cases
	}
	var out []*suitefile.Case
	for _, c := range s.Cases {
		if o.Cases.Match(c.Name) && o.Shard.Has(s.Path, c.Name) && (o.Select == nil || o.Select(s.Path, c.Name)) {
			out = append(out, c)
		}
	}
	return out
}

// Run runs every case of every suite and returns the results in suite
// order. A broken suite (one that does not parse, or has no cases) is a
// result with its findings and no cases; the others still run. ctx
// cancels the runs under way (they end cancelled_by_parent) and the
// samples not started (they end Error).
func Run(ctx context.Context, suites []*suitefile.Suite, o Options) []*SuiteResult {
	if o.Jobs <= 0 {
		o.Jobs = DefaultJobs
	}
	if o.Limiter == nil {
		o.Limiter = evalrec.NewLimiter(o.Jobs)
	}
	if o.JudgeRole == "" {
		o.JudgeRole = "Main"
	}
	x := &execution{o: o, work: make(chan struct{}, o.Jobs), checks: make(chan struct{}, o.Jobs), memo: newRequestMemo(), workers: make(chan func())}
	out := make([]*SuiteResult, len(suites))
	var wg sync.WaitGroup
	for i, s := range suites {
		out[i] = x.startSuite(ctx, &wg, s)
	}
	wg.Wait()
	close(x.workers)
	return out
}

// spawn runs f on a goroutine of its own: one that ran an earlier sample
// and waits for the next, else a new one. A sample's replay runs deep
// (reading the recording, the run, the decoder): a new goroutine grows
// its stack there, copying it each time it doubles, for every sample.
// The goroutines leave when Run ends (x.workers closed).
func (x *execution) spawn(f func()) {
	select {
	case x.workers <- f:
	default:
		go func() {
			for ; f != nil; f = <-x.workers {
				f()
			}
		}()
	}
}

// suiteRun is one suite of a Run while its samples run: the suite's
// result, the cases not yet finished, and the clock of its samples.
type suiteRun struct {
	x     *execution
	s     *suitefile.Suite
	sr    *SuiteResult
	agent *lint.File
	why   string
	// left counts the case results not finished (under x.mu).
	left int
	// mu guards the clocks and every case's samples.
	mu          sync.Mutex
	first, last time.Time
}

// startSuite makes s's result and starts its samples (wg counts them). A
// suite that cannot run is finished at once.
func (x *execution) startSuite(ctx context.Context, wg *sync.WaitGroup, s *suitefile.Suite) *SuiteResult {
	sr := &SuiteResult{Suite: s, Findings: s.Diagnostics}
	cases := x.o.selected(s)
	if s.Broken() || len(cases) == 0 {
		x.finishSuite(sr)
		return sr
	}
	agent, why := agentOf(x.o.Catalog, s.Agent)
	if agent == nil {
		x.noAgent(sr, cases, why)
		return sr
	}
	models, modelsErr := x.modelsOf(s)
	sr.Models = models
	columns := []*suitefile.ModelChoice{nil}
	if len(models) > 0 {
		columns = make([]*suitefile.ModelChoice, len(models))
		for k := range models {
			columns[k] = &models[k]
		}
	}
	cells := make([][]*suitefile.ModelChoice, len(cases))
	errs := make([]error, len(cases))
	u := &suiteRun{x: x, s: s, sr: sr, agent: agent, why: why}
	for i, c := range cases {
		cells[i], errs[i] = columns, modelsErr
		if x.o.SelectModels != nil {
			cells[i], errs[i] = x.failedColumns(s, c)
		}
		u.left += len(cells[i])
	}
	if x.o.SelectModels != nil {
		sr.Models = cellModels(cells, x.o.Models)
	}
	if u.left == 0 { // --failed --models: no case failed on these models
		x.finishSuite(sr)
		return sr
	}
	sr.Cases = make([]*CaseResult, 0, u.left)
	for i, c := range cases {
		for _, m := range cells[i] {
			u.startCase(ctx, wg, c, m, errs[i])
		}
	}
	return sr
}

// failedColumns returns the models case c of s runs on with --failed
// (nil: its own role): those it did not pass on the last time, among
// Options.Models when given.
func (x *execution) failedColumns(s *suitefile.Suite, c *suitefile.Case) ([]*suitefile.ModelChoice, error) {
	names := x.o.SelectModels(s.Path, c.Name)
	var out []*suitefile.ModelChoice
	if len(x.o.Models) > 0 {
		for k := range x.o.Models {
			if slices.Contains(names, x.o.Models[k].Name) {
				out = append(out, &x.o.Models[k])
			}
		}
		return out, nil
	}
	var named []string
	for _, n := range names {
		if n == "" {
			out = append(out, nil)
		} else {
			named = append(named, n)
		}
	}
	if len(named) == 0 {
		return out, nil
	}
	ms, err := suitefile.LookupModels(x.o.Catalog.Config, named)
	if err != nil {
		// The configuration changed since: each cell says why it cannot run.
		for _, n := range named {
			out = append(out, &suitefile.ModelChoice{Name: n})
		}
		return out, fmt.Errorf("models: %w", err)
	}
	for k := range ms {
		out = append(out, &ms[k])
	}
	return out, nil
}

// cellModels returns the models of cells, each once, in the order of
// given (--models) when set, else in the order first met (none when
// every case runs on its own role alone).
func cellModels(cells [][]*suitefile.ModelChoice, given []suitefile.ModelChoice) []suitefile.ModelChoice {
	var out []suitefile.ModelChoice
	for _, row := range cells {
		for _, m := range row {
			if m != nil && !slices.ContainsFunc(out, func(o suitefile.ModelChoice) bool { return o.Name == m.Name }) {
				out = append(out, *m)
			}
		}
	}
	if len(given) > 0 {
		return slices.DeleteFunc(slices.Clone(given), func(g suitefile.ModelChoice) bool {
			return !slices.ContainsFunc(out, func(o suitefile.ModelChoice) bool { return o.Name == g.Name })
		})
	}
	return out
}

// noAgent finishes a suite that cannot run as written: every case is an
// error with the loader's reason why, and no sample runs.
func (x *execution) noAgent(sr *SuiteResult, cases []*suitefile.Case, why string) {
	sr.Err = why
	for _, c := range cases {
		cr := &CaseResult{Case: c, Status: Error, Message: why}
		sr.Cases = append(sr.Cases, cr)
		if x.o.OnCase != nil {
			x.mu.Lock()
			x.o.OnCase(sr.Suite, cr)
			x.mu.Unlock()
		}
	}
	x.finishSuite(sr)
}

// caseDone finishes cr, and the suite with its last case.
func (u *suiteRun) caseDone(cr *CaseResult) {
	u.x.finishCase(u.s, cr)
	u.x.mu.Lock()
	u.left--
	last := u.left == 0
	u.x.mu.Unlock()
	if last {
		u.x.finishSuite(u.sr)
	}
}

// caseRun is one case result of a suite while its samples run: the
// samples not yet ended and the case's clock (under its suiteRun's mu).
type caseRun struct {
	cr                  *CaseResult
	left                int
	caseFirst, caseLast time.Time
}

// startCase adds the result of case c on model m (nil: the agent's) and
// starts its samples; a case that cannot run has every sample an error.
func (u *suiteRun) startCase(ctx context.Context, wg *sync.WaitGroup, c *suitefile.Case, m *suitefile.ModelChoice, modelsErr error) {
	cr := &CaseResult{Case: c, Samples: make([]*SampleResult, c.Repeat)}
	if m != nil {
		cr.Model = m.Name
	}
	u.sr.Cases = append(u.sr.Cases, cr)
	err := caseError(c, u.agent, u.why)
	if err == "" && modelsErr != nil {
		err = modelsErr.Error()
	}
	if err != "" {
		for n := range cr.Samples {
			cr.Samples[n] = &SampleResult{N: n + 1, Status: Error, Err: err}
		}
		u.caseDone(cr)
		return
	}
	// The sample that ends last finishes the case: no goroutine waits
	// for a case (a suite of 1,000 cases would have as many stacks for
	// the collector to scan).
	k := &caseRun{cr: cr, left: c.Repeat}
	for n := 1; n <= c.Repeat; n++ {
		// A slot of x.work is taken before the sample's goroutine
		// starts, so that at most Jobs of them exist at once while they
		// read recordings and replay.
		held := true
		select {
		case u.x.work <- struct{}{}:
		case <-ctx.Done():
			held = false // the sample says at once that it was not run
		}
		wg.Add(1)
		u.x.spawn(func() {
			defer wg.Done()
			start := time.Now()
			res := u.x.sample(ctx, u.s, c, m, u.agent, n, held)
			if u.sampled(k, n, res, start, time.Now()) {
				u.caseDone(cr)
			}
		})
	}
}

// sampled notes sample n of k's case, which ran from start to end, in
// the suite's and the case's clocks, and reports whether it was the
// case's last.
func (u *suiteRun) sampled(k *caseRun, n int, res *SampleResult, start, end time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.first, u.last = widen(u.first, u.last, start, end)
	u.sr.Duration = u.last.Sub(u.first)
	k.caseFirst, k.caseLast = widen(k.caseFirst, k.caseLast, start, end)
	k.cr.Wall = k.caseLast.Sub(k.caseFirst)
	k.cr.Samples[n-1] = res
	k.left--
	return k.left == 0
}

// widen returns the span from first to last widened to hold start to
// end (a zero first is no span yet).
func widen(first, last, start, end time.Time) (time.Time, time.Time) {
	if first.IsZero() || start.Before(first) {
		first = start
	}
	if end.After(last) {
		last = end
	}
	return first, last
}

// modelsOf returns the models the cases of s run on side by side:
// Options.Models, else the suite's models: (none: no matrix).
func (x *execution) modelsOf(s *suitefile.Suite) ([]suitefile.ModelChoice, error) {
	if len(x.o.Models) > 0 {
		return x.o.Models, nil
	}
	if len(s.Models) == 0 {
		return nil, nil
	}
	ms, err := suitefile.LookupModels(x.o.Catalog.Config, s.Models)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	return ms, nil
}

// execution is one Run.
type execution struct {
	o  Options
	mu sync.Mutex // serialises the callbacks
	// work admits o.Jobs samples at a time: Run takes a slot before it
	// starts a sample's goroutine, and the sample gives it back once it
	// is decided to run live (it then waits for its provider's slot), or
	// when its replay is done. Without it every sample of a 1,000-case
	// suite would read and hold its recording at once, with as many
	// goroutines' stacks for the collector to scan.
	work chan struct{}
	// checks admits o.Jobs check programs (expect: command:) at a time.
	checks chan struct{}
	// workers hands a sample to a goroutine waiting for one (spawn).
	workers chan func()
	// memo composes each distinct request once for the whole run.
	memo *requestMemo
	// mcpOnce probes the MCP servers once for the whole run (mcpCatalog).
	mcpOnce sync.Once
	mcpCat  *mcp.Catalog
}

// mcpCatalog probes the configured MCP servers the first time a live
// sample offers tools, and returns the probe to every later one.
func (x *execution) mcpCatalog(ctx context.Context) *mcp.Catalog {
	x.mcpOnce.Do(func() {
		cfg := x.o.Catalog.Config
		if cfg == nil {
			return
		}
		names := mcp.Startable(cfg.McpServers, mcp.Options{})
		if len(names) == 0 {
			return
		}
		if x.o.OnMCPStart != nil {
			x.mu.Lock()
			x.o.OnMCPStart(names)
			x.mu.Unlock()
		}
		var note func(string)
		if x.o.OnMCPNote != nil {
			note = func(n string) {
				x.mu.Lock()
				defer x.mu.Unlock()
				x.o.OnMCPNote(n)
			}
		}
		x.mcpCat = mcp.Probe(ctx, cfg.McpServers, mcp.Options{
			StartTimeout: x.o.MCPStartTimeout,
			Sandbox:      runner.ProbeSandbox(x.o.Sandbox, cfg),
			Redact:       redact.New(cfg.Secrets()...).String,
			Note:         note,
		})
	})
	return x.mcpCat
}

// finishSuite reports a suite's result.
func (x *execution) finishSuite(sr *SuiteResult) {
	if x.o.OnSuite != nil {
		x.mu.Lock()
		x.o.OnSuite(sr)
		x.mu.Unlock()
	}
}

// caseError says why a case cannot run at all, or "".
func caseError(c *suitefile.Case, agent *lint.File, why string) string {
	for _, d := range c.Problems {
		if d.Severity == lint.Error {
			return fmt.Sprintf("%d:%d: %s [%s]", d.Line, d.Column, d.Message, d.Rule)
		}
	}
	if agent == nil {
		return why
	}
	return ""
}

// finishCase sums up a case's samples and reports it.
func (x *execution) finishCase(s *suitefile.Suite, cr *CaseResult) {
	worst := Pass
	for _, r := range cr.Samples {
		cr.Duration += r.Duration
		if r.Status == Pass {
			cr.Passed++
		}
		if r.Status != Fail && r.Status.rank() > worst.rank() {
			worst = r.Status
		}
	}
	switch {
	case worst != Pass:
		cr.Status = worst
	case float64(cr.Passed) < math.Ceil(cr.Case.PassRate*float64(len(cr.Samples))-1e-9):
		cr.Status = Fail
	default:
		cr.Status = Pass
	}
	cr.Message = caseMessage(cr)
	if x.o.OnCase != nil {
		x.mu.Lock()
		x.o.OnCase(s, cr)
		x.mu.Unlock()
	}
}

// caseMessage is a case's one-line explanation.
func caseMessage(cr *CaseResult) string {
	switch cr.Status {
	case Pass:
		return ""
	case Fail:
		return firstFailure(cr)
	}
	return statusWhy(cr)
}

// firstFailure is a failed case's first failed expectation (of its
// first failed sample that has one).
func firstFailure(cr *CaseResult) string {
	for _, r := range cr.Samples {
		if r.Status == Fail && len(r.Failures) > 0 {
			f := r.Failures[0]
			return f.Expect + ": " + f.Message
		}
	}
	return ""
}

// statusWhy explains a case that neither passed nor failed by its first
// sample of the same status with an explanation: its error, or what
// changed since it was recorded.
func statusWhy(cr *CaseResult) string {
	for _, r := range cr.Samples {
		if r.Status != cr.Status {
			continue
		}
		if r.Err != "" {
			return r.Err
		}
		if len(r.StaleBecause) > 0 {
			return "recorded with something that has changed since: " + joinSemi(r.StaleBecause)
		}
	}
	return ""
}

func joinSemi(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

// notify reports a sample starting or ending.
func (x *execution) notify(s *suitefile.Suite, c *suitefile.Case, n int, done bool, r *SampleResult) {
	if x.o.OnSample != nil {
		x.mu.Lock()
		x.o.OnSample(s, c, n, done, r)
		x.mu.Unlock()
	}
}

// resolve builds the spec of a case's sample and resolves its model and
// limits.
func (x *execution) resolve(s *suitefile.Suite, c *suitefile.Case, m *suitefile.ModelChoice, agent *lint.File, n int) (sent, error) {
	cat := x.o.Catalog
	dir := filepath.Dir(s.Path)
	spec := runner.Spec{
		Agent: agent, Config: cat.Config, Task: c.Task, Context: c.Context, ModelRole: c.ModelRole, Skills: cat.Skills,
		Suite:   &runfolder.SuiteTag{Kind: "test", Path: s.Path, Case: c.Name, Sample: n},
		NetClaw: x.o.NetClaw,
		Project: x.o.Project,
		Compose: x.memo.compose,
		NoMCP:   x.o.NoMCP,
	}
	// The audience: the case's, else the suite's, else the command's.
	if a := cmp.Or(c.Audience, s.Audience); a != "" {
		spec.Audience = a
	}
	if abs, err := filepath.Abs(s.Path); err == nil {
		spec.Suite.Path = abs
	}
	if c.ContextFile != "" {
		p := suitefile.Resolve(dir, c.ContextFile)
		data, err := suitefile.ReadSideFile(p, suitefile.MaxFileSize)
		if err != nil {
			return sent{}, fmt.Errorf("context-file %s: %w", p, err)
		}
		spec.Context = lint.DecodeText(data)
	}
	if c.Project != "" {
		p := suitefile.Resolve(dir, c.Project)
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		spec.Project = p
		spec.Mocks = mocksOf(c.Mocks)
	}
	if spec.Project != "" {
		pats, err := caseApprovals(s, c, x.o.Approve)
		if err != nil {
			return sent{}, err
		}
		spec.Approve = pats
	}
	if c.Skill != "" {
		sk := cat.Skill(c.Skill)
		if sk == nil {
			return sent{}, fmt.Errorf("skill /%s is not found", c.Skill)
		}
		spec.Skill = sk
	}
	model, err := sampleModel(&spec, c, m, agent)
	return sent{spec: spec, model: model, modelErr: err, limits: runner.LimitsFor(cat.Config, agent.Def)}, nil
}

// sampleModel resolves the model a sample of case c runs on: without a
// model choice m, the case's model-role, else the agent's; else m's role
// or m's definition, which it sets in spec.
func sampleModel(spec *runner.Spec, c *suitefile.Case, m *suitefile.ModelChoice, agent *lint.File) (runfolder.Model, error) {
	role := c.ModelRole
	if role == "" {
		role = agent.Def.ModelRole
	}
	switch {
	case m == nil:
		return runner.ResolveModel(spec.Config, role)
	case m.Role != "":
		spec.ModelRole = m.Role
		return runner.ResolveModel(spec.Config, m.Role)
	default:
		spec.ModelDefinition = m.Definition
		return runner.ResolveDefinition(spec.Config, m.Definition, role)
	}
}

// caseApprovals are the approvals of case c of s: the command's (base),
// then the case's approve: (its own, then the suite's).
func caseApprovals(s *suitefile.Suite, c *suitefile.Case, base []approve.Pattern) ([]approve.Pattern, error) {
	pats := slices.Clone(base)
	for _, ap := range c.Approve {
		p, err := approve.Parse(ap.Text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: approve: %w", s.Path, ap.Pos.Line, err)
		}
		pats = append(pats, p)
	}
	return pats, nil
}

// recordingPath is where sample n of case c on model m (nil: the
// case's own) is recorded.
func recordingPath(s *suitefile.Suite, c *suitefile.Case, m *suitefile.ModelChoice, n int, agent *lint.File) string {
	if m == nil || m.Role != "" && strings.EqualFold(m.Role, ownRole(c, agent)) {
		// A model choice naming the case's own role makes the same
		// samples as a run without one: they share the recordings.
		return evalrec.Path(s.Path, c.Name, n)
	}
	return evalrec.ModelPath(s.Path, m.Name, c.Name, n)
}

// ownRole is the role a case runs on without a model choice: its
// model-role, else the agent's modelRole, else the runtime's default.
func ownRole(c *suitefile.Case, agent *lint.File) string {
	role := c.ModelRole
	if role == "" && agent != nil && agent.Def != nil {
		role = agent.Def.ModelRole
	}
	if r, err := runner.NormalizeRole(role); err == nil && r != "" {
		return r
	}
	if role == "" {
		return "Compaction"
	}
	return role
}

// errNoTape is a recording without the tape a replay needs.
var errNoTape = errors.New("the recording has no tape of the run")
