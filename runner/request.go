package runner

import (
	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// NetClaw says how a spawn's request is composed as NetClaw's runtime
// composes it (preview/request): which home's playbook, which audience,
// which operating core.
type NetClaw struct {
	// Home is the NetClaw base folder, for the deployment playbook
	// (<home>/identity/AGENTS.md) and the placeholders; "" reads no
	// playbook.
	Home string
	// Audience is the parent session's audience (Personal by default).
	Audience preview.Audience
	// Core is the audience's operating core from the NetClaw install; nil
	// when none was found, and CoreMissing says why. The run still goes
	// ahead, and run.json, result.md and the callers say the operating
	// rules are missing.
	Core        *request.Core
	CoreMissing string
	// Git, Shell and RecentFiles fix the working context (tests); nil Git
	// inspects the project, nil Shell is the host's.
	Git         *request.GitState
	Shell       *request.Shell
	RecentFiles []string
	// Raw sends the agent's body as the system prompt and the task as the
	// message, nothing composed: for agentdesk's own helpers (the suite
	// judge), which NetClaw never spawns.
	Raw bool
}

// promptRecord describes a composed request for run.json, redacted. Its
// parts' tokens are counted only when count is set; countPrompt counts
// them later.
func promptRecord(r *request.Request, red *redact.Redactor, count bool) *runfolder.PromptRecord {
	if r == nil {
		return nil
	}
	rec := &runfolder.PromptRecord{Audience: r.Audience.String(), Parts: make([]runfolder.PromptPart, 0, len(r.Parts)), Missing: make([]string, 0, len(r.Missing)),
		CoreSource: red.String(r.CoreSource), CoreVersion: red.String(r.CoreVersion)}
	for _, p := range r.Parts {
		pp := runfolder.PromptPart{Part: p.Part, Source: red.String(p.Source), Bytes: len(p.Text)}
		if count {
			pp.Tokens = request.PartTokens(p)
		}
		rec.Parts = append(rec.Parts, pp)
	}
	for _, m := range r.Missing {
		rec.Missing = append(rec.Missing, m.Part)
		if rec.MissingReasons == nil {
			rec.MissingReasons = make(map[string]string, len(r.Missing))
		}
		rec.MissingReasons[m.Part] = red.String(m.Reason)
	}
	return rec
}

// countPrompt counts the tokens of p's parts, p being the record of r
// made without counts.
func countPrompt(p *runfolder.PromptRecord, r *request.Request) {
	if p == nil || r == nil {
		return
	}
	for i := range p.Parts {
		p.Parts[i].Tokens = request.PartTokens(r.Parts[i])
	}
}

// ComposeRequest composes the request a spawn of s.Agent would send (the
// system prompt's parts, the first message without a session folder, the
// tools), as Start composes it for a live run of s, with no run; suites
// fingerprint it. A spec without a Project offers no tools, so its
// request has an empty offer: no tool index, no project-scope line.
func ComposeRequest(s Spec) (*request.Request, error) {
	if s.Agent == nil || s.Agent.Def == nil {
		return nil, specErrorf("no agent definition to run")
	}
	if s.Audience != "" {
		a, err := preview.ParseAudience(s.Audience)
		if err != nil {
			return nil, &SpecError{Err: err}
		}
		s.NetClaw.Audience = a
	}
	return composeRequest(s, s.Agent, s.Project == "")
}

// composeRequest composes the spawn's request as the runtime does,
// through s.Compose when the spec has a memo. extra are the started MCP
// servers' tools: deferred, they are in the offer's tool index, not
// among the first call's tools. noTools says the run offers the model no
// tools (no project, --no-tools, a replay recorded without tools): the
// request is composed with an empty offer, so the system prompt has no
// tool index and no set_working_directory line (the runtime adds that
// line only when the tool is offered from the start), as on the wire.
func composeRequest(s Spec, f *lint.File, noTools bool, extra ...request.Tool) (*request.Request, error) {
	if r, ok, err := s.Compose.compose(s, f, noTools, extra, true); ok {
		return r, err
	}
	return composeNow(s, f, noTools, extra...)
}

// composeTrial is composeRequest for a trial, which sets the first
// message itself once its folder exists (prepared.firstMessage): from
// the memo, the request comes without one.
func composeTrial(s Spec, f *lint.File, noTools bool, extra ...request.Tool) (*request.Request, error) {
	if r, ok, err := s.Compose.compose(s, f, noTools, extra, false); ok {
		return r, err
	}
	return composeNow(s, f, noTools, extra...)
}

// composeNow composes the spawn's request, with no memo.
func composeNow(s Spec, f *lint.File, noTools bool, extra ...request.Tool) (*request.Request, error) {
	n := s.NetClaw
	in := request.Input{
		Agent:       f.Def,
		AgentPath:   f.Path,
		Skill:       s.Skill,
		Paths:       request.Paths{Base: n.Home},
		Audience:    n.Audience,
		Core:        n.Core,
		CoreMissing: n.CoreMissing,
		Project:     s.Project,
		Task:        s.Task,
		Context:     s.Context,
		RecentFiles: n.RecentFiles,
		Git:         n.Git,
		Shell:       n.Shell,
		// Counted only for the record (promptRecord): a replay's
		// fingerprint compares texts, and counting nothing spares it the
		// tokenizer's vocabulary.
		NoTokenCounts: true,
	}
	if s.Config != nil {
		if dir, ok := s.Config.Lookup("Workspaces:Directory"); ok {
			in.Paths.Workspaces = dir
		}
	}
	if noTools {
		in.Offer = &request.Offer{}
		return request.Compose(in)
	}
	pol, err := request.PolicyFromConfig(s.Config)
	if err != nil {
		return nil, err
	}
	offer, err := request.OfferFor(n.Audience, pol, extra...)
	if err != nil {
		return nil, err
	}
	in.Offer = &offer
	return request.Compose(in)
}

// offeredWireTools returns the tools a spawn's calls offer: the trial's
// tool set (the tools runner/tools can run), each described as NetClaw's
// catalogue describes it (name, description, JSON Schema, byte for byte)
// when the catalogue has it; MCP and other tools the catalogue does not
// name keep their own description.
//
// The catalogue offers a sub-agent more tools than a trial runs today;
// those are in the system prompt's tool index (as at the runtime) but not
// on the wire until runner/tools runs or stubs them: the request's
// Tools field lists them.
func offeredWireTools(r *request.Request, set []wire.Tool) []wire.Tool {
	byName := map[string]request.OfferedTool{}
	for _, t := range r.Tools {
		byName[t.Name] = t
	}
	out := make([]wire.Tool, len(set))
	for i, t := range set {
		if c, ok := byName[t.Name]; ok && len(c.Parameters) > 0 {
			t = wire.Tool{Name: c.Name, Description: c.Description, Parameters: c.Parameters}
		}
		out[i] = t
	}
	return out
}
