package request

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// The names of the main session's context layers, as SessionContext
// reports them.
const (
	LayerToolIndex      = "tool-index"
	LayerSkillIndex     = "skill-index"
	LayerMemory         = "memory"
	LayerSubagents      = "available-subagents"
	LayerAttachments    = "attachments"
	LayerCurrentTime    = "current-time"
	LayerWorkingContext = "working-context"
)

// SessionLayer is one context layer of the main session's request.
type SessionLayer struct {
	// Name is one of the Layer* names.
	Name string
	// Text is the layer's text as sent (trimmed).
	Text string
	// PerTurn is set for a layer of the per-turn block (the user message
	// before the request) rather than the static system message.
	PerTurn bool
}

// SessionContextInput is what the main session's context layers are
// composed from.
type SessionContextInput struct {
	// Catalog is the scanned home: its agents, skills and configuration.
	Catalog *lint.Catalog
	// Audience is the session's audience.
	Audience preview.Audience
	// Policy is the tool policy (PolicyFromConfig).
	Policy Policy
	// Tools are the tools the session's registry holds (NetClaw().Tools()
	// and MCP tools), before the audience's filter; spawn_agent is added.
	Tools []Tool
	// Project is the session's project folder ("" for none).
	Project string
	// Now is the turn's instant; Location and ZoneID the daemon's local
	// time zone (nil is UTC).
	Now      time.Time
	Location *time.Location
	ZoneID   string
	// Git is the project's git state; nil inspects it.
	Git *GitState
}

// SessionContext is the main session's context, composed: the layers,
// the static system message that follows the prompt, and the per-turn
// user message that comes just before the request.
type SessionContext struct {
	Layers []SessionLayer
	// Static is system message 1: the OnceAtStart layers and the
	// [attachments] hint, joined by a blank line.
	Static string
	// Nudge is the per-turn block as the user message "[system: ...]"
	// sent before the request; "" when the block is empty.
	Nudge string
	// NotReproduced says which parts of the runtime's request are left
	// out, and why.
	NotReproduced []string
}

// NotReproducedParts are the parts of the main session's request that
// agentdesk leaves out, with the reason.
var NotReproducedParts = []string{
	"[session] (the session's id and its storage folders under the NetClaw home: a route question has no session)",
	"[memory-recall] (automatic recall reads NetClaw's SQLite memory store, which agentdesk does not open)",
	"the skill hint and slash-command content (per-turn skill activation by the daemon)",
	"MCP servers in the tool index and their prompts in the skill index (listed only once the servers run)",
}

// ComposeSessionContext composes the main session's context layers as
// NetClaw's SessionMessageAssembler sends them on a session's first turn:
// the static message (tool index, skill index, memory, then
// [attachments] when file_read is granted) and the per-turn block (the
// available sub-agents, the current time, then the working context; not
// for Public). The sub-agent layer is per turn because
// SubAgentDiscoveryContextLayer is ContextLayerTiming.EveryTurn (see
// preview.Frontline for the version). The [session] block and the other parts in NotReproducedParts
// are left out.
func ComposeSessionContext(in SessionContextInput) SessionContext {
	var out SessionContext
	exposed, fileRead := sessionExposed(in)
	subagents := ""
	out.add(LayerToolIndex, TieredIndex(exposed), false)
	if in.Audience != preview.Public && in.Policy.SkillSync {
		out.add(LayerSkillIndex, SkillIndex(SessionSkills(in.Catalog)), false)
	}
	if in.Audience != preview.Public && in.Policy.Memory {
		out.add(LayerMemory, MemoryLayer, false)
	}
	if in.Catalog != nil {
		// EveryTurn: the layer travels in the per-turn block, first of
		// the EveryTurn layers (registered before the current time).
		subagents = preview.Layer(in.Catalog, in.Audience)
	}
	if fileRead {
		out.add(LayerAttachments, AttachmentsHint, false)
	}
	loc := in.Location
	if loc == nil {
		loc = time.UTC
	}
	zone := in.ZoneID
	if zone == "" {
		zone = "UTC"
	}
	out.add(LayerSubagents, subagents, true)
	out.add(LayerCurrentTime, CurrentTimeLayer(in.Now, loc, zone), true)
	if in.Audience != preview.Public {
		out.add(LayerWorkingContext, sessionWorkingContext(in).Block(), true)
	}
	out.join()
	out.NotReproduced = NotReproducedParts
	return out
}

// sessionExposed returns the tools the session's audience sees under its
// policy, then spawn_agent when sub-agents are on (not for Public), and
// whether file_read is among them.
func sessionExposed(in SessionContextInput) (exposed []Tool, fileRead bool) {
	for _, t := range in.Tools {
		if ok, _ := in.Policy.Exposed(t, in.Audience); ok {
			exposed = append(exposed, t)
			fileRead = fileRead || t.Name == "file_read"
		}
	}
	if in.Audience != preview.Public && in.Policy.SubAgents {
		sp := preview.SpawnAgent()
		exposed = append(exposed, Tool{Name: sp.Name, Description: sp.Description, Grant: "builtin"})
	}
	return exposed, fileRead
}

// add appends the layer name with text, trimmed, unless the text is
// blank; perTurn puts it in the per-turn block.
func (c *SessionContext) add(name, text string, perTurn bool) {
	if !netBlank(text) {
		c.Layers = append(c.Layers, SessionLayer{Name: name, Text: netTrim(text), PerTurn: perTurn})
	}
}

// join sets Static from the layers sent once and Nudge from the per-turn
// ones, each joined by a blank line.
func (c *SessionContext) join() {
	var static, turn []string
	for _, l := range c.Layers {
		if l.PerTurn {
			turn = append(turn, l.Text)
		} else {
			static = append(static, l.Text)
		}
	}
	c.Static = strings.Join(static, "\n\n")
	if len(turn) > 0 {
		c.Nudge = SystemNudge(strings.Join(turn, "\n\n"))
	}
}

// sessionWorkingContext is the session's working-context snapshot at its
// first turn: the shell (Personal), the project folder and its git state;
// no recent files yet.
func sessionWorkingContext(in SessionContextInput) WorkingContext {
	var wc WorkingContext
	if in.Audience == preview.Personal {
		sh := HostShell()
		wc.Shell = &sh
	}
	project := in.Project
	if project == "" {
		return wc
	}
	if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	wc.Project = project
	if !hasControl(project) {
		if in.Git != nil {
			wc.Git = *in.Git
		} else {
			wc.Git = InspectGit(context.Background(), project)
		}
	}
	return wc
}

// LocalZoneID returns the IANA name of the local time zone as .NET's
// TimeZoneInfo.Local.Id finds it on Linux and macOS: $TZ (without a
// leading ':' and a zoneinfo path prefix), else the target of the
// /etc/localtime link after "zoneinfo/", else /etc/timezone, else "UTC".
func LocalZoneID(getenv func(string) string) string {
	if tz := strings.TrimPrefix(getenv("TZ"), ":"); tz != "" {
		if i := strings.Index(tz, "zoneinfo/"); i >= 0 {
			tz = tz[i+len("zoneinfo/"):]
		}
		return tz
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if i := strings.Index(target, "zoneinfo/"); i >= 0 {
			return target[i+len("zoneinfo/"):]
		}
	}
	if b, err := os.ReadFile("/etc/timezone"); err == nil && len(b) < 256 {
		if id := strings.TrimSpace(string(b)); id != "" {
			return id
		}
	}
	return "UTC"
}

// Render returns the layers for a person to read, one heading each, and
// what is not reproduced.
func (s SessionContext) Render() string {
	var b strings.Builder
	for _, l := range s.Layers {
		where := "static system message"
		if l.PerTurn {
			where = "per-turn [system: ...] message"
		}
		fmt.Fprintf(&b, "## %s (%s)\n%s\n\n", l.Name, where, l.Text)
	}
	return b.String()
}
