package request

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/preview"
)

// The main session's prompt follows FileSystemPromptProvider.GetSystemPrompt
// in the stored src/Netclaw.Configuration/ISystemPromptProvider.cs that
// composes the deployment playbook, and SystemPromptAssembler.Assemble with
// projectInstructions (see prompt.go for the versions).

// SessionInput is what the frontline's (the main session's) system prompt
// is composed from.
type SessionInput struct {
	Paths    Paths
	Audience preview.Audience
	// Core is the audience's operating core; nil leaves it out.
	Core *Core
	// Project is the session's project folder ("" for none).
	Project string
}

// SessionSource says what a composed main-session prompt is made of, for
// a report.
const SessionSource = "NetClaw's main-session prompt: SOUL.md, the operating rules (core and playbook), TOOLING.md, the project's instructions"

// SessionPrompt composes the system prompt NetClaw's runtime gives the
// main session (the frontline): identity/SOUL.md (else the legacy
// soul/PERSONALITY.md), the operating rules (the core, then the playbook
// under its heading), and, except for Public, identity/TOOLING.md (else
// soul/USER.md) and the project's instructions; each trimmed, the blank
// ones left out, joined with a blank line. A playbook that cannot be read
// is an error, as at the runtime.
func SessionPrompt(in SessionInput) (string, error) {
	identity := filepath.Join(in.Paths.Base, "identity")
	legacy := filepath.Join(in.Paths.Base, "soul")
	soul, err := readIdentity(filepath.Join(identity, "SOUL.md"), filepath.Join(legacy, "PERSONALITY.md"))
	if err != nil {
		return "", err
	}
	agents, err := sessionRules(in)
	if err != nil {
		return "", err
	}
	var tooling, project string
	if in.Audience != preview.Public {
		if tooling, err = readIdentity(filepath.Join(identity, "TOOLING.md"), filepath.Join(legacy, "USER.md")); err != nil {
			return "", err
		}
		if project, err = sessionProject(in.Project); err != nil {
			return "", err
		}
	}
	var sections []string
	for _, s := range []string{soul, agents, tooling, project} {
		if !netBlank(s) {
			sections = append(sections, netTrim(s))
		}
	}
	return strings.Join(sections, "\n\n"), nil
}

// readIdentity returns the text of the first of paths, identity files
// in order of preference, that can be read ("" when none can: an absent
// or unreadable one is left out). One that is a FIFO, a device or huge is
// an error naming it (NetClaw would block on it or send it all), as for
// the playbook.
func readIdentity(paths ...string) (string, error) {
	for _, p := range paths {
		t, err := readInstructions(p)
		if err == nil {
			return t, nil
		}
		if isRefused(err) {
			return "", fmt.Errorf("the main session's identity file cannot be read: %w", err)
		}
	}
	return "", nil
}

// sessionRules returns the main session's operating rules: the core, then
// the home's playbook under its heading when there is one that is not
// blank. A playbook that cannot be read is an error.
func sessionRules(in SessionInput) (string, error) {
	core := ""
	if in.Core != nil {
		core = in.Paths.substitute(in.Core.Text)
	}
	if in.Paths.Base == "" {
		return core, nil
	}
	playbook, ok, err := readPlaybook(in.Paths)
	if err != nil {
		return "", err
	}
	if !ok || netBlank(playbook) {
		return core, nil
	}
	return netTrimEnd(core) + "\n\n" + PlaybookHeading + "\n\n" + netTrim(in.Paths.substitute(playbook)), nil
}

// sessionProject returns the instructions file of the project folder dir
// ("" for none), made absolute; one that cannot be read safely is an
// error.
func sessionProject(dir string) (string, error) {
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	text, _, err := readProjectInstructions(dir)
	return text, err
}

// SessionTools returns the tools NetClaw offers a session of audience a
// itself from the start under policy p: the core tier (CoreTools) that
// the audience may see, in registration order (the frontline's side: no
// sub-agent denylist; the deferred tools are named in the tool index and
// loaded with load_tool). Then spawn_agent as preview declares it: NetClaw
// registers spawn_agent deferred, so a live frontline loads it first;
// agentdesk offers it from the start so that the first reply shows which
// agent the model picks (docs/route.md).
func SessionTools(a preview.Audience, p Policy) []OfferedTool {
	var out []OfferedTool
	for _, t := range NetClaw().SessionTools(a, p).Tools {
		if !t.Deferred && !t.IsMCP() && IsCore(t.Name) && t.Name != preview.SpawnAgentTool {
			out = append(out, OfferedTool{Name: t.Name, Description: t.Description, Parameters: t.schema, Core: true})
		}
	}
	sp := preview.SpawnAgent()
	return append(out, OfferedTool{Name: sp.Name, Description: sp.Description, Parameters: json.RawMessage(sp.Parameters), Core: true})
}
