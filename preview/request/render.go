package request

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
)

// WireTool is a tool as the request carries it: name, description and the
// JSON schema of its arguments.
type WireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Wire returns the tool as the request carries it.
func (t Tool) Wire() WireTool {
	return WireTool{Name: t.Name, Description: t.Description, Parameters: t.schema}
}

// Wire returns the core tools as the first request carries them; deferred
// tools join the request once load_tool activates them.
func (o Offered) Wire() []WireTool {
	core := o.Core()
	out := make([]WireTool, len(core))
	for i, t := range core {
		out[i] = t.Wire()
	}
	return out
}

// Offering returns "core" or "deferred".
func (t Tool) Offering() string {
	if t.Deferred {
		return "deferred"
	}
	return "core"
}

type jsonTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Grant       string          `json:"grant"`
	Offering    string          `json:"offering"`
	Kind        Kind            `json:"kind"`
	ReadOnly    bool            `json:"readOnly"`
	Server      string          `json:"server,omitempty"`
	Canonical   string          `json:"canonical,omitempty"`
	Requires    Requirement     `json:"requires,omitempty"`
	Source      string          `json:"source"`
	Parameters  json.RawMessage `json:"parameters"`
}

type jsonOffered struct {
	Audience string     `json:"audience"`
	Agent    string     `json:"agent,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	Tools    []jsonTool `json:"tools"`
	Withheld []Withheld `json:"withheld"`
	Index    string     `json:"index"`
}

// MarshalJSON renders a Withheld as {"name","reason"}.
func (w Withheld) MarshalJSON() ([]byte, error) {
	b := append([]byte(`{"name":`), appendString(nil, w.Name)...)
	b = append(b, `,"reason":`...)
	b = append(b, appendString(nil, w.Reason)...)
	return append(b, '}'), nil
}

// JSON renders the offered set for `agentdesk tools --format json`: the
// audience, the agent (when one is named), why nothing is offered (if so),
// every offered tool with its grant, offering, kind and schema, the
// withheld tools with the reason, and the compressed index. No HTML
// escaping; a final newline.
func (o Offered) JSON(agent string) ([]byte, error) {
	j := jsonOffered{Audience: o.Audience.String(), Agent: agent, Reason: o.Reason, Tools: []jsonTool{}, Withheld: o.Withheld, Index: o.Index()}
	if j.Withheld == nil {
		j.Withheld = []Withheld{}
	}
	for _, t := range o.Tools {
		j.Tools = append(j.Tools, jsonTool{
			Name: t.Name, Description: t.Description, Grant: t.Grant, Offering: t.Offering(),
			Kind: t.Kind, ReadOnly: t.ReadOnly, Server: t.Server, Canonical: t.Canonical,
			Requires: t.Requires, Source: t.Source, Parameters: t.schema,
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(j); err != nil {
		return nil, fmt.Errorf("encoding the tools of audience %s: %w", o.Audience, err)
	}
	return buf.Bytes(), nil
}

// Text renders the offered set for a person: a heading, one line a tool
// (name, grant, core or deferred, kind), then the withheld tools and why.
// The text holds names and reasons as they are; a caller printing it to a
// terminal escapes it first.
func (o Offered) Text(agent string) string {
	var b strings.Builder
	who := "a sub-agent"
	if agent != "" {
		who = "sub-agent " + agent
	}
	fmt.Fprintf(&b, "Tools %s gets when spawned from a %s session\n", who, o.Audience)
	if o.Reason != "" {
		fmt.Fprintf(&b, "\nnone: %s\n", o.Reason)
		return b.String()
	}
	b.WriteByte('\n')
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGRANT\tOFFERED\tKIND")
	for _, t := range o.Tools {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Name, t.Grant, t.Offering(), t.Kind)
	}
	_ = tw.Flush()
	if len(o.Withheld) > 0 {
		b.WriteString("\nwithheld:\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, w := range o.Withheld {
			fmt.Fprintf(tw, "  %s\t%s\n", w.Name, w.Reason)
		}
		_ = tw.Flush()
	}
	return b.String()
}
