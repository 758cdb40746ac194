package lint

// This file binds the frontmatter as the runtime does: the check of the
// rule yaml (RuleYAML): YAML syntax error, or a known key with the wrong type.

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The keys the runtime binds, exactly as it spells them (camelCase; binding
// is case-sensitive), and the extra keys SkillServer knows.
var (
	runtimeKeys = []string{"name", "description", "tools", "modelRole", "timeoutSeconds",
		"prefillTimeoutSeconds", "visibility", "emitStructuredFindings"}
	publishKeys = []string{"version", "metadata"}
	// frontmatterKeys are all of them: what an unknown key may have meant.
	frontmatterKeys = append(runtimeKeys[:len(runtimeKeys):len(runtimeKeys)], publishKeys...)
)

// maxAliasDepth bounds alias chains so an alias loop or bomb cannot hang us.
const maxAliasDepth = 16

// bind parses the frontmatter as YAML and binds the known keys the way the
// runtime's camelCase deserializer does. ok is false when the runtime could
// not bind the frontmatter at all (syntax error or a type mismatch).
func (ps *parser) bind() (def *Definition, ok bool) {
	var doc yaml.Node
	if err := safeUnmarshal(ps.fmText, &doc); err != nil {
		pos, msg := ps.yamlErrorPos(err)
		ps.add(RuleYAML, pos, "YAML syntax error in the frontmatter: "+msg, "fix the YAML; quote values that contain ': ' or start with a special character")
		return nil, false
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		ps.add(RuleFrontmatter, Pos{1, 1}, "the frontmatter holds no keys", "add at least 'name' and 'description' between the '---' lines")
		return nil, false
	}
	root := ResolveAlias(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		ps.add(RuleYAML, ps.nodePos(doc.Content[0]), "the frontmatter is "+YAMLKind(root)+", not a mapping of keys", "write one 'key: value' per line")
		return nil, false
	}

	def = &Definition{ModelRole: DefaultModelRole, Visibility: DefaultVisibility, TimeoutSeconds: DefaultTimeoutSeconds}
	ok = true
	seen := map[string]Pos{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := ResolveAlias(root.Content[i]), ResolveAlias(root.Content[i+1])
		if kn == nil || kn.Kind != yaml.ScalarNode {
			ps.add(RuleYAML, ps.nodePos(root.Content[i]), "a frontmatter key must be a plain string", "")
			ok = false
			continue
		}
		key := kn.Value
		field := Field{Key: key, KeyPos: ps.nodePos(root.Content[i]), ValuePos: ps.nodePos(root.Content[i+1])}
		def.Fields = append(def.Fields, field)
		ps.checkDuplicateKey(seen, field)
		if !ps.bindField(def, field, vn) {
			ok = false
		}
	}
	return def, ok
}

// bindField binds one key. It returns false on a type mismatch, which makes
// the runtime reject the whole file.
func (ps *parser) bindField(def *Definition, f Field, v *yaml.Node) bool {
	var err string
	switch f.Key {
	case "name":
		def.Name, err = scalarString(v)
		def.Name = strings.TrimSpace(def.Name)
	case "description":
		def.Description, err = scalarString(v)
		def.Description = strings.TrimSpace(def.Description)
	case "modelRole":
		def.ModelRole, err = scalarString(v)
		if def.ModelRole == "" && err == "" {
			def.ModelRole = DefaultModelRole
		}
	case "visibility":
		def.Visibility, err = scalarString(v)
		if def.Visibility == "" && err == "" {
			def.Visibility = DefaultVisibility
		}
	case "tools":
		def.Tools, err = stringList(v)
		if err != "" && v.Kind == yaml.ScalarNode {
			ps.add(RuleYAML, f.ValuePos, "'tools' must be a YAML list, not the string "+strconv.Quote(v.Value)+": the runtime cannot bind it and skips the whole file",
				"write a list: tools: ["+strings.Join(splitComma(v.Value), ", ")+"]")
			return false
		}
	case "timeoutSeconds":
		var n int
		var set bool
		n, set, err = scalarInt(v)
		if set {
			def.TimeoutSeconds = n
		}
	case "prefillTimeoutSeconds":
		def.PrefillTimeoutSeconds, _, err = scalarInt(v)
	case "emitStructuredFindings":
		def.EmitStructuredFindings, err = scalarBool(v)
	case "version":
		var s string
		s, _ = scalarString(v)
		def.Version = strings.TrimSpace(s)
		return true
	case "metadata":
		ps.bindMetadata(def, v)
		return true
	default:
		ps.unknownKey(f)
		return true
	}
	if err != "" {
		ps.add(RuleYAML, f.ValuePos, fmt.Sprintf("'%s' %s: the runtime cannot bind it and skips the whole file", f.Key, err), typeHint(f.Key))
		return false
	}
	return true
}

func typeHint(key string) string {
	switch key {
	case "timeoutSeconds", "prefillTimeoutSeconds":
		return "write a whole number of seconds, e.g. " + key + ": 120"
	case "emitStructuredFindings":
		return "write true or false"
	case "tools":
		return "write a list of tool names: tools: [file_read, web_fetch]"
	}
	return "write a plain string value"
}

// bindMetadata reads the scalar entries of a metadata map (SkillServer's
// metadata.version among them). The runtime ignores the key entirely.
func (ps *parser) bindMetadata(def *Definition, v *yaml.Node) {
	if v == nil || v.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := ResolveAlias(v.Content[i]), ResolveAlias(v.Content[i+1])
		if k == nil || val == nil || k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode {
			continue
		}
		if def.Metadata == nil {
			def.Metadata = map[string]string{}
		}
		def.Metadata[k.Value] = val.Value
		if k.Value == "version" {
			pos := ps.nodePos(v.Content[i+1])
			def.Fields = append(def.Fields, Field{Key: "metadata.version", KeyPos: ps.nodePos(v.Content[i]), ValuePos: pos})
		}
	}
}

// ResolveAlias follows YAML alias nodes to what they point at. It returns
// nil for a chain deeper than 16 aliases, which also stops alias loops, so
// every reader of agent frontmatter (the parser here, import in
// preview/adapt) bounds aliases the same way.
func ResolveAlias(n *yaml.Node) *yaml.Node {
	for depth := 0; n != nil && n.Kind == yaml.AliasNode; depth++ {
		if depth >= maxAliasDepth {
			return nil
		}
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// YAMLKind says what kind of value a YAML node is, for messages: "a
// list", "a mapping", "null", "a single value", or "an alias that resolves
// to nothing" for nil (what ResolveAlias returns for a broken chain).
func YAMLKind(n *yaml.Node) string {
	switch {
	case n == nil:
		return "an alias that resolves to nothing"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case isNull(n):
		return "null"
	}
	return "a single value"
}

// scalarString binds a string: any scalar; null binds to "".
func scalarString(n *yaml.Node) (string, string) {
	switch {
	case isNull(n):
		return "", ""
	case n.Kind == yaml.ScalarNode:
		return n.Value, ""
	}
	return "", "must be a string, not " + YAMLKind(n)
}

// stringList binds a list of strings: a sequence of scalars; null is empty.
func stringList(n *yaml.Node) ([]string, string) {
	if isNull(n) {
		return nil, ""
	}
	if n.Kind != yaml.SequenceNode {
		return nil, "must be a list, not " + YAMLKind(n)
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		item = ResolveAlias(item)
		if isNull(item) {
			continue
		}
		if item.Kind != yaml.ScalarNode {
			return nil, "must be a list of strings, but an item is " + YAMLKind(item)
		}
		out = append(out, item.Value)
	}
	return out, ""
}

// scalarInt binds a 32-bit integer the way the runtime does: decimal with an
// optional sign, or 0x/0o prefixed. set is false for null.
func scalarInt(n *yaml.Node) (v int, set bool, err string) {
	if isNull(n) {
		return 0, false, ""
	}
	if n.Kind != yaml.ScalarNode {
		return 0, false, "must be a whole number, not " + YAMLKind(n)
	}
	s := strings.TrimSpace(n.Value)
	i, perr := strconv.ParseInt(strings.TrimPrefix(s, "+"), 0, 32)
	if perr != nil || strings.Contains(s, "_") || strings.HasPrefix(strings.TrimLeft(s, "+-"), "0b") {
		return 0, false, fmt.Sprintf("must be a whole number, not %q", n.Value)
	}
	return int(i), true, ""
}

// scalarBool binds a boolean: true/false and YAML 1.1's y/yes/on, n/no/off,
// case-insensitive.
func scalarBool(n *yaml.Node) (bool, string) {
	if isNull(n) {
		return false, ""
	}
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(n.Value) {
		case "true", "y", "yes", "on":
			return true, ""
		case "false", "n", "no", "off":
			return false, ""
		}
		return false, fmt.Sprintf("must be true or false, not %q", n.Value)
	}
	return false, "must be true or false, not " + YAMLKind(n)
}

func splitComma(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// safeUnmarshal parses YAML into a node tree, turning a parser panic into an
// error: no input may crash lint.
func safeUnmarshal(text string, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the YAML parser failed on this frontmatter (%v)", r)
		}
	}()
	return yaml.Unmarshal([]byte(text), n)
}

// nodePos maps a node's frontmatter position to the file.
func (ps *parser) nodePos(n *yaml.Node) Pos {
	if n == nil || n.Line == 0 {
		return Pos{ps.fmLine, 1}
	}
	return Pos{ps.fmLine + n.Line - 1, n.Column}
}

// yamlErrorPos finds where a yaml.v3 error points, in file coordinates, and
// returns the message without its "yaml: line N:" prefix.
func (ps *parser) yamlErrorPos(err error) (Pos, string) {
	y := YAMLErrorPos(err, ps.fmText)
	line, msg := y.Line, y.Text(ps.fmLine-1)
	if line == 0 {
		line = 1
		// Errors from the reader carry no position: find the culprit.
		if strings.Contains(msg, "control characters") {
			if i := strings.IndexFunc(ps.fmText, isBadControl); i >= 0 {
				p := posAt(ps.fmText, i)
				return Pos{ps.fmLine + p.Line - 1, p.Column}, msg
			}
		}
	}
	fmLines := strings.Count(ps.fmText, "\n") + 1
	if line >= 1 && line <= fmLines && y.Column > 0 {
		return Pos{ps.fmLine + line - 1, y.Column}, msg
	}
	line = max(1, min(line, fmLines))
	text, _ := LineOf(ps.fmText, line)
	col := len([]rune(text)) - len([]rune(strings.TrimLeft(text, " \t"))) + 1
	return Pos{ps.fmLine + line - 1, col}, msg
}

func isBadControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}
