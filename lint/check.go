package lint

// check applies the per-file rules to a bound definition, in the order the
// runtime checks them (its first complaint is the file's Reason). Each
// rule's check is in the file named after its id (rule_<id>.go).
func (ps *parser) check(d *Definition) {
	ps.checkNameMissing(d)
	label := d.Name
	if label == "" {
		label = "(unnamed)"
	}
	ps.checkDescriptionMissing(d, label)
	ps.checkBodyEmpty(d, label)
	ps.checkNameFormat(d)
	if d.Set("modelRole") {
		ps.checkModelRole(d, label, d.valueAt("modelRole"))
	}
	if d.Set("visibility") {
		ps.checkVisibility(d, label, d.valueAt("visibility"))
	}
	ps.checkTimeoutObsolete(d)
	ps.checkTimeoutRange(d)
	ps.checkPrefillTimeoutRange(d, label)
	ps.checkDescriptionLong(d)
	ps.checkBodySize(d)
	ps.checkVersion(d)
}
