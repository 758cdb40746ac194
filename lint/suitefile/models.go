package suitefile

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// ModelChoice is one model a suite's cases run on side by side (agentdesk
// test --models, or a suite's models:): a model role, or an entry of
// Models.Definitions.
type ModelChoice struct {
	// Name is how reports and the recordings' folders name it: the role
	// ("Main") or the definition's name as the configuration spells it.
	Name string
	// Role is set when the choice is a role; Definition when it is a
	// Models.Definitions entry.
	Role, Definition string
}

// Roles are the model roles a model choice may name.
var Roles = []string{"Main", "Compaction", "Fallback"}

// ModelError is a model name that is neither a role nor a definition.
type ModelError struct {
	Name string
	// Message says what is wrong; Hint what to do (did you mean, or the
	// names there are).
	Message, Hint string
}

// Error returns the message and the hint.
func (e *ModelError) Error() string {
	if e.Hint == "" {
		return e.Message
	}
	return e.Message + "; " + e.Hint
}

// LookupModel finds the model a name means: a role (in any case) or a
// Models.Definitions entry of cfg (in any case; a role wins over a
// definition of the same name). An unknown name is a *ModelError with a
// did-you-mean. cfg may be nil (roles only).
func LookupModel(cfg *lint.Config, name string) (ModelChoice, error) {
	name = strings.TrimSpace(name)
	for _, r := range Roles {
		if strings.EqualFold(r, name) {
			return ModelChoice{Name: r, Role: r}, nil
		}
	}
	var defs []string
	if cfg != nil {
		for k := range cfg.Models.Definitions {
			defs = append(defs, k)
		}
	}
	sort.Strings(defs)
	for _, d := range defs {
		if strings.EqualFold(d, name) {
			return ModelChoice{Name: d, Definition: d}, nil
		}
	}
	e := &ModelError{Name: name, Message: fmt.Sprintf("model %q is neither a role (Main, Compaction, Fallback) nor a model definition (Models.Definitions of netclaw.json)", name)}
	if m := lint.Suggest(name, append(slices.Clone(Roles), defs...), 1); len(m) > 0 {
		e.Hint = fmt.Sprintf("did you mean '%s'?", m[0])
	} else if len(defs) > 0 {
		e.Hint = "the definitions are " + strings.Join(defs, ", ")
	} else {
		e.Hint = "netclaw.json defines no Models.Definitions: name a role"
	}
	return ModelChoice{}, e
}

// LookupModels finds every model of names (each may hold several,
// comma-separated); the same model twice is an error.
func LookupModels(cfg *lint.Config, names []string) ([]ModelChoice, error) {
	var out []ModelChoice
	seen := map[string]bool{}
	for _, n := range splitModels(names) {
		m, err := LookupModel(cfg, n)
		if err != nil {
			return nil, err
		}
		if seen[m.Name] {
			return nil, &ModelError{Name: n, Message: fmt.Sprintf("model %s is named twice", m.Name), Hint: "name each model once"}
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	return out, nil
}

// splitModels splits comma-separated names and drops empty ones.
func splitModels(names []string) []string {
	var out []string
	for _, n := range names {
		for _, p := range strings.Split(n, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}
