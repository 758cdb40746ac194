package route

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/preview/request"
)

// Render returns the request as sent, for a person to read: each system
// message, the tools, and the user messages, under headings. A question
// with agentdesk's default (no session context, spawn_agent alone) reads
// as preview.Frontline.Render, its preamble heading naming the preamble.
func (p *Prepared) Render() string {
	f := p.Frontline
	if p.Question.Context == nil && len(p.Question.Tools) == 0 {
		// preview's rendering, its preamble heading naming the preamble
		// used (the default, or --system-file), as the JSON does.
		return strings.Replace(f.Render(), "# system (preamble)\n", "# system (preamble: "+preambleSourceOf(p.Question)+")\n", 1)
	}
	var b strings.Builder
	sys := p.Systems()
	fmt.Fprintf(&b, "# system (preamble: %s)\n%s\n\n", preambleSourceOf(p.Question), sys[0])
	if len(sys) > 1 {
		names := layerNames(p.Question.Context, false)
		fmt.Fprintf(&b, "# system (context layers: %s; audience %s)\n%s\n\n", strings.Join(names, ", "), f.Audience, sys[1])
	}
	for _, t := range p.tools() {
		fmt.Fprintf(&b, "# tool %s\n%s\nparameters: %s\n\n", t.Name, t.Description, t.Parameters)
	}
	if n := p.Nudge(); n != "" {
		names := layerNames(p.Question.Context, true)
		fmt.Fprintf(&b, "# user (per-turn context: %s; audience %s)\n%s\n\n", strings.Join(names, ", "), f.Audience, n)
	}
	fmt.Fprintf(&b, "# user\n%s\n", f.Request)
	if c := p.Question.Context; c != nil && len(c.NotReproduced) > 0 {
		fmt.Fprintf(&b, "\n# not reproduced (NetClaw sends these; agentdesk cannot)\n- %s\n", strings.Join(c.NotReproduced, "\n- "))
	}
	return b.String()
}

// layerNames are the names of the session context's layers sent once
// per turn (perTurn) or once in the system messages (!perTurn), in order.
func layerNames(c *request.SessionContext, perTurn bool) []string {
	var names []string
	for _, l := range c.Layers {
		if l.PerTurn == perTurn {
			names = append(names, l.Name)
		}
	}
	return names
}

// preambleSourceOf says which preamble a question uses.
func preambleSourceOf(q Question) string {
	if q.PreambleSource != "" {
		return q.PreambleSource
	}
	return "agentdesk's neutral default"
}

// RequestJSON is the request as sent, for --show-request --format json.
type RequestJSON struct {
	Audience       string        `json:"audience"`
	PreambleSource string        `json:"preamble_source"`
	Systems        []string      `json:"systems"`
	Layers         []LayerJSON   `json:"layers"`
	Tools          []ToolJSON    `json:"tools"`
	Messages       []MessageJSON `json:"messages"`
	NotReproduced  []string      `json:"not_reproduced"`
}

// LayerJSON is one context layer: which message carries it.
type LayerJSON struct {
	Name    string `json:"name"`
	PerTurn bool   `json:"per_turn"`
	Text    string `json:"text"`
}

// ToolJSON is one tool offered.
type ToolJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// MessageJSON is one message after the system messages.
type MessageJSON struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// JSON returns the request as sent.
func (p *Prepared) JSON() RequestJSON {
	r := RequestJSON{
		Audience: p.Frontline.Audience.String(), PreambleSource: preambleSourceOf(p.Question),
		Systems: p.Systems(), Layers: []LayerJSON{}, Tools: []ToolJSON{}, Messages: []MessageJSON{}, NotReproduced: []string{},
	}
	if c := p.Question.Context; c != nil {
		for _, l := range c.Layers {
			r.Layers = append(r.Layers, LayerJSON{Name: l.Name, PerTurn: l.PerTurn, Text: l.Text})
		}
		r.NotReproduced = append(r.NotReproduced, c.NotReproduced...)
	} else {
		r.Layers = append(r.Layers, LayerJSON{Name: "available-subagents", PerTurn: true, Text: p.Frontline.Layer})
	}
	for _, t := range p.tools() {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{}`)
		}
		r.Tools = append(r.Tools, ToolJSON{Name: t.Name, Description: t.Description, Parameters: params})
	}
	if n := p.Nudge(); n != "" {
		r.Messages = append(r.Messages, MessageJSON{Role: "user", Text: n})
	}
	r.Messages = append(r.Messages, MessageJSON{Role: "user", Text: p.Frontline.Request})
	return r
}

// ContextSummary says which context layers the question sends, for a
// report's Context: line ("" when it sends only the layer): the static
// ones, then those of the per-turn block.
func (p *Prepared) ContextSummary() string {
	c := p.Question.Context
	if c == nil {
		return ""
	}
	var static, turn []string
	for _, l := range c.Layers {
		if l.PerTurn {
			turn = append(turn, l.Name)
		} else {
			static = append(static, l.Name)
		}
	}
	s := strings.Join(static, ", ")
	if len(turn) > 0 {
		s += "; per turn: " + strings.Join(turn, ", ")
	}
	return s
}

// ContextLayers names the context layers the question sends, in order;
// nil when it sends only the layer.
func (p *Prepared) ContextLayers() []string {
	c := p.Question.Context
	if c == nil {
		return nil
	}
	names := make([]string, len(c.Layers))
	for i, l := range c.Layers {
		names[i] = l.Name
	}
	return names
}
