package suite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// sent is what a case's sample sends, resolved from the catalog now.
type sent struct {
	spec runner.Spec
	// model is the resolved model; modelErr says why it did not resolve
	// (then the fingerprint leaves the model out).
	model    runfolder.Model
	modelErr error
	limits   runner.Limits
}

// sampleFingerprint is the fingerprint of what snt, a sample of case c
// run by agent, sends, with the judge's model resolved for a judged case.
func (x *execution) sampleFingerprint(snt sent, c *suitefile.Case, agent *lint.File) (evalrec.Fingerprint, error) {
	var judge runfolder.Model
	var judgeErr error
	if c.Expect.Judge != "" {
		judge, judgeErr = runner.ResolveModel(x.o.Catalog.Config, x.o.JudgeRole)
	}
	return fingerprint(x.memo, snt, c.Expect.Judge, judge, judgeErr, agent.Path)
}

// fingerprint returns what a sample of the case sends: the system prompt
// (with the skill's overlay), the first message, the tools offered, the
// mocks, the MCP servers it could use, the model and the limits, and, for
// a judged case, the rubric with the judge's prompt and model.
// Parts that do not depend on the case's task come from memo. err says
// why the request cannot be composed (a playbook or project instructions
// that cannot be read, ...): such a sample is an error in every mode,
// never stale or unrecorded.
func fingerprint(memo *requestMemo, s sent, rubric string, judge runfolder.Model, judgeErr error, agentPath string) (evalrec.Fingerprint, error) {
	sp := s.spec
	parts, err := memo.requestParts(sp, agentPath)
	// Room for every part but the mocks' and MCP servers' beyond one each.
	fp := make(evalrec.Fingerprint, 0, len(parts)+8)
	fp = append(fp, parts...)
	fp = append(fp,
		evalrec.NewDigest(evalrec.PartFirstMessage, preview.FirstMessage(sp.Task, sp.Context), "the case's task or context"),
		toolsPart(sp.Project != ""),
	)
	fp = append(fp, mocksParts(sp.Mocks)...)
	fp = append(fp, mcpParts(sp, sp.NoMCP)...)
	if s.modelErr == nil {
		fp = append(fp, memo.part(evalrec.PartModel, modelName(s.model)))
	}
	l := s.limits
	fp = append(fp, memo.part(evalrec.PartLimits, fmt.Sprintf("prefill %s, inter-delta %s, no-progress %s, max tokens %d",
		l.Prefill, l.InterDelta, l.NoProgress, sp.MaxTokens)))
	fp = append(fp, memo.part(evalrec.PartLoopRules, evalrec.LoopRulesValue))
	if rubric != "" {
		jm := "(not configured)"
		if judgeErr == nil {
			jm = modelName(judge)
		}
		fp = append(fp, evalrec.NewDigest(evalrec.PartJudge, JudgePrompt+"\x00"+rubric+"\x00"+jm, "the case's judge rubric or the judge model"))
	}
	return fp, err
}

// requestMemo remembers, for one suite run, what its samples' requests
// are composed of: the composed requests themselves (runner.ComposeMemo,
// shared with the runs it starts), and the fingerprint's request parts,
// which depend on the agent, the skill, the audience and the project but
// not on the case's task, so that a suite's cases compose and digest
// their common system prompt once instead of once per sample. The
// NetClaw install and the configuration are the run's options, the same
// for every sample. It is safe for concurrent use.
type requestMemo struct {
	compose *runner.ComposeMemo
	mu      sync.Mutex
	parts   map[partsKey]*partsEntry
	// values holds the parts made by part, by name and value.
	values map[[2]string]evalrec.Part
}

// newRequestMemo returns an empty memo.
func newRequestMemo() *requestMemo {
	return &requestMemo{compose: runner.NewComposeMemo(), parts: map[partsKey]*partsEntry{}, values: map[[2]string]evalrec.Part{}}
}

// part returns evalrec.NewPart(name, value, ""), made once a suite run
// for each name and value: the model, limits and loop rules are mostly
// the same for every sample, and each part digests its value.
func (m *requestMemo) part(name, value string) evalrec.Part {
	k := [2]string{name, value}
	m.mu.Lock()
	p, ok := m.values[k]
	m.mu.Unlock()
	if ok {
		return p
	}
	p = evalrec.NewPart(name, value, "")
	m.mu.Lock()
	if len(m.values) < maxMemoValues {
		m.values[k] = p
	}
	m.mu.Unlock()
	return p
}

// maxMemoValues bounds requestMemo.values: a suite of many models or
// limits stops remembering, it does not grow without end.
const maxMemoValues = 256

// partsKey is what requestParts' result depends on besides the run's
// options.
type partsKey struct {
	agent           *lint.Definition
	agentPath       string
	skill           *lint.Skill
	audience        string
	project         string
	config          *lint.Config
	home            string
	core            *request.Core
	netclawAudience preview.Audience
	coreMissing     string
}

// partsEntry is the parts of one partsKey, made once.
type partsEntry struct {
	once sync.Once
	fp   evalrec.Fingerprint
	err  error
}

// requestParts returns requestParts of the spec through the memo; the
// caller must not change the parts it returns.
func (m *requestMemo) requestParts(sp runner.Spec, agentPath string) (evalrec.Fingerprint, error) {
	var def *lint.Definition
	if sp.Agent != nil {
		def = sp.Agent.Def
	}
	k := partsKey{agent: def, agentPath: agentPath, skill: sp.Skill, audience: sp.Audience, project: sp.Project,
		config: sp.Config, home: sp.NetClaw.Home, core: sp.NetClaw.Core, netclawAudience: sp.NetClaw.Audience, coreMissing: sp.NetClaw.CoreMissing}
	m.mu.Lock()
	e := m.parts[k]
	if e == nil {
		e = &partsEntry{}
		m.parts[k] = e
	}
	m.mu.Unlock()
	e.once.Do(func() {
		source := displayPath(agentPath)
		if sp.Skill != nil {
			source += " or " + displayPath(sp.Skill.Path)
		}
		sp.Compose = m.compose
		e.fp, e.err = requestParts(sp, source)
	})
	return e.fp, e.err
}

// requestParts fingerprints the request NetClaw's runtime would compose:
// the audience, every part of the system prompt on its own (named
// "system prompt: operating-rules", ...: a NetClaw upgrade that changes
// the core, a playbook edit, a new tool schema each name the part that
// changed), and the tool catalogue offered. The NetClaw home's path is
// written <home> in the texts, so a recording made on one machine is not
// stale on another; the first message's working context (project path,
// git state, session folder) is left out for the same reason. A request
// that cannot be composed gives a stand-in part and the error.
func requestParts(sp runner.Spec, source string) (evalrec.Fingerprint, error) {
	aud := sp.Audience
	if aud == "" {
		aud = sp.NetClaw.Audience.String()
	}
	// No source: the stale message shows both values, whichever of the
	// suite, the case or --audience changed it.
	fp := evalrec.Fingerprint{evalrec.NewPart(PartAudience, aud, "")}
	if sp.NetClaw.Git == nil {
		// The git state goes only into the first message's working
		// context, which is left out here: not inspecting it spares a
		// run of git per sample (a seventh of an offline suite's time).
		sp.NetClaw.Git = noGitState
	}
	r, err := runner.ComposeRequest(sp)
	if err != nil {
		return append(fp, evalrec.NewPart(evalrec.PartSystemPrompt, "cannot be composed: "+err.Error(), "")), err
	}
	home := sp.NetClaw.Home
	sources := map[string]string{
		request.PartOperatingRules:      "the NetClaw install's operating core",
		request.PartDeploymentPlaybook:  "the deployment playbook identity/AGENTS.md",
		request.PartProjectInstructions: "the project's instructions file",
		request.PartBody:                source,
		request.PartSkillOverlay:        source,
		request.PartToolIndex:           "NetClaw's tool catalogue",
		request.PartExecutionContract:   "agentdesk's copy of NetClaw's contract",
	}
	for _, name := range request.PartNames {
		text, source := "none", sources[name]
		if p := r.Part(name); p != nil {
			text = p.Text
			if home != "" {
				text = strings.ReplaceAll(text, home, "<home>")
			}
		} else if why := r.MissingPart(name); why != "" {
			// A stale message then says the part is missing, not edited.
			text, source = "missing", source+evalrec.MissingNow+" ("+why+")"
		}
		fp = append(fp, evalrec.NewDigest(evalrec.PartSystemPrompt+": "+name, text, source))
	}
	tools, _ := json.Marshal(r.Tools)
	return append(fp, evalrec.NewDigest(PartToolSchemas, string(tools), "NetClaw's tool catalogue (names, descriptions, schemas)")), nil
}

// noGitState stands for the git state the fingerprint leaves out: one
// value, so that a memo composing for fingerprints sees one state.
var noGitState = &request.GitState{}

// Fingerprint parts of the request besides the system prompt's.
const (
	PartAudience    = "audience"
	PartToolSchemas = "tool schemas"
	// PartMocks is the list of mocked tools ("none" without mocks); each
	// mocked tool also has a part "mocks: TOOL" with its mocks, in order.
	PartMocks = "mocks"
)

// mocksParts fingerprints a case's mocks (the suite's and its own, as
// the sample runs them): a mock's result is what the model reads of the
// tool, so a changed mock makes a recording stale, named by its tool.
// Without mocks the list is "none", which a recording made before mocks
// were fingerprinted (no such part) also means.
func mocksParts(m tools.Mocker) []evalrec.Part {
	ms, _ := m.(tools.Mocks)
	if len(ms) == 0 {
		return noMocks
	}
	var names []string
	byTool := map[string][]tools.Mock{}
	for _, mk := range ms {
		if _, ok := byTool[mk.Tool]; !ok {
			names = append(names, mk.Tool)
		}
		byTool[mk.Tool] = append(byTool[mk.Tool], mk)
	}
	slices.Sort(names)
	out := []evalrec.Part{evalrec.NewPart(PartMocks, strings.Join(names, ", "), "")}
	for _, name := range names {
		// The first mock that matches answers, so a tool's mocks keep
		// their order; encoding/json sorts the args' keys.
		b, _ := json.Marshal(byTool[name])
		out = append(out, evalrec.NewDigest(PartMocks+": "+name, string(b), "the suite's mocks of "+name))
	}
	return out
}

// modelName is a model as the fingerprint names it.
func modelName(m runfolder.Model) string { return m.Provider + "/" + m.ModelID }

// toolsPart is the tools offered: their names, descriptions and schemas.
func toolsPart(on bool) evalrec.Part {
	if !on {
		return noTools
	}
	trialTools.once.Do(func() { trialTools.part = trialToolsPart() })
	return trialTools.part
}

// noMocks is the mocks' part when the case has none, made once (the
// callers copy it; none changes it).
var noMocks = func() []evalrec.Part {
	p := evalrec.NewPart(PartMocks, "none", "")
	p.Default = true
	return []evalrec.Part{p}
}()

// noTools is the tools part when none are offered.
var noTools = evalrec.NewPart(evalrec.PartTools, "none", "")

// trialTools is the tools part when tools are offered: the same for every
// sample of a process, made once.
var trialTools struct {
	once sync.Once
	part evalrec.Part
}

// trialToolsPart makes the tools part of the trial tools.
func trialToolsPart() evalrec.Part {
	var names []string
	specs := runner.TrialToolSpecs("")
	// Only what the model reads: how a trial gates a tool is not the
	// request's, and changing it keeps recordings fresh.
	type seen struct {
		Name        string
		Description string
		Parameters  json.RawMessage
	}
	shown := make([]seen, len(specs))
	for i, s := range specs {
		shown[i] = seen{s.Name, s.Description, s.Parameters}
	}
	b, _ := json.Marshal(shown)
	for _, s := range specs {
		names = append(names, s.Name)
	}
	p := evalrec.NewPart(evalrec.PartTools, string(b), "")
	p.Value = strings.Join(names, ", ")
	return p
}

// displayPath returns path relative to the working directory when that is
// shorter.
func displayPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && len(rel) < len(path) && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// agentOf returns the loaded agent the suite tests, or the reason it is
// not loaded.
func agentOf(c *lint.Catalog, name string) (*lint.File, string) {
	if f := c.Agent(name); f != nil {
		return f, ""
	}
	if f := c.RejectedAgent(name); f != nil {
		reason := f.Reason
		if reason == "" {
			reason = "the runtime skips it"
		}
		return nil, fmt.Sprintf("agent %s at %s is rejected: %s", name, f.Path, reason)
	}
	return nil, fmt.Sprintf("agent %s is not loaded: no definition in the agents folder has that name", name)
}
