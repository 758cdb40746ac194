package lint

// This file holds the check of the rule prefill-timeout-range
// (RulePrefillTimeoutRange): prefillTimeoutSeconds outside 5-3600.

import "fmt"

// checkPrefillTimeoutRange rejects a prefillTimeoutSeconds outside 5–3600.
func (ps *parser) checkPrefillTimeoutRange(d *Definition, label string) {
	if !d.Set("prefillTimeoutSeconds") || d.PrefillTimeoutSeconds >= 5 && d.PrefillTimeoutSeconds <= 3600 {
		return
	}
	ps.add(RulePrefillTimeoutRange, d.valueAt("prefillTimeoutSeconds"), fmt.Sprintf("invalid prefillTimeoutSeconds %d (expected 5–3600): the runtime skips the file", d.PrefillTimeoutSeconds),
		"use a value from 5 to 3600, or delete the line to use SubAgents.PrefillTimeoutSeconds")
	ps.reject(ps.agentReason(label, fmt.Sprintf("has invalid prefillTimeoutSeconds %d (expected 5–3600)", d.PrefillTimeoutSeconds)))
}
