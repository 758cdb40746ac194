package adapt

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// OpenCode: .opencode/agents/<name>.md; the agent's name is its
// frontmatter name, else the file name. YAML frontmatter with description
// (required), mode (subagent, primary or all), model (provider/model),
// variant, temperature, and permission: a map of permission key to allow,
// ask or deny. Every tool is allowed unless a permission denies it; the
// older tools map (name: true/false) is deprecated and read only as
// permissions, so true restricts nothing. The body is the prompt.

func exportOpenCode(x *exportCtx) (string, []byte) {
	d := x.d
	x.convertName(lint.ValidName, lint.Kebab, sameName)
	var deny []string
	if len(d.Tools) > 0 {
		tools, ws := openCodeTools.export(d.Tools, x.target.Title)
		x.warnings = append(x.warnings, ws...)
		deny = openCodeDenied(tools)
		if !slices.Equal(openCodeTools.back(openCodeAllowed(deny, nil)), d.Tools) {
			// The permission block says which tools are on, not the list as
			// NetClaw spells it (order, names OpenCode does not have).
			x.carry.Tools = slices.Clone(d.Tools)
		}
	}
	x.keepRole("OpenCode has no model roles: a sub-agent runs on the model of the agent that calls it unless its own model is set")
	rest := x.keepRest(openCodeKeys)
	mode := "subagent"
	rest, kept := takeRestored(rest, "mode")
	if kept != nil {
		if slices.Contains([]string{"subagent", "primary", "all"}, kept.text) {
			mode = kept.text
		} else {
			x.warn("metadata opencode.mode %q is not subagent, primary or all: wrote mode: subagent", kept.text)
		}
	}
	w := newFrontmatter(x.carry.comment())
	w.scalar("description", d.Description)
	w.scalar("mode", mode)
	if len(deny) > 0 {
		w.b.WriteString("permission:\n")
		for _, k := range deny {
			w.b.WriteString("  " + yamlScalar(k) + ": deny\n")
		}
	}
	w.restored(rest)
	return x.name + x.target.Ext, w.done(d.Body)
}

// openCodeDenied returns the permission keys to deny so that an agent
// gets only tools (OpenCode names), in the table's order.
func openCodeDenied(tools []string) []string {
	on := map[string]bool{}
	for _, t := range tools {
		on[openCodePermission(t)] = true
	}
	var deny []string
	for _, t := range openCodeTools.known {
		if k := openCodePermission(t); !on[k] {
			deny = appendOnce(deny, k)
		}
	}
	return deny
}

// openCodeAllowed returns the tools of the table that the denied
// permission keys and the tools turned off leave on, in the table's order.
func openCodeAllowed(denied, off []string) []string {
	var out []string
	for _, t := range openCodeTools.known {
		if !slices.Contains(denied, openCodePermission(t)) && !slices.Contains(off, t) {
			out = append(out, t)
		}
	}
	return out
}

func parseOpenCode(x *importCtx, data []byte) error {
	id := strings.TrimSuffix(filepath.Base(x.path), filepath.Ext(x.path))
	o := &openCodeImport{x: x}
	x.beforeCarry = o.carryTools
	return x.importFrontmatter(data, id, o.field)
}

// openCodeImport is the import of one OpenCode agent: the tools its tools
// map turns on and off, and the permissions it denies, which make the
// agent's tools list once the frontmatter is read.
type openCodeImport struct {
	x               *importCtx
	on, off, denied []string
}

// field reads one frontmatter field: mode, the tools map and the
// permission block; any other is kept.
func (o *openCodeImport) field(f yamlField) error {
	var err error
	switch f.key {
	case "mode":
		err = o.mode(f)
	case "tools":
		o.on, o.off, err = openCodeToolMap(f)
	case "permission":
		o.denied, err = openCodePermissions(f, o.x)
	default:
		o.x.keepField(f.key, yamlValue(f.value), openCodeKeys, f.line)
	}
	return err
}

// mode reads OpenCode's mode: subagent is what every NetClaw agent is;
// all and primary are kept; anything else is warned about.
func (o *openCodeImport) mode(f yamlField) error {
	mode, err := yamlString(f)
	if err != nil {
		return err
	}
	switch mode {
	case "subagent":
	case "all", "primary":
		o.x.keepField(f.key, yamlValue(f.value), openCodeKeys, f.line)
	default:
		o.x.warn("mode %q is not subagent, primary or all: every NetClaw agent file is a sub-agent; imported as one", mode)
	}
	return nil
}

// carryTools sets the agent's tools list from the tools map and the
// denied permissions. OpenCode reads a tool set to false as a denied
// permission; one that is not a built-in cannot be turned off, and is
// warned about.
func (o *openCodeImport) carryTools() {
	var lost []string
	for _, t := range o.off {
		if slices.Contains(openCodeTools.known, t) {
			o.denied = appendOnce(o.denied, openCodePermission(t))
		} else {
			lost = append(lost, t)
		}
	}
	if len(lost) > 0 {
		o.x.warn("tools %s turned off: NetClaw's tools list only names the tools an agent uses and cannot turn off one that is not an OpenCode built-in; left out", quoteNames(lost))
	}
	switch {
	case len(o.denied) > 0:
		o.x.agent.Tools = openCodeTools.imported(o.x, o.allowedAfterDenials())
	case o.on != nil:
		o.x.agent.Tools = openCodeTools.imported(o.x, o.on)
	}
}

// allowedAfterDenials is the tools list when permissions are denied: the
// built-ins left on, and the tools the tools map turns on that the table
// does not have.
func (o *openCodeImport) allowedAfterDenials() []string {
	list := openCodeAllowed(o.denied, nil)
	for _, t := range o.on {
		if !slices.Contains(openCodeTools.known, t) {
			list = appendOnce(list, t)
		}
	}
	return list
}

// openCodeToolMap reads OpenCode's deprecated tools map: the names set to
// true and those set to false, in file order.
func openCodeToolMap(f yamlField) (on, off []string, err error) {
	if isYAMLNull(f.value) {
		return nil, nil, nil
	}
	if f.value.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("line %d: 'tools' must be a map of tool names to true or false, not %s", f.line, lint.YAMLKind(f.value))
	}
	for i := 0; i+1 < len(f.value.Content); i += 2 {
		k, v := lint.ResolveAlias(f.value.Content[i]), lint.ResolveAlias(f.value.Content[i+1])
		if k == nil || k.Kind != yaml.ScalarNode || v == nil || v.Kind != yaml.ScalarNode {
			return nil, nil, fmt.Errorf("line %d: 'tools' must map tool names to true or false", f.line)
		}
		switch strings.ToLower(v.Value) {
		case "true":
			on = append(on, k.Value)
		case "false":
			off = append(off, k.Value)
		default:
			return nil, nil, fmt.Errorf("line %d: tool %q must be true or false, not %q", k.Line+1, k.Value, v.Value)
		}
	}
	return on, off, nil
}

// openCodePermissions reads the permission block: the permission keys of
// the tool table it turns off outright (deny, or every pattern denied),
// with "*": deny turning off every key not given another action. What the
// tools list cannot say (ask, allow by pattern, other keys) is reported.
func openCodePermissions(f yamlField, x *importCtx) ([]string, error) {
	if isYAMLNull(f.value) {
		return nil, nil
	}
	if f.value.Kind == yaml.ScalarNode {
		x.warn("permission %s (line %d): NetClaw's tools list cannot say it; left out", f.value.Value, f.line)
		return nil, nil
	}
	if f.value.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: 'permission' must be allow, ask, deny or a map of them, not %s", f.line, lint.YAMLKind(f.value))
	}
	p := openCodePerms{keys: map[string]bool{}}
	for _, t := range openCodeTools.known {
		p.keys[openCodePermission(t)] = true
	}
	for i := 0; i+1 < len(f.value.Content); i += 2 {
		k, v := lint.ResolveAlias(f.value.Content[i]), lint.ResolveAlias(f.value.Content[i+1])
		if k == nil || k.Kind != yaml.ScalarNode || v == nil {
			return nil, fmt.Errorf("line %d: 'permission' must map permission names to allow, ask or deny", f.line)
		}
		p.add(k.Value, v)
	}
	if p.allDenied {
		p.denyUngiven()
	}
	if len(p.lost) > 0 {
		x.warn("permission %s (line %d): NetClaw's tools list only names the tools an agent uses and cannot say ask, a pattern or a permission that is not a tool; left out", quoteNames(p.lost), f.line)
	}
	return p.denied, nil
}

// openCodePerms sorts the entries of a permission block: the tool
// table's permission keys (keys) denied, and given another action; what
// the tools list cannot say (lost); and whether "*" denies.
type openCodePerms struct {
	keys                map[string]bool
	denied, given, lost []string
	allDenied           bool
}

// add sorts the permission key with its value v: deny (or patterns that
// all deny), allow, or what the tools list cannot say.
func (p *openCodePerms) add(key string, v *yaml.Node) {
	deny := v.Kind == yaml.ScalarNode && v.Value == "deny" || onlyDenied(v)
	switch {
	case key == "*" && deny:
		p.allDenied = true
	case p.keys[key] && deny:
		p.denied = appendOnce(p.denied, key)
	case p.keys[key]:
		p.given = append(p.given, key)
		if !(v.Kind == yaml.ScalarNode && v.Value == "allow") {
			p.lost = append(p.lost, key)
		}
	default:
		p.lost = append(p.lost, key)
	}
}

// denyUngiven denies, as "*": deny does, every permission key of the
// tool table that the block gives no other action.
func (p *openCodePerms) denyUngiven() {
	for _, t := range openCodeTools.known {
		if k := openCodePermission(t); !slices.Contains(p.given, k) {
			p.denied = appendOnce(p.denied, k)
		}
	}
}

// onlyDenied reports whether n is a map of patterns that all deny.
func onlyDenied(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return false
	}
	for i := 1; i < len(n.Content); i += 2 {
		v := lint.ResolveAlias(n.Content[i])
		if v == nil || v.Kind != yaml.ScalarNode || v.Value != "deny" {
			return false
		}
	}
	return true
}
