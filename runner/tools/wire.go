package tools

import (
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// Wire translates the trial tools' neutral specs for the wire.
func Wire(specs []Spec) []wire.Tool {
	out := make([]wire.Tool, len(specs))
	for i, s := range specs {
		out[i] = wire.Tool{Name: s.Name, Description: s.Description, Parameters: s.Parameters}
	}
	return out
}

// WireNamed returns the trial tools with these names, in this order, as
// NetClaw's catalogue describes them; a name it does not know (an MCP
// tool, a cassette from another version) gets a bare spec.
func WireNamed(names []string) []wire.Tool {
	out := make([]wire.Tool, 0, len(names))
	for _, n := range names {
		if t, ok := request.NetClaw().Tool(n); ok {
			s := SpecOf(t)
			out = append(out, wire.Tool{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
			continue
		}
		out = append(out, wire.Tool{Name: n})
	}
	return out
}
