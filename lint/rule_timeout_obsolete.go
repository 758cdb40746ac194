package lint

// This file holds the check of the rule timeout-obsolete
// (RuleTimeoutObsolete): timeoutSeconds is set: the current runtime ignores
// it.

// checkTimeoutObsolete warns that the current runtime ignores
// timeoutSeconds.
func (ps *parser) checkTimeoutObsolete(d *Definition) {
	if d.Set("timeoutSeconds") {
		ps.add(RuleTimeoutObsolete, d.keyAt("timeoutSeconds"), "timeoutSeconds is obsolete: the current runtime ignores it and uses Session.FirstTokenTimeoutSeconds from netclaw.json",
			"delete the line")
	}
}
