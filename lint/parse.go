package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Parse reads one agent definition file's bytes exactly as the NetClaw
// loader does and returns what the runtime makes of it, with a diagnostic for
// every problem at its line and column. It checks the file on its own: the
// duplicate-name and feed rules need the whole folder (see Scanner).
//
// Parse never fails: a file the runtime would skip comes back with Status
// Rejected and Reason set to the runtime's own log line.
func Parse(path string, data []byte, p Profile) *File {
	sum := sha256.Sum256(data)
	f := &File{Path: path, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	ps := parser{f: f, profile: p}
	ps.parse(data)
	SortDiagnostics(f.Diagnostics)
	return f
}

// parser carries the state of one Parse.
type parser struct {
	f       *File
	profile Profile
	// fmLine is the file line of the frontmatter's first line.
	fmLine int
	// fmText is the frontmatter text given to the YAML parser.
	fmText string
}

// add records a diagnostic for rule at pos with the rule's severity under
// the parser's profile. Rules that are off under the profile add nothing.
func (ps *parser) add(rule string, pos Pos, msg, hint string) {
	ps.addSeverity(rule, -1, pos, msg, hint)
}

// addSeverity records a diagnostic with an explicit severity (sev < 0 means
// the rule's own severity).
func (ps *parser) addSeverity(rule string, sev Severity, pos Pos, msg, hint string) {
	r, _ := RuleByID(rule)
	if sev < 0 {
		sev = r.Severity(ps.profile)
	}
	if sev == Off {
		return
	}
	ps.f.Diagnostics = append(ps.f.Diagnostics, Diagnostic{
		Path: ps.f.Path, Pos: pos, Rule: rule, Severity: sev, Message: msg, Hint: hint,
	})
}

// reject marks the file skipped by the runtime. The first reason wins, as the
// runtime stops at its first complaint.
func (ps *parser) reject(reason string) {
	if ps.f.Status == Rejected {
		return
	}
	ps.f.Status = Rejected
	ps.f.Reason = reason
}

// runtimeReason formats a runtime log line for a file with a known name.
func (ps *parser) agentReason(name, what string) string {
	return fmt.Sprintf("Agent '%s' at %s %s — skipping", name, ps.f.Path, what)
}

func (ps *parser) parse(data []byte) {
	text := ps.decode(data)
	ps.f.Text = text
	unparseable := fmt.Sprintf("Agent definition at %s has missing or unparseable YAML frontmatter — skipping", ps.f.Path)
	fm, closeAt, body, ok := ps.checkFrontmatter(text)
	if !ok {
		ps.reject(unparseable)
		return
	}
	ps.fmLine, ps.fmText = 2, fm
	bodyLine := posAt(text, closeAt+1).Line + 1
	if body != "" {
		bodyLine = posAt(text, len(text)-len(body)).Line
	}
	def, ok := ps.bind()
	if !ok {
		ps.f.DeclaredName = declaredName(ps.fmText)
		ps.reject(unparseable)
		return
	}
	def.Body, def.BodyLine = body, bodyLine
	ps.f.Def = def
	ps.check(def)
}

// declaredName reads the name a frontmatter the runtime cannot bind
// declares: the value of its last top-level `name:` line, with one layer
// of quotes and a trailing comment removed. It returns "" when there is no
// such line or its value is not a plain one-line string.
func declaredName(fm string) string {
	name := ""
	for line := range strings.Lines(fm) {
		line = strings.TrimRight(line, "\r\n")
		if line == "---" {
			break
		}
		v, ok := strings.CutPrefix(line, "name:")
		if !ok {
			continue
		}
		name = plainScalar(v)
	}
	return name
}

// plainScalar is a one-line YAML scalar's text as written: a quoted value
// without its quotes, a plain one without a trailing comment; "" for
// anything else (a flow collection, a block scalar, an anchor, an alias,
// an unclosed quote).
func plainScalar(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	switch q := v[0]; q {
	case '"', '\'':
		end := strings.IndexByte(v[1:], q)
		if end < 0 {
			return ""
		}
		return strings.TrimSpace(v[1 : 1+end])
	case '[', '{', '|', '>', '&', '*', '!', '#', '@', '`', '%':
		return ""
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}
