package adapt

import (
	"slices"
	"strconv"
	"strings"
)

// Agent is a NetClaw sub-agent definition as Import builds it, before it is
// written as agent-md.
type Agent struct {
	Name        string
	Description string
	// Tools is advisory in NetClaw: kept in the order read.
	Tools []string
	// ModelRole is "Main", "Compaction" or "Fallback"; "" leaves the key out
	// (the runtime's default, Compaction).
	ModelRole string
	// Visibility is "internal" or "" (user-facing, the default).
	Visibility             string
	EmitStructuredFindings bool
	// PrefillTimeoutSeconds is 0 when unset.
	PrefillTimeoutSeconds int
	// Version is written as metadata.version.
	Version string
	// Metadata holds the other metadata entries, written in key order.
	Metadata map[string]string
	// Body is the system prompt, written verbatim after the frontmatter.
	Body string
}

// Markdown returns the agent as NetClaw agent-md: YAML frontmatter with the
// keys the runtime binds, in a fixed order, a blank line, then the body as
// it is. Strings are quoted whenever a plain YAML scalar could read back
// differently.
func (a *Agent) Markdown() []byte {
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("name: " + yamlScalar(a.Name) + "\n")
	b.WriteString("description: " + yamlScalar(a.Description) + "\n")
	if len(a.Tools) > 0 {
		items := make([]string, len(a.Tools))
		for i, t := range a.Tools {
			items[i] = yamlFlowItem(t)
		}
		b.WriteString("tools: [" + strings.Join(items, ", ") + "]\n")
	}
	if a.ModelRole != "" {
		b.WriteString("modelRole: " + yamlScalar(a.ModelRole) + "\n")
	}
	if a.Visibility != "" {
		b.WriteString("visibility: " + yamlScalar(a.Visibility) + "\n")
	}
	if a.EmitStructuredFindings {
		b.WriteString("emitStructuredFindings: true\n")
	}
	if a.PrefillTimeoutSeconds != 0 {
		b.WriteString("prefillTimeoutSeconds: " + strconv.Itoa(a.PrefillTimeoutSeconds) + "\n")
	}
	if a.Version != "" || len(a.Metadata) > 0 {
		a.writeMetadata(&b)
	}
	b.WriteString("---\n\n")
	b.WriteString(a.Body)
	return []byte(b.String())
}

// writeMetadata writes the frontmatter's metadata block: the version
// first, then the other entries in key order.
func (a *Agent) writeMetadata(b *strings.Builder) {
	b.WriteString("metadata:\n")
	if a.Version != "" {
		b.WriteString("  version: " + yamlScalar(a.Version) + "\n")
	}
	keys := make([]string, 0, len(a.Metadata))
	for k := range a.Metadata {
		if k != "version" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString("  " + yamlScalar(k) + ": " + yamlScalar(a.Metadata[k]) + "\n")
	}
}

// setMetadata records one metadata entry.
func (a *Agent) setMetadata(key, value string) {
	if a.Metadata == nil {
		a.Metadata = map[string]string{}
	}
	a.Metadata[key] = value
}

// applyCarried restores the fields an export kept in the netclaw comment
// but the name, which finishName restores.
func (a *Agent) applyCarried(c *carried) {
	if c == nil {
		return
	}
	if c.Description != "" {
		a.Description = c.Description
	}
	if c.Tools != nil {
		a.Tools = c.Tools
	}
	if c.ModelRole != "" {
		a.ModelRole = c.ModelRole
	}
	if c.Visibility != "" {
		a.Visibility = c.Visibility
	}
	if c.EmitStructuredFindings {
		a.EmitStructuredFindings = true
	}
	if c.PrefillTimeoutSeconds != 0 {
		a.PrefillTimeoutSeconds = c.PrefillTimeoutSeconds
	}
	if c.Version != "" {
		a.Version = c.Version
	}
	for k, v := range c.Metadata {
		a.setMetadata(k, v)
	}
}
