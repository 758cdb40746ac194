package suitefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
)

// TestSuffix ends the name of a test suite file.
const TestSuffix = ".test.yaml"

// MaxFileSize caps a suite file.
const MaxFileSize = 4 << 20

// MaxRepeat caps a case's samples.
const MaxRepeat = 100

// Suite is one test suite file: the cases of one agent.
type Suite struct {
	// Path is the file's path, as given.
	Path string
	// Text is the file's text (for a report's source lines).
	Text string
	// Agent is the agent under test: the agent key, else the file name
	// without .test.yaml. AgentPos is where the key is (zero when the name
	// comes from the file).
	Agent    string
	AgentPos lint.Pos
	// Cases are the cases in file order.
	Cases []*Case
	// Models are the models the cases run on side by side when the
	// command names none (models:), as written; ModelsPos where each is.
	Models    []string
	ModelsPos []lint.Pos
	// Audience is the parent session's audience of every case that names
	// none (audience:): "Personal", "Team" or "Public"; "" leaves it to
	// the command (Personal by default).
	Audience string
	// VarsFile is the vars-file: the template's cases are made from,
	// resolved against the suite's folder; "" without one.
	VarsFile string
	// Diagnostics are every finding about the file, cases' included.
	Diagnostics []lint.Diagnostic
}

// Broken reports whether the suite cannot run at all: it did not parse, or
// has no cases.
func (s *Suite) Broken() bool { return len(s.Cases) == 0 }

// Case is one case of a test suite.
type Case struct {
	// Name is unique in the suite. Pos is where the case starts.
	Name string
	Pos  lint.Pos
	// Task and Context are what the agent is given; ContextFile, when set,
	// is read (relative to the suite) into the context.
	Task, Context, ContextFile string
	// Project is the folder the trial tools may read, relative to the
	// suite ("" offers no tools).
	Project string
	// Skill runs the agent through that routed skill.
	Skill string
	// ModelRole overrides the agent's modelRole.
	ModelRole string
	// Audience is the parent session's audience (audience:), "" for the
	// suite's.
	Audience string
	// Repeat is the number of samples (1 by default); PassRate the share
	// of them that must pass (1 by default).
	Repeat   int
	PassRate float64
	// Expect is what a sample must show.
	Expect Expect
	// Keys are where each key of the case and of its expect is ("expect.
	// contains" for one of expect), for messages about them.
	Keys map[string]lint.Pos
	// Problems are the errors of this case alone: it cannot run, the
	// others can.
	Problems []lint.Diagnostic
	// Mocks answer tool calls instead of the tools: the case's mocks:,
	// then the suite's.
	Mocks []Mock
	// Approve are the patterns that approve the case's gated calls, as
	// --approve does: the case's approve:, then the suite's.
	Approve []ApprovePattern
	// Vars are the row of vars: or vars-file: the case was made from by
	// filling the suite's template; nil for a case written out.
	Vars map[string]string
}

// Expect is what a sample must show to pass.
type Expect struct {
	// Outcome is the run's outcome (Completed by default); Reason its
	// reason, when set.
	Outcome, Reason string
	// Contains and NotContains are texts the output must hold, or must
	// not (case-insensitive); Matches are RE2 expressions it must match.
	Contains, NotContains []string
	Matches               []*regexp.Regexp
	// Tools must each be called at least once; NoTools never.
	Tools, NoTools []string
	// ToolCalls are the tools: items that require arguments
	// ({name: file_read, args: {Path: README.md}}): a call of that tool
	// whose arguments hold these (names matched ignoring case, values
	// equal; a relative path is taken from the project) must be made.
	ToolCalls []ToolCall
	// MaxToolCalls, MaxSeconds and MaxOutputTokens are caps; negative when
	// not set.
	MaxToolCalls    int
	MaxSeconds      float64
	MaxOutputTokens int
	// Judge is a rubric in plain words a model checks the output against.
	Judge string
	// Command is a check program and its arguments (command:), run from
	// the suite's folder with the output on stdin; nil when not set.
	Command []string
	// Changes are what the run must (not) have changed in its overlay of
	// the project (changes:).
	Changes []Change
}

// ToolCall is an expected call: a tool and arguments it must be called
// with, as a subset.
type ToolCall struct {
	Name string
	Args map[string]any
	Pos  lint.Pos
}

var (
	suiteKeys  = []string{"agent", "audience", "models", "cases", "vars", "vars-file", "template", "mocks", "approve"}
	caseKeys   = []string{"name", "task", "context", "context-file", "project", "skill", "model-role", "audience", "repeat", "pass-rate", "expect", "mocks", "approve"}
	expectKeys = []string{"outcome", "reason", "contains", "not-contains", "matches", "tools", "no-tools", "max-tool-calls", "max-seconds", "max-output-tokens", "judge", "command", "changes"}
)

// IsTestSuite reports whether path names a test suite file.
func IsTestSuite(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(base, TestSuffix) && len(base) > len(TestSuffix)
}

// AgentFromPath returns the agent a suite tests when it does not say:
// its file name without .test.yaml.
func AgentFromPath(path string) string {
	return strings.TrimSuffix(filepath.Base(path), TestSuffix)
}

// Load reads and parses the test suite at path; a file that cannot be
// read is a suite with one diagnostic.
func Load(path string) *Suite {
	data, err := readFile(path)
	if err != nil {
		s := &Suite{Path: path, Agent: AgentFromPath(path)}
		s.Diagnostics = []lint.Diagnostic{{Path: path, Pos: lint.Pos{Line: 1, Column: 1}, Rule: RuleUnreadable, Severity: lint.Error, Message: err.Error()}}
		return s
	}
	return Parse(path, data)
}

// readFile reads a suite file. Anything but a regular file (a FIFO, a
// device, a folder, a dangling or looping link) is an error saying what
// it is; the file is opened without blocking, so a FIFO put there after
// the check cannot hang the reader either.
func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the suite: %w; fix or remove it", lint.DescribeStatError(err))
	}
	if err := checkSuiteMode(fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot read the suite: %w; fix or remove it", lint.DescribeStatError(err))
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("cannot read the suite: %w", err)
	}
	if err := checkSuiteMode(fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the suite: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("the suite is larger than %d MiB", MaxFileSize>>20)
	}
	return data, nil
}

// typeName names a file type that is not a regular file or a folder.
func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// checkSuiteMode refuses what a suite file cannot be: anything but a
// regular file of at most MaxFileSize bytes.
func checkSuiteMode(fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return errors.New("is a folder, not a suite file; rename or remove it")
	case !fi.Mode().IsRegular():
		return fmt.Errorf("not a regular file but %s: a suite is a YAML file; remove it or put one there", typeName(fi.Mode()))
	case fi.Size() > MaxFileSize:
		return fmt.Errorf("the suite is larger than %d MiB", MaxFileSize>>20)
	}
	return nil
}

// Parse reads a test suite's text. It never fails: what is wrong is in
// Diagnostics (and in Case.Problems for a case's own errors).
func Parse(path string, data []byte) *Suite {
	s := &Suite{Path: path, Text: lint.DecodeText(data), Agent: AgentFromPath(path)}
	r := &reader{path: path}
	defer func() {
		lint.SortDiagnostics(r.diags)
		s.Diagnostics = dedupe(r.diags)
	}()
	root := r.document([]byte(s.Text))
	if root == nil {
		return s
	}
	var cases *yaml.Node
	var t templated
	var suiteMocks []Mock
	var suiteApprove []ApprovePattern
	r.mapping(root, "the suite", suiteKeys, func(key string, k, v *yaml.Node) {
		if t.key(key, v) {
			return
		}
		switch key {
		case "agent":
			r.suiteAgent(s, v)
		case "audience":
			s.Audience = r.audience(v)
		case "models":
			s.Models, s.ModelsPos = r.models(v)
		case "cases":
			cases = v
		case "mocks":
			suiteMocks = r.mocks(v)
		case "approve":
			suiteApprove = r.approveList(v)
		}
	})
	var nodes []*yaml.Node
	if cases != nil || t.template == nil {
		nodes = r.caseNodes(root, cases, "a name and a task")
	}
	gens := r.expand(t, path, caseNames(nodes))
	s.VarsFile = t.varsFilePath(path)
	s.Cases = readCases(r, withGenerated(nodes, gens), func(n *yaml.Node, i int) (*Case, bool) {
		if i <= len(nodes) {
			c := r.testCase(n, i)
			if c != nil {
				c.Mocks = append(c.Mocks, suiteMocks...)
				c.Approve = append(c.Approve, suiteApprove...)
			}
			return c, c != nil
		}
		g := gens[i-len(nodes)-1]
		r.missingVars(g)
		c := r.testCase(n, i)
		if c != nil {
			c.Vars = g.row.Values
			c.Mocks = append(c.Mocks, suiteMocks...)
			c.Approve = append(c.Approve, suiteApprove...)
		}
		return c, c != nil
	})
	return s
}

// suiteAgent reads a suite's agent: into s, and warns when it differs
// from the agent its file name says. An empty one is ignored.
func (r *reader) suiteAgent(s *Suite, v *yaml.Node) {
	a, ok := r.scalar(v, "agent")
	if !ok || strings.TrimSpace(a) == "" {
		return
	}
	s.Agent, s.AgentPos = strings.TrimSpace(a), posOf(v)
	if named := AgentFromPath(s.Path); s.Agent != named {
		r.diags = append(r.diags, lint.Diagnostic{Path: s.Path, Pos: s.AgentPos, Rule: RuleAgentName, Severity: lint.Warning,
			Message: fmt.Sprintf("the file name says %s, agent: says %s: the suite tests %s", named, s.Agent, s.Agent),
			Hint:    fmt.Sprintf("rename the file %s%s, or fix agent:", s.Agent, TestSuffix)})
	}
}

func (c *Case) caseName() (string, lint.Pos)     { return c.Name, c.Keys["name"] }
func (c *Case) setProblems(ds []lint.Diagnostic) { c.Problems = ds }

// testCase reads case number i.
func (r *reader) testCase(n *yaml.Node, i int) *Case {
	c := &Case{Pos: posOf(n), Repeat: 1, PassRate: 1, Keys: map[string]lint.Pos{},
		Expect: Expect{Outcome: "Completed", MaxToolCalls: -1, MaxSeconds: -1, MaxOutputTokens: -1}}
	what := fmt.Sprintf("case %d", i)
	var expect *yaml.Node
	ok := r.mapping(n, what, caseKeys, func(key string, k, v *yaml.Node) {
		c.Keys[key] = posOf(v)
		switch key {
		case "name":
			c.Name = r.trimmed(v, key)
		case "task":
			c.Task, _ = r.scalar(v, key)
		case "context":
			c.Context, _ = r.scalar(v, key)
		case "context-file":
			c.ContextFile, _ = r.scalar(v, key)
		case "project":
			c.Project, _ = r.scalar(v, key)
		case "skill":
			c.Skill, _ = r.scalar(v, key)
			c.Skill = strings.TrimPrefix(strings.TrimSpace(c.Skill), "/")
		case "model-role":
			c.ModelRole = r.modelRole(v)
		case "audience":
			c.Audience = r.audience(v)
		case "repeat":
			if n, ok := r.repeat(v); ok {
				c.Repeat = n
			}
		case "pass-rate":
			if f, ok := r.passRate(v); ok {
				c.PassRate = f
			}
		case "expect":
			expect = v
		case "mocks":
			c.Mocks = r.mocks(v)
		case "approve":
			c.Approve = r.approveList(v)
		}
	})
	if !ok {
		return nil
	}
	r.nameCase(&c.Name, c.Keys, c.Pos, what)
	r.checkTask(c)
	if expect != nil {
		r.expect(c, expect)
	}
	r.checkNeedsProject(c)
	return c
}

// repeat reads a case's repeat: 1 to MaxRepeat samples; ok is false when
// v is not one (one out of range is reported).
func (r *reader) repeat(v *yaml.Node) (int, bool) {
	return r.sampleCount(v, "repeat", " samples")
}

// sampleCount reads the value v of key as a count of samples, 1 to
// MaxRepeat; ok is false when v is not one (one out of range is reported,
// its message ending in unit).
func (r *reader) sampleCount(v *yaml.Node, key, unit string) (int, bool) {
	n, ok := r.integer(v, key)
	if !ok {
		return 0, false
	}
	if n < 1 || n > MaxRepeat {
		r.add(RuleValue, posOf(v), fmt.Sprintf("%s is %d; give 1 to %d%s", key, n, MaxRepeat, unit), "")
		return 0, false
	}
	return n, true
}

// passRate reads a case's pass-rate: a share above 0 and at most 1; ok is
// false when v is not one (one out of range is reported).
func (r *reader) passRate(v *yaml.Node) (float64, bool) {
	f, ok := r.number(v, "pass-rate")
	if !ok {
		return 0, false
	}
	if f <= 0 || f > 1 {
		r.add(RuleValue, posOf(v), fmt.Sprintf("pass-rate is %v; give the share of samples that must pass, above 0 and at most 1 (0.8 for 80%%)", f), "")
		return 0, false
	}
	return f, true
}

// checkTask reports a case without a task, and one with both context and
// context-file.
func (r *reader) checkTask(c *Case) {
	if strings.TrimSpace(c.Task) == "" {
		r.add(RuleMissing, keyPos(c.Keys, "task", c.Pos), fmt.Sprintf("case %q has no task", c.Name), "add task: what the agent is asked to do")
	}
	if c.Context != "" && c.ContextFile != "" {
		r.add(RuleValue, c.Keys["context-file"], fmt.Sprintf("case %q has both context and context-file", c.Name), "give one of them")
	}
}

// checkNeedsProject reports a case that expects tool calls or changes but
// has no project, so that it could never pass.
func (r *reader) checkNeedsProject(c *Case) {
	if len(c.Expect.Tools) > 0 && strings.TrimSpace(c.Project) == "" {
		// A trial without a project offers no tools: the case could
		// never pass.
		r.add(RuleValue, keyPos(c.Keys, "expect.tools", c.Pos), fmt.Sprintf("case %q expects tool calls (%s) but has no project: a trial without one offers no tools, so none can be called", c.Name, strings.Join(c.Expect.Tools, ", ")), "add project: the folder the agent's tools work in")
	}
	if len(c.Expect.Changes) > 0 && strings.TrimSpace(c.Project) == "" {
		r.add(RuleChange, keyPos(c.Keys, "expect.changes", c.Pos), fmt.Sprintf("case %q expects changes but has no project: nothing can change", c.Name), "add project: the folder the agent works in")
	}
}

// expect reads a case's expect.
func (r *reader) expect(c *Case, n *yaml.Node) {
	r.mapping(n, fmt.Sprintf("the expect of case %q", c.Name), expectKeys, func(key string, k, v *yaml.Node) {
		c.Keys["expect."+key] = posOf(v)
		r.expectKey(&c.Expect, key, v)
	})
}

// expectKey reads the value v of one key of a case's expect into e. A
// value that is not valid is reported and leaves e's default.
func (r *reader) expectKey(e *Expect, key string, v *yaml.Node) {
	switch key {
	case "outcome":
		if o, ok := r.outcome(v); ok {
			e.Outcome = o
		}
	case "reason":
		if s, ok := r.reason(v); ok {
			e.Reason = s
		}
	case "contains":
		e.Contains, _ = r.list(v, key)
	case "not-contains":
		e.NotContains, _ = r.list(v, key)
	case "matches":
		e.Matches = append(e.Matches, r.matches(v)...)
	case "tools":
		e.Tools, e.ToolCalls = r.toolList(v)
	case "no-tools":
		e.NoTools, _ = r.list(v, key)
	case "max-tool-calls":
		if n, ok := r.atLeastZero(v, key); ok {
			e.MaxToolCalls = n
		}
	case "max-output-tokens":
		if n, ok := r.atLeastZero(v, key); ok {
			e.MaxOutputTokens = n
		}
	case "max-seconds":
		if f, ok := r.seconds(v); ok {
			e.MaxSeconds = f
		}
	case "judge":
		e.Judge = r.trimmed(v, key)
	case "command":
		e.Command = r.command(v)
	case "changes":
		e.Changes = r.changes(v)
	}
}

// seconds reads expect.max-seconds: a finite number above 0; ok is false
// when v is not one (one out of range is reported).
func (r *reader) seconds(v *yaml.Node) (float64, bool) {
	f, ok := r.number(v, "max-seconds")
	if !ok {
		return 0, false
	}
	if f <= 0 || math.IsInf(f, 0) {
		r.add(RuleValue, posOf(v), fmt.Sprintf("max-seconds is %v; give a number of seconds above 0", f), "")
		return 0, false
	}
	return f, true
}

// outcome reads expect.outcome: one of the runtime's outcomes, in any
// case, returned as the runtime spells it. ok is false when v is not one.
func (r *reader) outcome(v *yaml.Node) (string, bool) {
	s, ok := r.scalar(v, "outcome")
	if !ok {
		return "", false
	}
	i := slices.IndexFunc(vocab.Outcomes, func(o string) bool { return strings.EqualFold(o, strings.TrimSpace(s)) })
	if i < 0 {
		r.add(RuleValue, posOf(v), fmt.Sprintf("outcome %q is not an outcome", s), "use Completed, Partial or Failed")
		return "", false
	}
	return vocab.Outcomes[i], true
}

// reason reads expect.reason: one of the reasons a run ends with. A
// renamed or retired reason, or an unknown one, is reported with what to
// use instead, and ok is false.
func (r *reader) reason(v *yaml.Node) (string, bool) {
	s, ok := r.scalar(v, "reason")
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	if old, renamed := vocab.RenamedReasons[s]; renamed {
		hint := fmt.Sprintf("did you mean '%s'? %s", old.Now, old.Why)
		if old.Now == "" {
			hint = old.Why + ": remove the expectation, or expect another reason: " + strings.Join(vocab.Reasons, ", ")
		}
		r.add(RuleValue, posOf(v), fmt.Sprintf("reason %q is not a reason a run ends with any more", s), hint)
		return "", false
	}
	if !slices.Contains(vocab.Reasons, s) {
		hint := "reasons: " + strings.Join(vocab.Reasons, ", ")
		if m := suggest(s, vocab.Reasons); m != "" {
			hint = fmt.Sprintf("did you mean '%s'?", m)
		}
		r.add(RuleValue, posOf(v), fmt.Sprintf("reason %q is not a reason a run ends with", s), hint)
		return "", false
	}
	return s, true
}

// matches reads expect.matches: RE2 expressions, compiled. Each that does
// not compile is reported at its item and left out.
func (r *reader) matches(v *yaml.Node) []*regexp.Regexp {
	exprs, _ := r.list(v, "matches")
	var out []*regexp.Regexp
	for i, x := range exprs {
		re, err := regexp.Compile(x)
		if err != nil {
			pos := posOf(v)
			if v.Kind == yaml.SequenceNode {
				pos = posOf(v.Content[i])
			}
			r.add(RuleRegexp, pos, fmt.Sprintf("matches %q is not a valid RE2 expression: %s", x, strings.TrimPrefix(err.Error(), "error parsing regexp: ")), "RE2 has no look-around or back-references; (?i) ignores case")
			continue
		}
		out = append(out, re)
	}
	return out
}

// atLeastZero reads an integer limit named key that must be 0 or more;
// ok is false when v is not one (a negative one is reported).
func (r *reader) atLeastZero(v *yaml.Node, key string) (int, bool) {
	n, ok := r.integer(v, key)
	if !ok {
		return 0, false
	}
	if n < 0 {
		r.add(RuleValue, posOf(v), fmt.Sprintf("%s is %d; give 0 or more", key, n), "")
		return 0, false
	}
	return n, true
}

// Check adds the findings that need the catalog and the disk: an agent
// that is not loaded, a skill that does not route to it, a context-file or
// project folder that is not there. c may be nil (no catalog: not checked).
func Check(s *Suite, c *lint.Catalog) {
	if len(s.Cases) == 0 {
		return // nothing runs: the reading's findings say why
	}
	r := &reader{path: s.Path}
	if c != nil {
		r.checkAgent(s, c)
		r.checkModels(s, c)
	}
	dir := filepath.Dir(s.Path)
	var warnings []lint.Diagnostic // not a case's problems: it still runs
	for _, cs := range s.Cases {
		before := len(r.diags)
		if cs.Skill != "" && c != nil {
			r.checkSkill(cs, s.Agent, c)
		}
		r.checkCaseFiles(cs, dir)
		if c != nil {
			r.checkApprove(cs, c.Config)
		}
		if len(cs.Expect.Command) > 0 {
			if _, msg, hint := findCommand(dir, cs.Expect.Command[0]); msg != "" {
				r.add(RuleCommand, cs.Keys["expect.command"], msg, hint)
			}
		}
		cs.Problems = append(cs.Problems, r.diags[before:]...)
		if c != nil {
			warnings = append(warnings, outsideHome(s.Path, cs, c.Home)...)
		}
	}
	// A template's rows share its positions: a finding about what they
	// share (a check program, a project) is said once, though each row's
	// case keeps it among its problems.
	s.Diagnostics = appendNew(s.Diagnostics, r.diags)
	s.Diagnostics = appendNew(s.Diagnostics, warnings)
	lint.SortDiagnostics(s.Diagnostics)
}

// checkAgent reports a suite whose agent the catalog rejected or does not
// hold, with the rejection's reason or the nearest loaded name.
func (r *reader) checkAgent(s *Suite, c *lint.Catalog) {
	if c.Agent(s.Agent) != nil {
		return
	}
	pos := s.AgentPos
	if pos == (lint.Pos{}) {
		pos = lint.Pos{Line: 1, Column: 1}
	}
	if f := c.RejectedAgent(s.Agent); f != nil {
		reason := f.Reason
		if reason == "" {
			reason = "the runtime skips it"
		}
		r.add(RuleAgent, pos, fmt.Sprintf("agent %q at %s is rejected: %s", s.Agent, f.Path, reason), "fix the definition (agentdesk lint shows why)")
		return
	}
	var names []string
	for _, f := range c.Loaded() {
		names = append(names, f.Def.Name)
	}
	hint := "name the agent with agent:, or name the file <agent>.test.yaml"
	if m := suggest(s.Agent, names); m != "" {
		hint = fmt.Sprintf("did you mean '%s'?", m)
	}
	r.add(RuleAgent, pos, fmt.Sprintf("agent %q is not loaded", s.Agent), hint)
}

// checkModels reports each of the suite's models that the config does not
// resolve, and each that is named twice.
func (r *reader) checkModels(s *Suite, c *lint.Catalog) {
	seen := map[string]bool{}
	for i, name := range s.Models {
		m, err := LookupModel(c.Config, name)
		if me, ok := err.(*ModelError); ok {
			r.add(RuleModel, s.ModelsPos[i], me.Message, me.Hint)
			continue
		}
		if seen[m.Name] {
			r.add(RuleModel, s.ModelsPos[i], fmt.Sprintf("model %s is named twice", m.Name), "name each model once")
		}
		seen[m.Name] = true
	}
}

// checkSkill reports a case's skill that is not found, that routes to
// another sub-agent than agent, or whose route fails.
func (r *reader) checkSkill(cs *Case, agent string, c *lint.Catalog) {
	sk := c.Skill(cs.Skill)
	switch {
	case sk == nil:
		r.add(RuleSkill, cs.Keys["skill"], fmt.Sprintf("skill /%s is not found", cs.Skill), "")
	case !strings.EqualFold(sk.Subagent, agent):
		target := sk.Subagent
		if target == "" {
			target = "no sub-agent"
		}
		r.add(RuleSkill, cs.Keys["skill"], fmt.Sprintf("skill /%s routes to %s, not to %s", cs.Skill, target, agent), "")
	default:
		if _, failure := c.Route(sk); failure != "" {
			r.add(RuleSkill, cs.Keys["skill"], failure, "")
		}
	}
}

// checkCaseFiles reports a case's context-file that is not a readable
// file and its project that is not a folder, both relative to dir.
func (r *reader) checkCaseFiles(cs *Case, dir string) {
	if cs.ContextFile != "" {
		if fi, err := os.Stat(Resolve(dir, cs.ContextFile)); err != nil || fi.IsDir() {
			r.add(RuleFile, cs.Keys["context-file"], fmt.Sprintf("context-file %s is not a file (paths are relative to the suite)", cs.ContextFile), "")
		} else if err := checkSideMode(fi, MaxFileSize); err != nil {
			r.add(RuleFile, cs.Keys["context-file"], fmt.Sprintf("context-file %s cannot be read: %v", cs.ContextFile, err), "give a text file beside the suite")
		}
	}
	if cs.Project != "" {
		if fi, err := os.Stat(Resolve(dir, cs.Project)); err != nil || !fi.IsDir() {
			r.add(RuleFile, cs.Keys["project"], fmt.Sprintf("project %s is not a folder (paths are relative to the suite)", cs.Project), "")
		}
	}
}

// checkApprove reports each of a case's approve patterns that names an
// MCP server (mcp:NAME or NAME__tool) the config does not declare.
func (r *reader) checkApprove(cs *Case, cfg *lint.Config) {
	for _, p := range cs.Approve {
		server, ok := strings.CutPrefix(p.Text, "mcp:")
		if !ok {
			server, _, ok = strings.Cut(p.Text, "__")
		}
		if _, known := cfg.McpServer(server); ok && !known {
			r.add(RuleApprove, p.Pos, fmt.Sprintf("approve %q: no MCP server is named %s in netclaw.json, so it approves nothing", p.Text, server), "name one of McpServers, as agentdesk tools lists them")
		}
	}
}

// appendNew appends to ds each of add that ds does not hold yet.
func appendNew(ds, add []lint.Diagnostic) []lint.Diagnostic {
	seen := make(map[lint.Diagnostic]bool, len(ds))
	for _, d := range ds {
		seen[d] = true
	}
	for _, d := range add {
		if !seen[d] {
			seen[d] = true
			ds = append(ds, d)
		}
	}
	return ds
}

// outsideHome warns about a case's context-file and project that are
// outside the home (and outside its agents folder, when that is
// elsewhere): they are read, but the recordings made from them go stale on
// a machine where they differ or are missing.
func outsideHome(path string, cs *Case, h lint.Home) []lint.Diagnostic {
	if h.Base == "" {
		return nil
	}
	var out []lint.Diagnostic
	dir := filepath.Dir(path)
	for _, k := range []struct{ key, value string }{{"project", cs.Project}, {"context-file", cs.ContextFile}} {
		if k.value == "" || insideHome(Resolve(dir, k.value), h) {
			continue
		}
		out = append(out, lint.Diagnostic{Path: path, Pos: cs.Keys[k.key], Rule: RuleOutsideHome, Severity: lint.Warning,
			Message: fmt.Sprintf("%s %s is outside the home: recordings made from it go stale on another machine", k.key, k.value),
			Hint:    "keep what a suite reads inside the home, beside the agents folder (not in it)"})
	}
	return out
}

// insideHome says whether path p is inside the home's base folder or its
// agents folder; when it cannot tell, it says yes (so nothing is warned).
func insideHome(p string, h lint.Home) bool {
	for _, root := range []string{h.Base, h.Agents} {
		if root == "" {
			continue
		}
		abs, err1 := filepath.Abs(p)
		base, err2 := filepath.Abs(root)
		if err1 != nil || err2 != nil {
			return true // cannot tell: no warning
		}
		if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// Resolve returns path relative to the suite's folder dir, unless it is
// absolute; a leading ~/ is not expanded.
func Resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// Find returns the files in dir (top level only) whose names end in
// suffix, sorted; a folder that does not exist holds none.
func Find(dir, suffix string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the suites in %s: %w", dir, err)
	}
	var out []string
	for _, e := range ents {
		// Whatever its type: a folder, a link or a FIFO named like a suite
		// is read as one, so that it is reported, not skipped.
		if strings.HasSuffix(e.Name(), suffix) && len(e.Name()) > len(suffix) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

// audience reads a spawning session's audience: Personal or Team, in any
// case. Public is an error: it cannot spawn a sub-agent.
func (r *reader) audience(v *yaml.Node) string {
	a, ok := r.scalar(v, "audience")
	if !ok {
		return ""
	}
	a = strings.TrimSpace(a)
	if strings.EqualFold(a, "Public") {
		// agentdesk run refuses a Public trial for the same reason.
		r.add(RuleValue, posOf(v), `audience Public cannot spawn sub-agents: spawn_agent answers "Error: This tool is not available." there, so NetClaw never runs this agent for a Public session`, "use Personal or Team")
		return ""
	}
	for _, x := range []string{"Personal", "Team"} {
		if strings.EqualFold(x, a) {
			return x
		}
	}
	r.add(RuleValue, posOf(v), fmt.Sprintf("audience %q is not an audience", a), "use Personal or Team")
	return ""
}

// toolList reads expect.tools: names, or {name: N, args: {K: V}} items
// whose arguments the call must hold. Every item's name is in names.
func (r *reader) toolList(v *yaml.Node) (names []string, calls []ToolCall) {
	if v.Kind != yaml.SequenceNode {
		names, _ = r.list(v, "tools")
		return names, nil
	}
	for _, item := range v.Content {
		if item.Kind != yaml.MappingNode {
			if s, ok := r.scalar(item, "tools item"); ok && s != "" {
				names = append(names, s)
			}
			continue
		}
		tc := r.toolCall(item)
		if tc.Name == "" {
			r.add(RuleMissing, tc.Pos, "a tools item has no name", "give name: the tool's name")
			continue
		}
		names = append(names, tc.Name)
		if len(tc.Args) > 0 {
			calls = append(calls, tc)
		}
	}
	return names, calls
}

// args reads an args: value, a mapping of argument names to values; one
// that is not is reported under rule with example as the fix, and gives nil.
func (r *reader) args(val *yaml.Node, rule, example string) map[string]any {
	var m map[string]any
	if val.Kind != yaml.MappingNode || val.Decode(&m) != nil {
		r.add(rule, posOf(val), "args is "+kindName(val)+"; give a mapping of argument names to values", example)
		return nil
	}
	return m
}

// toolCall reads one {name: N, args: {K: V}} item of expect.tools; args
// that are not a mapping are reported and left out.
func (r *reader) toolCall(item *yaml.Node) ToolCall {
	tc := ToolCall{Pos: posOf(item)}
	r.mapping(item, "a tools item", toolCallKeys, func(key string, k, val *yaml.Node) {
		switch key {
		case "name":
			tc.Name = r.trimmed(val, "name")
		case "args":
			tc.Args = r.args(val, RuleValue, "args: {Path: README.md}")
		}
	})
	return tc
}
