package request

import "encoding/json"

// MetaSchema is one meta property as NetClaw's generator adds it to every
// tool's schema, and as McpSchemaSanitizer.InjectMetaProperties adds it to
// every MCP tool's.
type MetaSchema struct {
	// Name is the property's name.
	Name string
	// Schema is its JSON Schema, compact.
	Schema json.RawMessage
	// Required is set for _rationale, the one every call must carry.
	Required bool
}

// MetaSchemas returns the three meta properties in the generator's order:
// _rationale (required), _timeout_seconds, _background.
func MetaSchemas() []MetaSchema {
	prop := func(typ, desc string) json.RawMessage {
		b := append([]byte(`{"type":`), appendString(nil, typ)...)
		b = append(b, `,"description":`...)
		b = appendString(b, desc)
		return append(b, '}')
	}
	return []MetaSchema{
		{Name: MetaRationale, Schema: prop("string", rationaleDescription), Required: true},
		{Name: MetaTimeout, Schema: prop("integer", timeoutDescription)},
		{Name: MetaBackground, Schema: prop("boolean", backgroundDescription)},
	}
}
