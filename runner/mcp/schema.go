package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// This file mirrors NetClaw's McpSchemaSanitizer: the schema shown to the
// model is sanitized for the grammars of local model servers (Ollama,
// llama.cpp), the meta properties are added to it, and a call's arguments
// are matched back to the server's own schema before they are sent.

// node is one JSON value with its object members in their written order,
// so a sanitized schema keeps the server's order, as the runtime's does.
type node struct {
	kind    byte // '{', '[', or 'v' for a scalar
	members []member
	items   []*node
	raw     json.RawMessage // a scalar as written
}

type member struct {
	name  string
	value *node
}

// maxSchemaDepth bounds the nesting a schema may have; deeper input is
// refused rather than walked.
const maxSchemaDepth = 200

// parseNode reads one JSON value keeping member order.
func parseNode(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return n, nil
}

func readNode(dec *json.Decoder, depth int) (*node, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("nested more than %d levels", maxSchemaDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return readObject(dec, depth)
		case '[':
			return readArray(dec, depth)
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		raw, err := marshal(t)
		return &node{kind: 'v', raw: raw}, err
	}
}

// readObject reads the members of an object at depth, whose '{' was
// read, and its closing '}'.
func readObject(dec *json.Decoder, depth int) (*node, error) {
	n := &node{kind: '{'}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := k.(string)
		v, err := readNode(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{name, v})
	}
	_, err := dec.Token()
	return n, err
}

// readArray reads the items of an array at depth, whose '[' was read,
// and its closing ']'.
func readArray(dec *json.Decoder, depth int) (*node, error) {
	n := &node{kind: '['}
	for dec.More() {
		v, err := readNode(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
	}
	_, err := dec.Token()
	return n, err
}

// marshal encodes v as JSON without escaping <, > and & (as the runtime's
// serializer writes schemas).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// write appends n as compact JSON.
func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := marshal(m.name)
			b.Write(k)
			b.WriteByte(':')
			m.value.write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, v := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
}

func (n *node) bytes() json.RawMessage {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

// get returns the member called name, or nil.
func (n *node) get(name string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for _, m := range n.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// set replaces or appends the member called name.
func (n *node) set(name string, v *node) {
	for i, m := range n.members {
		if m.name == name {
			n.members[i].value = v
			return
		}
	}
	n.members = append(n.members, member{name, v})
}

// str returns a scalar string's value.
func (n *node) str() (string, bool) {
	if n == nil || n.kind != 'v' {
		return "", false
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil {
		return "", false
	}
	return s, true
}

func scalar(v any) *node {
	raw, _ := marshal(v)
	return &node{kind: 'v', raw: raw}
}

// strippedKeywords are dropped from every schema object the sanitizer
// visits: $schema (a meta reference, not a parameter) and the keywords
// llama.cpp's grammar converter crashes on or refuses.
var strippedKeywords = map[string]bool{
	"$schema": true, "pattern": true, "patternProperties": true, "propertyNames": true,
	"not": true, "if": true, "then": true, "else": true, "multipleOf": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}

// Sanitize returns the schema the model is shown for an MCP tool's input
// schema, as NetClaw's McpSchemaSanitizer.SanitizeSchema makes it: in
// every schema object it visits (the top, each of properties, items,
// anyOf, oneOf, allOf, recursively) it drops $schema and the keywords
// llama.cpp cannot take (pattern, patternProperties, propertyNames, not,
// if, then, else, multipleOf, contentEncoding, contentMediaType,
// contentSchema), turns a type list into its one non-null type (a list
// when several remain, "string" when none does) and an empty
// additionalProperties object into true. Everything else passes as
// written, in its order. A schema that is not JSON is an error.
func Sanitize(schema json.RawMessage) (json.RawMessage, error) {
	n, err := parseNode(schema)
	if err != nil {
		return nil, fmt.Errorf("the input schema is not JSON: %w", err)
	}
	return sanitizeNode(n).bytes(), nil
}

func sanitizeNode(n *node) *node {
	switch n.kind {
	case '{':
		return sanitizeObject(n)
	case '[':
		out := &node{kind: '['}
		for _, v := range n.items {
			out.items = append(out.items, sanitizeNode(v))
		}
		return out
	}
	return n
}

func sanitizeObject(n *node) *node {
	out := &node{kind: '{'}
	for _, m := range n.members {
		v := m.value
		switch {
		case strippedKeywords[m.name]:
			continue
		case m.name == "type" && v.kind == '[':
			v = simplifyTypes(v)
		case m.name == "additionalProperties" && v.kind == '{' && len(v.members) == 0:
			v = scalar(true)
		case m.name == "properties" && v.kind == '{':
			props := &node{kind: '{'}
			for _, p := range v.members {
				props.members = append(props.members, member{p.name, sanitizeNode(p.value)})
			}
			v = props
		case m.name == "items":
			v = sanitizeNode(v)
		case (m.name == "anyOf" || m.name == "oneOf" || m.name == "allOf") && v.kind == '[':
			v = sanitizeNode(v)
		}
		out.members = append(out.members, member{m.name, v})
	}
	return out
}

// simplifyTypes turns ["string", "null"] into "string".
func simplifyTypes(list *node) *node {
	var types []string
	for _, t := range list.items {
		if s, ok := t.str(); ok && s != "null" {
			types = append(types, s)
		}
	}
	switch len(types) {
	case 0:
		return scalar("string")
	case 1:
		return scalar(types[0])
	}
	return scalar(types)
}

// MetaProperty is one meta property NetClaw adds to every tool's schema.
type MetaProperty struct {
	// Name is the property's name (tools.MetaRationale ...).
	Name string
	// Schema is its JSON Schema.
	Schema json.RawMessage
	// Required is set for the one the model must always send.
	Required bool
}

// MetaProperties are the meta properties InjectMeta adds, in order: the
// ones NetClaw's generator gives every tool (preview/request's
// MetaSchemas, with the runtime's descriptions).
var MetaProperties = func() []MetaProperty {
	var out []MetaProperty
	for _, m := range request.MetaSchemas() {
		out = append(out, MetaProperty{Name: m.Name, Schema: m.Schema, Required: m.Required})
	}
	return out
}()

// InjectMeta adds the meta properties to a sanitized schema, as
// McpSchemaSanitizer.InjectMetaProperties does: each one (replacing a
// server property of the same name: the meta meaning wins) at the end of
// properties, and _rationale at the end of required. A schema that is not
// a JSON object is returned as an object holding only the meta properties.
func InjectMeta(schema json.RawMessage, meta []MetaProperty) json.RawMessage {
	n, err := parseNode(schema)
	if err != nil || n.kind != '{' {
		n = &node{kind: '{', members: []member{{"type", scalar("object")}}}
	}
	props := n.get("properties")
	if props == nil || props.kind != '{' {
		props = &node{kind: '{'}
		n.set("properties", props)
	}
	req := n.get("required")
	if req != nil && req.kind != '[' {
		req = nil
	}
	for _, m := range meta {
		s, err := parseNode(m.Schema)
		if err != nil {
			continue
		}
		props.set(m.Name, s)
		if !m.Required {
			continue
		}
		if req == nil {
			req = &node{kind: '['}
			n.set("required", req)
		}
		if !holdsString(req.items, m.Name) {
			req.items = append(req.items, scalar(m.Name))
		}
	}
	return n.bytes()
}

// holdsString reports whether items holds the string s.
func holdsString(items []*node, s string) bool {
	for _, r := range items {
		if v, ok := r.str(); ok && v == s {
			return true
		}
	}
	return false
}

// PrepareArgs turns a call's arguments as the model sent them into what
// the server gets, as McpToolAdapter does: the meta properties stripped
// (tools.SplitMeta, names ignoring case), argument names matched to the
// shown schema's properties ignoring case (Url → url), and strings coerced
// where the server's own schema wants a number, an integer or a boolean
// ("10" → 10). Arguments that are not a JSON object are an error.
func PrepareArgs(args json.RawMessage, shown, raw json.RawMessage) (map[string]any, tools.Meta, error) {
	return newArgShape(shown, raw).prepare(args)
}

// argShape is what PrepareArgs needs of a tool's two schemas, read once:
// the shown schema's property names by their lowercase form, and the
// server's own schema.
type argShape struct {
	canon map[string]string
	raw   *node
}

func newArgShape(shown, raw json.RawMessage) argShape {
	a := argShape{}
	if names := propertyNames(shown); len(names) > 0 {
		a.canon = make(map[string]string, len(names))
		for _, n := range names {
			a.canon[strings.ToLower(n)] = n
		}
	}
	if n, err := parseNode(raw); err == nil {
		a.raw = n
	}
	return a
}

func (a argShape) prepare(args json.RawMessage) (map[string]any, tools.Meta, error) {
	meta, stripped, err := tools.SplitMeta(args)
	if err != nil {
		return nil, meta, err
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(stripped))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return nil, meta, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	if obj == nil {
		obj = map[string]any{}
	}
	if len(a.canon) > 0 {
		norm := make(map[string]any, len(obj))
		for k, v := range obj {
			if c, ok := a.canon[strings.ToLower(k)]; ok {
				norm[c] = v
			} else {
				norm[k] = v
			}
		}
		obj = norm
	}
	props := a.raw.get("properties")
	for k, v := range obj {
		obj[k] = coerce(v, props.get(k))
	}
	return obj, meta, nil
}

// propertyNames lists a schema's top-level property names.
func propertyNames(schema json.RawMessage) []string {
	n, err := parseNode(schema)
	if err != nil {
		return nil
	}
	var out []string
	if p := n.get("properties"); p != nil && p.kind == '{' {
		for _, m := range p.members {
			out = append(out, m.name)
		}
	}
	return out
}

// coerce converts v to the type schema s wants, when v is a string that
// reads as one: a number or integer, or a boolean. Objects and arrays are
// walked along properties and items. Anything else is left as it is.
func coerce(v any, s *node) any {
	if s == nil || s.kind != '{' {
		return v
	}
	switch x := v.(type) {
	case string:
		for _, t := range schemaTypes(s) {
			if c, ok := coerceString(x, t); ok {
				return c
			}
		}
	case map[string]any:
		props := s.get("properties")
		for k, e := range x {
			x[k] = coerce(e, props.get(k))
		}
	case []any:
		items := s.get("items")
		for i, e := range x {
			x[i] = coerce(e, items)
		}
	}
	return v
}

// coerceString converts the string x to the JSON type t ("integer",
// "number" or "boolean") when it reads as one.
func coerceString(x, t string) (any, bool) {
	switch t {
	case "integer":
		if i, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
			return i, true
		}
	case "number":
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
		}
	case "boolean":
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return nil, false
}

// schemaTypes returns a schema's type, or its list of types.
func schemaTypes(s *node) []string {
	t := s.get("type")
	if t == nil {
		return nil
	}
	if v, ok := t.str(); ok {
		return []string{v}
	}
	var out []string
	for _, e := range t.items {
		if v, ok := e.str(); ok {
			out = append(out, v)
		}
	}
	return out
}
