package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/mcp"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// prepared is a checked Spec with everything a run needs resolved.
type prepared struct {
	spec   Spec
	model  runfolder.Model
	limits Limits
	red    *redact.Redactor
	system string
	layers []string
	// request is the spawn's request as the runtime composes it; nil for
	// a frontline run or a replay without an agent.
	request *request.Request

	// frontline is the spec's Frontline, when set.
	frontline *Frontline

	agentName, agentPath, agentSHA, skill string

	toolsOn bool
	tools   []wire.Tool
	toolbox toolRunner
	overlay *overlay.Overlay
	// workspace is the tools' view of the project (and, once the run
	// folder exists, of its session folder).
	workspace *tools.Workspace
	// asker is the run's event asker (Spec.AskInEvents), attached to the
	// run once it exists.
	asker   *eventAsker
	project string

	cassette *cassette.Cassette
	replay   *runfolder.ReplayRecord
	// liveTools is set when the replay's tool calls run on the project
	// (Spec.LiveTools).
	liveTools bool

	// mcp are the run's MCP servers (startMCP), nil when it has none.
	mcp      *mcp.Servers
	mcpNotes *mcp.Notes
}

// close releases the project folder of a run that will not start.
func (p *prepared) close() {
	if p.toolbox != nil {
		p.toolbox.Close()
	}
}

// prepare checks a spec and resolves its model, limits and tools. Its
// errors are *SpecError.
func (rn *Runner) prepare(ctx context.Context, s Spec) (*prepared, error) {
	p := &prepared{}
	// The audience: Audience (the tool set's) when given, else NetClaw's.
	if s.Audience != "" {
		a, err := preview.ParseAudience(s.Audience)
		if err != nil {
			return nil, &SpecError{Err: err}
		}
		s.NetClaw.Audience = a
	} else {
		s.Audience = s.NetClaw.Audience.String()
	}
	if err := p.subject(&s); err != nil {
		return nil, err
	}
	model, tape, source, err := modelOrTape(s)
	if err != nil {
		return nil, err
	}
	p.red = redact.Shared(runSecrets(s, model)...)
	if tape != nil {
		err = p.playing(ctx, &s, tape, source, model)
	} else {
		err = p.live(ctx, s, model)
	}
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(s.Task) == "" {
		p.close()
		if p.frontline != nil {
			return nil, specErrorf("the request is empty: give the user's message")
		}
		return nil, specErrorf("the task is empty: say what the agent should do")
	}
	if err := p.compose(s); err != nil {
		p.close()
		return nil, err
	}
	p.spec = s
	return p, nil
}

// subject checks what s runs, a frontline question (Frontline) or an
// agent (Agent, or the agent of a replayed cassette), and notes it.
func (p *prepared) subject(s *Spec) error {
	if s.Frontline != nil {
		return p.frontlineSubject(s)
	}
	if s.Agent == nil && s.Replay == nil {
		return specErrorf("no agent definition to run")
	}
	if f := s.Agent; f != nil {
		if f.Def == nil {
			return specErrorf("no agent definition to run")
		}
		if err := checkAgent(*s); err != nil {
			return err
		}
		p.agentName, p.agentPath, p.agentSHA = f.Def.Name, f.Path, f.SHA256
		if abs, err := filepath.Abs(f.Path); err == nil {
			p.agentPath = abs
		}
	}
	if s.Skill != nil {
		p.skill = s.Skill.Name
	}
	return nil
}

// frontlineSubject notes the frontline question s asks, on the Main
// role unless s names another.
func (p *prepared) frontlineSubject(s *Spec) error {
	if s.Agent != nil || s.Skill != nil {
		return specErrorf("a frontline run asks the frontline model, not an agent: leave Agent and Skill out")
	}
	fl := s.Frontline
	p.frontline = fl
	if len(fl.Systems) > 0 {
		p.system, p.layers = fl.Systems[0], fl.Systems[1:]
	}
	if s.ModelRole == "" {
		s.ModelRole = "Main"
	}
	return nil
}

// modelOrTape returns the model s calls, or the cassette it replays and
// where that came from: s.Replay, or the cassette of a provider of type
// replay its model role resolves to (model then says how it resolved).
func modelOrTape(s Spec) (model runfolder.Model, tape *cassette.Cassette, source string, err error) {
	tape, source = s.Replay, s.ReplaySource
	if tape != nil {
		return model, tape, source, nil
	}
	role := s.ModelRole
	if role == "" && s.Agent != nil {
		role = s.Agent.Def.ModelRole
	}
	if s.ModelDefinition != "" {
		model, err = ResolveDefinition(s.Config, s.ModelDefinition, role)
	} else {
		model, err = ResolveModel(s.Config, role)
	}
	if err != nil {
		return model, nil, "", &SpecError{Err: err}
	}
	if model.Type == ReplayProviderType {
		source = model.Endpoint
		if tape, err = LoadCassette(source); err != nil {
			return model, nil, "", &SpecError{Err: fmt.Errorf("provider %s (type replay): %w", model.Provider, err)}
		}
	}
	return model, tape, source, nil
}

// runSecrets are the values a run of s with model redacts: the
// configuration's, the spec's, the model's key, an endpoint's password
// and agentdesk's own secret-looking variables.
func runSecrets(s Spec, model runfolder.Model) []string {
	secrets := append(s.Config.Secrets(), s.Secrets...)
	if model.APIKey != "" {
		secrets = append(secrets, model.APIKey)
	}
	// Without an '@' the address names no user: it is not parsed (a
	// parse a run was a tenth of a replay's start-up garbage).
	if strings.Contains(model.Endpoint, "@") {
		if u, err := url.Parse(model.Endpoint); err == nil && u.User != nil {
			// http://user:password@host: the password is a secret too.
			if pw, ok := u.User.Password(); ok {
				secrets = append(secrets, pw, url.PathEscape(pw))
			}
		}
	}
	// agentdesk's own secret-looking variables (DB_PASSWORD, AWS_*, …):
	// a command or a server may print one (a passed one, or one it read
	// elsewhere); it is never stored.
	return append(secrets, sandbox.SecretValues()...)
}

// playing prepares a run that plays tape (from source); model is the
// replay provider the agent's role resolved to, if it did. With
// LiveTools and a project, the tool calls run on the project (the
// recorded tools are still the ones offered).
func (p *prepared) playing(ctx context.Context, s *Spec, tape *cassette.Cassette, source string, model runfolder.Model) error {
	if err := p.fromCassette(s, tape, source); err != nil {
		return err
	}
	if s.LiveTools && s.Project != "" && p.frontline == nil && p.toolsOn {
		p.liveTools, p.replay.LiveTools = true, true
		if err := p.openTools(ctx, *s); err != nil {
			return err
		}
	}
	if model.Type == ReplayProviderType {
		// The agent's role resolved to this provider: the run records
		// that role, and how it resolved, not the recorded run's.
		p.model.Role, p.model.Via = model.Role, model.Via+", a replay provider playing "+source
	}
	if p.frontline != nil && len(p.frontline.Tools) > 0 {
		// The replay answers nothing: the run ends with the first reply.
		p.tools = p.frontline.Tools
	}
	return nil
}

// live prepares a run of s that calls model: its limits, and its tools
// (a frontline's, or the trial's in s.Project, with their MCP servers).
func (p *prepared) live(ctx context.Context, s Spec, model runfolder.Model) error {
	if s.Fast {
		return specErrorf("fast plays a replay without its pauses, and this run calls a model: leave it out, or replay a cassette")
	}
	p.model = model
	var def *lint.Definition
	if s.Agent != nil {
		def = s.Agent.Def
	}
	p.limits = LimitsFor(s.Config, def).Override(s.Limits)
	if p.frontline != nil && s.Project != "" {
		return specErrorf("a frontline run offers its own tools and runs none: leave Project out")
	}
	if p.frontline != nil && len(p.frontline.Tools) > 0 {
		p.toolsOn, p.tools = true, p.frontline.Tools
		p.toolbox = &frontlineTools{}
	}
	if s.Project == "" {
		return nil
	}
	if err := p.openTools(ctx, s); err != nil {
		return err
	}
	p.tools = tools.Wire(p.toolbox.(*tools.Set).Offered())
	return nil
}

// openTools opens the trial's tools on s.Project (the overlay, the gate
// with its asker, the sandbox) and starts the MCP servers.
func (p *prepared) openTools(ctx context.Context, s Spec) error {
	var asker approve.Asker
	switch {
	case s.Asker != nil:
		asker = s.Asker
	case s.AskInEvents:
		p.asker = &eventAsker{}
		asker = p.asker
	}
	set, ws, err := openTrialTools(s, asker)
	if err != nil {
		return &SpecError{Err: err}
	}
	p.toolsOn, p.toolbox, p.project, p.overlay, p.workspace = true, set, ws.Overlay().Project(), ws.Overlay(), ws
	p.startMCP(ctx, s)
	return nil
}

// compose makes the system prompt of an agent's run of s: the request
// NetClaw composes, or the body alone for a raw one. A frontline's
// systems are its own (subject).
func (p *prepared) compose(s Spec) error {
	f := s.Agent
	switch {
	case f == nil:
	case s.NetClaw.Raw:
		p.system = f.Def.Body
	default:
		req, err := composeTrial(s, f, !p.toolsOn, p.mcpCatalog()...)
		if err != nil {
			return &SpecError{Err: err}
		}
		p.request, p.system = req, req.System
		if p.toolsOn && p.cassette == nil && p.frontline == nil {
			p.tools = offeredWireTools(req, p.tools)
		}
	}
	return nil
}

// firstMessage returns the first user message, for the run id whose
// folder is dir: the composed one (its [session] block names the run's
// storage folders, TrialStorage), else the task with its context.
func (p *prepared) firstMessage(dir, id string) string {
	if p.request != nil {
		st := TrialStorage(dir, id)
		return p.request.WithSession(&st).FirstMessage
	}
	return preview.FirstMessage(p.spec.Task, p.spec.Context)
}

// SessionDir is the folder inside a run folder that stands for a spawn's
// session storage envelope: the folders its [session] block names lie in
// it, and the tools reach it through an overlay.
const SessionDir = "session"

// TrialStorage returns the storage folders a trial's first message names,
// for the run id whose folder is runDir: the folders NetClaw gives the
// sub-agent run id of a session (request.ChildStorage), with the run
// folder's session/ as the session's storage envelope. So session_dir is
// runDir/session/workspace, temp_dir runDir/session/subagents/<id>/tmp,
// artifact_dir runDir/session/subagents/<id>/artifacts, worktree_dir
// runDir/session/worktrees and log_path
// runDir/session/subagents/<id>/logs/session.log: all inside the run's own
// folder, never in the project or NetClaw's home.
func TrialStorage(runDir, id string) request.SessionStorage {
	return request.ChildStorage(filepath.Join(runDir, SessionDir), id)
}

// frontlineRecord describes a frontline run for run.json; nil for a spawn.
func (p *prepared) frontlineRecord(red *redact.Redactor) *runfolder.FrontlineRecord {
	fl := p.frontline
	if fl == nil {
		return nil
	}
	rec := &runfolder.FrontlineRecord{Audience: fl.Audience, Systems: make([]string, len(fl.Systems)), SystemsSHA256: SystemsSHA256(fl.Systems)}
	for i, s := range fl.Systems {
		rec.Systems[i] = red.String(s)
	}
	rec.Nudge = red.String(fl.Nudge)
	return rec
}

// SystemsSHA256 is the hex SHA-256 of system messages, each followed by a
// NUL byte.
func SystemsSHA256(systems []string) string {
	h := sha256.New()
	for _, s := range systems {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// frontlineTools answers nothing: a frontline run ends with its first
// reply, so no call is ever run.
type frontlineTools struct{}

// Call is never reached; it refuses, to be safe.
func (frontlineTools) Call(context.Context, string, json.RawMessage) tools.Result {
	return tools.Result{Text: "a frontline run runs no tools", IsError: true, Refused: true}
}

// Close does nothing.
func (frontlineTools) Close() error { return nil }

// ReplayProviderType is the provider Type that replays a cassette: its
// Endpoint is the cassette's path.
const ReplayProviderType = "replay"

// checkAgent checks that the spec's agent is loaded and that its skill, if
// any, routes to it.
func checkAgent(s Spec) error {
	f := s.Agent
	if f.Status != lint.Loaded {
		reason := f.Reason
		if reason == "" {
			reason = "the runtime skips it"
		}
		return specErrorf("agent %s at %s is rejected: %s", f.Def.Name, f.Path, reason)
	}
	if s.Skill != nil {
		if s.Skill.RouteError != "" {
			return specErrorf("%s", s.Skill.RouteError)
		}
		if !strings.EqualFold(s.Skill.Subagent, f.Def.Name) {
			target := s.Skill.Subagent
			if target == "" {
				target = "no sub-agent"
			}
			return specErrorf("skill /%s routes to %s, not to %s", s.Skill.Name, target, f.Def.Name)
		}
	}
	return nil
}

// fromCassette sets up a replay of tape: the recorded model, limits, tools
// and cap, with the spec's overrides, and the recorded agent and task where
// the spec has none.
func (p *prepared) fromCassette(s *Spec, tape *cassette.Cassette, source string) error {
	if s.Record {
		return specErrorf("a replay cannot be recorded again: record a run against a model, replay the cassette it leaves")
	}
	h := tape.Header
	proto := wire.Recorded(h.Protocol)
	name := source
	if name == "" {
		name = "an embedded cassette"
	}
	p.cassette = tape
	p.model = runfolder.Model{
		Role: h.Role, Provider: h.Provider, Type: h.ProviderType, Endpoint: h.Endpoint, ModelID: h.Model,
		Via: "replay of " + name, Protocol: proto,
	}
	if _, err := proto.URL(p.model.Endpoint); err != nil {
		p.model.Endpoint = "http://replay.invalid"
	}
	p.limits = limitsFromCassette(h.Limits).Override(s.Limits)
	if p.agentName == "" {
		p.agentName, p.agentSHA = h.Agent, h.AgentSHA256
	}
	if p.skill == "" {
		p.skill = h.Skill
	}
	if strings.TrimSpace(s.Task) == "" {
		s.Task, s.Context = h.Task, h.Context
	}
	if s.MaxTokens == 0 {
		s.MaxTokens = h.MaxTokens
	}
	if len(h.Tools) > 0 {
		p.toolsOn = true
		p.tools = tools.WireNamed(h.Tools)
		p.toolbox = &replayTools{tape: tape}
	}
	p.replay = &runfolder.ReplayRecord{Cassette: name, Fast: s.Fast, RecordedRun: h.RunID, RecordedAt: h.RecordedAt, Project: h.Project}
	return nil
}

// limitsFromCassette returns the recorded limits.
func limitsFromCassette(l cassette.Limits) Limits {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	return Limits{Prefill: ms(l.PrefillMS), InterDelta: ms(l.InterDeltaMS), NoProgress: ms(l.NoProgressMS), ThinkingOnly: ms(l.ThinkingOnlyMS)}
}

// MaxCassetteSize caps the cassette LoadCassette reads.
const MaxCassetteSize = 1 << 30

// NoCassetteError is a cassette path with no file; it wraps the file
// system's error (fs.ErrNotExist). The command line words it with the
// command and flag that record one.
type NoCassetteError struct {
	// Path is the cassette's path.
	Path string
	// Err is the file system's error.
	Err error
}

// Error names the path and says how to get a cassette.
func (e *NoCassetteError) Error() string { return e.Message("a recorded run") }

// Message is the error with record as what records a cassette.
func (e *NoCassetteError) Message(record string) string {
	return fmt.Sprintf("no cassette at %s: record one with %s (it leaves stream.cassette in the run folder)", e.Path, record)
}

// Unwrap returns the file system's error.
func (e *NoCassetteError) Unwrap() error { return e.Err }

// LoadCassette reads the cassette at path; a missing file is a
// *NoCassetteError.
func LoadCassette(path string) (*cassette.Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &NoCassetteError{Path: path, Err: err}
		}
		return nil, fmt.Errorf("reading the cassette %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && (fi.IsDir() || fi.Size() > MaxCassetteSize) {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a folder, not a cassette: give the path of its stream.cassette", path)
		}
		return nil, fmt.Errorf("the cassette %s is larger than %d MiB", path, MaxCassetteSize>>20)
	}
	c, err := cassette.Read(f)
	if err != nil {
		return nil, fmt.Errorf("the cassette %s: %w", path, err)
	}
	return c, nil
}
