package adapt

import (
	"fmt"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// OpenCode: .opencode/agents/<name>.md, the file name is the agent's id;
// YAML frontmatter with description (required), mode (subagent), model
// (provider/model), temperature, tools as a map of name to true/false; the
// body is the prompt.

func exportOpenCode(x *exportCtx) (string, []byte) {
	d := x.d
	x.convertName(lint.ValidName, lint.Kebab, sameName)
	tools, ws := openCodeTools.export(d.Tools, x.target.Title)
	x.warnings = append(x.warnings, ws...)
	x.keepRole("OpenCode has no model roles: a sub-agent runs on the model of the agent that calls it unless its own model is set")
	rest := x.keepRest(openCodeKeys)
	w := newFrontmatter(x.carry.comment())
	w.scalar("description", d.Description)
	w.scalar("mode", "subagent")
	if len(tools) > 0 {
		w.b.WriteString("tools:\n")
		for _, t := range tools {
			w.b.WriteString("  " + yamlScalar(t) + ": true\n")
		}
	}
	w.restored(rest)
	return x.name + x.target.Ext, w.done(d.Body)
}

func parseOpenCode(x *importCtx, data []byte) error {
	id := strings.TrimSuffix(filepath.Base(x.path), filepath.Ext(x.path))
	return x.importFrontmatter(data, id, func(f yamlField) error {
		switch f.key {
		case "mode":
			mode, err := yamlString(f)
			if err != nil {
				return err
			}
			if mode != "subagent" && mode != "all" {
				x.warn("mode %q: every NetClaw agent file is a sub-agent; imported as one", mode)
			}
		case "tools":
			tools, err := openCodeToolMap(f, x)
			if err != nil {
				return err
			}
			x.agent.Tools = openCodeTools.back(tools)
		default:
			x.keepField(f.key, yamlValue(f.value), openCodeKeys, f.line)
		}
		return nil
	})
}

// openCodeToolMap reads OpenCode's tools map: the names set to true, in file
// order. A tool set to false cannot be said in NetClaw, whose tools list is
// advisory and names what an agent uses: it is reported.
func openCodeToolMap(f yamlField, x *importCtx) ([]string, error) {
	if isYAMLNull(f.value) {
		return nil, nil
	}
	if f.value.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: 'tools' must be a map of tool names to true or false, not %s", f.line, yamlKind(f.value))
	}
	var on, off []string
	for i := 0; i+1 < len(f.value.Content); i += 2 {
		k, v := resolveNode(f.value.Content[i]), resolveNode(f.value.Content[i+1])
		if k == nil || k.Kind != yaml.ScalarNode || v == nil || v.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: 'tools' must map tool names to true or false", f.line)
		}
		switch strings.ToLower(v.Value) {
		case "true":
			on = append(on, k.Value)
		case "false":
			off = append(off, k.Value)
		default:
			return nil, fmt.Errorf("line %d: tool %q must be true or false, not %q", k.Line+1, k.Value, v.Value)
		}
	}
	if len(off) > 0 {
		what := "tools %s are"
		if len(off) == 1 {
			what = "tool %s is"
		}
		x.warn(what+" turned off: NetClaw's tools list only names the tools an agent uses and cannot turn one off; left out", quoteNames(off))
	}
	return on, nil
}
