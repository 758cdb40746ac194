package request

import (
	"fmt"

	"github.com/agentdesk/agentdesk/preview"
)

func init() {
	// Compose asks the catalogue (under the default policy) when its Input
	// names no Offer; callers that read netclaw.json pass
	// Input.Offer = OfferFor(audience, policy).
	offerFor = func(a preview.Audience) Offer { return SubAgentTools(a).Offer() }
}

// Offer converts the offered set for Compose: every offered tool, core
// ones flagged Core (deferred ones are listed so that search_tools and
// load_tool can answer for them), and the compressed index of them all.
func (o Offered) Offer() Offer {
	tools := make([]OfferedTool, len(o.Tools))
	for i, t := range o.Tools {
		tools[i] = OfferedTool{Name: t.Name, Description: t.Description, Parameters: t.schema, Core: !t.Deferred}
	}
	source := fmt.Sprintf("NetClaw's tool catalogue (%s)", o.Audience)
	if o.Reason != "" {
		source += ": " + o.Reason
	}
	return Offer{Tools: tools, Index: o.Index(), Source: source}
}

// OfferFor returns the offer of NetClaw's first-party catalogue, with
// extra (MCP) tools added, to a sub-agent of audience a under policy p.
func OfferFor(a preview.Audience, p Policy, extra ...Tool) (Offer, error) {
	c := NetClaw()
	if len(extra) > 0 {
		var err error
		if c, err = c.With(extra...); err != nil {
			return Offer{}, err
		}
	}
	return c.SubAgentTools(a, p).Offer(), nil
}
