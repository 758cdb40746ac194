package lint

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// frontmatterState says whether a SKILL.md's frontmatter binds.
type frontmatterState int

const (
	frontmatterOK      frontmatterState = iota
	frontmatterMissing                  // the text does not start with "---"
	frontmatterInvalid                  // unclosed, empty, or YAML that does not bind
)

// ParseSkill reads a SKILL.md (or a flat skills/<name>.md) as NetClaw's
// skill scanner binds it: name (trimmed and lower-cased; the folder's, or
// for a flat file its name's, when the frontmatter has none),
// description, metadata.subagent with its position, and the body. Which
// skills exist, and which the runtime refuses, is the scan's business
// (Scanner); ParseSkill only reads the one file and never fails.
func ParseSkill(path string, data []byte) *Skill {
	fallback := filepath.Base(filepath.Dir(path))
	if base := filepath.Base(path); base != "SKILL.md" {
		fallback = strings.TrimSuffix(base, filepath.Ext(base))
	}
	sk := &Skill{Name: normalizeSkillName(fallback), Path: path}
	text := strings.TrimLeft(DecodeText(data), "\uFEFF")
	if !strings.HasPrefix(text, "---") {
		sk.fm = frontmatterMissing
		sk.Body = strings.TrimLeftFunc(text, unicode.IsSpace)
		return sk
	}
	root, ps := sk.frontmatter(text)
	if root == nil {
		return sk
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := ResolveAlias(root.Content[i]), ResolveAlias(root.Content[i+1])
		if k == nil || v == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		sk.readKey(k.Value, root.Content[i], root.Content[i+1], v, ps)
	}
	if strings.TrimSpace(sk.frontName) != "" {
		sk.Name = normalizeSkillName(sk.frontName)
	}
	return sk
}

// frontmatter splits text, which opens a frontmatter, into the body (into
// sk.Body) and the frontmatter's mapping of keys, with the parser that
// places its nodes. A frontmatter that is not closed, is empty, is not
// valid YAML or not a mapping marks sk's frontmatter invalid, and root is
// nil.
func (sk *Skill) frontmatter(text string) (root *yaml.Node, ps *parser) {
	fm, closeAt, body, ok := splitFrontmatter(text)
	sk.Body = body
	switch {
	case !ok:
		sk.fm, sk.fmErr, sk.Body = frontmatterInvalid, "the frontmatter opened on line 1 is never closed", text
		return nil, nil
	case strings.IndexByte(text, '\n') >= closeAt:
		sk.fm, sk.fmErr = frontmatterInvalid, "the frontmatter is empty"
		return nil, nil
	}
	ps = &parser{fmLine: 2, fmText: fm, f: &File{}}
	var doc yaml.Node
	if err := safeUnmarshal(fm, &doc); err != nil {
		pos, msg := ps.yamlErrorPos(err)
		sk.fm, sk.fmErr, sk.fmPos = frontmatterInvalid, "YAML syntax error: "+msg, pos
		return nil, nil
	}
	if len(doc.Content) == 0 || isNull(ResolveAlias(doc.Content[0])) {
		sk.fm, sk.fmErr = frontmatterInvalid, "the frontmatter holds no keys"
		return nil, nil
	}
	root = ResolveAlias(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		sk.fm, sk.fmErr, sk.fmPos = frontmatterInvalid, "the frontmatter is "+YAMLKind(root)+", not a mapping of keys", ps.nodePos(doc.Content[0])
		return nil, nil
	}
	return root, ps
}

// readKey reads one frontmatter key as the runtime binds it: key is its
// name, keyNode and valueNode the nodes as written (for positions), v the
// value with aliases resolved. A value of the wrong type marks the
// frontmatter invalid (the first such key is the one reported).
func (sk *Skill) readKey(key string, keyNode, valueNode, v *yaml.Node, ps *parser) {
	pos := ps.nodePos(valueNode)
	switch key {
	case "name", "description", "license", "compatibility", "allowed-tools", "argument-hint":
		s, err := scalarString(v)
		if err != "" {
			sk.badKey(key, err, pos)
			return
		}
		switch key {
		case "name":
			sk.frontName, sk.namePos = s, pos
		case "description":
			sk.hasDesc, sk.descPos = strings.TrimSpace(s) != "", ps.nodePos(keyNode)
			sk.Description = strings.TrimSpace(s)
		case "argument-hint":
			sk.ArgumentHint = s
		}
	case "disable-model-invocation", "invocable":
		b, err := scalarBool(v)
		if err != "" {
			sk.badKey(key, err, pos)
		} else if key == "disable-model-invocation" {
			sk.DisableModelInvocation = b
		}
	case "metadata":
		if isNull(v) {
			return
		}
		if v.Kind != yaml.MappingNode {
			sk.badKey(key, "must be a mapping, not "+YAMLKind(v), pos)
			return
		}
		sk.readMetadata(v, ps)
	}
}

// badKey marks the frontmatter invalid for key's value at pos, saying
// why, unless an earlier key already did.
func (sk *Skill) badKey(key, why string, pos Pos) {
	if sk.fm == frontmatterOK {
		sk.fm, sk.fmErr, sk.fmPos = frontmatterInvalid, fmt.Sprintf("'%s' %s", key, why), pos
	}
}

// readMetadata reads metadata.subagent as the runtime's scanner does: the
// key's presence makes the skill routed; a value that is not a string (a
// list, a map, null) or is blank or not a valid name is an error the
// runtime reports when the skill is activated.
func (sk *Skill) readMetadata(m *yaml.Node, ps *parser) {
	for j := 0; j+1 < len(m.Content); j += 2 {
		mk, mv := ResolveAlias(m.Content[j]), ResolveAlias(m.Content[j+1])
		if mk == nil || mk.Kind != yaml.ScalarNode || mk.Value != "subagent" {
			continue
		}
		sk.RoutingKey = true
		sk.SubagentPos = ps.nodePos(m.Content[j+1])
		if mv == nil || mv.Line == 0 {
			sk.SubagentPos = ps.nodePos(m.Content[j])
		}
		sk.Subagent, sk.SubagentError = "", ""
		switch typ := yamlDotNetType(mv); {
		case typ != "String":
			sk.SubagentError = fmt.Sprintf("expected string value but found %s.", typ)
		case strings.TrimSpace(mv.Value) == "":
			sk.SubagentError = "value must not be empty."
		default:
			sk.Subagent = strings.TrimSpace(mv.Value)
			if !ValidRouteTarget(sk.Subagent) {
				sk.SubagentError = fmt.Sprintf("'%s' is not a valid subagent name (expected lowercase kebab-case).", sk.Subagent)
			}
		}
	}
}

// yamlDotNetType is the .NET type name YamlDotNet gives a value bound to
// object: every untagged scalar is a String (numbers and booleans too),
// a null one (empty, ~ or null) is "null", a list is a List`1 and a map a
// Dictionary`2; an explicit !!int, !!bool or !!float tag makes an Int32,
// Boolean or Double.
func yamlDotNetType(n *yaml.Node) string {
	switch {
	case n == nil:
		return "null"
	case n.Kind == yaml.SequenceNode:
		return "List`1"
	case n.Kind == yaml.MappingNode:
		return "Dictionary`2"
	}
	explicit := n.Style&yaml.TaggedStyle != 0
	switch {
	case explicit && n.Tag == "!!int":
		return "Int32"
	case explicit && n.Tag == "!!bool":
		return "Boolean"
	case explicit && n.Tag == "!!float":
		return "Double"
	case explicit && n.Tag == "!!null", !explicit && n.Style == 0 && (n.Value == "" || n.Value == "~" || n.Value == "null" || n.Value == "Null" || n.Value == "NULL"):
		return "null"
	}
	return "String"
}

// normalizeSkillName is the runtime's skill name: trimmed, lower-cased.
func normalizeSkillName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
