package lint

// This file holds the check of the rule model-role (RuleModelRole):
// modelRole is not Main or Compaction.

import (
	"fmt"
	"strings"
)

// checkModelRole sets d.ModelRole to the role the runtime uses, rejecting
// what .NET's Enum.TryParse refuses and warning (enum-loose) about what it
// only accepts by leniency.
func (ps *parser) checkModelRole(d *Definition, label string, pos Pos) {
	raw := d.ModelRole
	plain := strings.TrimSpace(raw)
	switch {
	case plain == "":
		d.ModelRole = DefaultModelRole
		return
	case strings.EqualFold(plain, "Main"), strings.EqualFold(plain, "Compaction"):
		d.ModelRole = modelRoleEnum[modelRoleEnum.member(plain)]
		return
	}
	v, form, ok := modelRoleEnum.parse(raw)
	if !ok {
		ps.add(RuleModelRole, pos, fmt.Sprintf("invalid modelRole '%s' (expected Main or Compaction): the runtime skips the file", raw),
			"write 'modelRole: Main' or 'modelRole: Compaction'")
		ps.reject(ps.agentReason(label, fmt.Sprintf("has invalid modelRole '%s' (expected Main or Compaction)", raw)))
		return
	}
	d.ModelRole = modelRoleEnum.format(v)
	if form == enumName && v == 1 {
		ps.addSeverity(RuleModelRole, Warning, pos, "modelRole 'Fallback' is accepted by the runtime but not documented: it may stop working",
			"use Main or Compaction")
		return
	}
	hint := fmt.Sprintf("write 'modelRole: %s'", d.ModelRole)
	if !modelRoleEnum.defined(v) || v == 1 {
		hint = "write 'modelRole: Main' or 'modelRole: Compaction'"
	}
	msg := looseEnumMessage("modelRole", raw, form, d.ModelRole, modelRoleEnum.defined(v),
		"Main = 0, Fallback = 1, Compaction = 2", "a role")
	if !modelRoleEnum.defined(v) {
		// Every chat-client provider and router maps a role other than
		// Fallback and Compaction to Main (`_ => main`).
		msg += "; a spawn asks for the model of that role, and the runtime gives it the Main model"
	}
	ps.add(RuleEnumLoose, pos, msg, hint)
}
