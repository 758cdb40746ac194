package lint

// This file holds the check of the rule timeout-range (RuleTimeoutRange):
// timeoutSeconds outside 5-600 (older runtimes skip the file).

import "fmt"

// checkTimeoutRange warns about a timeoutSeconds outside 5–600, which older
// runtimes reject.
func (ps *parser) checkTimeoutRange(d *Definition) {
	if d.Set("timeoutSeconds") && (d.TimeoutSeconds < 5 || d.TimeoutSeconds > 600) {
		ps.add(RuleTimeoutRange, d.valueAt("timeoutSeconds"), fmt.Sprintf("invalid timeoutSeconds %d (expected 5–600): older runtimes skip the file", d.TimeoutSeconds),
			"delete the line, or use a value from 5 to 600")
	}
}
