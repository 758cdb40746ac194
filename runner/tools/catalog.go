package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/approve"
)

// SpecOf returns the spec of a catalogued tool: its exact name,
// description and schema, whether it is deferred, and whether a call
// needs approval (approve.Gated: it reaches a process or the network; every
// MCP tool does too).
func SpecOf(t request.Tool) Spec {
	return Spec{
		Name: t.Name, Description: t.Description, Parameters: t.Schema(),
		Deferred: t.Deferred, Server: t.Server,
		Approval: approve.Gated(t.Name) || t.IsMCP(),
	}
}

// Respec returns t offered under spec (the catalogue's), keeping t's own
// Call. Approval is set when either asks for it.
func Respec(t Tool, spec Spec) Tool {
	spec.Approval = spec.Approval || t.Spec().Approval
	return &respecced{Tool: t, spec: spec}
}

type respecced struct {
	Tool
	spec Spec
}

func (r *respecced) Spec() Spec { return r.spec }

func (r *respecced) bind(s *Set) {
	if b, ok := r.Tool.(binder); ok {
		b.bind(s)
	}
}

// Env is what the catalogue's tools work on in one run.
type Env struct {
	// Workspace is the project's overlay.
	Workspace *Workspace
	// Offered are the catalogue's tools for the run's audience, MCP ones
	// left out (they are added to the set as their servers start).
	Offered request.Offered
	// Web, when set, runs web_fetch after approval; nil answers that the
	// trial has no web access.
	Web *Web
	// Skills are the skills the runtime lists, for skill_load and
	// skill_read_resource (nil: they are stubbed).
	Skills []Skill
}

// FromOffered returns a Tool for every tool of env.Offered, offered with
// the catalogue's exact spec: the file tools, tool_output_read and
// shell_execute on the workspace, search_tools and load_tool answered from the catalogue (and
// the MCP tools of the set), web_fetch and web_search behind approval,
// and a labelled stub for every tool that touches NetClaw's own state or
// another system (the reminder, webhook and memory tools among them). A
// tool the catalogue withholds (tool_output_read under a profile that does
// not allow it, say) is not offered, as at the runtime.
func FromOffered(env Env) []Tool {
	ws := env.Workspace
	impl := map[string]Tool{}
	if ws != nil {
		for _, t := range append(ws.FileTools(), ws.ShellTool(), ws.SearchTool(), ws.OutputReadTool()) {
			impl[t.Spec().Name] = t
		}
	}
	if env.Skills != nil {
		for _, t := range SkillTools(env.Skills) {
			impl[t.Spec().Name] = t
		}
	}
	meta := &metaTools{base: env.Offered}
	impl["search_tools"] = &builtin{spec: Spec{Name: "search_tools"}, call: meta.search}
	impl["load_tool"] = &builtin{spec: Spec{Name: "load_tool"}, call: meta.load}
	impl["web_fetch"] = &builtin{spec: Spec{Name: "web_fetch"}, call: func(ctx context.Context, a args, _ Meta) Result { return env.Web.fetch(ctx, ws, a) }}
	impl["web_search"] = &builtin{spec: Spec{Name: "web_search"}, call: func(ctx context.Context, a args, _ Meta) Result { return env.Web.search(ctx, a) }}
	var out []Tool
	for _, t := range env.Offered.Tools {
		if t.IsMCP() {
			continue
		}
		spec := SpecOf(t)
		if i, ok := impl[t.Name]; ok {
			rt := Respec(i, spec)
			if t.Name == "search_tools" || t.Name == "load_tool" {
				out = append(out, &bound{Tool: rt, meta: meta})
				continue
			}
			out = append(out, rt)
			continue
		}
		out = append(out, Stub(spec, ""))
	}
	return out
}

// bound hands the set to the meta tools when it adds them.
type bound struct {
	Tool
	meta *metaTools
}

func (b *bound) bind(s *Set) { b.meta.set = s }

// metaTools answers search_tools and load_tool from the catalogue, with
// the MCP tools of the set added; load_tool activates the tool it names.
type metaTools struct {
	base request.Offered
	set  *Set
}

// offered returns the catalogue's offer with the set's MCP tools, and the
// catalogue they come from.
func (m *metaTools) offered() (request.Offered, *request.Catalog) {
	o := m.base
	o.Tools = append([]request.Tool(nil), m.base.Tools...)
	var extra []request.Tool
	if m.set != nil {
		for _, sp := range m.set.Specs() {
			if sp.Server == "" {
				continue
			}
			own := strings.TrimPrefix(sp.Name, sp.Server+"__")
			if t, err := request.MCPTool(sp.Server, own, sp.Description, sp.Parameters); err == nil {
				extra = append(extra, t)
			}
		}
	}
	o.Tools = append(o.Tools, extra...)
	c := request.NetClaw()
	if len(extra) > 0 {
		if with, err := c.With(extra...); err == nil {
			c = with
		}
	}
	return o, c
}

func (m *metaTools) search(_ context.Context, a args, _ Meta) Result {
	q, _, err := a.str("Query")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	server, _, _ := a.str("Server")
	o, _ := m.offered()
	// search_tools only lists: what it finds is activated by load_tool
	// alone, as the tiered runtime does (SubAgentActor activates a deferred
	// tool on load_tool's result, and SearchToolsTool says "tools are NOT
	// loaded until you call load_tool"; salma-marei/netclaw @ba08b016, see
	// request.CoreTools).
	text, _ := request.SearchTools(o, q, server)
	return Result{Text: text, Label: LabelReal}
}

func (m *metaTools) load(_ context.Context, a args, _ Meta) Result {
	name, _, err := a.str("Name")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	o, c := m.offered()
	// A successful answer is the tool's name, which exposes it (the
	// runtime's actor runs load_tool's result back through its registry).
	text := request.LoadToolResult(c, o, name)
	if m.set != nil && slices.ContainsFunc(o.Tools, func(t request.Tool) bool { return t.Name == text }) {
		m.set.Load(text)
	}
	isErr := strings.HasPrefix(text, "Error:") || strings.HasPrefix(text, "Tool '")
	return Result{Text: text, IsError: isErr, Label: LabelReal}
}

// CatalogValidator returns the runtime's checks of the set's calls before
// a tool runs (request.CheckCall: the _rationale refusal, bad
// _timeout_seconds or _background values, two keys for one meta field,
// then a first-party tool's argument keys that no parameter binds):
// a catalogued tool is checked against its catalogue entry, any other
// (an MCP tool) against its schema.
func CatalogValidator(o request.Offered) func(t Tool, args json.RawMessage) string {
	byName := map[string]request.Tool{}
	for _, t := range o.Tools {
		byName[t.Name] = t
	}
	return func(t Tool, raw json.RawMessage) string {
		sp := t.Spec()
		ct, ok := byName[sp.Name]
		if !ok {
			if sp.Server != "" {
				own := strings.TrimPrefix(sp.Name, sp.Server+"__")
				if m, err := request.MCPTool(sp.Server, own, sp.Description, sp.Parameters); err == nil {
					ct = m
				}
			} else {
				ct = request.Tool{Name: sp.Name}
			}
		}
		a, err := request.ParseArgs(raw)
		if err != nil {
			return request.ParseError(sp.Name, err.Error())
		}
		_, _, refusal := request.CheckCall(ct, a)
		return refusal
	}
}
