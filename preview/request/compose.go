package request

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// Core is the audience's operating core read from the NetClaw install:
// its text, where it was read (the binary or DLL and the resource), and
// the NetClaw version when the install says.
type Core struct {
	Text, Source, Version string
}

// OfferedTool is one tool sent with the request: the name the model calls,
// its description and the JSON Schema of its arguments, and whether it is
// a core tool (offered from the start) or a deferred one (found with
// search_tools, activated with load_tool).
type OfferedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Core        bool            `json:"core"`
}

// Offer is what the tool catalogue offers a spawn: the tools sent from
// the start and the compressed tool index the system prompt lists.
type Offer struct {
	Tools []OfferedTool
	// Index is the compressed tool index ("" for none).
	Index string
	// Source names the catalogue, for the tool-index part.
	Source string
}

// offerFor is how Compose asks the tool catalogue when the input names no
// offer. Nil offers nothing.
var offerFor func(a preview.Audience) Offer

// Input is everything a spawn's request is composed from.
type Input struct {
	// Agent is the definition spawned; AgentPath names its file.
	Agent     *lint.Definition
	AgentPath string
	// Skill, when set, is the routed skill whose body is overlaid.
	Skill *lint.Skill
	// Paths locate the NetClaw home (the playbook, the placeholders).
	Paths Paths
	// Audience is the parent session's audience.
	Audience preview.Audience

	// Core is the audience's operating core; nil when none was found, and
	// CoreMissing says why (every surface shows it).
	Core        *Core
	CoreMissing string

	// Project is the project folder ("" for none): its instructions file,
	// its git state, the project_dir of the working context.
	Project string
	// Task and Context are the spawn's task and context arguments.
	Task, Context string
	// Session is the spawn's storage folders the [session] block names
	// (ChildStorage); nil for none.
	Session *SessionStorage
	// RecentFiles are the parent's recent files, most recent first.
	RecentFiles []string
	// Git is the project's git state; nil means inspect the project now.
	Git *GitState
	// Shell is the host shell a Personal session describes; nil means
	// HostShell().
	Shell *Shell

	// Offer is the tool offer; nil asks the tool catalogue.
	Offer *Offer

	// NoTokenCounts leaves every Part's Tokens 0, for a caller that counts
	// only what it shows (PartTokens): counting builds the tokenizer's
	// vocabulary, a process's costliest step when nothing else counts.
	NoTokenCounts bool
}

// Request is the request a spawn sends, as the runtime composes it.
type Request struct {
	// Audience is the parent session's audience.
	Audience preview.Audience `json:"audience"`
	// Parts are the system prompt's parts, in order; joined with a blank
	// line they are System.
	Parts []Part `json:"parts"`
	// Missing lists the parts the runtime would send that this request
	// lacks (the operating rules, when no NetClaw install was found).
	Missing []Missing `json:"missing"`
	// Absent lists the optional parts this request does not carry, with
	// where they were looked for (the deployment playbook, the project's
	// instructions).
	Absent []Missing `json:"absent"`
	// System is the system prompt.
	System string `json:"system"`
	// FirstMessage is the first user message.
	FirstMessage string `json:"firstMessage"`
	// Tools are the tools offered with the first call.
	Tools []OfferedTool `json:"tools"`
	// Index is the compressed tool index the prompt lists.
	Index string `json:"index,omitempty"`
	// CoreSource and CoreVersion say where the operating core came from.
	CoreSource  string `json:"coreSource,omitempty"`
	CoreVersion string `json:"coreVersion,omitempty"`

	// What the first message is made of, for WithSession.
	runtimeContext, task string
	working              WorkingContext
	// workingBlock is working.Block(), made once: every session of a
	// suite's cases names the same working context.
	workingBlock string
}

// WithSession sets the storage folders the first message's [session]
// block names (a trial knows them only once its run folder exists; nil
// for none) and returns r.
func (r *Request) WithSession(storage *SessionStorage) *Request {
	r.FirstMessage = FirstMessage(r.runtimeContext, modelContext(r.Audience, r.workingBlock, storage), r.task)
	return r
}

// ForTask returns a copy of r whose first message carries task and
// context (the spawn's arguments) and names storage in its [session]
// block: what Compose returns for the same input with that task and
// context. The system prompt, the tools and the working context do not
// depend on the task; the copy shares them with r, and neither changes
// when the other's session is set.
func (r *Request) ForTask(task, context string, storage *SessionStorage) *Request {
	c := *r
	c.task, c.runtimeContext = task, context
	return c.WithSession(storage)
}

// WithTask is ForTask without the first message: the copy's
// FirstMessage is empty until WithSession sets it. For a caller that
// names the session's folders next (a trial, once its folder exists),
// which would compose the message twice otherwise.
func (r *Request) WithTask(task, context string) *Request {
	c := *r
	c.task, c.runtimeContext, c.FirstMessage = task, context, ""
	return &c
}

// MissingPart returns the reason part is missing, "" when it is not.
func (r *Request) MissingPart(part string) string {
	for _, m := range r.Missing {
		if m.Part == part {
			return m.Reason
		}
	}
	return ""
}

// Part returns the part with this name, nil when the prompt has none.
func (r *Request) Part(name string) *Part {
	for i := range r.Parts {
		if r.Parts[i].Part == name {
			return &r.Parts[i]
		}
	}
	return nil
}

// Compose composes the request a spawn sends, as NetClaw's SubAgentSpawner
// and SubAgentActor do. It reads the deployment playbook and the project's
// instructions file, and inspects the project's git state when in.Git is
// nil. An unreadable playbook is an error (ErrPlaybookUnreadable), as it
// fails the spawn at the runtime; so is a project instructions file that
// cannot be read safely (ErrProjectInstructions).
func Compose(in Input) (*Request, error) {
	r := &Request{Audience: in.Audience, Missing: []Missing{}, Absent: []Missing{}}
	pin := promptInput{body: bodyOf(in.Agent), bodySource: in.AgentPath, noTokenCounts: in.NoTokenCounts}
	if pin.bodySource == "" && in.Agent != nil {
		pin.bodySource = "agent " + in.Agent.Name
	}
	r.takeCore(in, &pin)
	if in.Paths.Base != "" {
		if err := r.takePlaybook(in.Paths, &pin); err != nil {
			return nil, err
		}
	}
	project := in.Project
	if project != "" {
		if abs, err := filepath.Abs(project); err == nil {
			project = abs
		}
	}
	if in.Audience != preview.Public {
		if err := r.takeProjectInstructions(project, &pin); err != nil {
			return nil, err
		}
	}
	if in.Skill != nil {
		pin.hasOverlay, pin.overlay, pin.overlaySource = true, in.Skill.Body, in.Skill.Path
	}
	r.takeOffer(in, &pin)

	a := assemble(pin)
	r.Parts, r.System = a.parts, a.system
	r.runtimeContext, r.task, r.working = in.Context, in.Task, workingContext(in, project)
	r.workingBlock = r.working.Block()
	return r.WithSession(in.Session), nil
}

// takeCore puts the operating core into the prompt's input, and names it
// in r; without one, r lists the operating rules as missing, with why.
func (r *Request) takeCore(in Input, pin *promptInput) {
	if in.Core == nil {
		reason := in.CoreMissing
		if reason == "" {
			reason = "no NetClaw install was found"
		}
		r.Missing = append(r.Missing, Missing{Part: PartOperatingRules, Reason: reason})
		return
	}
	pin.core, pin.coreSource, pin.hasCore = in.Paths.substitute(in.Core.Text), in.Core.Source, true
	r.CoreSource, r.CoreVersion = in.Core.Source, in.Core.Version
	if in.Core.Version != "" {
		pin.coreSource += " (NetClaw " + in.Core.Version + ")"
	}
}

// takePlaybook puts the home's deployment playbook into the prompt's
// input, or lists it in r as absent, with where it was looked for. A
// playbook that cannot be read is an error.
func (r *Request) takePlaybook(p Paths, pin *promptInput) error {
	playbook, ok, err := readPlaybook(p)
	if err != nil {
		return err
	}
	if ok {
		pin.playbook, pin.playbookSource = p.substitute(playbook), p.PlaybookPath()
	} else {
		r.Absent = append(r.Absent, Missing{Part: PartDeploymentPlaybook, Reason: "looked for " + p.PlaybookPath()})
	}
	return nil
}

// takeProjectInstructions puts the instructions file of the project
// folder (absolute; "" for none) into the prompt's input, or lists it in
// r as absent, with where it was looked for. A file that cannot be read
// safely is an error.
func (r *Request) takeProjectInstructions(project string, pin *promptInput) error {
	text, path, err := readProjectInstructions(project)
	if err != nil {
		return err
	}
	pin.project, pin.projectSource = text, path
	if path != "" {
		return nil
	}
	where := "no project folder was given"
	if project != "" {
		files := ProjectInstructionFiles
		where = "looked for " + strings.Join(files[:len(files)-1], ", ") + " and " + files[len(files)-1] + " in " + project
	}
	r.Absent = append(r.Absent, Missing{Part: PartProjectInstructions, Reason: where})
	return nil
}

// takeOffer sets r's tools and tool index from the input's offer (else
// the tool catalogue's for the audience), and puts the index into the
// prompt's input, with whether the project scope can be declared.
func (r *Request) takeOffer(in Input, pin *promptInput) {
	offer := Offer{}
	switch {
	case in.Offer != nil:
		offer = *in.Offer
	case offerFor != nil:
		offer = offerFor(in.Audience)
	}
	r.Tools, r.Index = offer.Tools, offer.Index
	if r.Tools == nil {
		r.Tools = []OfferedTool{}
	}
	pin.index, pin.indexSource = offer.Index, offer.Source
	if pin.indexSource == "" {
		pin.indexSource = fmt.Sprintf("NetClaw's tool catalogue (%s)", in.Audience)
	}
	// CanDeclareProjectScope: set_working_directory among the tools
	// offered from the start.
	for _, t := range offer.Tools {
		if t.Name == "set_working_directory" && t.Core {
			pin.projectScope = true
		}
	}
}

// workingContext is the working context the first message describes for
// the input's audience: nothing for Public; the project folder (absolute),
// the recent files and the project's git state otherwise; and the host
// shell for Personal.
func workingContext(in Input, project string) WorkingContext {
	wc := WorkingContext{Project: project, RecentFiles: in.RecentFiles}
	switch in.Audience {
	case preview.Public:
		return WorkingContext{}
	case preview.Personal:
		sh := HostShell()
		if in.Shell != nil {
			sh = *in.Shell
		}
		wc.Shell = &sh
	}
	if project != "" && !hasControl(project) {
		if in.Git != nil {
			wc.Git = *in.Git
		} else {
			wc.Git = InspectGit(context.Background(), project)
		}
	}
	return wc
}
