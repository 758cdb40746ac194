package lint

// This file holds the check of the rule visibility (RuleVisibility):
// visibility is not user-facing or internal.

import (
	"fmt"
	"strings"
)

// checkVisibility sets d.Visibility to what the runtime uses: it removes
// every '-' and then parses as checkModelRole does.
func (ps *parser) checkVisibility(d *Definition, label string, pos Pos) {
	raw := d.Visibility
	plain := strings.TrimSpace(raw)
	switch {
	case plain == "":
		d.Visibility = DefaultVisibility
		return
	case strings.EqualFold(plain, "user-facing"), strings.EqualFold(plain, "UserFacing"):
		d.Visibility = DefaultVisibility
		return
	case strings.EqualFold(plain, "internal"):
		d.Visibility = "internal"
		return
	}
	v, form, ok := visibilityEnum.parse(strings.ReplaceAll(raw, "-", ""))
	if !ok {
		ps.add(RuleVisibility, pos, fmt.Sprintf("invalid visibility '%s' (expected user-facing or internal): the runtime skips the file", raw),
			"write 'visibility: user-facing' or 'visibility: internal'")
		ps.reject(ps.agentReason(label, fmt.Sprintf("has invalid visibility '%s' (expected user-facing or internal)", raw)))
		return
	}
	switch v {
	case 0:
		d.Visibility = DefaultVisibility
	case 1:
		d.Visibility = "internal"
	default:
		d.Visibility = visibilityEnum.format(v)
	}
	hint := fmt.Sprintf("write 'visibility: %s'", d.Visibility)
	if !visibilityEnum.defined(v) {
		hint = "write 'visibility: user-facing' or 'visibility: internal'"
	}
	msg := looseEnumMessage("visibility", raw, form, d.Visibility, visibilityEnum.defined(v),
		"UserFacing = 0, Internal = 1", "a visibility")
	if !visibilityEnum.defined(v) {
		msg += "; only user-facing agents are offered to the frontline model, so this one is hidden like an internal one"
	}
	if strings.Contains(raw, "-") && form == enumName && !strings.EqualFold(plain, "user-facing") {
		msg = fmt.Sprintf("visibility '%s' loads only because the runtime removes every '-' before parsing it: it reads %s", raw, d.Visibility)
	}
	ps.add(RuleEnumLoose, pos, msg, hint)
}
