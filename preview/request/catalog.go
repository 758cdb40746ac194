package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kind says where a tool's effect lands. runner/tools decides from it how a
// trial runs a call: for real, in an overlay of the project, after the
// author's approval, or as a stub.
type Kind string

// The kinds of tool.
const (
	// KindRead tools only read files (file_read, file_list, file_search;
	// tool_output_read reads the session's spilled results).
	KindRead Kind = "read"
	// KindWrite tools change files (file_write, file_edit).
	KindWrite Kind = "write"
	// KindEffect tools reach outside the files: a process, the network, the
	// user (shell_execute, web_search, web_fetch, attach_file).
	KindEffect Kind = "effect"
	// KindState tools read or change NetClaw's own state: its skills,
	// reminders, webhooks, memory, background jobs, the session's project
	// folder.
	KindState Kind = "netclaw-state"
	// KindMeta tools are answered from the catalogue itself (search_tools,
	// load_tool).
	KindMeta Kind = "meta"
)

// Param is one parameter of a first-party tool, as NetClaw's tool generator
// reads it from the C# Params record: the constructor parameter's name
// (PascalCase), its JSON type, its [Description], and whether it is
// required (neither nullable nor given a default).
type Param struct {
	Name string
	// Type is the JSON Schema type the generator maps the C# type to:
	// string, integer, number, boolean, array (of strings) or object (a
	// string-to-string map).
	Type        string
	Description string
	Required    bool
}

// Requirement names the configuration a tool needs before the runtime
// registers it or shows it: its subsystem's switch in netclaw.json.
type Requirement string

// The requirements.
const (
	// Always: the tool is registered and shown whatever the configuration.
	Always Requirement = ""
	// NeedsSearch: Search.Enabled (web_search is registered only with a
	// search backend; both web tools are hidden when search is off).
	NeedsSearch Requirement = "Search.Enabled"
	// NeedsSkillSync: SkillSync.Enabled.
	NeedsSkillSync Requirement = "SkillSync.Enabled"
	// NeedsScheduling: Scheduling.Enabled.
	NeedsScheduling Requirement = "Scheduling.Enabled"
	// NeedsWebhooks: Webhooks.Enabled (the webhook route tools are
	// registered only then).
	NeedsWebhooks Requirement = "Webhooks.Enabled"
	// NeedsMemory: Memory.Enabled (the daemon registers the memory tools
	// only then, and ToolAccessPolicy hides them when it is off).
	NeedsMemory Requirement = "Memory.Enabled"
)

// Tool is one tool NetClaw can offer a model.
type Tool struct {
	// Name is the name the model calls the tool by. An MCP tool's is
	// "<server>__<tool>".
	Name string
	// Description is the text the model reads.
	Description string
	// Grant is the tool's grant category (file, shell, web, builtin,
	// scheduling, webhook_admin; "mcp" for a tool from an MCP server,
	// agentdesk's label).
	Grant string
	// Params are a first-party tool's parameters in declaration order;
	// nil for an MCP tool, whose schema comes whole from its server.
	Params []Param
	// Kind says where the tool's effect lands.
	Kind Kind
	// ReadOnly is true when a call changes nothing: no file, no process,
	// no state of NetClaw's.
	ReadOnly bool
	// Deferred is true for a tool the model first finds with search_tools
	// (or in the tool index) and activates with load_tool: every MCP tool,
	// and the first-party tools outside NetClaw's core tier (CoreTools);
	// false for a core tool, offered from the start.
	Deferred bool
	// Server is an MCP tool's server; Canonical its "<server>/<tool>" name,
	// as search_tools lists it.
	Server, Canonical string
	// Requires is the configuration switch the tool needs.
	Requires Requirement
	// Source names the NetClaw file and commit the entry copies.
	Source string

	schema json.RawMessage
}

// Schema returns the tool's parameter schema as compact JSON. For a
// first-party tool it is what NetClaw's generator emits, property for
// property and in its order: the parameters, then _rationale,
// _timeout_seconds and _background; "required" lists the required
// parameters and _rationale. Strings are escaped as JSON needs and no more
// (no \u escapes for <, > or non-ASCII): the same value as the runtime's
// JSON, and the same bytes as a relaxed-escaping serializer writes. The
// caller must not change the returned bytes.
func (t Tool) Schema() json.RawMessage { return t.schema }

// IsMCP reports whether the tool comes from an MCP server.
func (t Tool) IsMCP() bool { return t.Server != "" }

// The meta parameters the generator adds to every tool, after its own.
const (
	MetaRationale  = "_rationale"
	MetaTimeout    = "_timeout_seconds"
	MetaBackground = "_background"

	rationaleDescription  = "State your intent for this tool call in one sentence — what are you trying to accomplish and why?"
	timeoutDescription    = "Requested timeout in seconds. Only set when the default is insufficient."
	backgroundDescription = "Set to true to run this tool in the background and receive results later."
)

// GeneratedSchema returns the schema NetClaw's tool generator emits for
// these parameters (NetclawToolGenerator.GenerateSource, the version that
// also emits ToolArgumentVariant branches; no catalogued tool declares a
// variant), as compact JSON.
func GeneratedSchema(params []Param) json.RawMessage {
	b := make([]byte, 0, 256+128*len(params))
	b = append(b, `{"type":"object","properties":{`...)
	for _, p := range params {
		b = appendString(b, p.Name)
		b = append(b, `:{"type":`...)
		b = appendString(b, p.Type)
		switch p.Type {
		case "object":
			b = append(b, `,"additionalProperties":{"type":"string"}`...)
		case "array":
			b = append(b, `,"items":{"type":"string"}`...)
		}
		b = append(b, `,"description":`...)
		b = appendString(b, p.Description)
		b = append(b, `},`...)
	}
	b = append(b, `"_rationale":{"type":"string","description":`...)
	b = appendString(b, rationaleDescription)
	b = append(b, `},"_timeout_seconds":{"type":"integer","description":`...)
	b = appendString(b, timeoutDescription)
	b = append(b, `},"_background":{"type":"boolean","description":`...)
	b = appendString(b, backgroundDescription)
	b = append(b, `}},"required":[`...)
	for _, p := range params {
		if p.Required {
			b = appendString(b, p.Name)
			b = append(b, ',')
		}
	}
	b = append(b, `"_rationale"]}`...)
	return b
}

// appendString appends s as a JSON string: quote, backslash and control
// characters escaped (\n, \r, \t, \b, \f, else \u00XX), invalid UTF-8 as
// U+FFFD, everything else as it is.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// Catalog is a set of tools in the runtime's registration order: the
// first-party tools, then whatever was added with With (MCP tools). A
// Catalog is immutable and safe for concurrent use.
type Catalog struct {
	tools  []Tool
	byName map[string]int
}

var netclaw = newNetClaw()

func newNetClaw() *Catalog {
	c, err := newCatalog(firstParty())
	if err != nil {
		panic("request: the first-party tool table is inconsistent: " + err.Error())
	}
	return c
}

// NetClaw returns the catalogue of NetClaw's first-party tools.
func NetClaw() *Catalog { return netclaw }

func newCatalog(tools []Tool) (*Catalog, error) {
	c := &Catalog{tools: tools, byName: make(map[string]int, 2*len(tools))}
	for i, t := range tools {
		if _, dup := c.byName[t.Name]; dup {
			return nil, fmt.Errorf("two tools are named %q", t.Name)
		}
		c.byName[t.Name] = i
		if t.Canonical != "" && t.Canonical != t.Name {
			if _, dup := c.byName[t.Canonical]; dup {
				return nil, fmt.Errorf("two tools are named %q", t.Canonical)
			}
			c.byName[t.Canonical] = i
		}
	}
	return c, nil
}

// Tools returns the tools in registration order. The caller must not
// change them.
func (c *Catalog) Tools() []Tool { return c.tools }

// Tool finds a tool by the name the model calls it by or, for an MCP tool,
// by its canonical "<server>/<tool>" name, as the runtime's registry does.
func (c *Catalog) Tool(name string) (Tool, bool) {
	i, ok := c.byName[name]
	if !ok {
		return Tool{}, false
	}
	return c.tools[i], true
}

// With returns a catalogue with these tools added after the catalogue's own
// (the runtime registers MCP tools after the first-party ones). A name that
// is already taken is an error naming it.
func (c *Catalog) With(extra ...Tool) (*Catalog, error) {
	all := make([]Tool, 0, len(c.tools)+len(extra))
	all = append(all, c.tools...)
	all = append(all, extra...)
	n, err := newCatalog(all)
	if err != nil {
		return nil, fmt.Errorf("adding %d tool(s) to the catalogue: %w", len(extra), err)
	}
	return n, nil
}

// ErrBadTool is wrapped by MCPTool for a tool that cannot be offered.
var ErrBadTool = errors.New("the tool cannot be offered")

// MCPTool makes the catalogue entry of a tool that MCP server server
// offers: named "<server>__<tool>" for the model and "<server>/<tool>" for
// search_tools, deferred (found with search_tools, activated with
// load_tool), of kind effect. schema is the tool's input schema as the
// server gave it (after the runner's sanitizing), a JSON object; nil or
// empty means an object with no properties.
func MCPTool(server, tool, description string, schema json.RawMessage) (Tool, error) {
	for _, s := range []string{server, tool} {
		if strings.TrimSpace(s) == "" || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '/' }) {
			return Tool{}, fmt.Errorf("%w: MCP server %q, tool %q: names must be non-empty, without '/' or control characters", ErrBadTool, server, tool)
		}
	}
	s := bytes.TrimSpace(schema)
	if len(s) == 0 {
		s = []byte(`{"type":"object","properties":{}}`)
	} else {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(s, &probe); err != nil {
			return Tool{}, fmt.Errorf("%w: MCP tool %s/%s: its input schema is not a JSON object: %v", ErrBadTool, server, tool, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, s); err != nil {
			return Tool{}, fmt.Errorf("%w: MCP tool %s/%s: %v", ErrBadTool, server, tool, err)
		}
		s = compact.Bytes()
	}
	return Tool{
		Name:        server + "__" + tool,
		Canonical:   server + "/" + tool,
		Server:      server,
		Description: description,
		Grant:       "mcp",
		Kind:        KindEffect,
		Deferred:    true,
		Source:      "MCP server " + server,
		schema:      s,
	}, nil
}
