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
	var on, off, denied []string
	x.beforeCarry = func() {
		// OpenCode reads a tool set to false as a denied permission.
		var lost []string
		for _, t := range off {
			if slices.Contains(openCodeTools.known, t) {
				denied = appendOnce(denied, openCodePermission(t))
			} else {
				lost = append(lost, t)
			}
		}
		if len(lost) > 0 {
			x.warn("tools %s turned off: NetClaw's tools list only names the tools an agent uses and cannot turn off one that is not an OpenCode built-in; left out", quoteNames(lost))
		}
		if len(denied) > 0 {
			// Denied permissions make the list: what is left on, and the
			// tools the tools map names that the table does not have.
			list := openCodeAllowed(denied, nil)
			for _, t := range on {
				if !slices.Contains(openCodeTools.known, t) {
					list = appendOnce(list, t)
				}
			}
			x.agent.Tools = openCodeTools.imported(x, list)
			return
		}
		if on != nil {
			x.agent.Tools = openCodeTools.imported(x, on)
		}
	}
	return x.importFrontmatter(data, id, func(f yamlField) error {
		switch f.key {
		case "mode":
			mode, err := yamlString(f)
			if err != nil {
				return err
			}
			switch mode {
			case "subagent":
			case "all", "primary":
				x.keepField(f.key, yamlValue(f.value), openCodeKeys, f.line)
			default:
				x.warn("mode %q is not subagent, primary or all: every NetClaw agent file is a sub-agent; imported as one", mode)
			}
		case "tools":
			var err error
			on, off, err = openCodeToolMap(f)
			if err != nil {
				return err
			}
		case "permission":
			var err error
			denied, err = openCodePermissions(f, x)
			if err != nil {
				return err
			}
		default:
			x.keepField(f.key, yamlValue(f.value), openCodeKeys, f.line)
		}
		return nil
	})
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
	keys := map[string]bool{}
	for _, t := range openCodeTools.known {
		keys[openCodePermission(t)] = true
	}
	var denied, given, lost []string
	allDenied := false
	for i := 0; i+1 < len(f.value.Content); i += 2 {
		k, v := lint.ResolveAlias(f.value.Content[i]), lint.ResolveAlias(f.value.Content[i+1])
		if k == nil || k.Kind != yaml.ScalarNode || v == nil {
			return nil, fmt.Errorf("line %d: 'permission' must map permission names to allow, ask or deny", f.line)
		}
		deny := v.Kind == yaml.ScalarNode && v.Value == "deny" || onlyDenied(v)
		switch {
		case k.Value == "*" && deny:
			allDenied = true
		case keys[k.Value] && deny:
			denied = appendOnce(denied, k.Value)
		case keys[k.Value]:
			given = append(given, k.Value)
			if !(v.Kind == yaml.ScalarNode && v.Value == "allow") {
				lost = append(lost, k.Value)
			}
		default:
			lost = append(lost, k.Value)
		}
	}
	if allDenied {
		for _, t := range openCodeTools.known {
			if k := openCodePermission(t); !slices.Contains(given, k) {
				denied = appendOnce(denied, k)
			}
		}
	}
	if len(lost) > 0 {
		x.warn("permission %s (line %d): NetClaw's tools list only names the tools an agent uses and cannot say ask, a pattern or a permission that is not a tool; left out", quoteNames(lost), f.line)
	}
	return denied, nil
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
