package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
)

// ruleEntry is one rule as lint --list-rules prints it.
type ruleEntry struct {
	ID string `json:"id"`
	// Kind is "definition" for the rules of agents, skills and config,
	// "suite" for the rules of suite files.
	Kind string `json:"kind"`
	// Runtime and Publish are the severities under each profile: error,
	// warning, info or off.
	Runtime string `json:"runtime"`
	Publish string `json:"publish"`
	// Rejects is true when the runtime skips a file that breaks the rule.
	Rejects bool   `json:"rejects"`
	Summary string `json:"summary"`
}

// allRules is every lint rule: the definition rules, then the suite
// rules, each in registry order.
func allRules() []ruleEntry {
	var out []ruleEntry
	add := func(kind string, rules []lint.Rule) {
		for _, r := range rules {
			out = append(out, ruleEntry{ID: r.ID, Kind: kind, Runtime: r.Runtime.String(), Publish: r.Publish.String(), Rejects: r.Rejects, Summary: r.Summary})
		}
	}
	add("definition", lint.Rules)
	add("suite", suitefile.Rules)
	return out
}

// writeRules prints every rule: a table for text, a document for json.
func writeRules(w io.Writer, format lintFormat) error {
	rules := allRules()
	switch format {
	case formatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Rules []ruleEntry `json:"rules"`
		}{rules})
	case formatText:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKIND\tRUNTIME\tPUBLISH\tSUMMARY")
		for _, r := range rules {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Kind, r.Runtime, r.Publish, r.Summary)
		}
		return tw.Flush()
	}
	return usageErrorf("--list-rules prints text or json, not %s", format.String())
}

// rulesTopic is the text of `agentdesk help rules`.
func rulesTopic() string {
	var b strings.Builder
	b.WriteString(`Every finding of agentdesk lint names a rule by its id.
A rule's severity depends on the profile: runtime (the default) or publish.
"off" means the rule does not apply under that profile.
Errors fail lint (exit 1); warnings fail it with --strict; infos never do.

  agentdesk lint --list-rules                 this table
  agentdesk lint --list-rules --format json   the same, as JSON

`)
	_ = writeRules(&b, formatText)
	b.WriteString("\nEach rule has an example and its fix in docs/rules.md.\n")
	return b.String()
}
