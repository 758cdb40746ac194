package adapt

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// toolTable is what one target's agent files accept as tool names, read
// from one version of that tool (each table's file names the version). The
// next update of a target is an edit of its table alone.
type toolTable struct {
	// version is the tool's version the names were taken from.
	version string
	// to maps a NetClaw tool name to the target's.
	to map[string]string
	// known are the target's own tool names: kept as they are on export.
	known []string
	// aliases maps an old name the target still accepts to its current
	// name, which export writes and import reads back.
	aliases map[string]string
	// pattern, when set, accepts the names the target takes by form
	// rather than by name (MCP tools, permission rules).
	pattern func(name string) bool
	// noneLeft says what an agent gets when none of the tools it lists is
	// left.
	noneLeft string
}

// current returns the name the target gives t today: its alias resolved.
func (m toolTable) current(t string) string {
	if c, ok := m.aliases[t]; ok {
		return c
	}
	return t
}

// accepts reports whether the target takes t as a tool name as it is.
func (m toolTable) accepts(t string) bool {
	return slices.Contains(m.known, t) || m.aliases[t] != "" || m.pattern != nil && m.pattern(t)
}

// export translates NetClaw tool names into the target's. Names the target
// does not accept are dropped and named in a warning: a target that reads
// its tools list as an allow-list refuses the file, or leaves the agent
// without the tool, for a name it does not have.
func (m toolTable) export(tools []string, target string) (out []string, warnings []string) {
	var dropped []string
	for _, t := range tools {
		switch {
		case m.to[t] != "":
			out = appendOnce(out, m.to[t])
		case m.accepts(t):
			if c := m.current(t); c != t {
				warnings = append(warnings, fmt.Sprintf("tool '%s' is called '%s' in %s now: exported as '%s'", t, c, target, c))
			}
			out = appendOnce(out, m.current(t))
		default:
			dropped = append(dropped, t)
		}
	}
	if len(dropped) > 0 {
		w := fmt.Sprintf("tools %s: %s has no such tools: left out", quoteNames(dropped), target)
		if len(dropped) == 1 {
			w = fmt.Sprintf("tool %s: %s has no such tool: left out", quoteNames(dropped), target)
		}
		if len(out) == 0 && m.noneLeft != "" {
			w += "; " + m.noneLeft
		}
		warnings = append(warnings, w)
	}
	return out, warnings
}

// back translates the target's tool names into NetClaw's; names with no
// NetClaw equivalent are kept as they are (an alias as its current name):
// NetClaw's tools are advisory, so an unknown name costs nothing and is not
// lost.
func (m toolTable) back(tools []string) []string {
	var out []string
	for _, t := range tools {
		out = appendOnce(out, m.netClawName(m.current(t)))
	}
	return out
}

// imported translates the tools list of an imported file (back) and warns
// about the names the target itself does not have: they are kept, since
// NetClaw's list is advisory, but an export to the target leaves them out.
func (m toolTable) imported(x *importCtx, tools []string) []string {
	var unknown []string
	for _, t := range tools {
		if !m.accepts(t) && m.netClawName(t) == t {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) > 0 {
		what := "tools %s: %s %s has no such tools; kept, since NetClaw's tools list is advisory, but an export to %s leaves them out"
		if len(unknown) == 1 {
			what = "tool %s: %s %s has no such tool; kept, since NetClaw's tools list is advisory, but an export to %s leaves it out"
		}
		x.warn(what, quoteNames(unknown), x.target.Title, m.version, x.target.ID)
	}
	return m.back(tools)
}

// netClawName is the NetClaw name of one target tool name, or the name
// itself when NetClaw has no equivalent.
func (m toolTable) netClawName(t string) string {
	for _, nc := range slices.Sorted(maps.Keys(m.to)) {
		if m.to[nc] == t {
			return nc
		}
	}
	return t
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// quoteNames joins names as 'a', 'b' and 'c'.
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
