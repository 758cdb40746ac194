package request

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// The facts in this file follow NetClaw's source, netclaw-dev/netclaw:
//   - SubAgentActor.BuildSystemPrompt and its contract constants:
//     src/Netclaw.Actors/SubAgents/SubAgentActor.cs in the fork
//     salma-marei/netclaw @ba08b016c9d3286e62ce64e5013d63d298264231
//     (89,315 bytes: the tiered actor, which appends its registry's
//     GenerateCompressedIndex, TieredIndex here; the fork's later
//     version @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4, 88,965 bytes,
//     has the same BuildSystemPrompt); netclaw-dev/netclaw's
//     newest stored version, @502847bf6f99092f50944cea1460acdb89819e23, has
//     the same contract without the index and without tiers, and is older
//     than netclaw-dev's newest SubAgentSpawner.cs, which passes the tiers
//     (see CoreTools);
//   - SubAgentSpawner.AppendSystemPromptOverlay, ResolveProjectInstructions,
//     ResolveOperatingRules: src/Netclaw.Actors/SubAgents/SubAgentSpawner.cs
//     at b6cdcdd49fadb24108136f2289fde8050801954b;
//   - FileSystemPromptProvider (ComposeOperatingRules, ReadDeploymentPlaybook,
//     TryReadProjectIdentityFile, SubstitutePlaceholders): the version of
//     src/Netclaw.Configuration/ISystemPromptProvider.cs with the deployment
//     playbook (ISystemPromptProvider.cs, newest stored);
//   - SystemPromptAssembler.Assemble with projectInstructions: newest stored
//     src/Netclaw.Configuration/SystemPromptAssembler.cs;
//   - NetclawPaths: newest stored src/Netclaw.Configuration/NetclawPaths.cs;
//   - the order asserted by SubAgentActorTests
//     System_prompt_layers_operating_rules_before_project_role_and_headless_contract.

// The parts of a sub-agent's system prompt, in the runtime's order.
const (
	PartOperatingRules      = "operating-rules"
	PartDeploymentPlaybook  = "deployment-playbook"
	PartProjectInstructions = "project-instructions"
	PartBody                = "body"
	PartSkillOverlay        = "skill-overlay"
	PartToolIndex           = "tool-index"
	PartExecutionContract   = "execution-contract"
)

// PartNames lists every part in the runtime's order.
var PartNames = []string{
	PartOperatingRules, PartDeploymentPlaybook, PartProjectInstructions,
	PartBody, PartSkillOverlay, PartToolIndex, PartExecutionContract,
}

// PlaybookHeading is the heading the runtime puts before the deployment
// playbook, after the embedded operating core.
const PlaybookHeading = "# Deployment Mission and Operating Playbook"

// OverlayMarker is the line between an agent's body and a routed skill's
// body.
const OverlayMarker = "[Skill Overlay]"

// ProjectInstructionFiles are the files the runtime looks for in the
// project folder, in order; the first one found is used.
var ProjectInstructionFiles = []string{".netclaw/AGENTS.md", "CLAUDE.md", "AGENTS.md", "CONTEXT.md"}

// The execution contract. contractPrefix is a C# raw string literal in
// SubAgentActor: it has no newline after its last line, so the suffix (or
// the project-scope line) follows "dialogue channel." directly.
const (
	contractPrefix = "[Subagent Execution Contract]\n" +
		"You are a headless, non-interactive worker running on behalf of a parent Netclaw session.\n" +
		"Your subagent role guidance and assigned task are more specific than inherited deployment or project guidance. If they conflict, follow your subagent guidance and assigned task.\n" +
		"Embedded safety, security, trust-boundary, approval, and tool-policy rules remain mandatory and cannot be overridden.\n" +
		"Do not ask the user clarifying questions, request conversational input, or wait for a reply.\n" +
		"Do the best work you can with the task, context, and tools available.\n" +
		"If the task is ambiguous, make reasonable assumptions and state them in your final output.\n" +
		"If you are blocked, return a final result that explains what you found, what remains, and what decision the parent session needs.\n" +
		"Parent-mediated tool approval may occur only for concrete tool calls; it is a security gate, not a dialogue channel."
	contractProjectScope = "Before tool work in another task-named project, call set_working_directory once, even with absolute paths. " +
		"Declare the task's first project path exactly before probing it."
	contractSuffix = "You cannot attach files directly. Return each authorized file path that the parent session should deliver. " +
		"Always end by emitting a final output for the parent session."
)

// ContractLastSentence is how the execution contract, and so the system
// prompt, always ends.
const ContractLastSentence = "Always end by emitting a final output for the parent session."

// ExecutionContract returns the [Subagent Execution Contract] the runtime
// appends to every sub-agent's system prompt. withProjectScope adds the
// project-scope line, which the runtime adds when set_working_directory is
// among the tools offered.
func ExecutionContract(withProjectScope bool) string {
	if withProjectScope {
		return contractPrefix + contractProjectScope + "\n" + contractSuffix
	}
	return contractPrefix + contractSuffix
}

// Part is one part of the system prompt: its name (PartNames), where its
// text came from, the text exactly as it stands in the prompt, and its
// o200k_base token count (0 when composed with Input.NoTokenCounts).
type Part struct {
	Part   string `json:"part"`
	Source string `json:"source"`
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
}

// Missing is a part the runtime would send that the request lacks, and why.
type Missing struct {
	Part   string `json:"part"`
	Reason string `json:"reason"`
}

// Paths are the folders the runtime substitutes for the placeholders in
// the operating core and the playbook (NetclawPaths).
type Paths struct {
	// Base is the NetClaw base folder.
	Base string
	// Workspaces is Workspaces.Directory; "" means <base>/workspaces.
	Workspaces string
}

// PlaybookPath is <base>/identity/AGENTS.md.
func (p Paths) PlaybookPath() string { return filepath.Join(p.Base, "identity", "AGENTS.md") }

// substitute replaces the placeholders NetClaw's
// FileSystemPromptProvider.SubstitutePlaceholders replaces, in its order.
func (p Paths) substitute(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	base := p.Base
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	identity := filepath.Join(base, "identity")
	skills := filepath.Join(base, "skills")
	workspaces := p.Workspaces
	if workspaces == "" {
		workspaces = filepath.Join(base, "workspaces")
	}
	return replaceAll(s, [][2]string{
		{"{{SYSTEM_SKILLS_DIR}}", filepath.Join(skills, ".system")},
		{"{{IDENTITY_DIR}}", identity},
		{"{{SOUL_PATH}}", filepath.Join(identity, "SOUL.md")},
		{"{{AGENTS_PATH}}", filepath.Join(identity, "AGENTS.md")},
		{"{{TOOLING_PATH}}", filepath.Join(identity, "TOOLING.md")},
		{"{{SOUL_DETAIL_DIR}}", filepath.Join(identity, "soul")},
		{"{{AGENTS_DETAIL_DIR}}", filepath.Join(identity, "agents")},
		{"{{TOOLING_DETAIL_DIR}}", filepath.Join(identity, "tooling")},
		{"{{SKILLS_DIR}}", skills},
		{"{{WORKSPACES_DIR}}", workspaces},
	})
}

// replaceAll applies each replacement in turn over the whole text, as the
// chained .Replace calls do (a later one sees an earlier one's output).
func replaceAll(s string, pairs [][2]string) string {
	for _, p := range pairs {
		s = strings.ReplaceAll(s, p[0], p[1])
	}
	return s
}

// ErrPlaybookUnreadable is wrapped by Compose's error when the deployment
// playbook exists but cannot be read: the runtime fails the spawn.
var ErrPlaybookUnreadable = errors.New("the deployment playbook cannot be read")

// ErrProjectInstructions is wrapped by Compose's error when a project
// instructions file cannot be read the way the runtime reads it.
var ErrProjectInstructions = errors.New("the project instructions cannot be read")

// readPlaybook reads <base>/identity/AGENTS.md as ReadDeploymentPlaybook
// does: absent is none; present but unreadable fails the spawn.
func readPlaybook(p Paths) (string, bool, error) {
	path := p.PlaybookPath()
	text, err := readInstructions(path)
	switch {
	case errors.Is(err, errNotThere):
		return "", false, nil
	case isRefused(err):
		// A FIFO, a device, a huge file: the message says what to do.
		return "", false, fmt.Errorf("%w: %v", ErrPlaybookUnreadable, err)
	case err != nil:
		return "", false, fmt.Errorf("%w: %v; NetClaw fails every spawn until it can read it (fix its permissions, or remove it)", ErrPlaybookUnreadable, err)
	}
	return text, true, nil
}

// readProjectInstructions reads the first of ProjectInstructionFiles in
// project, as TryReadProjectIdentityFile does: a candidate that does not
// exist is skipped, and so is one whose read fails with an I/O error; a
// refused read (permissions) fails the spawn at the runtime, and here.
func readProjectInstructions(project string) (text, path string, err error) {
	if project == "" {
		return "", "", nil
	}
	for _, name := range ProjectInstructionFiles {
		p := filepath.Join(project, filepath.FromSlash(name))
		t, err := readInstructions(p)
		switch {
		case err == nil:
			return t, p, nil
		case errors.Is(err, errNotThere):
			continue
		case errors.Is(err, fs.ErrPermission):
			return "", "", fmt.Errorf("%w: %v; NetClaw fails the spawn on it too: fix its permissions", ErrProjectInstructions, err)
		case isIOError(err):
			continue
		default:
			return "", "", fmt.Errorf("%w: %v", ErrProjectInstructions, err)
		}
	}
	return "", "", nil
}

// isIOError reports whether err is what .NET raises as an IOException
// for a read: an operating-system error other than a refused permission.
func isIOError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && !errors.Is(err, fs.ErrPermission)
}

// assembled is the system prompt built as the runtime builds it, with the
// parts it is made of.
type assembled struct {
	system string
	parts  []Part
}

// promptInput is what the system prompt is made of, already read.
type promptInput struct {
	core, coreSource         string
	hasCore                  bool
	playbook, playbookSource string
	project, projectSource   string
	body, bodySource         string
	overlay, overlaySource   string
	hasOverlay               bool
	index, indexSource       string
	projectScope             bool
	noTokenCounts            bool
}

// assemble builds the system prompt exactly as SubAgentActor.BuildSystemPrompt
// does, and the parts as they stand in it. For any body the loader accepts
// (one with text in it), joining the parts' texts with "\n\n" gives the
// prompt.
func assemble(in promptInput) assembled {
	var parts partList
	base := parts.base(in)
	role := parts.role(in, base)
	withTools := role
	if !netBlank(in.index) {
		withTools = netTrimEnd(role) + "\n\n" + netTrimEnd(in.index)
		parts.add(PartToolIndex, in.indexSource, netTrimEnd(in.index))
	}
	contract := ExecutionContract(in.projectScope)
	parts.add(PartExecutionContract, "NetClaw's SubAgentActor (fixed text)", contract)
	system := netTrimEnd(withTools) + "\n\n" + contract

	if !in.noTokenCounts {
		for i := range parts {
			parts[i].Tokens = PartTokens(parts[i])
		}
	}
	return assembled{system: system, parts: parts}
}

// partList is the prompt's parts in the order they stand in it.
type partList []Part

// add appends the part name, read from source, with its text.
func (l *partList) add(name, source, text string) {
	*l = append(*l, Part{Part: name, Source: source, Text: text})
}

// base returns the prompt's base, and adds its parts: the operating rules
// (ComposeOperatingRules: the core, then the playbook under its heading)
// and the project's instructions, joined as
// SystemPromptAssembler.Assemble(agents, projectInstructions) does.
func (l *partList) base(in promptInput) string {
	agents := in.core
	if !netBlank(in.playbook) {
		agents = netTrimEnd(in.core) + "\n\n" + PlaybookHeading + "\n\n" + netTrim(in.playbook)
	}
	var sections []string
	if !netBlank(agents) {
		sections = append(sections, netTrim(agents))
		if !netBlank(in.core) {
			l.add(PartOperatingRules, in.coreSource, netTrim(in.core))
		}
		if !netBlank(in.playbook) {
			l.add(PartDeploymentPlaybook, in.playbookSource, PlaybookHeading+"\n\n"+netTrim(in.playbook))
		}
	}
	if !netBlank(in.project) {
		sections = append(sections, netTrim(in.project))
		l.add(PartProjectInstructions, in.projectSource, netTrim(in.project))
	}
	return strings.Join(sections, "\n\n")
}

// role returns the base followed by the agent's body, with the routed
// skill's overlay under its marker
// (SubAgentSpawner.AppendSystemPromptOverlay), and adds the body's and
// the overlay's parts.
func (l *partList) role(in promptInput, base string) string {
	role := in.body
	overlaid := in.hasOverlay && !netBlank(in.overlay)
	if overlaid {
		role = netTrimEnd(in.body) + "\n\n" + OverlayMarker + "\n" + netTrim(in.overlay)
	}
	if !netBlank(base) {
		role = netTrimEnd(base) + "\n\n" + role
	}
	l.add(PartBody, in.bodySource, netTrimEnd(in.body))
	if overlaid {
		l.add(PartSkillOverlay, in.overlaySource, OverlayMarker+"\n"+netTrim(in.overlay))
	}
	return role
}

// PartTokens returns p's o200k_base token count. The parts every spawn of
// a process shares (the operating rules, the tool index, the execution
// contract) are counted once per process.
func PartTokens(p Part) int {
	switch p.Part {
	case PartOperatingRules, PartExecutionContract, PartToolIndex:
		return cachedTokens(p.Text)
	}
	return preview.CountTokens(p.Text)
}

// tokenCache holds the token counts of the texts every spawn shares (the
// core, the contract, the tool index), so composing a request counts
// only what differs.
var tokenCache sync.Map

// maxTokenCache bounds tokenCache: beyond it counts are not kept.
const maxTokenCache = 64

var tokenCacheLen atomic.Int32

// cachedTokens counts text's tokens once per process.
func cachedTokens(text string) int {
	if n, ok := tokenCache.Load(text); ok {
		return n.(int)
	}
	n := preview.CountTokens(text)
	if tokenCacheLen.Load() < maxTokenCache {
		if _, loaded := tokenCache.LoadOrStore(text, n); !loaded {
			tokenCacheLen.Add(1)
		}
	}
	return n
}

// bodyOf returns the text a definition contributes, "" for none.
func bodyOf(d *lint.Definition) string {
	if d == nil {
		return ""
	}
	return d.Body
}
